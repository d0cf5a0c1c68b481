#include "models/io/loaded_checks.h"

#include <fmt/format.h>

#include <cmath>

#include "models/io/archive.h"

namespace dagml {

void expect_shape(const ModelInputArchive& ar, const char* type, const char* what, const Tensor& m, Index rows,
                  Index cols) {
  if (m.rows() != rows || m.cols() != cols)
    ar.fail(fmt::format("{}: expected {} of shape {}×{}, found {}×{}", type, what, rows, cols, m.rows(), m.cols()));
}

void expect_size(const ModelInputArchive& ar, const char* type, const char* what, const Vector& v, Index size) {
  if (v.size() != size) ar.fail(fmt::format("{}: expected {} of length {}, found {}", type, what, size, v.size()));
}

void expect_class_count(const ModelInputArchive& ar, const char* type, Index num_classes) {
  if (num_classes < 2 || num_classes > kMaxLoadedClasses) {
    ar.fail(fmt::format("{}: expected 2 ≤ K ≤ {} classes, found {}", type, kMaxLoadedClasses, num_classes));
  }
}

void expect_labels(const ModelInputArchive& ar, const char* type, const char* what, const Vector& labels,
                   Index num_classes) {
  for (Index i = 0; i < labels.size(); ++i) {
    const Scalar c = labels(i);
    if (!(c >= 0 && c < static_cast<Scalar>(num_classes)) || c != std::floor(c))
      ar.fail(fmt::format("{}: expected {} in 0..{}, found {} at entry {}", type, what, num_classes - 1, c, i));
  }
}

}  // namespace dagml
