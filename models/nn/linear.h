// Linear (fully connected) layer: y = x W + b for a batch x (n × in), W (in × out), b (1 × out).
// Notes 004 §3.6 write Linear(m, n) as W x + b with W m × n acting on a column; dagml stores one
// sample per row, so its W is the transpose (in × out).
#pragma once

#include <memory>

#include <cstdint>

#include "models/nn/init.h"
#include "models/nn/layer.h"

namespace dagml::nn {

struct LinearOptions {
  Index in = 0;   // ≥ 1
  Index out = 0;  // ≥ 1
  bool bias = true;
  Initializer init = Initializer::Glorot;  // W; b starts at 0
  std::uint64_t seed = 0;
};

class Linear final : public Layer {
 public:
  // Throws ValueError if in or out < 1.
  explicit Linear(const LinearOptions& options);
  std::string describe() const override;
  std::unique_ptr<Layer> clone() const override { return std::make_unique<Linear>(*this); }
  Var build(Var x, BuildContext& ctx) const override;

  Parameter& weight() { return weight_; }
  Parameter& bias() { return bias_; }
  const LinearOptions& options() const { return options_; }

 private:
  std::vector<const Parameter*> list_parameters() const override;
  LinearOptions options_;
  Parameter weight_;
  Parameter bias_;
};

}  // namespace dagml::nn
