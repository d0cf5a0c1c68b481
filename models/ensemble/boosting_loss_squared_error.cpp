// Squared error ℓ = (F − y)²/2 (Note [Boosting losses]).
#include "models/ensemble/boosting_loss.h"

namespace dagml {
namespace {

class SquaredErrorBoostingLoss final : public BoostingLoss {
 public:
  std::string name() const override { return "squared_error"; }
  BoostingLink link() const override { return BoostingLink::Identity; }
  Vector baseline(const Vector& y, const Vector& w, Index /*outputs*/) const override {
    return Vector::Constant(1, y.dot(w) / w.sum());
  }
  void gradients(const Vector& y, const Tensor& F, Tensor& G, Tensor& H) const override {
    G = F.col(0) - y;
    H = Tensor::Ones(y.size(), 1);
  }
  Vector row_losses(const Vector& y, const Tensor& F) const override {
    return 0.5 * (F.col(0) - y).array().square().matrix();
  }
};

}  // namespace

std::unique_ptr<BoostingLoss> make_squared_error_boosting_loss() {
  return std::make_unique<SquaredErrorBoostingLoss>();
}

}  // namespace dagml
