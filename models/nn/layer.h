// The layer interface and the context layers are built in. A layer is a graph builder: build()
// appends its ops to a graph, reading its parameters through the context, which makes one
// parameter node per parameter and graph (so data-parallel replicas in one graph share them).
//
// Note [Train and eval graphs]
// A traced graph freezes the mode: the training graph holds dropout masks and batch statistics,
// the evaluation graph holds neither. Randomness inside a training graph is an input node (a
// "noise" node) that the trainer refills before every step from a seed derived from (seed, step,
// chunk, noise index), so a training run is reproducible and independent of the thread count.
// Running statistics (batch normalisation) are recorded as (running tensor, batch-value node)
// pairs; the trainer folds the batch values in after every step.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "graph/graph.h"

namespace dagml::nn {

enum class Mode { Train, Eval };

// A trained tensor (weights, biases, scales) or a saved, untrained one (running statistics).
struct Parameter {
  std::string name;
  Tensor value;
};

enum class NoiseKind {
  DropoutMask,     // Bernoulli(keep) / keep entries: inverted dropout, E[mask] = 1
  StandardNormal,  // N(0, 1) entries (the ε of the reparameterisation trick)
};

// An input node refilled before each training step; rows follow the batch, cols are fixed.
struct NoiseNode {
  Var input;
  NoiseKind kind;
  Scalar keep = 1;  // DropoutMask only
};

// Fills `out` (rows × cols of the node) with fresh draws of the node's kind.
void draw_noise(const NoiseNode& noise, Index rows, std::mt19937_64& rng, Tensor& out);

// running ← (1 − momentum)·running + momentum·(batch value), after each step.
struct StatisticNode {
  Tensor* running;
  Var batch_value;
  Scalar momentum;
};

class BuildContext {
 public:
  // `seed` drives the noise values drawn while building (building is eager).
  BuildContext(Graph& graph, Mode mode, std::uint64_t seed = 0) : graph_(&graph), mode_(mode), rng_(seed) {}

  Graph& graph() const { return *graph_; }
  Mode mode() const { return mode_; }
  bool training() const { return mode_ == Mode::Train; }

  // The parameter node holding p's value: created on first use, the same node afterwards.
  Var parameter(Parameter& p);
  // A fresh noise input of rows × cols, recorded for the trainer.
  Var noise(NoiseKind kind, Index rows, Index cols, Scalar keep = 1);
  void record_statistic(Tensor& running, Var batch_value, Scalar momentum);

  // The parameter nodes made so far, in order of first use.
  const std::vector<std::pair<Parameter*, Var>>& parameter_nodes() const { return parameters_; }
  // Noise and statistic nodes recorded since the last take (one replica's worth).
  std::vector<NoiseNode> take_noise() { return std::exchange(noise_, {}); }
  std::vector<StatisticNode> take_statistics() { return std::exchange(statistics_, {}); }

 private:
  Graph* graph_;
  Mode mode_;
  std::mt19937_64 rng_;
  std::map<const Parameter*, Var> nodes_;
  std::vector<std::pair<Parameter*, Var>> parameters_;
  std::vector<NoiseNode> noise_;
  std::vector<StatisticNode> statistics_;
};

class Layer {
 public:
  virtual ~Layer() = default;
  // A short description, e.g. "linear 784→256".
  virtual std::string describe() const = 0;
  // A deep copy: the copy owns its own parameters and buffers, so training one leaves the other
  // unchanged.
  virtual std::unique_ptr<Layer> clone() const = 0;
  // Appends the layer to x's graph and returns its output. Throws ShapeError (from the ops)
  // when x does not have the layer's input width.
  virtual Var build(Var x, BuildContext& ctx) = 0;
  // The trained tensors, in a fixed order.
  virtual std::vector<Parameter*> parameters() { return {}; }
  // Saved but untrained tensors (running statistics).
  virtual std::vector<Parameter*> buffers() { return {}; }
};

}  // namespace dagml::nn
