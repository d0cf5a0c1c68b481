// Tests for the gnuplot writer: the script and data of figures with every series kind compared
// with golden text (written by hand from the format gnuplot_writer.h documents: 8 significant
// digits, −0 as 0, NaN for non-finite values, one `index` block per series), ellipse outlines
// against their closed form, the errors, the path without gnuplot (a program that does not exist),
// and, when gnuplot is installed, the rendered PNG read back.
#include "models/plot/gnuplot_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numbers>
#include <set>
#include <sstream>

#include "graph/error.h"
#include "models/plot/png_image.h"

namespace dagml::plot {
namespace {

using ::testing::HasSubstr;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A fresh folder below the temporary directory, removed with its files at the end of the test.
struct TempFolder {
  std::filesystem::path path;
  explicit TempFolder(const std::string& name) : path(std::filesystem::temp_directory_path() / name) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempFolder() { std::filesystem::remove_all(path); }
};

Figure every_kind_but_heat_maps() {
  Figure f{.title = "Every kind",
           .x = {.label = "time", .range = Range{0, 4}},
           .y = {.label = "value's size", .log_scale = true, .ticks = {{1, "one"}, {10, "ten"}}, .rotate_ticks = true},
           .legend = Legend::TopLeft};
  f.series.push_back(line_series("line", Vector{{0.0, 1.0, 2.0}}, Vector{{1.0, 1.0 / 3, 1e-5}}));
  f.series.push_back(point_series("points", Vector{{0.5, 1.5}}, Vector{{2.0, -0.0}}, 12));
  f.series.push_back(step_series("", Vector{{0.0, 4.0}}, Vector{{3.0, std::nan("")}}));
  f.series.push_back(bar_series("bars", Vector{{1.0, 2.0}}, Vector{{5.0, 123456789.0}}));
  f.series.push_back(band_series("band", Vector{{0.0, 1.0}}, Vector{{-1.0, -0.5}}, Vector{{1.0, 1.5}}));
  return f;
}

TEST(GnuplotWriter, GoldenScriptAndDataOfEveryCurveKind) {
  const GnuplotText text =
      gnuplot_text(every_kind_but_heat_maps(), "every", {.width = 320, .height = 200, .svg = false});
  // Colours: automatic series take the palette in turn (0, 1, …) and skip colour 2, which the
  // points name (12 mod 10); the quote in the label is doubled.
  EXPECT_EQ(
      text.script,
      "# dagml figure: `gnuplot every.gp`, run in this folder, draws every.png from every.dat\n"
      "set encoding utf8\n"
      "set title 'Every kind'\n"
      "set xlabel 'time'\n"
      "set xrange [0:4]\n"
      "set ylabel 'value''s size'\n"
      "set logscale y\n"
      "set ytics ('one' 1, 'ten' 10) rotate by 45 right\n"
      "set key top left\n"
      "set grid\n"
      "set terminal pngcairo size 320,200 noenhanced font 'sans,10'\n"
      "set output 'every.png'\n"
      "plot 'every.dat' index 0 using 1:2 with lines lw 2 lc rgb '#1f77b4' title 'line', \\\n"
      "     'every.dat' index 1 using 1:2 with points pt 7 ps 0.6 lc rgb '#2ca02c' title 'points', \\\n"
      "     'every.dat' index 2 using 1:2 with steps lw 2 lc rgb '#ff7f0e' notitle, \\\n"
      "     'every.dat' index 3 using 1:2:(0.8) with boxes fs solid 0.75 noborder lc rgb '#d62728' title 'bars', \\\n"
      "     'every.dat' index 4 using 1:2:3 with filledcurves fs transparent solid 0.25 noborder lc rgb '#9467bd' "
      "title 'band'\n"
      "unset output\n");
  EXPECT_EQ(text.data,
            "# 0: line 'line'\n0 1\n1 0.33333333\n2 1e-05\n\n\n"
            "# 1: points 'points'\n0.5 2\n1.5 0\n\n\n"
            "# 2: steps ''\n0 3\n4 NaN\n\n\n"
            "# 3: bars 'bars'\n1 5\n2 1.2345679e+08\n\n\n"
            "# 4: band 'band'\n0 -1 1\n1 -0.5 1.5\n");
}

TEST(GnuplotWriter, GoldenHeatMapOfClassesWithAnnotations) {
  Figure f{.title = "Regions", .equal_axes = true, .heat_map_classes = 2};
  f.series.push_back(Series{.kind = SeriesKind::HeatMap,
                            .data = Tensor{{0.0, 0.0, 0.0}, {1.0, 0.0, 1.0}, {0.0, 1.0, 1.0}, {1.0, 1.0, 1.0}},
                            .annotate = true});
  f.series.push_back(point_series("class 1", Vector{{0.9}}, Vector{{0.2}}, 1));
  const GnuplotText text = gnuplot_text(f, "regions", {.png = false});
  // The class colours are the palette's mixed with white: #1f77b4 → 31 + 0.6·224 = 165 = a5, …
  EXPECT_EQ(text.script,
            "# dagml figure: `gnuplot regions.gp`, run in this folder, draws regions.svg from regions.dat\n"
            "set encoding utf8\n"
            "set title 'Regions'\n"
            "set key top right\n"
            "set grid\n"
            "set size ratio -1\n"
            "set palette maxcolors 2\n"
            "set palette defined (0 '#a5c9e1', 1 '#ffcc9f')\n"
            "set cbrange [-0.5:1.5]\n"
            "unset colorbox\n"
            "set terminal svg size 800,600 noenhanced font 'sans,10' background '#ffffff'\n"
            "set output 'regions.svg'\n"
            "plot 'regions.dat' index 0 using 1:2:3 with image notitle, \\\n"
            "     'regions.dat' index 0 using 1:2:(sprintf('%g', $3)) with labels notitle, \\\n"
            "     'regions.dat' index 1 using 1:2 with points pt 7 ps 0.6 lc rgb '#ff7f0e' title 'class 1'\n"
            "unset output\n");
  // A blank line between the heat map's scan lines (rows of one y).
  EXPECT_EQ(text.data, "# 0: heat map ''\n0 0 0\n1 0 1\n\n0 1 1\n1 1 1\n\n\n# 1: points 'class 1'\n0.9 0.2\n");
}

TEST(GnuplotWriter, BothPicturesAndTheSequentialPalette) {
  Figure f;
  f.series.push_back(Series{.kind = SeriesKind::HeatMap, .data = Tensor{{0.0, 0.0, 2.0}}});
  const std::string script = gnuplot_text(f, "m").script;
  EXPECT_THAT(script, HasSubstr("set palette defined (0 '#ffffff', 1 '#3a7dbf')\n"));
  EXPECT_THAT(script, HasSubstr("set output 'm.png'\nplot 'm.dat' index 0 using 1:2:3 with image notitle\n"
                                "set terminal svg size 800,600 noenhanced font 'sans,10' background '#ffffff'\n"
                                "set output 'm.svg'\nreplot\nunset output\n"));
}

TEST(GnuplotWriter, EllipseOutlinesFollowTheirClosedForm) {
  // Centre (1, 2), semi-axes 2 and 1, axis 1 along +y (φ = π/2): p(θ) = c + 2 cos θ (0, 1) + sin θ (−1, 0).
  Figure f;
  f.series.push_back(
      Series{.kind = SeriesKind::Ellipse, .data = Tensor{{1.0, 2.0, 2.0, 1.0, std::numbers::pi / 2}, {0, 0, 1, 1, 0}}});
  std::istringstream data(gnuplot_text(f, "e").data);
  std::string line;
  std::getline(data, line);
  EXPECT_EQ(line, "# 0: ellipse ''");
  std::vector<std::pair<double, double>> first;
  while (std::getline(data, line) && !line.empty()) {
    double x = 0, y = 0;
    std::istringstream(line) >> x >> y;
    first.emplace_back(x, y);
  }
  ASSERT_EQ(first.size(), 73u);  // 72 segments, closed
  for (std::size_t t = 0; t < first.size(); ++t) {
    const double theta = 2 * std::numbers::pi * static_cast<double>(t) / 72;
    EXPECT_NEAR(first[t].first, 1 - std::sin(theta), 1e-7);
    EXPECT_NEAR(first[t].second, 2 + 2 * std::cos(theta), 1e-7);
  }
  std::getline(data, line);
  EXPECT_EQ(line, "1 0");  // the unit circle starts at (1, 0)
}

TEST(GnuplotWriter, BadFiguresAreValueErrors) {
  Figure empty;
  EXPECT_THROW(gnuplot_text(empty, "x"), ValueError);
  Figure wrong;
  wrong.series.push_back(Series{.kind = SeriesKind::Band, .data = Tensor::Zero(3, 2)});
  try {
    gnuplot_text(wrong, "x");
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_THAT(e.what(), HasSubstr("needs rows of 3 columns, found 3×2"));
  }
  Figure two_maps;
  two_maps.series.assign(2, Series{.kind = SeriesKind::HeatMap, .data = Tensor::Zero(1, 3)});
  EXPECT_THROW(gnuplot_text(two_maps, "x"), ValueError);
  Figure fine;
  fine.series.push_back(line_series("a", Vector{{0.0}}, Vector{{1.0}}));
  EXPECT_THROW(gnuplot_text(fine, "x", {.width = 8}), ValueError);
  EXPECT_THROW(gnuplot_text(fine, "x", {.png = false, .svg = false}), ValueError);
  EXPECT_THROW(line_series("a", Vector{{0.0, 1.0}}, Vector{{1.0}}), ShapeError);
}

TEST(GnuplotWriter, WithoutGnuplotTheScriptIsWrittenAndTheMessageSaysHowToRender) {
  const TempFolder folder("dagml_plot_no_gnuplot");
  const Figure f = every_kind_but_heat_maps();
  const std::string stem = (folder.path / "curves").string();
  const PlotFiles files = write_plot(f, stem + ".png", {.gnuplot = "/nonexistent-dir/gnuplot"});
  EXPECT_FALSE(files.rendered);
  EXPECT_TRUE(files.pictures.empty());
  EXPECT_EQ(files.script, stem + ".gp");
  EXPECT_EQ(files.data, stem + ".dat");
  const GnuplotText text = gnuplot_text(f, "curves");
  EXPECT_EQ(read_text(files.script), text.script);
  EXPECT_EQ(read_text(files.data), text.data);
  EXPECT_THAT(files.message, HasSubstr("gnuplot ('/nonexistent-dir/gnuplot') was not found"));
  EXPECT_THAT(files.message, HasSubstr("run `cd " + folder.path.string() + " && gnuplot curves.gp`"));
  EXPECT_FALSE(std::filesystem::exists(stem + ".png"));

  const PlotFiles skipped = write_plot(f, stem, {.gnuplot = ""});
  EXPECT_FALSE(skipped.rendered);
  EXPECT_THAT(skipped.message, HasSubstr("to draw the picture run `cd "));
  EXPECT_FALSE(gnuplot_available("/nonexistent-dir/gnuplot"));
  EXPECT_THROW(write_plot(f, "/nonexistent-dir/curves", {.gnuplot = ""}), IoError);
}

TEST(GnuplotWriter, RendersPngAndSvgWithGnuplot) {
  if (!gnuplot_available()) GTEST_SKIP() << "gnuplot is not on PATH (Debian: gnuplot-nox); the rendering is not tested";
  const TempFolder folder("dagml_plot_render");
  const PlotFiles files =
      write_plot(every_kind_but_heat_maps(), (folder.path / "curves").string(), {.width = 320, .height = 200});
  ASSERT_TRUE(files.rendered) << files.message;
  ASSERT_EQ(files.pictures.size(), 2u);
  const Image8 png = read_png(files.pictures[0]);
  EXPECT_EQ(png.width, 320);
  EXPECT_EQ(png.height, 200);
  EXPECT_EQ(png.channels, 3);
  EXPECT_GT(std::set<std::uint8_t>(png.pixels.begin(), png.pixels.end()).size(), 2u);  // not one colour
  EXPECT_THAT(read_text(files.pictures[1]), HasSubstr("<svg"));
  EXPECT_THAT(files.message, HasSubstr("curves.png and " + (folder.path / "curves.svg").string()));
}

TEST(GnuplotWriter, AFailingGnuplotIsAnIoErrorWithItsOutput) {
  if (!gnuplot_available()) GTEST_SKIP() << "gnuplot is not on PATH (Debian: gnuplot-nox)";
  const TempFolder folder("dagml_plot_failing");
  Figure f;
  // A logarithmic axis over a range ≤ 0 makes gnuplot stop with an error.
  f.y.log_scale = true;
  f.y.range = Range{-2, -1};
  f.series.push_back(line_series("a", Vector{{0.0, 1.0}}, Vector{{-1.0, -2.0}}));
  try {
    write_plot(f, (folder.path / "bad").string());
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr("bad.gp"));
  }
}

}  // namespace
}  // namespace dagml::plot
