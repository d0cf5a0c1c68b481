// Writes a Figure as a gnuplot script and its data file, and renders them to PNG and SVG with
// gnuplot when it is installed (Debian: gnuplot-nox).
//
//   PlotFiles files = write_plot(figure, "out/roc");
//   // out/roc.gp and out/roc.dat always; out/roc.png and out/roc.svg when gnuplot ran.
//   fmt::print("{}\n", files.message);
//
// The script names its files without a folder ('roc.dat', 'roc.png'), so it is rendered by
// running gnuplot in the folder that holds it: `cd out && gnuplot roc.gp`. Numbers are written
// with 8 significant digits ({:.8g}) and non-finite values as NaN (which gnuplot leaves out), so the
// text is the same on every machine and tests compare it verbatim.
#pragma once

#include <string>
#include <vector>

#include "models/plot/figure.h"

namespace dagml::plot {

struct RenderOptions {
  Index width = 800;   // pixels of the PNG (the SVG has the same size in its units), ≥ 16
  Index height = 600;  // ≥ 16
  bool png = true;     // the script writes STEM.png
  bool svg = true;     // the script writes STEM.svg
  // The gnuplot program: a name looked up on PATH, or a path (with a '/'). Empty: do not render.
  std::string gnuplot = "gnuplot";
};

// The two texts of a figure: the script (which reads `data_file` and writes STEM.png/.svg) and
// the data, one block per series (gnuplot's `index k`, blocks separated by two blank lines).
struct GnuplotText {
  std::string script;
  std::string data;
};

// `stem`: the file name the script gives its data and pictures, without folder or extension.
// ValueError for a series whose data has the wrong number of columns or no rows, a figure
// without series or with two heat maps, or sizes below 16 pixels.
GnuplotText gnuplot_text(const Figure& figure, const std::string& stem, const RenderOptions& options = {});

struct PlotFiles {
  std::string script;                 // STEM.gp
  std::string data;                   // STEM.dat
  std::vector<std::string> pictures;  // STEM.png, STEM.svg as rendered; empty when not rendered
  bool rendered = false;
  // One line: the files written, or, when gnuplot was not found, which program was looked for
  // and the command that renders the script later.
  std::string message;
};

// Writes STEM.gp and STEM.dat (`path_stem` is a path without extension; a trailing .png, .svg or
// .gp is dropped) and runs gnuplot on them when `options.gnuplot` names a program that exists.
// Errors as gnuplot_text; IoError naming the path when a file cannot be written, and when gnuplot
// runs but fails (with its error output).
PlotFiles write_plot(const Figure& figure, const std::string& path_stem, const RenderOptions& options = {});

// True when `program` (a name on PATH or a path) is an executable file.
bool gnuplot_available(const std::string& program = "gnuplot");

}  // namespace dagml::plot
