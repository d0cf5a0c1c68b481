// Test data for the regression tests: seeded Gaussian matrices and the bundled diabetes data.
#pragma once

#include <Eigen/Dense>
#include <random>

#include "graph/tensor.h"
#include "literals.h"
#include "models/data/datasets.h"
#include "models/data/standard_scaler.h"

namespace dagml::testing {

// n×d standard normal entries from a seeded engine (the values need not be portable: the tests
// compare identities that hold for any data).
inline Tensor gaussian_matrix(Index n, Index d, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Tensor X(n, d);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = normal(rng);
  return X;
}

inline Vector gaussian_vector(Index n, unsigned seed) { return gaussian_matrix(n, 1, seed).col(0); }

// y = X w + b + noise·N(0, 1).
inline Vector linear_targets(const Tensor& X, const Vector& w, double b, double noise, unsigned seed) {
  return (X * w).array() + b + noise * gaussian_vector(X.rows(), seed).array();
}

struct Diabetes {
  Tensor X;  // raw, 442×10
  Tensor Z;  // standardised (population standard deviation, as scikit-learn's StandardScaler)
  Vector y;
};

inline Diabetes load_diabetes() {
  const Dataset d = load_dataset("diabetes");
  StandardScaler scaler;
  return {d.features, scaler.fit_transform(d.features), d.target};
}

}  // namespace dagml::testing
