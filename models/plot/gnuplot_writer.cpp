#include "models/plot/gnuplot_writer.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <optional>

#include "graph/error.h"

namespace dagml::plot {
namespace {

namespace fs = std::filesystem;

// Every number of a data file: 8 significant digits, −0 as 0, non-finite as NaN.
std::string number(Scalar v) {
  if (!std::isfinite(v)) return "NaN";
  return fmt::format("{:.8g}", v == 0 ? Scalar(0) : v);
}

// A gnuplot single-quoted string: no escapes inside but '' for a quote; line breaks become spaces.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "''";
    else
      out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out + "'";
}

Index expected_columns(SeriesKind kind) {
  switch (kind) {
    case SeriesKind::Band:
    case SeriesKind::HeatMap:
      return 3;
    case SeriesKind::Ellipse:
      return 5;
    default:
      return 2;
  }
}

const char* kind_name(SeriesKind kind) {
  constexpr const char* names[] = {"line", "points", "steps", "band", "bars", "heat map", "ellipse"};
  return names[static_cast<int>(kind)];
}

void check_figure(const Figure& figure, const RenderOptions& options) {
  if (figure.series.empty()) throw ValueError("gnuplot_text: expected at least one series, found none");
  if (options.width < 16 || options.height < 16)
    throw ValueError(fmt::format("gnuplot_text: expected a size of at least 16×16 pixels, found {}×{}", options.width,
                                 options.height));
  if (!options.png && !options.svg) throw ValueError("gnuplot_text: expected png or svg output, both are off");
  Index heat_maps = 0;
  for (std::size_t k = 0; k < figure.series.size(); ++k) {
    const Series& s = figure.series[k];
    heat_maps += s.kind == SeriesKind::HeatMap;
    if (s.data.rows() < 1 || s.data.cols() != expected_columns(s.kind))
      throw ValueError(fmt::format("gnuplot_text: series {} ('{}', {}) needs rows of {} columns, found {}×{}", k,
                                   s.label, kind_name(s.kind), expected_columns(s.kind), s.data.rows(), s.data.cols()));
  }
  if (heat_maps > 1) throw ValueError(fmt::format("gnuplot_text: expected at most one heat map, found {}", heat_maps));
}

// A palette colour mixed with white: c + (255 − c)·0.6 per channel, for class regions.
std::string light(const char* hex) {
  std::string out = "#";
  for (int i = 0; i < 3; ++i) {
    const int c = std::stoi(std::string(hex + 1 + 2 * i, 2), nullptr, 16);
    out += fmt::format("{:02x}", static_cast<int>(std::lround(c + (255 - c) * 0.6)));
  }
  return out;
}

// Ellipse rows (centre, semi-axes a and b, angle φ) as closed outlines of 73 points
// p(θ) = c + a cos θ u + b sin θ v, u = (cos φ, sin φ), v = (−sin φ, cos φ), one block per ellipse.
void write_ellipse_outlines(std::string& out, const Tensor& rows) {
  constexpr int kSegments = 72;
  for (Index r = 0; r < rows.rows(); ++r) {
    if (r > 0) out += "\n";
    const Scalar cx = rows(r, 0), cy = rows(r, 1), a = rows(r, 2), b = rows(r, 3), phi = rows(r, 4);
    for (int t = 0; t <= kSegments; ++t) {
      const Scalar theta = 2 * std::numbers::pi * t / kSegments;
      const Scalar u = a * std::cos(theta), v = b * std::sin(theta);
      out += fmt::format("{} {}\n", number(cx + u * std::cos(phi) - v * std::sin(phi)),
                         number(cy + u * std::sin(phi) + v * std::cos(phi)));
    }
  }
}

void write_block(std::string& out, const Series& s, std::size_t k) {
  out += fmt::format("# {}: {} {}\n", k, kind_name(s.kind), quoted(s.label));
  if (s.kind == SeriesKind::Ellipse) return write_ellipse_outlines(out, s.data);
  for (Index r = 0; r < s.data.rows(); ++r) {
    // A heat map's scan lines (rows of one y) are separated by a blank line.
    if (s.kind == SeriesKind::HeatMap && r > 0 && s.data(r, 1) != s.data(r - 1, 1)) out += "\n";
    for (Index c = 0; c < s.data.cols(); ++c) {
      if (c > 0) out += ' ';
      out += number(s.data(r, c));
    }
    out += '\n';
  }
}

std::string axis_settings(const Axis& axis, const char* name) {
  std::string out;
  if (!axis.label.empty()) out += fmt::format("set {}label {}\n", name, quoted(axis.label));
  if (axis.range) out += fmt::format("set {}range [{}:{}]\n", name, number(axis.range->low), number(axis.range->high));
  if (axis.log_scale) out += fmt::format("set logscale {}\n", name);
  if (!axis.ticks.empty()) {
    std::string ticks;
    for (const auto& [at, text] : axis.ticks)
      ticks += fmt::format("{}{} {}", ticks.empty() ? "" : ", ", quoted(text), number(at));
    out += fmt::format("set {}tics ({}){}\n", name, ticks, axis.rotate_ticks ? " rotate by 45 right" : "");
  }
  return out;
}

std::string legend_setting(Legend legend) {
  switch (legend) {
    case Legend::TopLeft:
      return "set key top left\n";
    case Legend::BottomRight:
      return "set key bottom right\n";
    case Legend::BottomLeft:
      return "set key bottom left\n";
    case Legend::OutsideRight:
      return "set key outside right top\n";
    case Legend::Hidden:
      return "unset key\n";
    default:
      return "set key top right\n";
  }
}

std::string palette_settings(const Figure& figure) {
  const Index K = figure.heat_map_classes;
  if (K < 1) return "set palette defined (0 '#ffffff', 1 '#3a7dbf')\n";
  // Values 0..K−1 in K equal bins of [−½, K − ½], bin k in colour k.
  std::string colors;
  for (Index k = 0; k < std::max<Index>(K, 2); ++k)
    colors += fmt::format("{}{} '{}'", k ? ", " : "", k, light(kPalette[k % kPaletteSize]));
  return fmt::format("set palette maxcolors {}\nset palette defined ({})\nset cbrange [-0.5:{}]\nunset colorbox\n",
                     std::max<Index>(K, 2), colors, number(static_cast<Scalar>(K) - 0.5));
}

// One element of the plot command per series (two for an annotated heat map).
std::string plot_elements(const Figure& figure, const std::string& data_file) {
  std::string out;
  // Series without a colour take the palette's colours in turn, skipping those given explicitly
  // (while any is left).
  std::vector<bool> taken(kPaletteSize, false);
  for (const Series& s : figure.series)
    if (s.color >= 0) taken[static_cast<std::size_t>(s.color % kPaletteSize)] = true;
  Index next_color = 0;
  auto automatic_color = [&] {
    for (Index tries = 0; tries < kPaletteSize && taken[static_cast<std::size_t>(next_color % kPaletteSize)]; ++tries)
      ++next_color;
    return next_color++;
  };
  for (std::size_t k = 0; k < figure.series.size(); ++k) {
    const Series& s = figure.series[k];
    const std::string source = fmt::format("{} index {}", quoted(data_file), k);
    const std::string title = s.label.empty() ? "notitle" : "title " + quoted(s.label);
    std::string color;
    if (s.kind != SeriesKind::HeatMap)
      color = fmt::format("lc rgb '{}'", kPalette[(s.color >= 0 ? s.color : automatic_color()) % kPaletteSize]);
    const std::string width = number(s.line_width);
    std::string element;
    switch (s.kind) {
      case SeriesKind::Line:
      case SeriesKind::Ellipse:
        element = fmt::format("{} using 1:2 with lines lw {} {} {}", source, width, color, title);
        break;
      case SeriesKind::Points:
        element = fmt::format("{} using 1:2 with points pt 7 ps 0.6 {} {}", source, color, title);
        break;
      case SeriesKind::Steps:
        element = fmt::format("{} using 1:2 with steps lw {} {} {}", source, width, color, title);
        break;
      case SeriesKind::Band:
        element = fmt::format("{} using 1:2:3 with filledcurves fs transparent solid 0.25 noborder {} {}", source,
                              color, title);
        break;
      case SeriesKind::Bars:
        element = fmt::format("{} using 1:2:(0.8) with boxes fs solid 0.75 noborder {} {}", source, color, title);
        break;
      case SeriesKind::HeatMap:
        element = fmt::format("{} using 1:2:3 with image {}", source, title);
        if (s.annotate)
          element += fmt::format(", \\\n     {} using 1:2:(sprintf('%g', $3)) with labels notitle", source);
        break;
    }
    out += fmt::format("{}{}", k ? ", \\\n     " : "plot ", element);
  }
  return out + "\n";
}

std::string terminal_setting(const char* extension, const RenderOptions& options) {
  if (std::string(extension) == "png")
    return fmt::format("set terminal pngcairo size {},{} noenhanced font 'sans,10'\n", options.width, options.height);
  return fmt::format("set terminal svg size {},{} noenhanced font 'sans,10' background '#ffffff'\n", options.width,
                     options.height);
}

std::vector<const char*> picture_extensions(const RenderOptions& options) {
  std::vector<const char*> extensions;
  if (options.png) extensions.push_back("png");
  if (options.svg) extensions.push_back("svg");
  return extensions;
}

}  // namespace

GnuplotText gnuplot_text(const Figure& figure, const std::string& stem, const RenderOptions& options) {
  check_figure(figure, options);
  const std::vector<const char*> extensions = picture_extensions(options);
  std::string pictures;
  for (std::size_t i = 0; i < extensions.size(); ++i)
    pictures += fmt::format("{}{}.{}", i ? " and " : "", stem, extensions[i]);
  GnuplotText text;
  std::string& s = text.script;
  s = fmt::format("# dagml figure: `gnuplot {}.gp`, run in this folder, draws {} from {}.dat\n", stem, pictures, stem);
  s += "set encoding utf8\n";
  if (!figure.title.empty()) s += fmt::format("set title {}\n", quoted(figure.title));
  s += axis_settings(figure.x, "x") + axis_settings(figure.y, "y");
  s += legend_setting(figure.legend);
  if (figure.grid) s += "set grid\n";
  if (figure.equal_axes) s += "set size ratio -1\n";
  for (const Series& series : figure.series)
    if (series.kind == SeriesKind::HeatMap) s += palette_settings(figure);
  const std::string plot = plot_elements(figure, stem + ".dat");
  for (std::size_t i = 0; i < extensions.size(); ++i) {
    s += terminal_setting(extensions[i], options);
    s += fmt::format("set output {}\n", quoted(fmt::format("{}.{}", stem, extensions[i])));
    s += i == 0 ? plot : "replot\n";
  }
  s += "unset output\n";
  for (std::size_t k = 0; k < figure.series.size(); ++k) {
    if (k > 0) text.data += "\n\n";
    write_block(text.data, figure.series[k], k);
  }
  return text;
}

namespace {

// The program's path: `program` itself when it holds a '/', else the first executable file of
// that name in a folder of PATH.
std::optional<fs::path> find_program(const std::string& program) {
  auto executable = [](const fs::path& p) {
    std::error_code error;
    return fs::is_regular_file(p, error) && ::access(p.c_str(), X_OK) == 0;
  };
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos)
    return executable(program) ? std::optional<fs::path>(fs::absolute(program)) : std::nullopt;
  const char* path = std::getenv("PATH");
  std::string folders = path ? path : "/usr/bin:/bin";
  for (std::size_t begin = 0; begin <= folders.size();) {
    std::size_t end = folders.find(':', begin);
    if (end == std::string::npos) end = folders.size();
    const fs::path candidate = fs::path(end > begin ? folders.substr(begin, end - begin) : ".") / program;
    if (executable(candidate)) return fs::absolute(candidate);
    begin = end + 1;
  }
  return std::nullopt;
}

// Runs `program script` in `folder` and returns its exit status (−1 when it did not exit
// normally) with what it wrote to stdout and stderr.
std::pair<int, std::string> run_in_folder(const fs::path& program, const std::string& script, const fs::path& folder) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) throw IoError(fmt::format("write_plot: cannot create a pipe to run {}", program.string()));
  const std::string program_path = program.string(), folder_path = folder.empty() ? "." : folder.string();
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    throw IoError(fmt::format("write_plot: cannot start {}", program_path));
  }
  if (child == 0) {  // only async-signal-safe calls from here to exec
    const int null_in = ::open("/dev/null", O_RDONLY);
    if (null_in >= 0) ::dup2(null_in, 0);
    ::dup2(pipe_fds[1], 1);
    ::dup2(pipe_fds[1], 2);
    ::close(pipe_fds[0]);
    if (::chdir(folder_path.c_str()) != 0) ::_exit(126);
    ::execl(program_path.c_str(), program_path.c_str(), script.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  std::string output;
  char buffer[4096];
  for (ssize_t got; (got = ::read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (got > 0)
      output.append(buffer, static_cast<std::size_t>(got));
    else if (errno != EINTR)
      break;
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw IoError(fmt::format("write_plot: cannot open '{}' for writing", path.string()));
  out << text;
  if (!out) throw IoError(fmt::format("write_plot: writing '{}' failed", path.string()));
}

// `cd FOLDER && gnuplot NAME.gp`, with shell quotes where a path needs them.
std::string render_command(const fs::path& folder, const std::string& script_name) {
  auto shell = [](const std::string& word) {
    if (word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-") ==
        std::string::npos)
      return word;
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
  };
  const std::string run = "gnuplot " + shell(script_name);
  return folder.empty() ? run : fmt::format("cd {} && {}", shell(folder.string()), run);
}

}  // namespace

bool gnuplot_available(const std::string& program) { return find_program(program).has_value(); }

PlotFiles write_plot(const Figure& figure, const std::string& path_stem, const RenderOptions& options) {
  fs::path stem_path(path_stem);
  const std::string extension = stem_path.extension().string();
  if (extension == ".png" || extension == ".svg" || extension == ".gp") stem_path.replace_extension();
  const std::string stem = stem_path.filename().string();
  if (stem.empty()) throw ValueError(fmt::format("write_plot: expected a file name, found '{}'", path_stem));
  const fs::path folder = stem_path.parent_path();
  const GnuplotText text = gnuplot_text(figure, stem, options);

  PlotFiles files;
  files.script = (folder / (stem + ".gp")).string();
  files.data = (folder / (stem + ".dat")).string();
  write_text(files.script, text.script);
  write_text(files.data, text.data);
  const std::string written = fmt::format("wrote {} and {}", files.script, files.data);
  const std::string command = render_command(folder, stem + ".gp");
  const std::optional<fs::path> program = find_program(options.gnuplot);
  if (!program) {
    files.message =
        options.gnuplot.empty()
            ? fmt::format("{}; to draw the picture run `{}`", written, command)
            : fmt::format(
                  "{}; no picture drawn: gnuplot ('{}') was not found; install it (Debian: gnuplot-nox) and run `{}`",
                  written, options.gnuplot, command);
    return files;
  }
  const auto [status, output] = run_in_folder(*program, stem + ".gp", folder);
  if (status != 0)
    throw IoError(fmt::format("write_plot: {} failed on '{}' (exit status {}): {}", program->string(), files.script,
                              status, output));
  for (const char* ext : picture_extensions(options)) {
    const fs::path picture = folder / fmt::format("{}.{}", stem, ext);
    if (!fs::exists(picture))
      throw IoError(fmt::format("write_plot: {} ran on '{}' but did not write '{}': {}", program->string(),
                                files.script, picture.string(), output));
    files.pictures.push_back(picture.string());
  }
  files.rendered = true;
  files.message = fmt::format("wrote {}, {}, {}", files.script, files.data, fmt::join(files.pictures, ", "));
  files.message.replace(files.message.rfind(", "), 2, " and ");
  return files;
}

}  // namespace dagml::plot
