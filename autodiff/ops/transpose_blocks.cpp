#include <fmt/format.h>

#include "autodiff/structure.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// X (r × b·c) read as an r × b grid of 1×c blocks; Y (b × r·c) is that grid transposed:
// Y[j, i·c + l] = X[i, j·c + l]. A permutation, so X̄ is Ȳ permuted back: the b × r grid of Ȳ
// transposed, transpose_blocks(Ȳ, r). With c = 1 it is the matrix transpose.
class TransposeBlocks final : public Op {
 public:
  explicit TransposeBlocks(Index blocks) : blocks_(blocks) {}
  const char* name() const override { return "transpose_blocks"; }
  std::string attributes() const override { return fmt::format("blocks={}", blocks_); }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (blocks_ < 1 || in[0].cols % blocks_ != 0)
      shape_error(*this, in, fmt::format("{} columns do not split into {} equal blocks", in[0].cols, blocks_));
    return {blocks_, in[0].rows * (in[0].cols / blocks_)};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    const Index c = x.cols() / blocks_;
    for (Index i = 0; i < x.rows(); ++i)
      for (Index j = 0; j < blocks_; ++j) a.out.row(j).segment(i * c, c) = x.row(i).segment(j * c, c);
  }
  VarList vjp(const VjpArgs& a) const override { return {transpose_blocks(a.g, a.in[0].rows())}; }
  // A permutation, so Ẏₛ = transpose_blocks(Ẋₛ) per seed. Stacking the seeds' X (q·r rows) and
  // transposing its grid gives b × (q·r·c), row j block s the seeds' row j of Yₛ; transposing
  // that b × q grid of 1 × (r·c) blocks brings each seed's rows together (q × (b·r·c)).
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    const Index q = t.rows();
    const Var stacked = transpose_blocks(reshape(t, q * a.in[0].rows(), -1), blocks_);
    return q == 1 ? reshape(stacked, 1, -1) : transpose_blocks(stacked, q);
  }

 private:
  Index blocks_;
};

}  // namespace

Var transpose_blocks(Var x, Index blocks) {
  return x.graph().apply(std::make_shared<TransposeBlocks>(blocks), {x});
}

}  // namespace dagml
