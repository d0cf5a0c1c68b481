// A plot as plain data: a Figure holds a title, two axes, a legend and a list of Series (lines,
// points, steps, filled bands, bars, a heat map, ellipses), each with its numbers in a Tensor.
// gnuplot_writer.h turns a Figure into a gnuplot script plus its data file and renders them; the
// ready-made plot kinds of plots.h each build one Figure, which callers may still edit (titles,
// labels, ranges, an added series) before writing it.
//
//   Figure f{.title = "Loss", .x = {.label = "epoch"}, .y = {.label = "loss", .log_scale = true}};
//   f.series.push_back(line_series("train", x, train_loss));
//   write_plot(f, "loss");  // loss.gp, loss.dat, and loss.png, loss.svg when gnuplot is installed
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "graph/tensor.h"

namespace dagml::plot {

// What a series draws, and the columns of its data (one row per point):
enum class SeriesKind {
  Line,     // x y: a polyline through the rows in order
  Points,   // x y: one marker per row
  Steps,    // x y: a step function, y held from each x to the next
  Band,     // x low high: the area between two curves, filled translucently
  Bars,     // x height: a bar of width 0.8 centred at each x
  HeatMap,  // x y value on a regular grid, x varying fastest: one coloured cell per row
  Ellipse,  // centre_x centre_y semi_axis_1 semi_axis_2 angle: one outline per row, axis 1 at
            // `angle` radians from the x axis
};

// The colours series take in turn (Matplotlib's "tab10"); Series::color indexes it modulo 10.
inline constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
inline constexpr Index kPaletteSize = 10;

struct Series {
  SeriesKind kind = SeriesKind::Line;
  std::string label{};  // the legend entry; empty: none
  Tensor data{};        // rows of the columns `kind` lists
  Index color = -1;     // index into kPalette; -1: the next colour in turn that no series names
  Scalar line_width = 2;
  bool annotate = false;  // HeatMap: print each cell's value in it (confusion matrices)
};

// A closed interval of an axis; low > high reverses the axis (a heat map's rows top to bottom).
struct Range {
  Scalar low = 0;
  Scalar high = 1;
};

struct Axis {
  std::string label{};
  std::optional<Range> range{};  // none: fitted to the data
  bool log_scale = false;
  std::vector<std::pair<Scalar, std::string>> ticks{};  // named ticks at the given positions; none: numbers
  bool rotate_ticks = false;                            // tick labels at 45° (long names)
};

enum class Legend { TopRight, TopLeft, BottomRight, BottomLeft, OutsideRight, Hidden };

struct Figure {
  std::string title{};
  Axis x{};
  Axis y{};
  std::vector<Series> series{};
  Legend legend = Legend::TopRight;
  bool equal_axes = false;  // one unit as long on both axes (embeddings, ellipses)
  bool grid = true;         // dotted lines at the tics
  // How a HeatMap series is coloured: 0, a white-to-blue scale of its values with a colour box;
  // K ≥ 1, the integer values 0..K−1 as light versions of the palette colours 0..K−1 (class
  // regions, matching the points of classes drawn with colours 0..K−1).
  Index heat_map_classes = 0;
};

// Series of the common kinds from vectors of equal length (ShapeError otherwise).
Series line_series(std::string label, const Vector& x, const Vector& y, Index color = -1);
Series point_series(std::string label, const Vector& x, const Vector& y, Index color = -1);
Series step_series(std::string label, const Vector& x, const Vector& y, Index color = -1);
Series band_series(std::string label, const Vector& x, const Vector& low, const Vector& high, Index color = -1);
Series bar_series(std::string label, const Vector& x, const Vector& height, Index color = -1);

// 0, 1, …, n−1: the x of a series given by its values alone (iterations, episodes, positions).
Vector positions(Index n);

}  // namespace dagml::plot
