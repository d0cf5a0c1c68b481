// Tensor, Scalar and Shape: the value types every dagml layer shares.
#pragma once

#include <Eigen/Core>
#include <string>

namespace dagml {

// The one scalar type. A float build is a change of this line.
using Scalar = double;
using Index = Eigen::Index;

// A dense row-major matrix. Rows are samples; a scalar is 1×1; an image batch stores one
// image per row (channels × height × width, row-major).
using Tensor = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
// Flat parameter vectors used by optimizers.
using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

struct Shape {
  Index rows = 0;
  Index cols = 0;

  Index size() const { return rows * cols; }
  bool is_scalar() const { return rows == 1 && cols == 1; }
  friend bool operator==(const Shape&, const Shape&) = default;
};

inline Shape shape_of(const Tensor& t) { return {t.rows(), t.cols()}; }

// "3×4": used in every shape error message.
std::string to_string(const Shape& s);

// A 1×1 tensor holding v.
inline Tensor scalar_tensor(Scalar v) { return Tensor::Constant(1, 1, v); }

}  // namespace dagml
