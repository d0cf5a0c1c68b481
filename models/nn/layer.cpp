#include "models/nn/layer.h"

#include "models/nn/init.h"

namespace dagml::nn {

void draw_noise(const NoiseNode& noise, Index rows, std::mt19937_64& rng, Tensor& out) {
  out.resize(rows, noise.input.cols());
  if (noise.kind == NoiseKind::DropoutMask) {
    const Scalar scale = 1 / noise.keep;
    for (Index i = 0; i < out.size(); ++i) out.data()[i] = uniform01(rng) < noise.keep ? scale : 0;
  } else {
    for (Index i = 0; i < out.size(); ++i) out.data()[i] = standard_normal(rng);
  }
}

Var BuildContext::parameter(const Parameter& p) {
  auto it = nodes_.find(&p);
  if (it != nodes_.end()) return it->second;
  const Var v = graph_->parameter(p.name, p.value);
  nodes_.emplace(&p, v);
  parameters_.emplace_back(&p, v);
  return v;
}

Var BuildContext::noise(NoiseKind kind, Index rows, Index cols, Scalar keep) {
  NoiseNode n{graph_->input(kind == NoiseKind::DropoutMask ? "dropout mask" : "noise", rows, cols), kind, keep};
  Tensor value;
  draw_noise(n, rows, rng_, value);
  graph_->set_value(n.input, value);
  noise_.push_back(n);
  return n.input;
}

void BuildContext::record_statistic(const Parameter& running, Var batch_value, Scalar momentum) {
  statistics_.push_back({&running, batch_value, momentum});
}

namespace {
// The writable overloads are the read-only ones with const removed (the idiom of Effective C++,
// item 3): they run on a non-const layer, and a layer lists only tensors it owns, so none of
// them is a const object.
std::vector<Parameter*> writable(const std::vector<const Parameter*>& tensors) {
  std::vector<Parameter*> out;
  out.reserve(tensors.size());
  for (const Parameter* p : tensors) out.push_back(const_cast<Parameter*>(p));
  return out;
}
}  // namespace

std::vector<Parameter*> Layer::parameters() { return writable(list_parameters()); }
std::vector<Parameter*> Layer::buffers() { return writable(list_buffers()); }

}  // namespace dagml::nn
