// Vector quantisation with k-means (notes 004, "k-means as ERM" and lossy compression): a fitted
// KMeans is a codebook θ = (μ_1, …, μ_K); encoding replaces each row by the index of its nearest
// centre, z = argmin_k ‖x − μ_k‖², decoding replaces each code by its centre, and storing a
// quantised data set takes the codebook (K·d numbers) and ⌈log₂ K⌉ bits per row. The empirical
// distortion (1/n) Σ ‖x_i − μ_{z_i}‖² is the k-means risk R̂_n of the notes.
//
//   KMeans km({.num_clusters = 16, .seed = 1});
//   km.fit(pixels);
//   QuantizedData q = quantize(km, pixels);          // q.codes, q.bits_per_code = 4
//   Tensor approx = dequantize(km.centers(), q.codes);
//
// An elbow helper fits k-means for each K of a list and reports the inertia, which always
// decreases with K; the bend of that curve (or the Calinski–Harabasz score of
// models/metrics/clustering_metrics.h) guides the choice of K.
#pragma once

#include <vector>

#include "models/cluster/k_means.h"

namespace dagml {

struct QuantizedData {
  Vector codes;             // n, the nearest centre of each row (0..K−1)
  Index bits_per_code = 0;  // ⌈log₂ K⌉ (0 for K = 1)
  Index code_bits = 0;      // n · bits_per_code, the assignments' storage
  Scalar distortion = 0;    // (1/n) Σ ‖x_i − μ_{z_i}‖²
};

// Encodes X with a fitted codebook (NotFittedError, ShapeError and ValueError as KMeans::predict).
QuantizedData quantize(const KMeans& codebook, const Tensor& X);

// The centre of each code: n × d. ValueError for a code outside 0..K−1.
Tensor dequantize(const Tensor& centers, const Vector& codes);

// ⌈log₂ K⌉ for K ≥ 1 (ValueError otherwise).
Index bits_per_code(Index num_clusters);

// The inertia of k-means fitted with each K of `num_clusters` (the other options as given), in
// that order. ValueError as KMeans for a K it cannot fit.
std::vector<Scalar> elbow_inertias(const Tensor& X, const std::vector<Index>& num_clusters, KMeansOptions options = {});

}  // namespace dagml
