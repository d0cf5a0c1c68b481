// The space Bayesian optimisation searches: real, integer and categorical dimensions, mapped to
// the unit box the Gaussian process and the acquisition optimiser work in.
//
//   real(lower, upper)        u = (v − lower)/(upper − lower), or of log v with log_scale
//   integer(lower, upper)     the same, decoded to the nearest integer in [lower, upper]
//   categorical(count)        a one-hot block of `count` coordinates, decoded to its largest
//
// The acquisition is maximised over the continuous relaxation (the box [0, 1]ᴰ) and the winner
// is decoded, so integer and categorical dimensions get values they can take (Garrido-Merchán &
// Hernández-Lobato 2020 round inside the kernel instead; rounding the proposal is the simpler
// scheme of scikit-optimize). A point's natural form holds one number per dimension: the value,
// or the category index 0..count−1.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "graph/enum_names.h"
#include "graph/tensor.h"

namespace dagml {

struct SearchDimension {
  enum class Kind { Real, Integer, Categorical };
  friend constexpr auto enum_names(Kind) {
    return std::to_array<EnumName<Kind>>(
        {{Kind::Real, "real"}, {Kind::Integer, "integer"}, {Kind::Categorical, "categorical"}});
  }
  std::string name;
  Kind kind = Kind::Real;
  Scalar lower = 0, upper = 1;  // Real and Integer, inclusive
  bool log_scale = false;       // Real and Integer: uniform in log v (lower > 0)
  Index categories = 0;         // Categorical: the number of choices

  static SearchDimension real(std::string name, Scalar lower, Scalar upper, bool log_scale = false);
  static SearchDimension integer(std::string name, Scalar lower, Scalar upper, bool log_scale = false);
  static SearchDimension categorical(std::string name, Index categories);
};

class SearchSpace {
 public:
  // Throws ValueError for an empty space, lower ≥ upper, non-finite bounds, log_scale with
  // lower ≤ 0, integer bounds that are not integers, or fewer than 2 categories.
  explicit SearchSpace(std::vector<SearchDimension> dimensions);

  Index size() const { return static_cast<Index>(dimensions_.size()); }  // natural coordinates
  Index encoded_size() const { return encoded_size_; }                    // unit-box coordinates
  const std::vector<SearchDimension>& dimensions() const { return dimensions_; }

  // Natural point → unit box, and back (rounding integers, argmax of one-hot blocks). ShapeError
  // for a wrong length; encode throws ValueError for a value outside its dimension.
  Vector encode(const Vector& point) const;
  Vector decode(const Vector& u) const;
  // A point of the box moved onto the values the space can take: encode(decode(u)).
  Vector snap(const Vector& u) const { return encode(decode(u)); }

  // n points of a Latin hypercube in the box (one per stratum of each coordinate), snapped; seeded.
  Tensor latin_hypercube(Index n, std::mt19937_64& rng) const;
  // n uniform points of the box (not snapped).
  Tensor uniform(Index n, std::mt19937_64& rng) const;

 private:
  std::vector<SearchDimension> dimensions_;
  Index encoded_size_ = 0;
};

}  // namespace dagml
