// A stack of layers applied in order: the network f = f⁽ᵐ⁾ ∘ … ∘ f⁽¹⁾ of notes 004 §3.6.
#pragma once

#include <memory>
#include <vector>

#include "models/nn/layer.h"

namespace dagml::nn {

class Sequential final : public Layer {
 public:
  Sequential() = default;
  // Copies are deep (every layer cloned); moves transfer the layers.
  Sequential(const Sequential& other);
  Sequential& operator=(const Sequential& other);
  Sequential(Sequential&&) = default;
  Sequential& operator=(Sequential&&) = default;

  // Appends a layer; returns a reference to it.
  template <class L>
  L& add(L layer) {
    auto owned = std::make_unique<L>(std::move(layer));
    L& ref = *owned;
    layers_.push_back(std::move(owned));
    return ref;
  }
  void add(std::unique_ptr<Layer> layer) { layers_.push_back(std::move(layer)); }

  std::string describe() const override;
  std::unique_ptr<Layer> clone() const override { return std::make_unique<Sequential>(*this); }
  Var build(Var x, BuildContext& ctx) const override;

  std::size_t size() const { return layers_.size(); }
  Layer& layer(std::size_t i) { return *layers_.at(i); }

 private:
  std::vector<const Parameter*> list_parameters() const override;
  std::vector<const Parameter*> list_buffers() const override;
  std::vector<std::unique_ptr<Layer>> layers_;
};

}  // namespace dagml::nn
