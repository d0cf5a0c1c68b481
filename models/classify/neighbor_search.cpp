#include "models/classify/neighbor_search.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/io/archive.h"

namespace dagml {
namespace {

constexpr const char* kNeighborSearchName = "NeighborSearch";
constexpr Index kQueriesPerTask = 64;  // fixed split: results do not depend on the thread count
constexpr Scalar kSingleScreenMaxAbs = 1e15;  // Note [Single-precision screen]

using Candidate = std::pair<Scalar, Index>;  // (reduced distance, training index), compared lexicographically

// Σ_j |a_j − b_j|ᵖ, with the p = 1 and p = 2 cases spelled out (exact and fast).
Scalar minkowski_sum(const Scalar* a, const Scalar* b, Index d, Scalar p) {
  Scalar s = 0;
  if (p == 2) {
    for (Index j = 0; j < d; ++j) s += (a[j] - b[j]) * (a[j] - b[j]);
  } else if (p == 1) {
    for (Index j = 0; j < d; ++j) s += std::abs(a[j] - b[j]);
  } else {
    for (Index j = 0; j < d; ++j) s += std::pow(std::abs(a[j] - b[j]), p);
  }
  return s;
}

// The distance from its reduced form Σ_j |a_j − b_j|ᵖ (for the kernel metric, the squared distance
// with p = 2).
Scalar to_distance(Scalar reduced, Scalar p) {
  return p == 2 ? std::sqrt(reduced) : p == 1 ? reduced : std::pow(reduced, 1 / p);
}

// The k-th smallest of v[0], …, v[n − 1] (1 ≤ k ≤ n, no NaN). For the usual few neighbours, one
// pass keeps the k smallest seen so far in increasing order; past the first rows a value rarely
// beats the k-th, so the pass is a comparison per entry. For larger k, a selection on a copy.
Scalar kth_smallest(const Scalar* v, Index n, Index k, std::vector<Scalar>& scratch) {
  if (k > 32) {
    scratch.assign(v, v + n);
    std::nth_element(scratch.begin(), scratch.begin() + (k - 1), scratch.end());
    return scratch[static_cast<size_t>(k - 1)];
  }
  scratch.assign(v, v + k);
  std::sort(scratch.begin(), scratch.end());
  Scalar kth = scratch.back();
  for (Index j = k; j < n; ++j) {
    if (!(v[j] < kth)) continue;
    auto p = static_cast<size_t>(k - 1);
    for (; p > 0 && scratch[p - 1] > v[j]; --p) scratch[p] = scratch[p - 1];
    scratch[p] = v[j];
    kth = scratch.back();
  }
  return kth;
}

// Writes the k smallest candidates, ascending, into row i of out.
void write_smallest(std::vector<Candidate>& c, Index k, Index i, Neighbors& out, Scalar p) {
  std::partial_sort(c.begin(), c.begin() + k, c.end());
  for (Index r = 0; r < k; ++r) {
    out.indices(i, r) = c[static_cast<size_t>(r)].second;
    out.distances(i, r) = to_distance(c[static_cast<size_t>(r)].first, p);
  }
}

}  // namespace

NeighborSearch::NeighborSearch(NeighborSearchOptions options) : options_(std::move(options)) {
  if (options_.metric == DistanceMetric::Euclidean) options_.p = 2;
  if (!(options_.p >= 1) || !std::isfinite(options_.p))
    throw ValueError(fmt::format("{}: expected a Minkowski order p ≥ 1, found {}", kNeighborSearchName, options_.p));
  if (options_.metric == DistanceMetric::Kernel && !options_.kernel)
    throw ValueError(
        fmt::format("{}: the kernel metric needs a kernel (options.kernel is empty)", kNeighborSearchName));
  if (options_.leaf_size < 1)
    throw ValueError(fmt::format("{}: expected leaf_size ≥ 1, found {}", kNeighborSearchName, options_.leaf_size));
  if (options_.metric == DistanceMetric::Kernel && options_.algorithm == NeighborAlgorithm::KdTree)
    throw ValueError(
        fmt::format("{}: the k-d tree needs a Minkowski distance, not a kernel distance", kNeighborSearchName));
}

void NeighborSearch::fit(const Tensor& X) {
  const char* who = "NeighborSearch::fit";
  check_fit_data(X, who);
  X_ = X;
  sq_norms_ = X_.rowwise().squaredNorm();
  if (options_.metric == DistanceMetric::Kernel) {
    self_kernel_.resize(X_.rows());
    for (Index i = 0; i < X_.rows(); ++i)
      self_kernel_(i) = (*options_.kernel)(X_.row(i).transpose(), X_.row(i).transpose());
  }
  use_tree_ = options_.algorithm == NeighborAlgorithm::KdTree ||
              (options_.algorithm == NeighborAlgorithm::Auto && options_.metric != DistanceMetric::Kernel &&
               X.cols() <= options_.kd_tree_max_dimension);
  nodes_.clear();
  order_.clear();
  if (use_tree_) build_tree();
  X_single_.resize(0, 0);
  if (!use_tree_ && options_.metric != DistanceMetric::Kernel && options_.p == 2 &&
      X_.cwiseAbs().maxCoeff() <= kSingleScreenMaxAbs)
    X_single_ = X_.cast<float>();
  fitted_ = true;
}

// k-d tree: each node splits its points at the median of the coordinate with the largest spread
// (ties in the coordinate ordered by index, so the tree is deterministic); leaves hold at most
// leaf_size points. Built with an explicit work list.
void NeighborSearch::build_tree() {
  const Index n = X_.rows();
  order_.resize(static_cast<size_t>(n));
  for (Index i = 0; i < n; ++i) order_[static_cast<size_t>(i)] = i;
  nodes_.push_back(Node{0, n, -1, -1, Vector(), Vector()});
  for (size_t id = 0; id < nodes_.size(); ++id) {
    const Index begin = nodes_[id].begin, end = nodes_[id].end;
    Vector lo = X_.row(order_[static_cast<size_t>(begin)]).transpose(), hi = lo;
    for (Index t = begin + 1; t < end; ++t) {
      lo = lo.cwiseMin(X_.row(order_[static_cast<size_t>(t)]).transpose());
      hi = hi.cwiseMax(X_.row(order_[static_cast<size_t>(t)]).transpose());
    }
    Index dim = 0;
    const Scalar spread = (hi - lo).maxCoeff(&dim);
    nodes_[id].lo = std::move(lo);
    nodes_[id].hi = std::move(hi);
    if (end - begin <= options_.leaf_size || spread == 0) continue;
    const Index mid = begin + (end - begin) / 2;
    std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                     [&](Index a, Index b) { return std::make_pair(X_(a, dim), a) < std::make_pair(X_(b, dim), b); });
    const auto left = static_cast<Index>(nodes_.size());
    nodes_[id].left = left;
    nodes_[id].right = left + 1;
    nodes_.push_back(Node{begin, mid, -1, -1, Vector(), Vector()});
    nodes_.push_back(Node{mid, end, -1, -1, Vector(), Vector()});
  }
}

// Depth-first search, nearer child first, keeping the k best (reduced distance, index) pairs in a
// max-heap. A node is skipped only when its box is strictly farther than the current k-th best,
// so a point tied with the k-th best but with a lower index is still found.
void NeighborSearch::query_tree(const Vector& q, Index k, Index* out_index, Scalar* out_reduced) const {
  const Scalar p = options_.p;
  const Index d = X_.cols();
  auto box_distance = [&](const Node& node) {
    Scalar s = 0;
    for (Index j = 0; j < d; ++j) {
      const Scalar excess = std::max({node.lo(j) - q(j), q(j) - node.hi(j), Scalar(0)});
      s += p == 2 ? excess * excess : p == 1 ? excess : std::pow(excess, p);
    }
    return s;
  };
  std::vector<Candidate> heap;
  heap.reserve(static_cast<size_t>(k) + 1);
  std::vector<std::pair<Index, Scalar>> stack{{0, box_distance(nodes_[0])}};
  while (!stack.empty()) {
    const auto [id, bound] = stack.back();
    stack.pop_back();
    if (static_cast<Index>(heap.size()) == k && bound > heap.front().first) continue;
    const Node& node = nodes_[static_cast<size_t>(id)];
    if (node.left < 0) {
      for (Index t = node.begin; t < node.end; ++t) {
        const Index row = order_[static_cast<size_t>(t)];
        const Candidate c{minkowski_sum(q.data(), X_.row(row).data(), d, p), row};
        if (static_cast<Index>(heap.size()) < k) {
          heap.push_back(c);
          std::push_heap(heap.begin(), heap.end());
        } else if (c < heap.front()) {
          std::pop_heap(heap.begin(), heap.end());
          heap.back() = c;
          std::push_heap(heap.begin(), heap.end());
        }
      }
      continue;
    }
    const Scalar bl = box_distance(nodes_[static_cast<size_t>(node.left)]);
    const Scalar br = box_distance(nodes_[static_cast<size_t>(node.right)]);
    if (bl <= br) {
      stack.emplace_back(node.right, br);
      stack.emplace_back(node.left, bl);
    } else {
      stack.emplace_back(node.left, bl);
      stack.emplace_back(node.right, br);
    }
  }
  std::sort_heap(heap.begin(), heap.end());
  for (Index r = 0; r < k; ++r) {
    out_reduced[r] = heap[static_cast<size_t>(r)].first;
    out_index[r] = heap[static_cast<size_t>(r)].second;
  }
}

void NeighborSearch::query_brute_block(const Tensor& Q, Index begin, Index count, Index k, Neighbors& out) const {
  const Index n = X_.rows(), d = X_.cols();
  const Tensor Qb = Q.middleRows(begin, count);
  std::vector<Candidate> c;
  if (options_.metric == DistanceMetric::Kernel) {
    // ‖φ(q) − φ(x)‖² = k(q, q) + k(x, x) − 2 k(q, x); clearly negative values mean k is not PSD.
    const Kernel& kernel = *options_.kernel;
    const Tensor G = kernel.gram(Qb, X_);
    for (Index i = 0; i < count; ++i) {
      const Vector q = Qb.row(i).transpose();
      const Scalar kqq = kernel(q, q);
      c.clear();
      for (Index j = 0; j < n; ++j) {
        const Scalar d2 = kqq + self_kernel_(j) - 2 * G(i, j);
        if (d2 < -1e-9 * (std::abs(kqq) + std::abs(self_kernel_(j)) + 1e-300)) {
          throw ValueError(fmt::format(
              "{}: the kernel {} is not positive semi-definite: it gives the squared distance {} between query {} "
              "and training row {}",
              kNeighborSearchName, kernel.name(), d2, begin + i, j));
        }
        c.emplace_back(std::max(d2, Scalar(0)), j);
      }
      write_smallest(c, k, begin + i, out, 2);
    }
    return;
  }
  if (options_.p != 2) {
    for (Index i = 0; i < count; ++i) {
      c.clear();
      for (Index j = 0; j < n; ++j) c.emplace_back(minkowski_sum(Qb.row(i).data(), X_.row(j).data(), d, options_.p), j);
      write_smallest(c, k, begin + i, out, options_.p);
    }
    return;
  }
  // Euclidean screen: D = ‖q‖² + ‖x‖² − 2 QXᵀ has a rounding error below `margin`, so every true
  // k-nearest candidate has D ≤ t + margin, t the k-th smallest D. Those are re-measured exactly.
  // Each row of D is formed in an L2-resident buffer as ‖x‖² − 2 q·x (‖q‖² shifts a whole row, so
  // it enters the limit only), read once for its k-th smallest entry and once for the candidates.
  // The product QXᵀ runs in single precision when the entries allow (Note [Single-precision screen]).
  using SingleTensor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const bool single = X_single_.rows() == n && Qb.cwiseAbs().maxCoeff() <= kSingleScreenMaxAbs;
  Tensor G;
  SingleTensor G_single;
  if (single) {
    G_single.resize(count, n);
    G_single.noalias() = Qb.cast<float>() * X_single_.transpose();
  } else {
    G.resize(count, n);
    G.noalias() = Qb * X_.transpose();
  }
  const Scalar max_norm = sq_norms_.maxCoeff(), max_abs_x = single ? std::sqrt(max_norm) : 0;
  const Scalar epsilon =
      single ? Scalar(std::numeric_limits<float>::epsilon()) : std::numeric_limits<Scalar>::epsilon();
  std::vector<Scalar> row(static_cast<size_t>(n)), scratch;
  for (Index i = 0; i < count; ++i) {
    c.clear();
    const Scalar qn = Qb.row(i).squaredNorm();
    if (single) {
      const float* g = G_single.row(i).data();
      for (Index j = 0; j < n; ++j) row[static_cast<size_t>(j)] = sq_norms_(j) - 2 * Scalar(g[j]);
    } else {
      const Scalar* g = G.row(i).data();
      for (Index j = 0; j < n; ++j) row[static_cast<size_t>(j)] = sq_norms_(j) - 2 * g[j];
    }
    bool finite = std::isfinite(qn);
    for (Index j = 0; j < n; ++j) finite &= std::isfinite(row[static_cast<size_t>(j)]);
    if (!finite) {
      // A squared norm overflowed (entries beyond about 10¹⁵⁴), so the screen cannot rank: every
      // training row is measured exactly.
      for (Index j = 0; j < n; ++j) c.emplace_back(minkowski_sum(Qb.row(i).data(), X_.row(j).data(), d, 2), j);
      write_smallest(c, k, begin + i, out, 2);
      continue;
    }
    Scalar margin = 4 * static_cast<Scalar>(d + 4) * epsilon * (qn + max_norm);
    if (single)  // the underflow term, doubled
      margin += 2 * static_cast<Scalar>(d) * std::ldexp(Scalar(1), -149) * (1 + std::sqrt(qn) + max_abs_x);
    const Scalar limit = kth_smallest(row.data(), n, k, scratch) + margin;
    for (Index j = 0; j < n; ++j)
      if (row[static_cast<size_t>(j)] <= limit)
        c.emplace_back(minkowski_sum(Qb.row(i).data(), X_.row(j).data(), d, 2), j);
    write_smallest(c, k, begin + i, out, 2);
  }
}

Neighbors NeighborSearch::query(const Tensor& Q, Index k) const {
  const char* who = "NeighborSearch::query";
  check_fitted(fitted_, who);
  check_not_empty(Q, who);
  check_columns(Q, X_.cols(), who);
  check_finite(Q, who);
  check_neighbor_count(k, X_.rows(), who);
  Neighbors out{decltype(Neighbors::indices)(Q.rows(), k), Tensor(Q.rows(), k)};
  const Index blocks = (Q.rows() + kQueriesPerTask - 1) / kQueriesPerTask;
  tbb::parallel_for(tbb::blocked_range<Index>(0, blocks, 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index b = r.begin(); b != r.end(); ++b) {
      const Index begin = b * kQueriesPerTask, count = std::min(kQueriesPerTask, Q.rows() - begin);
      if (!use_tree_) {
        query_brute_block(Q, begin, count, k, out);
        continue;
      }
      std::vector<Scalar> reduced(static_cast<size_t>(k));
      for (Index i = begin; i < begin + count; ++i) {
        query_tree(Q.row(i).transpose(), k, &out.indices(i, 0), reduced.data());
        for (Index r = 0; r < k; ++r) out.distances(i, r) = to_distance(reduced[static_cast<size_t>(r)], options_.p);
      }
    }
  });
  return out;
}

}  // namespace dagml

namespace dagml {

void check_neighbor_count(Index k, Index n, const char* who) {
  if (k < 1 || k > n)
    throw ValueError(fmt::format("{}: expected 1 ≤ k ≤ {} (the training set size), found k = {}", who, n, k));
}

Tensor neighbor_weights(const Tensor& distances, NeighborWeights weights) {
  if (weights == NeighborWeights::Uniform) return Tensor::Ones(distances.rows(), distances.cols());
  Tensor w(distances.rows(), distances.cols());
  for (Index i = 0; i < distances.rows(); ++i) {
    const bool exact = (distances.row(i).array() == 0).any();
    for (Index r = 0; r < distances.cols(); ++r)
      w(i, r) = exact ? (distances(i, r) == 0 ? 1.0 : 0.0) : 1.0 / distances(i, r);
  }
  return w;
}

void NeighborSearch::restore(const ModelInputArchive& ar) {
  Tensor X = std::move(X_);
  *this = NeighborSearch(options_);
  if (X.rows() == 0) return;  // not fitted
  if (X.cols() == 0 || !X.allFinite())
    ar.fail(fmt::format("{}: expected training rows with finite features, found a {}×{} matrix{}", kNeighborSearchName,
                        X.rows(), X.cols(), X.cols() == 0 ? "" : " with NaN or infinite entries"));
  fit(X);
}

}  // namespace dagml
