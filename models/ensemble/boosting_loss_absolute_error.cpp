// Absolute error ℓ = |F − y|, median leaves (Note [Boosting losses]).
#include "models/ensemble/boosting_loss.h"
#include "models/ensemble/gradient_boosting.h"

namespace dagml {
namespace {

class AbsoluteErrorBoostingLoss final : public BoostingLoss {
 public:
  std::string name() const override { return "absolute_error"; }
  BoostingLink link() const override { return BoostingLink::Identity; }
  Vector baseline(const Vector& y, const Vector& w, Index /*outputs*/) const override {
    return Vector::Constant(1, boosting::weighted_median(y, w));
  }
  void gradients(const Vector& y, const Tensor& F, Tensor& G, Tensor& H) const override {
    G = (F.col(0) - y).array().sign().matrix();
    H = Tensor::Ones(y.size(), 1);
  }
  Vector row_losses(const Vector& y, const Tensor& F) const override { return (F.col(0) - y).cwiseAbs(); }
  bool median_leaves() const override { return true; }
};

}  // namespace

std::unique_ptr<BoostingLoss> make_absolute_error_boosting_loss() {
  return std::make_unique<AbsoluteErrorBoostingLoss>();
}

}  // namespace dagml
