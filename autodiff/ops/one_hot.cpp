#include <cmath>
#include <fmt/format.h>

#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// Y[i, j] = [labels[i] = j]. Labels are discrete: no gradient.
class OneHot final : public Op {
 public:
  explicit OneHot(Index k) : k_(k) {}
  const char* name() const override { return "one_hot"; }
  std::string attributes() const override { return fmt::format("k={}", k_); }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].cols != 1) shape_error(*this, in, "labels must be an n×1 column");
    if (k_ < 1) shape_error(*this, in, fmt::format("the number of classes must be positive, found {}", k_));
    return {in[0].rows, k_};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& labels = *a.in[0];
    a.out.setZero();
    for (Index i = 0; i < labels.rows(); ++i) {
      const Scalar v = labels(i, 0);
      if (!(v >= 0 && v < static_cast<Scalar>(k_)) || v != std::floor(v))
        throw ValueError(fmt::format("one_hot: label {} in row {} is not an integer in [0, {})", v, i, k_));
      a.out(i, static_cast<Index>(v)) = 1;
    }
  }
  VarList vjp(const VjpArgs&) const override { return {Var{}}; }
  std::optional<Var> jvp(const JvpArgs&) const override { return Var{}; }  // labels: no tangent

 private:
  Index k_;
};

}  // namespace

Var one_hot(Var labels, Index k) { return labels.graph().apply(std::make_shared<OneHot>(k), {labels}); }

}  // namespace dagml
