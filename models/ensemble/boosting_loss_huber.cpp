// Huber loss with threshold δ (Note [Boosting losses]).
#include "models/ensemble/boosting_loss.h"
#include "models/ensemble/gradient_boosting.h"

namespace dagml {
namespace {

class HuberBoostingLoss final : public BoostingLoss {
 public:
  explicit HuberBoostingLoss(Scalar delta) : delta_(delta) {}
  std::string name() const override { return "huber"; }
  BoostingLink link() const override { return BoostingLink::Identity; }
  Vector baseline(const Vector& y, const Vector& w, Index /*outputs*/) const override {
    return Vector::Constant(1, boosting::weighted_median(y, w));
  }
  void gradients(const Vector& y, const Tensor& F, Tensor& G, Tensor& H) const override {
    G = (F.col(0) - y).cwiseMax(-delta_).cwiseMin(delta_);
    H = Tensor::Ones(y.size(), 1);
  }
  Vector row_losses(const Vector& y, const Tensor& F) const override {
    const auto r = (F.col(0) - y).cwiseAbs().array();
    return (r <= delta_).select(0.5 * r.square(), delta_ * (r - 0.5 * delta_)).matrix();
  }

 private:
  Scalar delta_;
};

}  // namespace

std::unique_ptr<BoostingLoss> make_huber_boosting_loss(Scalar delta) { return std::make_unique<HuberBoostingLoss>(delta); }

}  // namespace dagml
