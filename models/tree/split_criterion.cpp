#include "models/tree/split_criterion.h"

#include <algorithm>
#include <numeric>

namespace dagml::tree {

Scalar gini_impurity(std::span<const Scalar> counts) {
  const Scalar W = std::accumulate(counts.begin(), counts.end(), Scalar(0));
  Scalar sq = 0;
  for (Scalar c : counts) sq += c * c;
  return 1 - sq / (W * W);
}

Scalar entropy_impurity(std::span<const Scalar> counts, Scalar base) {
  const Scalar W = std::accumulate(counts.begin(), counts.end(), Scalar(0));
  Scalar h = 0;
  for (Scalar c : counts) {
    if (c > 0) {
      const Scalar p = c / W;
      h -= p * std::log(p);
    }
  }
  return h / std::log(base);
}

Scalar misclassification_impurity(std::span<const Scalar> counts) {
  const Scalar W = std::accumulate(counts.begin(), counts.end(), Scalar(0));
  return 1 - *std::max_element(counts.begin(), counts.end()) / W;
}

// --- class counts ---------------------------------------------------------------------------------

ClassCountCriterion::ClassCountCriterion(const CriterionData& data, ImpurityKind kind)
    : data_(data),
      kind_(kind),
      node_(static_cast<std::size_t>(data.num_classes)),
      left_(node_.size()),
      right_(node_.size()) {}

void ClassCountCriterion::init(std::span<const Index> rows) {
  std::fill(node_.begin(), node_.end(), 0.0);
  node_weight_ = 0;
  for (Index row : rows) {
    const Scalar w = (*data_.weight)(row);
    node_[static_cast<std::size_t>((*data_.y)(row))] += w;
    node_weight_ += w;
  }
  reset();
}

Scalar ClassCountCriterion::impurity(std::span<const Scalar> counts) const {
  switch (kind_) {
    case ImpurityKind::Gini: return gini_impurity(counts);
    case ImpurityKind::Entropy: return entropy_impurity(counts, data_.entropy_base);
    default: return misclassification_impurity(counts);
  }
}

void ClassCountCriterion::node_value(std::span<Scalar> out) const {
  for (std::size_t k = 0; k < node_.size(); ++k) out[k] = node_[k] / node_weight_;
}

std::pair<Scalar, Scalar> ClassCountCriterion::children_impurity() const {
  for (std::size_t k = 0; k < node_.size(); ++k) right_[k] = node_[k] - left_[k];
  return {impurity(left_), impurity(right_)};
}

Scalar ClassCountCriterion::weighted_children_impurity() const {
  const auto [l, r] = children_impurity();
  return left_weight_ * l + (node_weight_ - left_weight_) * r;
}

// --- squared error ----------------------------------------------------------------------------------

void SquaredErrorCriterion::init(std::span<const Index> rows) {
  w_ = wy_ = wyy_ = 0;
  for (Index row : rows) {
    const Scalar w = (*data_.weight)(row), y = (*data_.y)(row);
    w_ += w;
    wy_ += w * y;
    wyy_ += w * y * y;
  }
  reset();
}

std::pair<Scalar, Scalar> SquaredErrorCriterion::children_impurity() const {
  const Scalar rw = w_ - lw_, rwy = wy_ - lwy_, rwyy = wyy_ - lwyy_;
  return {lwyy_ / lw_ - (lwy_ / lw_) * (lwy_ / lw_), rwyy / rw - (rwy / rw) * (rwy / rw)};
}

// --- absolute error ---------------------------------------------------------------------------------

AbsoluteErrorCriterion::AbsoluteErrorCriterion(const CriterionData& data, Index num_rows)
    : data_(data), rank_of_(static_cast<std::size_t>(num_rows), -1) {}

void AbsoluteErrorCriterion::Fenwick::clear(Index m) {
  w.assign(static_cast<std::size_t>(m + 1), 0.0);
  wy.assign(w.size(), 0.0);
  total_w = total_wy = 0;
}

void AbsoluteErrorCriterion::Fenwick::add(Index rank, Scalar weight, Scalar weighted_y) {
  total_w += weight;
  total_wy += weighted_y;
  for (std::size_t i = static_cast<std::size_t>(rank) + 1; i < w.size(); i += i & (~i + 1)) {
    w[i] += weight;
    wy[i] += weighted_y;
  }
}

void AbsoluteErrorCriterion::init(std::span<const Index> rows) {
  m_ = static_cast<Index>(rows.size());
  std::vector<Index> by_y(rows.begin(), rows.end());
  const Vector& y = *data_.y;
  std::sort(by_y.begin(), by_y.end(), [&](Index a, Index b) { return y(a) < y(b) || (y(a) == y(b) && a < b); });
  sorted_y_.resize(by_y.size());
  node_.clear(m_);
  for (Index r = 0; r < m_; ++r) {
    const Index row = by_y[static_cast<std::size_t>(r)];
    rank_of_[static_cast<std::size_t>(row)] = r;
    sorted_y_[static_cast<std::size_t>(r)] = y(row);
    const Scalar w = (*data_.weight)(row);
    node_.add(r, w, w * y(row));
  }
  std::tie(node_deviation_, node_median_) = deviation(Side::Node);
  reset();
}

void AbsoluteErrorCriterion::reset() { left_.clear(m_); }

void AbsoluteErrorCriterion::push_left(Index row) {
  const Scalar w = (*data_.weight)(row);
  left_.add(rank_of_[static_cast<std::size_t>(row)], w, w * (*data_.y)(row));
}

std::pair<Scalar, Scalar> AbsoluteErrorCriterion::prefix(Side side, Index r) const {
  Scalar w = 0, wy = 0;
  for (std::size_t i = static_cast<std::size_t>(r) + 1; i > 0; i -= i & (~i + 1)) {
    if (side != Side::Left) {
      w += node_.w[i];
      wy += node_.wy[i];
    }
    if (side != Side::Node) {
      const Scalar sign = side == Side::Left ? 1 : -1;
      w += sign * left_.w[i];
      wy += sign * left_.wy[i];
    }
  }
  return {w, wy};
}

Index AbsoluteErrorCriterion::first_reaching(Side side, Scalar target, bool strictly) const {
  std::size_t pos = 0, step = 1;
  while (step * 2 <= static_cast<std::size_t>(m_)) step *= 2;
  Scalar acc = 0;
  for (; step > 0; step /= 2) {
    const std::size_t next = pos + step;
    if (next > static_cast<std::size_t>(m_)) continue;
    Scalar w = side == Side::Left ? left_.w[next] : node_.w[next];
    if (side == Side::Right) w -= left_.w[next];
    if (strictly ? acc + w <= target : acc + w < target) {
      pos = next;
      acc += w;
    }
  }
  return static_cast<Index>(std::min(pos, static_cast<std::size_t>(m_ - 1)));
}

std::pair<Scalar, Scalar> AbsoluteErrorCriterion::deviation(Side side) const {
  const Scalar W = side == Side::Node    ? node_.total_w
                   : side == Side::Left ? left_.total_w
                                        : node_.total_w - left_.total_w;
  const Scalar S = side == Side::Node    ? node_.total_wy
                   : side == Side::Left ? left_.total_wy
                                        : node_.total_wy - left_.total_wy;
  const Index k = first_reaching(side, W / 2, false);
  const auto [w_le, s_le] = prefix(side, k);
  Scalar median = sorted_y_[static_cast<std::size_t>(k)];
  if (w_le == W / 2) median = (median + sorted_y_[static_cast<std::size_t>(first_reaching(side, W / 2, true))]) / 2;
  const Scalar dev = median * w_le - s_le + (S - s_le) - median * (W - w_le);
  return {std::max(dev, Scalar(0)), median};
}

std::pair<Scalar, Scalar> AbsoluteErrorCriterion::children_impurity() const {
  const Scalar lw = left_.total_w, rw = node_.total_w - lw;
  return {deviation(Side::Left).first / lw, deviation(Side::Right).first / rw};
}

Scalar AbsoluteErrorCriterion::score() const { return -(deviation(Side::Left).first + deviation(Side::Right).first); }

}  // namespace dagml::tree
