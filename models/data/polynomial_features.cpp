#include "models/data/polynomial_features.h"

#include <cmath>
#include <limits>
#include <numeric>

#include "graph/error.h"
#include "models/data/file_io.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<PolynomialFeatures, PolynomialFeaturesOptions>;

// C(ℓ+p, ℓ) = Πᵢ₌₁ᵐ (M + i) / i with m = min(ℓ, p), M = max(ℓ, p). After step i the running value
// r is C(M+i, i), an integer; to keep r·(M+i) from overflowing, divide first: with g = gcd(r, i),
// r·(M+i)/i = (r/g)·((M+i)/(i/g)), and i/g divides M+i because gcd(r/g, i/g) = 1.
std::uint64_t num_polynomial_features(Index num_inputs, Index degree) {
  if (num_inputs < 0 || degree < 0) {
    throw ValueError(
        fmt::format("num_polynomial_features: expected ℓ ≥ 0 and p ≥ 0, found ℓ = {}, p = {}",
                    num_inputs, degree));
  }
  const auto m = static_cast<std::uint64_t>(std::min(num_inputs, degree));
  const auto big = static_cast<std::uint64_t>(std::max(num_inputs, degree));
  std::uint64_t r = 1;
  for (std::uint64_t i = 1; i <= m; ++i) {
    const std::uint64_t g = std::gcd(r, i);
    const std::uint64_t a = r / g, b = (big + i) / (i / g);
    if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) {
      throw ValueError(fmt::format("num_polynomial_features: C(ℓ + p, ℓ) for ℓ = {}, p = {} does not fit in 64 bits",
                                   num_inputs, degree));
    }
    r = a * b;
  }
  return r;
}

PolynomialFeatures::PolynomialFeatures(const PolynomialFeaturesOptions& options)
    : Estimator(options) {
  if (options.degree < 0) {
    throw ValueError(
        fmt::format("PolynomialFeatures: expected degree ≥ 0, found {}", options.degree));
  }
  if (options.max_output_features < 1) {
    throw ValueError(fmt::format("PolynomialFeatures: expected max_output_features ≥ 1, found {}",
                                 options.max_output_features));
  }
  if (options.degree == 0 && !options.include_bias) {
    throw ValueError("PolynomialFeatures: degree 0 without the bias leaves no features");
  }
}

PolynomialFeatures& PolynomialFeatures::fit(const Tensor& X) {
  check_fit_data(X, "PolynomialFeatures::fit");
  build(X.cols());
  return *this;
}

void PolynomialFeatures::rebuild_loaded() {
  (void)PolynomialFeatures(options_);
  if (!fitted()) return;
  // Note [File allocation limit] (models/data/file_io.h); build() keeps these per monomial.
  constexpr std::uint64_t kBytesPerMonomial = 2 * sizeof(Index) + 2 * sizeof(double) + sizeof(int);
  const std::uint64_t total = num_polynomial_features(num_features(), options_.degree);
  if (total > file_allocation_limit() / kBytesPerMonomial) {
    throw LimitError(fmt::format("PolynomialFeatures: degree {} on {} inputs gives {} monomials, more than the file "
                                 "allocation limit of {} bytes holds",
                                 options_.degree, num_features(), total, file_allocation_limit()));
  }
  build(num_features());
}

void PolynomialFeatures::build(Index ell) {
  const Index p = options_.degree;
  const std::uint64_t total = num_polynomial_features(ell, p);
  const std::uint64_t outputs = total - (options_.include_bias ? 0 : 1);
  if (outputs > static_cast<std::uint64_t>(options_.max_output_features)) {
    throw ValueError(
        fmt::format("PolynomialFeatures: degree {} on {} inputs gives {} features, "
                    "more than max_output_features = {}",
                    p, ell, outputs, options_.max_output_features));
  }

  // Degree-k monomials from degree-(k−1) ones: extend each, in order, by every variable v at or
  // above its largest index. This lists index tuples i₁ ≤ … ≤ iₖ in lexicographic order.
  //
  // Kernel scaling: monomial k = (parent q)·x_v has multinomial coefficient
  //   p! / (α₁! ⋯ α_ℓ! (p − |α|)!) = mult(q) · (p − |α_q|) / α_v,
  // where α_v is the exponent of x_v in monomial k (its run of v's). Every value is an integer,
  // exact in double for any practical p; the column factor is its square root.
  parent_.assign(1, -1);
  var_.assign(1, -1);
  std::vector<double> multinomial(1, 1.0);
  std::vector<int> run(1, 0);  // exponent of var_[k] in monomial k
  std::size_t level_begin = 0, level_end = 1;
  for (Index k = 1; k <= p; ++k) {
    for (std::size_t q = level_begin; q < level_end; ++q) {
      for (Index v = std::max<Index>(var_[q], 0); v < ell; ++v) {
        const int a = var_[q] == v ? run[q] + 1 : 1;
        parent_.push_back(static_cast<Index>(q));
        var_.push_back(v);
        run.push_back(a);
        multinomial.push_back(multinomial[q] * static_cast<double>(p - (k - 1)) / a);
      }
    }
    level_begin = level_end;
    level_end = parent_.size();
  }
  DAGML_CHECK(parent_.size() == total, "generated {} monomials, expected C(ℓ+p, ℓ) = {}",
              parent_.size(), total);

  const std::size_t first = options_.include_bias ? 0 : 1;
  coefficients_.setOnes(static_cast<Index>(total - first));
  if (options_.kernel_scaling) {
    for (std::size_t k = first; k < total; ++k) {
      coefficients_(static_cast<Index>(k - first)) = std::sqrt(multinomial[k]);
    }
  }
  set_fitted(ell);
}

Tensor PolynomialFeatures::transform(const Tensor& X) const {
  check_input(X);
  const auto total = static_cast<Index>(parent_.size());
  const Index first = options_.include_bias ? 0 : 1;
  Tensor out(X.rows(), total - first);
  Vector m(total);  // all monomials of one row
  for (Index i = 0; i < X.rows(); ++i) {
    m(0) = 1.0;
    for (Index k = 1; k < total; ++k) {
      m(k) = m(parent_[static_cast<std::size_t>(k)]) * X(i, var_[static_cast<std::size_t>(k)]);
    }
    out.row(i) = (m.tail(total - first).array() * coefficients_.array()).transpose();
  }
  return out;
}

Tensor PolynomialFeatures::fit_transform(const Tensor& X) { return fit(X).transform(X); }

Index PolynomialFeatures::num_output_features() const {
  require_fitted();
  return coefficients_.size();
}

Eigen::Matrix<int, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> PolynomialFeatures::powers()
    const {
  require_fitted();
  const auto total = static_cast<Index>(parent_.size());
  Eigen::Matrix<int, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> all =
      Eigen::Matrix<int, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>::Zero(total, num_features());
  for (Index k = 1; k < total; ++k) {
    all.row(k) = all.row(parent_[static_cast<std::size_t>(k)]);
    ++all(k, var_[static_cast<std::size_t>(k)]);
  }
  const Index first = options_.include_bias ? 0 : 1;
  return all.bottomRows(total - first);
}

const Vector& PolynomialFeatures::coefficients() const {
  require_fitted();
  return coefficients_;
}

std::vector<std::string> PolynomialFeatures::feature_names(
    const std::vector<std::string>& input_names) const {
  require_fitted();
  if (!input_names.empty() && static_cast<Index>(input_names.size()) != num_features()) {
    throw ShapeError(
        fmt::format("PolynomialFeatures::feature_names: expected {} input names, found {}",
                    num_features(), input_names.size()));
  }
  const auto name = [&](Index j) {
    return input_names.empty() ? fmt::format("x{}", j) : input_names[static_cast<std::size_t>(j)];
  };
  const auto P = powers();
  std::vector<std::string> names;
  for (Index k = 0; k < P.rows(); ++k) {
    std::string s;
    for (Index j = 0; j < num_features(); ++j) {
      if (P(k, j) == 0) continue;
      if (!s.empty()) s += ' ';
      s += name(j);
      if (P(k, j) > 1) s += fmt::format("^{}", P(k, j));
    }
    names.push_back(s.empty() ? "1" : s);
  }
  return names;
}

}  // namespace dagml
