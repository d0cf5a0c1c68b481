#include "models/nn/residual.h"

#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "autodiff/structure.h"
#include "graph/error.h"

namespace dagml::nn {

Var Residual::build(Var x, BuildContext& ctx) const {
  const Var fx = body_.build(x, ctx);
  if (fx.shape() != x.shape())
    throw ShapeError(fmt::format("Residual: the body maps {} to {}; a residual block needs the same shape",
                                 to_string(x.shape()), to_string(fx.shape())));
  return x + fx;
}

std::string ChannelConcat::describe() const {
  std::string s = "channel_concat [";
  for (std::size_t i = 0; i < branches_.size(); ++i) s += (i ? ", " : "") + branches_[i].describe();
  return s + "]";
}

Var ChannelConcat::build(Var x, BuildContext& ctx) const {
  if (branches_.empty()) throw ValueError("ChannelConcat: needs at least one branch");
  std::vector<Var> parts;
  for (const Sequential& b : branches_) parts.push_back(b.build(x, ctx));
  return concat_cols(parts);
}

std::vector<const Parameter*> ChannelConcat::list_parameters() const {
  std::vector<const Parameter*> all;
  for (const Sequential& b : branches_)
    for (const Parameter* p : b.parameters()) all.push_back(p);
  return all;
}

std::vector<const Parameter*> ChannelConcat::list_buffers() const {
  std::vector<const Parameter*> all;
  for (const Sequential& b : branches_)
    for (const Parameter* p : b.buffers()) all.push_back(p);
  return all;
}

}  // namespace dagml::nn
