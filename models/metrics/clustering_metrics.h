// Clustering metrics. Cluster labels are integers ≥ 0 stored as doubles; a label value that no
// sample carries is simply absent (labels {0, 2} are two clusters), as in scikit-learn, which
// re-encodes labels first. Internal metrics (silhouette, Calinski–Harabasz, Davies–Bouldin)
// score a partition of the rows of X (n×d, Euclidean distance) and need 2 ≤ K ≤ n − 1 clusters
// present. External metrics (adjusted Rand, normalized and adjusted mutual information) compare
// two labelings of the same samples and are symmetric in them. Every function throws ValueError
// for empty input, a NaN or infinite entry, a label that is not an integer ≥ 0, or a cluster
// count out of range, and ShapeError when lengths differ, each message saying what was expected
// and what was found. Natural logarithms throughout, as scikit-learn. Formulas in
// docs/unsupervised.md, section "Clustering metrics".
#pragma once

#include "graph/tensor.h"

namespace dagml {

// Mean over the samples of s_i = (b_i − a_i) / max(a_i, b_i), where a_i is the mean distance
// from x_i to the other members of its cluster and b_i the smallest mean distance from x_i to the
// members of another cluster; s_i = 0 for a sample alone in its cluster (and when a_i = b_i = 0).
// In [−1, 1], higher is better. O(n² d) time, O(n) memory; parallel over fixed blocks of rows
// with each s_i computed by one thread in a fixed order, so the value is bitwise the same for any
// thread count.
Scalar silhouette_score(const Tensor& X, const Vector& labels);

// Variance ratio (n − K) B / ((K − 1) W) with B = Σ_k n_k ‖μ_k − μ‖² and W = Σ_i ‖x_i − μ_{z_i}‖²;
// 1 when W = 0 (scikit-learn's convention). Higher is better.
Scalar calinski_harabasz_score(const Tensor& X, const Vector& labels);

// (1/K) Σ_k max_{l≠k} (S_k + S_l) / ‖μ_k − μ_l‖, with S_k the mean distance of cluster k's
// members to its centroid μ_k; a pair of clusters with coinciding centroids is left out of the
// max, and the score is 0 when every S_k is 0 or every centroid coincides (scikit-learn's
// conventions). ≥ 0, lower is better.
Scalar davies_bouldin_score(const Tensor& X, const Vector& labels);

// Adjusted Rand index (Hubert & Arabie) from the pair counts of the two labelings: 1 for the same
// partition, ≈ 0 in expectation for independent ones, may be negative. 1 when no pair of samples
// is split by one labeling and joined by the other.
Scalar adjusted_rand_score(const Vector& labels_true, const Vector& labels_pred);

// I(U; V) / ((H(U) + H(V)) / 2), the mutual information of the two labelings normalised by the
// arithmetic mean of their entropies. 1 when both have a single cluster, 0 when I = 0.
Scalar normalized_mutual_info_score(const Vector& labels_true, const Vector& labels_pred);

// (I − E[I]) / ((H(U) + H(V)) / 2 − E[I]), E[I] the expected mutual information of two random
// labelings with the same cluster sizes (hypergeometric model, Vinh, Epps & Bailey 2010,
// computed in log-gamma space as scikit-learn does). 1 when both have a single cluster; ≈ 0
// for independent labelings. The denominator is kept at least machine epsilon in magnitude.
Scalar adjusted_mutual_info_score(const Vector& labels_true, const Vector& labels_pred);

// The k-means objective Σ_i ‖x_i − c_{z_i}‖² for the K×d centres (labels must be < K; a centre
// may have no member). Needs n ≥ 1; no cluster-count limit.
Scalar inertia(const Tensor& X, const Vector& labels, const Tensor& centers);

}  // namespace dagml
