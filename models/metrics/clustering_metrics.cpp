#include "models/metrics/clustering_metrics.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {

namespace {

// Labels re-encoded as 0..K−1 in increasing order of value, with the cluster sizes.
struct Clusters {
  std::vector<Index> z;
  std::vector<Index> size;
  Index K() const { return static_cast<Index>(size.size()); }
};

Clusters encode(const Vector& labels, const char* who) {
  check_labels(labels, who);
  std::vector<double> values(labels.begin(), labels.end());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  Clusters c{std::vector<Index>(static_cast<std::size_t>(labels.size())), std::vector<Index>(values.size(), 0)};
  for (Index i = 0; i < labels.size(); ++i) {
    const auto k = static_cast<Index>(std::lower_bound(values.begin(), values.end(), labels(i)) - values.begin());
    c.z[static_cast<std::size_t>(i)] = k;
    ++c.size[static_cast<std::size_t>(k)];
  }
  return c;
}

// The checks of the internal metrics: X non-empty and finite, one label per row, 2 ≤ K ≤ n − 1.
Clusters check_partition(const Tensor& X, const Vector& labels, const char* who) {
  check_not_empty(X, who);
  check_same_rows(X, labels, who);
  check_finite(X, who);
  Clusters c = encode(labels, who);
  if (c.K() < 2 || c.K() > X.rows() - 1) {
    throw ValueError(fmt::format("{}: expected between 2 and n − 1 = {} distinct labels for {} samples, found {}", who,
                                 X.rows() - 1, X.rows(), c.K()));
  }
  return c;
}

// K×d centroids μ_k = mean of cluster k's rows.
Tensor centroids(const Tensor& X, const Clusters& c) {
  Tensor mu = Tensor::Zero(c.K(), X.cols());
  for (Index i = 0; i < X.rows(); ++i) mu.row(c.z[static_cast<std::size_t>(i)]) += X.row(i);
  for (Index k = 0; k < c.K(); ++k) mu.row(k) /= static_cast<Scalar>(c.size[static_cast<std::size_t>(k)]);
  return mu;
}

// The contingency table of two labelings in sparse form: the nonzero counts n_ij and the row and
// column sums a_i, b_j.
struct Contingency {
  std::vector<std::pair<std::pair<Index, Index>, std::int64_t>> cells;  // ((i, j), n_ij), n_ij > 0
  std::vector<std::int64_t> a, b;
  std::int64_t n = 0;
};

Contingency contingency(const Vector& u, const Vector& v, const char* who) {
  if (u.size() != v.size()) {
    throw ShapeError(
        fmt::format("{}: expected two labelings of the same length, found {} and {}", who, u.size(), v.size()));
  }
  if (u.size() == 0) throw ValueError(fmt::format("{}: expected at least one label, found none", who));
  const Clusters cu = encode(u, who), cv = encode(v, who);
  std::vector<std::pair<Index, Index>> pairs(static_cast<std::size_t>(u.size()));
  for (std::size_t i = 0; i < pairs.size(); ++i) pairs[i] = {cu.z[i], cv.z[i]};
  std::sort(pairs.begin(), pairs.end());
  Contingency t;
  for (const auto& p : pairs) {
    if (t.cells.empty() || t.cells.back().first != p) t.cells.push_back({p, 0});
    ++t.cells.back().second;
  }
  t.a.assign(cu.size.begin(), cu.size.end());
  t.b.assign(cv.size.begin(), cv.size.end());
  t.n = u.size();
  return t;
}

// H = −Σ_k (n_k/n) log(n_k/n).
Scalar entropy(const std::vector<std::int64_t>& counts, std::int64_t n) {
  const Scalar log_n = std::log(static_cast<Scalar>(n));
  Scalar h = 0;
  for (const std::int64_t c : counts) h -= (static_cast<Scalar>(c) / n) * (std::log(static_cast<Scalar>(c)) - log_n);
  return h;
}

// I(U; V) = Σ_ij (n_ij/n) log(n n_ij / (a_i b_j)), 0 when either labeling has one cluster. As
// scikit-learn: terms smaller than machine epsilon in magnitude count as 0, the sum is clipped at 0.
Scalar mutual_information(const Contingency& t) {
  if (t.a.size() == 1 || t.b.size() == 1) return 0;
  const Scalar n = static_cast<Scalar>(t.n), log_n = std::log(n);
  Scalar mi = 0;
  for (const auto& [ij, nij] : t.cells) {
    const Scalar p = static_cast<Scalar>(nij) / n;
    const Scalar outer = static_cast<Scalar>(t.a[static_cast<std::size_t>(ij.first)]) *
                         static_cast<Scalar>(t.b[static_cast<std::size_t>(ij.second)]);
    const Scalar term = p * (std::log(static_cast<Scalar>(nij)) - log_n) + p * (-std::log(outer) + 2 * log_n);
    if (std::abs(term) >= std::numeric_limits<Scalar>::epsilon()) mi += term;
  }
  return std::max(mi, 0.0);
}

// Note [Expected mutual information]
// Under the hypergeometric model (random labelings with the row sums a_i and column sums b_j of
// the table fixed), Vinh, Epps & Bailey (2010):
//   E[I] = Σ_i Σ_j Σ_{n_ij = max(1, a_i + b_j − N)}^{min(a_i, b_j)} (n_ij/N) log(N n_ij / (a_i b_j))
//          · a_i! b_j! (N − a_i)! (N − b_j)! / (N! n_ij! (a_i − n_ij)! (b_j − n_ij)! (N − a_i − b_j + n_ij)!)
// with the factorial ratio evaluated as exp of a sum of log-gamma values, term by term in the
// order of scikit-learn's _expected_mutual_info_fast.pyx. O(Σ_ij min(a_i, b_j)) terms.
Scalar expected_mutual_information(const Contingency& t) {
  if (t.a.size() == 1 || t.b.size() == 1) return 0;
  const Scalar N = static_cast<Scalar>(t.n);
  const std::int64_t max_count =
      std::max(*std::max_element(t.a.begin(), t.a.end()), *std::max_element(t.b.begin(), t.b.end()));
  std::vector<Scalar> log_Nnij(static_cast<std::size_t>(max_count) + 1), gln_nij(log_Nnij.size());
  for (std::size_t m = 1; m < log_Nnij.size(); ++m) {
    log_Nnij[m] = std::log(N) + std::log(static_cast<Scalar>(m));
    gln_nij[m] = std::lgamma(static_cast<Scalar>(m) + 1);
  }
  const Scalar gln_N = std::lgamma(N + 1);
  Scalar emi = 0;
  for (const std::int64_t ai : t.a) {
    const Scalar a = static_cast<Scalar>(ai), log_a = std::log(a), gln_a = std::lgamma(a + 1),
                 gln_Na = std::lgamma(N - a + 1);
    for (const std::int64_t bj : t.b) {
      const Scalar b = static_cast<Scalar>(bj), log_b = std::log(b), gln_b = std::lgamma(b + 1),
                   gln_Nb = std::lgamma(N - b + 1);
      const std::int64_t start = std::max<std::int64_t>(1, ai + bj - t.n), end = std::min(ai, bj);
      for (std::int64_t m = start; m <= end; ++m) {
        const auto mi = static_cast<std::size_t>(m);
        const Scalar nij = static_cast<Scalar>(m);
        const Scalar term2 = log_Nnij[mi] - log_a - log_b;
        const Scalar gln = gln_a + gln_b + gln_Na + gln_Nb - gln_N - gln_nij[mi] - std::lgamma(a - nij + 1) -
                           std::lgamma(b - nij + 1) - std::lgamma(N - a - b + nij + 1);
        emi += (nij / N) * term2 * std::exp(gln);
      }
    }
  }
  return emi;
}

}  // namespace

Scalar silhouette_score(const Tensor& X, const Vector& labels) {
  const Clusters c = check_partition(X, labels, "silhouette_score");
  const Index n = X.rows(), K = c.K();
  // Note [Deterministic silhouette]: rows go to threads in fixed blocks of kBlock, but each s_i
  // is computed by one thread alone, summing distances over j = 0..n−1 in order, and the mean is
  // taken afterwards in row order: the result does not depend on the thread count.
  constexpr Index kBlock = 64;
  const Index num_blocks = (n + kBlock - 1) / kBlock;
  Vector s(n);
  tbb::parallel_for(tbb::blocked_range<Index>(0, num_blocks, 1), [&](const tbb::blocked_range<Index>& r) {
    std::vector<Scalar> sum(static_cast<std::size_t>(K));
    for (Index block = r.begin(); block < r.end(); ++block) {
      for (Index i = block * kBlock; i < std::min(n, (block + 1) * kBlock); ++i) {
        std::fill(sum.begin(), sum.end(), 0.0);
        for (Index j = 0; j < n; ++j)
          sum[static_cast<std::size_t>(c.z[static_cast<std::size_t>(j)])] += (X.row(i) - X.row(j)).norm();
        const auto own = static_cast<std::size_t>(c.z[static_cast<std::size_t>(i)]);
        if (c.size[own] == 1) {
          s(i) = 0;
          continue;
        }
        const Scalar a = sum[own] / static_cast<Scalar>(c.size[own] - 1);
        Scalar b = std::numeric_limits<Scalar>::infinity();
        for (std::size_t k = 0; k < sum.size(); ++k) {
          if (k != own) b = std::min(b, sum[k] / static_cast<Scalar>(c.size[k]));
        }
        const Scalar den = std::max(a, b);
        s(i) = den > 0 ? (b - a) / den : 0.0;
      }
    }
  });
  Scalar total = 0;
  for (Index i = 0; i < n; ++i) total += s(i);
  return total / static_cast<Scalar>(n);
}

Scalar calinski_harabasz_score(const Tensor& X, const Vector& labels) {
  const Clusters c = check_partition(X, labels, "calinski_harabasz_score");
  const Index n = X.rows(), K = c.K();
  const Tensor mu = centroids(X, c);
  const Eigen::RowVectorXd mean = X.colwise().mean();
  Scalar between = 0, within = 0;
  for (Index k = 0; k < K; ++k)
    between += static_cast<Scalar>(c.size[static_cast<std::size_t>(k)]) * (mu.row(k) - mean).squaredNorm();
  for (Index i = 0; i < n; ++i) within += (X.row(i) - mu.row(c.z[static_cast<std::size_t>(i)])).squaredNorm();
  if (within == 0) return 1.0;
  return between * static_cast<Scalar>(n - K) / (within * static_cast<Scalar>(K - 1));
}

Scalar davies_bouldin_score(const Tensor& X, const Vector& labels) {
  const Clusters c = check_partition(X, labels, "davies_bouldin_score");
  const Index K = c.K();
  const Tensor mu = centroids(X, c);
  Vector S = Vector::Zero(K);
  for (Index i = 0; i < X.rows(); ++i) {
    const Index k = c.z[static_cast<std::size_t>(i)];
    S(k) += (X.row(i) - mu.row(k)).norm();
  }
  for (Index k = 0; k < K; ++k) S(k) /= static_cast<Scalar>(c.size[static_cast<std::size_t>(k)]);
  Tensor D(K, K);
  for (Index k = 0; k < K; ++k)
    for (Index l = 0; l < K; ++l) D(k, l) = (mu.row(k) - mu.row(l)).norm();
  if ((S.array() == 0).all() || (D.array() == 0).all()) return 0.0;
  Scalar total = 0;
  for (Index k = 0; k < K; ++k) {
    Scalar worst = 0;
    for (Index l = 0; l < K; ++l) {
      if (l != k && D(k, l) > 0) worst = std::max(worst, (S(k) + S(l)) / D(k, l));
    }
    total += worst;
  }
  return total / static_cast<Scalar>(K);
}

// Pair counts over the n² ordered pairs (i, j), i ≠ j for the first three, as scikit-learn's
// pair_confusion_matrix: together in both (tp), together in the second only (fp), in the first
// only (fn), apart in both (tn). With Q = Σ n_ij²: tp = Q − n, fp = Σ_j b_j² − Q,
// fn = Σ_i a_i² − Q, tn = n² − fp − fn − Q.
// ARI = 2 (tp·tn − fn·fp) / ((tp + fn)(fn + tn) + (tp + fp)(fp + tn)).
Scalar adjusted_rand_score(const Vector& labels_true, const Vector& labels_pred) {
  const Contingency t = contingency(labels_true, labels_pred, "adjusted_rand_score");
  std::int64_t Q = 0, sum_a2 = 0, sum_b2 = 0;
  for (const auto& cell : t.cells) Q += cell.second * cell.second;
  for (const std::int64_t a : t.a) sum_a2 += a * a;
  for (const std::int64_t b : t.b) sum_b2 += b * b;
  const std::int64_t fp = sum_b2 - Q, fn = sum_a2 - Q;
  if (fp == 0 && fn == 0) return 1.0;
  const Scalar tp = static_cast<Scalar>(Q - t.n), tn = static_cast<Scalar>(t.n * t.n - fp - fn - Q);
  const Scalar FP = static_cast<Scalar>(fp), FN = static_cast<Scalar>(fn);
  return 2.0 * (tp * tn - FN * FP) / ((tp + FN) * (FN + tn) + (tp + FP) * (FP + tn));
}

Scalar normalized_mutual_info_score(const Vector& labels_true, const Vector& labels_pred) {
  const Contingency t = contingency(labels_true, labels_pred, "normalized_mutual_info_score");
  if (t.a.size() == 1 && t.b.size() == 1) return 1.0;
  const Scalar mi = mutual_information(t);
  if (mi == 0) return 0.0;
  return mi / ((entropy(t.a, t.n) + entropy(t.b, t.n)) / 2);
}

Scalar adjusted_mutual_info_score(const Vector& labels_true, const Vector& labels_pred) {
  const Contingency t = contingency(labels_true, labels_pred, "adjusted_mutual_info_score");
  if (t.a.size() == 1 && t.b.size() == 1) return 1.0;
  const Scalar mi = mutual_information(t), emi = expected_mutual_information(t);
  Scalar den = (entropy(t.a, t.n) + entropy(t.b, t.n)) / 2 - emi;
  constexpr Scalar eps = std::numeric_limits<Scalar>::epsilon();
  den = den < 0 ? std::min(den, -eps) : std::max(den, eps);
  return (mi - emi) / den;
}

Scalar inertia(const Tensor& X, const Vector& labels, const Tensor& centers) {
  constexpr const char* who = "inertia";
  check_not_empty(X, who);
  check_same_rows(X, labels, who);
  check_finite(X, who);
  if (centers.rows() == 0) throw ValueError("inertia: expected at least one centre, found none");
  check_columns(centers, X.cols(), who);
  check_finite(centers, who);
  check_labels(labels, who, centers.rows());
  Scalar total = 0;
  for (Index i = 0; i < X.rows(); ++i) total += (X.row(i) - centers.row(static_cast<Index>(labels(i)))).squaredNorm();
  return total;
}

}  // namespace dagml
