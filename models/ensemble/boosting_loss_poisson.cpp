// Poisson deviance with the log link, ℓ = e^F − yF (Note [Boosting losses]).
#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/ensemble/boosting_loss.h"

namespace dagml {
namespace {

class PoissonBoostingLoss final : public BoostingLoss {
 public:
  std::string name() const override { return "poisson"; }
  BoostingLink link() const override { return BoostingLink::Exp; }
  void check_targets(const Vector& y, const char* who) const override {
    for (Index i = 0; i < y.size(); ++i)
      if (y(i) < 0) throw ValueError(fmt::format("{}: expected targets ≥ 0 for the Poisson loss, found y[{}] = {}", who, i, y(i)));
    if (!(y.maxCoeff() > 0)) throw ValueError(fmt::format("{}: expected a positive target for the Poisson loss, found all 0", who));
  }
  Vector baseline(const Vector& y, const Vector& w, Index /*outputs*/) const override {
    return Vector::Constant(1, std::log(y.dot(w) / w.sum()));
  }
  void gradients(const Vector& y, const Tensor& F, Tensor& G, Tensor& H) const override {
    H = F.array().exp().matrix();
    G = H.col(0) - y;
  }
  Vector row_losses(const Vector& y, const Tensor& F) const override {
    return (F.col(0).array().exp() - y.array() * F.col(0).array()).matrix();
  }
};

}  // namespace

std::unique_ptr<BoostingLoss> make_poisson_boosting_loss() { return std::make_unique<PoissonBoostingLoss>(); }

}  // namespace dagml
