// Symmetric test matrices for the eigensolvers (leading_eigenpairs, block_lanczos_eigenpairs):
// a given spectrum in a seeded random eigenbasis, a seeded random symmetric matrix and an RBF
// Gram matrix.
#pragma once

#include <Eigen/Core>
#include <Eigen/QR>
#include <cmath>
#include <cstdint>
#include <random>

#include "graph/random.h"
#include "graph/tensor.h"

namespace dagml::testing {

// A symmetric matrix with eigenvalues `spectrum` and a seeded random orthogonal eigenbasis.
inline Eigen::MatrixXd with_spectrum(const Vector& spectrum, std::uint64_t seed) {
  const Index n = spectrum.size();
  std::mt19937_64 rng(seed);
  Eigen::MatrixXd G(n, n);
  for (Index i = 0; i < G.size(); ++i) G.data()[i] = standard_normal(rng);
  const Eigen::MatrixXd Q = Eigen::HouseholderQR<Eigen::MatrixXd>(G).householderQ();
  return Q * spectrum.asDiagonal() * Q.transpose();
}

// (G + Gᵀ) / 2 for a seeded standard normal G, n×n.
inline Eigen::MatrixXd random_symmetric(Index n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Eigen::MatrixXd G(n, n);
  for (Index i = 0; i < G.size(); ++i) G.data()[i] = standard_normal(rng);
  return (G + G.transpose()) / 2;
}

// An RBF Gram matrix (γ = 1/8) of n seeded points in 8 dimensions: the kernel-PCA case, a
// spectrum that decays over many orders of magnitude.
inline Eigen::MatrixXd rbf_gram(Index n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Eigen::MatrixXd X(n, 8);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = standard_normal(rng);
  Eigen::MatrixXd K(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) K(i, j) = std::exp(-(X.row(i) - X.row(j)).squaredNorm() / 8);
  return K;
}

}  // namespace dagml::testing
