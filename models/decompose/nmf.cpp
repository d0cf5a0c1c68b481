#include "models/decompose/nmf.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "graph/error.h"
#include "graph/parallel_products.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "optim/iteration_loop.h"

namespace dagml {

template class Estimator<NMF, NMFOptions>;

namespace {

constexpr const char* kNMFName = "NMF";
// scikit-learn's EPSILON in sklearn/decomposition/_nmf.py: float32's machine epsilon.
constexpr Scalar kNMFGuard = std::numeric_limits<float>::epsilon();

// ValueError naming `who` unless every entry of M is finite and ≥ 0.
void check_nmf_factor(const Tensor& M, const char* what, const char* who) {
  check_finite(M, who);
  check_non_negative(M, what, who);
}

// X ⊘ WH with a zero (WH)_ij replaced by the guard.
Tensor ratio_to_product(const Tensor& X, const Tensor& W, const Tensor& H) {
  Tensor WH = W * H;
  WH = (WH.array() == 0).select(kNMFGuard, WH);
  return X.cwiseQuotient(WH);
}

// numerator ⊘ denominator with a zero denominator replaced by the guard.
Tensor guarded_quotient(const Tensor& numerator, const Tensor& denominator) {
  return numerator.cwiseQuotient((denominator.array() == 0).select(kNMFGuard, denominator).matrix());
}

// The Frobenius updates of the header with their two n·d·k products on the threads, X Hᵀ for W
// and Wᵀ X for H (by Note [Narrow products] for few factors, by fixed blocks, Note [Fixed-block
// products], otherwise), and the error after each iteration from the
// products already made (Note [NMF stopping]): after an H update
// ‖X − WH‖² = ‖X‖² − 2⟨Wᵀ X, H⟩ + ⟨Wᵀ W, H Hᵀ⟩, and with H fixed (transform) the middle term is
// −2⟨X Hᵀ, W⟩; no third product.
class FrobeniusUpdates {
 public:
  explicit FrobeniusUpdates(const Tensor& X) : X_(X), X_squared_(X.squaredNorm()) {}

  void update_codes(Tensor& W, const Tensor& H) {
    XHt_.resize(X_.rows(), H.rows());
    if (narrow_product_pays(X_.rows(), X_.cols(), H.rows()))
      narrow_product(X_, H, XHt_);
    else
      product_in_row_blocks(X_, H.transpose(), XHt_);
    HHt_ = H * H.transpose();
    W.array() *= guarded_quotient(XHt_, W * HHt_).array();
    WtX_.resize(0, 0);  // X Hᵀ is the latest product
  }

  void update_parts(const Tensor& W, Tensor& H) {
    WtX_.resize(W.cols(), X_.cols());
    transposed_product_with_narrow_left(W, X_, WtX_);
    WtW_ = W.transpose() * W;
    H.array() *= guarded_quotient(WtX_, WtW_ * H).array();
  }

  // ‖X − WH‖_F for the factors of the latest update.
  Scalar error(const Tensor& W, const Tensor& H) {
    Scalar cross = 0;
    if (WtX_.size() > 0) {  // H was updated last: Wᵀ X is for the current W and H
      cross = WtX_.cwiseProduct(H).sum();
    } else {  // H is fixed: X Hᵀ is for it, W is the current one
      WtW_ = W.transpose() * W;
      cross = XHt_.cwiseProduct(W).sum();
    }
    HHt_ = H * H.transpose();
    const Scalar squared = X_squared_ - 2 * cross + WtW_.cwiseProduct(HHt_).sum();
    return std::sqrt(std::max(squared, Scalar(0)));
  }

 private:
  const Tensor& X_;
  Scalar X_squared_;
  Tensor XHt_, WtX_, WtW_, HHt_;
};

// The W update of the header (H fixed), Kullback–Leibler.
void update_codes_kl(const Tensor& X, Tensor& W, const Tensor& H) {
  const Tensor numerator = ratio_to_product(X, W, H) * H.transpose();
  const Vector H_sum = H.rowwise().sum();  // H 1, length k
  const Tensor denominator = Tensor::Ones(W.rows(), 1) * H_sum.transpose();
  W.array() *= guarded_quotient(numerator, denominator).array();
}

// The H update of the header (W fixed), Kullback–Leibler.
void update_parts_kl(const Tensor& X, const Tensor& W, Tensor& H) {
  const Tensor numerator = W.transpose() * ratio_to_product(X, W, H);
  Vector W_sum = W.colwise().sum().transpose();  // Wᵀ 1, length k
  W_sum = (W_sum.array() == 0).select(1.0, W_sum);
  H.array() *= guarded_quotient(numerator, W_sum * Tensor::Ones(1, H.cols())).array();
  H = (H.array() < std::numeric_limits<Scalar>::epsilon()).select(0.0, H);
}

// √(2 D(X‖WH)) (Note [NMF stopping]). For Frobenius without forming the n×d product, as
// scikit-learn: ‖X − WH‖² = ‖X‖² − 2⟨X Hᵀ, W⟩ + ⟨WᵀW, H Hᵀ⟩ (n·d·k operations, no n×d temporary).
Scalar nmf_error(const Tensor& X, const Tensor& W, const Tensor& H, NMFLoss loss) {
  if (loss == NMFLoss::Frobenius) {
    const Scalar squared = X.squaredNorm() - 2 * (X * H.transpose()).cwiseProduct(W).sum() +
                           (W.transpose() * W).cwiseProduct(H * H.transpose()).sum();
    return std::sqrt(std::max(squared, Scalar(0)));
  }
  const Tensor WH = W * H;
  Scalar divergence = W.colwise().sum().dot(H.rowwise().sum());  // Σ (WH)_ij
  for (Index i = 0; i < X.rows(); ++i)
    for (Index j = 0; j < X.cols(); ++j) {
      const Scalar x = X(i, j);
      if (!(x > kNMFGuard)) continue;
      const Scalar wh = WH(i, j) == 0 ? kNMFGuard : WH(i, j);
      divergence += x * std::log(x / wh) - x;
    }
  return std::sqrt(2 * std::max(divergence, Scalar(0)));
}

Vector flatten_factors(const Tensor& W, const Tensor& H) {
  Vector x(W.size() + H.size());
  x.head(W.size()) = Eigen::Map<const Vector>(W.data(), W.size());
  x.tail(H.size()) = Eigen::Map<const Vector>(H.data(), H.size());
  return x;
}

// The multiplicative-update loop of Note [NMF stopping]; H is updated when update_parts is true.
Result multiplicative_updates(const Tensor& X, Tensor& W, Tensor& H, bool update_H, const NMFOptions& o,
                              const CallbackList& callbacks) {
  const Scalar error_at_init = nmf_error(X, W, H, o.loss);
  Scalar previous = error_at_init, error = error_at_init;
  IterationLoop loop({.max_iterations = o.max_iterations, .gradient_tolerance = 0}, callbacks);
  FrobeniusUpdates frobenius(X);
  if (loop.guard("reconstruction error", error) &&
      loop.start(loop.watched() ? flatten_factors(W, H) : Vector(), error)) {
    for (;;) {
      if (o.loss == NMFLoss::Frobenius) {
        frobenius.update_codes(W, H);
        if (update_H) frobenius.update_parts(W, H);
        error = frobenius.error(W, H);
      } else {
        update_codes_kl(X, W, H);
        if (update_H) update_parts_kl(X, W, H);
        error = nmf_error(X, W, H, o.loss);
      }
      if (!loop.guard("reconstruction error", error, W, H)) break;
      if (loop.step(error, IterationLoop::kNotComputed, loop.watched() ? flatten_factors(W, H) : Vector())) break;
      if (o.tolerance > 0 && loop.iteration() % 10 == 0) {
        if ((previous - error) < o.tolerance * error_at_init) {
          loop.converge(Status::ValueTolerance,
                        fmt::format("the reconstruction error fell by {:.3g} over the last 10 iterations, less than "
                                    "tolerance × the initial error ({:.3g})",
                                    previous - error, o.tolerance * error_at_init));
          break;
        }
        previous = error;
      }
      if (loop.exhausted()) break;
    }
  }
  Result result;
  result.value = error;
  result.gradient_norm = IterationLoop::kNotComputed;
  return loop.finish(std::move(result));
}

// a·|z| entries, a = √(mean(X)/k).
Tensor random_factor(Index rows, Index cols, Scalar scale, std::mt19937_64& rng) {
  Tensor M(rows, cols);
  for (Index i = 0; i < M.size(); ++i) M.data()[i] = scale * std::abs(standard_normal(rng));
  return M;
}

}  // namespace

NMF::NMF(NMFOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  if (o.num_components < 1)
    throw ValueError(fmt::format("{}: expected num_components ≥ 1, found {}", kNMFName, o.num_components));
  if (o.max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", kNMFName, o.max_iterations));
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance))
    throw ValueError(fmt::format("{}: expected a finite tolerance ≥ 0, found {}", kNMFName, o.tolerance));
  if (o.init == NMFInit::Given) {
    if (o.initial_W.cols() != o.num_components || o.initial_H.rows() != o.num_components || o.initial_W.rows() == 0 ||
        o.initial_H.cols() == 0)
      throw ValueError(
          fmt::format("{}: expected initial_W n×{} and initial_H {}×d for init = given, found {}×{} and "
                      "{}×{}",
                      kNMFName, o.num_components, o.num_components, o.initial_W.rows(), o.initial_W.cols(),
                      o.initial_H.rows(), o.initial_H.cols()));
    check_nmf_factor(o.initial_W, "initial_W", kNMFName);
    check_nmf_factor(o.initial_H, "initial_H", kNMFName);
  }
}

NMF& NMF::fit(const Tensor& X, const CallbackList& callbacks) {
  const char* who = "NMF::fit";
  check_fit_data(X, who);
  check_nmf_factor(X, "data", who);
  const auto& o = options_;
  const Index n = X.rows(), d = X.cols(), k = o.num_components;
  const Scalar mean = X.mean();
  if (!(mean > 0)) throw ValueError(fmt::format("{}: expected data with a positive entry, found all zeros", who));
  Tensor W, H;
  if (o.init == NMFInit::Given) {
    if (o.initial_W.rows() != n || o.initial_H.cols() != d)
      throw ShapeError(fmt::format(
          "{}: expected initial_W {}×{} and initial_H {}×{} for data {}×{}, found {}×{} and "
          "{}×{}",
          who, n, k, k, d, n, d, o.initial_W.rows(), o.initial_W.cols(), o.initial_H.rows(), o.initial_H.cols()));
    W = o.initial_W;
    H = o.initial_H;
  } else {
    std::mt19937_64 rng(o.seed);
    const Scalar scale = std::sqrt(mean / static_cast<Scalar>(k));
    H = random_factor(k, d, scale, rng);
    W = random_factor(n, k, scale, rng);
  }
  Result result = multiplicative_updates(X, W, H, /*update_H=*/true, o, callbacks);
  if (result.status == Status::NumericalFailure) throw NumericalError(fmt::format("{}: {}", who, result.message));
  H_ = std::move(H);
  W_train_ = std::move(W);
  reconstruction_error_ = result.value;
  num_iter_ = result.iterations;
  converged_ = result.converged();
  result_ = std::move(result);
  set_fitted(d);
  return *this;
}

Tensor NMF::fit_transform(const Tensor& X, const CallbackList& callbacks) { return fit(X, callbacks).W_train_; }

Tensor NMF::transform(const Tensor& X) const {
  check_input(X);
  const char* who = "NMF::transform";
  check_nmf_factor(X, "data", who);
  const Index k = H_.rows();
  Tensor W = Tensor::Constant(X.rows(), k, std::sqrt(X.mean() / static_cast<Scalar>(k)));
  Tensor H = H_;
  const Result result = multiplicative_updates(X, W, H, /*update_H=*/false, options_, {});
  if (result.status == Status::NumericalFailure) throw NumericalError(fmt::format("{}: {}", who, result.message));
  return W;
}

Tensor NMF::inverse_transform(const Tensor& W) const {
  require_fitted();
  const char* who = "NMF::inverse_transform";
  check_columns(W, H_.rows(), who);
  check_finite(W, who);
  return W * H_;
}

void NMF::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  expect_shape(ar, kNMFName, "components", H_, options_.num_components, num_features());
  if (!H_.allFinite() || !(H_.array() >= 0).all())
    ar.fail(
        fmt::format("{}: expected finite non-negative components, found a negative, NaN or infinite entry", kNMFName));
  if (!std::isfinite(reconstruction_error_) || reconstruction_error_ < 0)
    ar.fail(fmt::format("{}: expected a finite reconstruction error ≥ 0, found {}", kNMFName, reconstruction_error_));
}

}  // namespace dagml
