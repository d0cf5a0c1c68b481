// Binary logistic loss ℓ = log(1 + e^F) − yF, y ∈ {0, 1} (Note [Boosting losses]).
#include <algorithm>
#include <cmath>

#include "autodiff/logistic.h"
#include "models/ensemble/boosting_loss.h"

namespace dagml {
namespace {

class LogisticBoostingLoss final : public BoostingLoss {
 public:
  std::string name() const override { return "logistic"; }
  BoostingLink link() const override { return BoostingLink::Sigmoid; }
  // F⁰ = log(p̄/(1 − p̄)), the root of Σ g_i(c) = Σ (σ(c) − y_i): found by the shared Newton
  // iteration (BoostingLoss::baseline), which a graph loss runs the same way.
  // The rounding of g, h and ℓ follows the graph ops sigmoid and binary_cross_entropy (autodiff/):
  // p = σ(F) (e^F/(1 + e^F) for F < 0), g = p − y, h = p − p², ℓ = max(F, 0) − F y + log1p(e^{−|F|})
  // (Note [Vectorised logistic functions]),
  // so the graph form of this loss (binary_cross_entropy_with_logits_elementwise) grows bit for
  // bit the same model (Note [Graph losses]).
  void gradients(const Vector& y, const Tensor& F, Tensor& G, Tensor& H) const override {
    Tensor P(y.size(), 1);
    detail::logistic(F.array(), P.array());
    G = P - y;
    // p² is stored before the subtraction, as the graph's square node is: a fused multiply-add
    // of p − p·p would round differently.
    const Tensor P2 = P.array().square().matrix();
    H = P - P2;
  }
  Vector row_losses(const Vector& y, const Tensor& F) const override {
    // Contiguous views, so that Eigen vectorises these expressions as it does the graph op's
    // (a column view of a row-major F would take the scalar exp and log, which round differently).
    const Eigen::Map<const Eigen::ArrayXd> z(F.data(), F.rows()), t(y.data(), y.size());
    return (z.max(Scalar(0)) - z * t + detail::log1p_exp_minus_abs(z)).matrix();
  }
};

}  // namespace

std::unique_ptr<BoostingLoss> make_logistic_boosting_loss() { return std::make_unique<LogisticBoostingLoss>(); }

}  // namespace dagml
