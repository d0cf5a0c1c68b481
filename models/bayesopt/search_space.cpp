#include "models/bayesopt/search_space.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "graph/random.h"

namespace dagml {

SearchDimension SearchDimension::real(std::string name, Scalar lower, Scalar upper, bool log_scale) {
  return {.name = std::move(name), .kind = Kind::Real, .lower = lower, .upper = upper, .log_scale = log_scale};
}
SearchDimension SearchDimension::integer(std::string name, Scalar lower, Scalar upper, bool log_scale) {
  return {.name = std::move(name), .kind = Kind::Integer, .lower = lower, .upper = upper, .log_scale = log_scale};
}
SearchDimension SearchDimension::categorical(std::string name, Index categories) {
  return {.name = std::move(name), .kind = Kind::Categorical, .categories = categories};
}

SearchSpace::SearchSpace(std::vector<SearchDimension> dimensions) : dimensions_(std::move(dimensions)) {
  if (dimensions_.empty()) throw ValueError("SearchSpace: expected at least one dimension, found none");
  for (const SearchDimension& d : dimensions_) {
    if (d.kind == SearchDimension::Kind::Categorical) {
      if (d.categories < 2)
        throw ValueError(fmt::format("SearchSpace: categorical {} needs ≥ 2 categories, found {}", d.name, d.categories));
      encoded_size_ += d.categories;
      continue;
    }
    if (!std::isfinite(d.lower) || !std::isfinite(d.upper) || !(d.lower < d.upper))
      throw ValueError(fmt::format("SearchSpace: {} needs finite bounds lower < upper, found [{}, {}]", d.name, d.lower,
                                   d.upper));
    if (d.log_scale && !(d.lower > 0))
      throw ValueError(fmt::format("SearchSpace: {} on a log scale needs lower > 0, found {}", d.name, d.lower));
    if (d.kind == SearchDimension::Kind::Integer && (d.lower != std::round(d.lower) || d.upper != std::round(d.upper)))
      throw ValueError(fmt::format("SearchSpace: integer {} needs integer bounds, found [{}, {}]", d.name, d.lower, d.upper));
    ++encoded_size_;
  }
}

namespace {
Scalar to_unit(const SearchDimension& d, Scalar v) {
  return d.log_scale ? (std::log(v) - std::log(d.lower)) / (std::log(d.upper) - std::log(d.lower))
                     : (v - d.lower) / (d.upper - d.lower);
}
Scalar from_unit(const SearchDimension& d, Scalar u) {
  u = std::clamp(u, Scalar(0), Scalar(1));
  const Scalar v = d.log_scale ? std::exp(std::log(d.lower) + u * (std::log(d.upper) - std::log(d.lower)))
                               : d.lower + u * (d.upper - d.lower);
  return d.kind == SearchDimension::Kind::Integer ? std::clamp(std::round(v), d.lower, d.upper) : std::clamp(v, d.lower, d.upper);
}
}  // namespace

Vector SearchSpace::encode(const Vector& point) const {
  if (point.size() != size())
    throw ShapeError(fmt::format("SearchSpace::encode: expected a point of {} coordinates, found {}", size(), point.size()));
  Vector u = Vector::Zero(encoded_size_);
  Index at = 0;
  for (Index j = 0; j < size(); ++j) {
    const SearchDimension& d = dimensions_[static_cast<std::size_t>(j)];
    const Scalar v = point[j];
    if (d.kind == SearchDimension::Kind::Categorical) {
      if (!(v >= 0 && v < static_cast<Scalar>(d.categories) && v == std::round(v)))
        throw ValueError(fmt::format("SearchSpace: {} expects a category 0..{}, found {}", d.name, d.categories - 1, v));
      u[at + static_cast<Index>(v)] = 1;
      at += d.categories;
      continue;
    }
    if (!(v >= d.lower && v <= d.upper))
      throw ValueError(fmt::format("SearchSpace: {} expects a value in [{}, {}], found {}", d.name, d.lower, d.upper, v));
    u[at++] = to_unit(d, v);
  }
  return u;
}

Vector SearchSpace::decode(const Vector& u) const {
  if (u.size() != encoded_size_)
    throw ShapeError(fmt::format("SearchSpace::decode: expected {} unit-box coordinates, found {}", encoded_size_, u.size()));
  Vector point(size());
  Index at = 0;
  for (Index j = 0; j < size(); ++j) {
    const SearchDimension& d = dimensions_[static_cast<std::size_t>(j)];
    if (d.kind == SearchDimension::Kind::Categorical) {
      Index best = 0;
      u.segment(at, d.categories).maxCoeff(&best);
      point[j] = static_cast<Scalar>(best);
      at += d.categories;
    } else {
      point[j] = from_unit(d, u[at++]);
    }
  }
  return point;
}

Tensor SearchSpace::latin_hypercube(Index n, std::mt19937_64& rng) const {
  Tensor U(n, encoded_size_);
  std::vector<Index> strata(static_cast<std::size_t>(n));
  for (Index c = 0; c < encoded_size_; ++c) {
    for (Index i = 0; i < n; ++i) strata[static_cast<std::size_t>(i)] = i;
    shuffle_indices(strata, rng);
    for (Index i = 0; i < n; ++i)
      U(i, c) = (static_cast<Scalar>(strata[static_cast<std::size_t>(i)]) + uniform01(rng)) / static_cast<Scalar>(n);
  }
  for (Index i = 0; i < n; ++i) U.row(i) = snap(U.row(i).transpose()).transpose();
  return U;
}

Tensor SearchSpace::uniform(Index n, std::mt19937_64& rng) const {
  Tensor U(n, encoded_size_);
  for (Index k = 0; k < U.size(); ++k) U.data()[k] = uniform01(rng);
  return U;
}

}  // namespace dagml
