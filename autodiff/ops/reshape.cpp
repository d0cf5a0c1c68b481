#include <fmt/format.h>

#include "autodiff/structure.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// Y = X with the same row-major entries and a new shape:  X̄ = Ȳ reshaped like X.
// Either a fixed shape (one side may be −1, inferred) or, with a second input, that input's shape.
class Reshape final : public Op {
 public:
  Reshape(Index rows, Index cols) : rows_(rows), cols_(cols) {}
  const char* name() const override { return "reshape"; }
  std::string attributes() const override { return like_mode() ? "like" : fmt::format("{}×{}", rows_, cols_); }
  Shape infer_shape(std::span<const Shape> in) const override {
    const Index n = in[0].size();
    Shape out = like_mode() ? in[1] : Shape{rows_, cols_};
    if (!like_mode()) {
      if (out.rows == -1 && out.cols > 0 && n % out.cols == 0) out.rows = n / out.cols;
      if (out.cols == -1 && out.rows > 0 && n % out.rows == 0) out.cols = n / out.rows;
    }
    if (out.rows < 0 || out.cols < 0 || out.size() != n)
      shape_error(*this, in, fmt::format("cannot hold {} entries in shape {}", n,
                                         like_mode() ? to_string(out) : attributes()));
    return out;
  }
  void forward(const ForwardArgs& a) override {
    a.out = Eigen::Map<const Tensor>(a.in[0]->data(), a.out.rows(), a.out.cols());
  }
  VarList vjp(const VjpArgs& a) const override {
    VarList grads{reshape_like(a.g, a.in[0])};
    if (like_mode()) grads.push_back(Var{});
    return grads;
  }
  // Row-major entries do not move, so a batched cotangent passes through unchanged.
  VarList batched_vjp(const BatchedVjpArgs& a) const override {
    VarList grads{a.g};
    if (like_mode()) grads.push_back(Var{});
    return grads;
  }
  // And so does a batched tangent: Ẏ = Ẋ in the flattened layout.
  std::optional<Var> jvp(const JvpArgs& a) const override { return a.tangents[0]; }

 private:
  bool like_mode() const { return rows_ == kLike; }
  static constexpr Index kLike = -2;
  Index rows_, cols_;
};

}  // namespace

Var reshape(Var x, Index rows, Index cols) {
  return x.graph().apply(std::make_shared<Reshape>(rows, cols), {x});
}
Var reshape_like(Var x, Var like) {
  static const auto op = std::make_shared<Reshape>(-2, -2);
  return x.graph().apply(op, {x, like});
}

}  // namespace dagml
