#include "models/nn/sequential.h"

#include <utility>

namespace dagml::nn {

Sequential::Sequential(const Sequential& other) {
  layers_.reserve(other.layers_.size());
  for (const auto& layer : other.layers_) layers_.push_back(layer->clone());
}

Sequential& Sequential::operator=(const Sequential& other) {
  if (this != &other) *this = Sequential(other);
  return *this;
}

std::string Sequential::describe() const {
  std::string s = "sequential [";
  for (std::size_t i = 0; i < layers_.size(); ++i) s += (i ? ", " : "") + layers_[i]->describe();
  return s + "]";
}

Var Sequential::build(Var x, BuildContext& ctx) const {
  for (const auto& layer : layers_) x = layer->build(x, ctx);
  return x;
}

std::vector<const Parameter*> Sequential::list_parameters() const {
  std::vector<const Parameter*> all;
  for (const auto& layer : layers_)
    for (const Parameter* p : std::as_const(*layer).parameters()) all.push_back(p);
  return all;
}

std::vector<const Parameter*> Sequential::list_buffers() const {
  std::vector<const Parameter*> all;
  for (const auto& layer : layers_)
    for (const Parameter* p : std::as_const(*layer).buffers()) all.push_back(p);
  return all;
}

}  // namespace dagml::nn
