#include "models/plot/figure.h"

#include <fmt/format.h>

#include <initializer_list>

#include "graph/error.h"

namespace dagml::plot {
namespace {

// The vectors side by side as the columns of a series; ShapeError naming `who` when their
// lengths differ.
Series series_of_columns(SeriesKind kind, std::string label, std::initializer_list<const Vector*> columns, Index color,
                         const char* who) {
  const Index n = (*columns.begin())->size();
  Series s{
      .kind = kind, .label = std::move(label), .data = Tensor(n, static_cast<Index>(columns.size())), .color = color};
  Index j = 0;
  for (const Vector* column : columns) {
    if (column->size() != n)
      throw ShapeError(
          fmt::format("{}: expected columns of equal length, found {} and {} values", who, n, column->size()));
    s.data.col(j++) = *column;
  }
  return s;
}

}  // namespace

Series line_series(std::string label, const Vector& x, const Vector& y, Index color) {
  return series_of_columns(SeriesKind::Line, std::move(label), {&x, &y}, color, "line_series");
}

Series point_series(std::string label, const Vector& x, const Vector& y, Index color) {
  return series_of_columns(SeriesKind::Points, std::move(label), {&x, &y}, color, "point_series");
}

Series step_series(std::string label, const Vector& x, const Vector& y, Index color) {
  return series_of_columns(SeriesKind::Steps, std::move(label), {&x, &y}, color, "step_series");
}

Series band_series(std::string label, const Vector& x, const Vector& low, const Vector& high, Index color) {
  return series_of_columns(SeriesKind::Band, std::move(label), {&x, &low, &high}, color, "band_series");
}

Series bar_series(std::string label, const Vector& x, const Vector& height, Index color) {
  return series_of_columns(SeriesKind::Bars, std::move(label), {&x, &height}, color, "bar_series");
}

Vector positions(Index n) { return Vector::LinSpaced(n, 0, static_cast<Scalar>(n - 1)); }

}  // namespace dagml::plot
