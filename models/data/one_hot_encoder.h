// OneHotEncoder: class indices 0..K−1 ⇄ one-hot rows, with K fixed at fit so that every later
// transform (a test set missing some class) has the same K columns.
//
//   transform:  Yᵢc = 1 if yᵢ = c else 0      (n × K)
//   inverse:    yᵢ = the column of the 1 in row i
#pragma once

#include "graph/tensor.h"

namespace dagml {

struct OneHotEncoderOptions {
  Index num_classes = 0;  // K; 0 learns K = max label + 1 at fit
};

class OneHotEncoder {
 public:
  // Throws ValueError if num_classes < 0.
  explicit OneHotEncoder(const OneHotEncoderOptions& options = {});

  // Fixes K. Throws ValueError if y is empty or not integers 0..K−1.
  OneHotEncoder& fit(const Vector& y);
  // n × K one-hot matrix. Throws ValueError for a label outside 0..K−1, NotFittedError before fit.
  Tensor transform(const Vector& y) const;
  Tensor fit_transform(const Vector& y);
  // Labels from an n × K one-hot matrix. Throws ShapeError unless it has K columns, ValueError
  // if a row is not exactly one 1 among 0s (naming the row and column).
  Vector inverse_transform(const Tensor& one_hot) const;

  bool fitted() const { return fitted_; }
  Index num_classes() const;  // K; throws NotFittedError before fit

 private:
  OneHotEncoderOptions options_;
  Index num_classes_ = 0;
  bool fitted_ = false;
};

}  // namespace dagml
