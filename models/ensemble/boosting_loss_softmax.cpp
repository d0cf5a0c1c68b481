// Multiclass softmax loss ℓ = log Σ_k e^{F_k} − F_y, one tree per class per round
// (Note [Boosting losses]).
#include <algorithm>
#include <cmath>
#include <limits>

#include "autodiff/softmax.h"
#include "models/ensemble/boosting_loss.h"

namespace dagml {
namespace {

class SoftmaxBoostingLoss final : public BoostingLoss {
 public:
  std::string name() const override { return "softmax"; }
  BoostingLink link() const override { return BoostingLink::Softmax; }
  Index num_outputs(Index num_classes) const override { return num_classes; }
  Vector baseline(const Vector& y, const Vector& w, Index outputs) const override {
    constexpr Scalar eps = std::numeric_limits<Scalar>::epsilon();
    Vector share = Vector::Zero(outputs);
    for (Index i = 0; i < y.size(); ++i) share(static_cast<Index>(y(i))) += w(i);
    share /= w.sum();
    Vector log_p(outputs);
    for (Index k = 0; k < outputs; ++k) log_p(k) = std::log(std::clamp(share(k), eps, 1 - eps));
    return log_p.array() - log_p.mean();
  }
  // p = softmax(F_i), g = p − onehot(y_i), h = p ⊙ (1 − p). The exponentials e^{F_ik − max_k F_ik}
  // are vectorised over the whole matrix (F is finite), each row's arithmetic independent of its
  // place, so that ranks holding different rows compute them alike (Note [Gradient boosting over
  // ranks]).
  void gradients(const Vector& y, const Tensor& F, Tensor& G, Tensor& H) const override {
    detail::softmax_rows(F, G);
    H = (G.array() * (1 - G.array())).matrix();
    for (Index i = 0; i < y.size(); ++i) G(i, static_cast<Index>(y(i))) -= 1;
  }
  // ℓ_i = log Σ_k e^{F_ik} − F_iy, the log-sum-exp shifted by the row maximum.
  Vector row_losses(const Vector& y, const Tensor& F) const override {
    Tensor P;
    Vector out;
    detail::softmax_rows(F, P, &out);
    for (Index i = 0; i < y.size(); ++i) out(i) -= F(i, static_cast<Index>(y(i)));
    return out;
  }
};

}  // namespace

std::unique_ptr<BoostingLoss> make_softmax_boosting_loss() { return std::make_unique<SoftmaxBoostingLoss>(); }

}  // namespace dagml
