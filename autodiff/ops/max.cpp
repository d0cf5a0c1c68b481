#include "autodiff/ops/argmax_source.h"
#include "autodiff/reduce.h"

namespace dagml {
namespace {

// y = max x over all entries (1×1) or per row (n×1). Forward saves the flat index of the first
// maximum of each group; the gradient is routed there:  x̄ = ȳ at each saved argmax, 0 elsewhere.
class Max final : public detail::ArgmaxSource {
 public:
  explicit Max(Axis axis) : axis_(axis) {}
  const char* name() const override { return "max"; }
  std::string attributes() const override { return axis_ == Axis::All ? "" : "per row"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].size() == 0) shape_error(*this, in, "the maximum of an empty tensor is undefined");
    return axis_ == Axis::All ? Shape{1, 1} : Shape{in[0].rows, 1};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    argmax_.resize(static_cast<std::size_t>(a.out.rows()));
    if (axis_ == Axis::All) {
      Index r = 0, c = 0;
      a.out(0, 0) = x.maxCoeff(&r, &c);
      argmax_[0] = r * x.cols() + c;
    } else {
      for (Index i = 0; i < x.rows(); ++i) {
        Index c = 0;
        a.out(i, 0) = x.row(i).maxCoeff(&c);
        argmax_[static_cast<std::size_t>(i)] = i * x.cols() + c;
      }
    }
  }
  VarList vjp(const VjpArgs& a) const override { return {detail::argmax_scatter(a.in[0], a.out, a.g)}; }
  // ẏ = ẋ at each saved argmax, for either axis: each tangent row gathered at those positions
  // (q × size(y)), the argmax fixed as in the VJP.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    return detail::argmax_gather_rows(t, a.out);
  }
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override { return std::make_shared<Max>(*this); }

 private:
  Axis axis_;
};

}  // namespace

Var max(Var x) { return x.graph().apply(std::make_shared<Max>(Axis::All), {x}); }
Var row_max(Var x) { return x.graph().apply(std::make_shared<Max>(Axis::PerRow), {x}); }

}  // namespace dagml
