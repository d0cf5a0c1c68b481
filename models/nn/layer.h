// The layer interface and the context layers are built in. A layer is a graph builder: build()
// appends its ops to a graph, reading its parameters through the context, which makes one
// parameter node per parameter and graph (so data-parallel replicas in one graph share them).
//
// Note [Train and eval graphs]
// A traced graph freezes the mode: the training graph holds dropout masks and batch statistics,
// the evaluation graph holds neither. Randomness inside a training graph is an input node (a
// "noise" node) that the trainer refills before every step from a seed derived from (seed, step,
// chunk, noise index), so a training run is reproducible and independent of the thread count.
// Running statistics (batch normalisation) are recorded as (running buffer, batch-value node)
// pairs; the trainer folds the batch values in after every step.
//
// Note [Building is const]
// Building a layer reads its tensors and changes nothing: Layer::build is const, and the context
// turns each Parameter into a graph node holding a copy of its value. So a fitted network can be
// evaluated through a const reference, and several threads may each build and run their own
// evaluation graph over one network at once (forward_batches, and every network estimator's
// predict). Training writes tensors through other paths, which need the network non-const: the
// trainer writes θ back through Trainable::parameters() and folds running statistics into the
// buffers the model lists in Trainable::buffers().
//
// Note [Single-precision products]
// Users of PyTorch train networks in float32; dagml's tensors are double (DESIGN.md: one Scalar).
// A float32 run (TrainingOptions::precision) is mixed precision: the context hands the layers a
// precision, and their matrix products — the forward products and the products of the backward
// pass, which matmul's derivatives make in the same precision — round both operands to float,
// multiply with Eigen's single-precision GEMM (twice the lanes per instruction) and widen the
// result to double. Everything else stays double: the stored weights, the optimizer's moments and
// updates, the activations between layers, the loss and its softmax, the chunk sums. The products
// carry about 1e-7 relative error instead of 1e-16, far below the noise of a stochastic gradient,
// and the updates lose nothing to float rounding (a float weight stops moving once the step is
// below half an ulp; a double one does not). The run stays deterministic: the float product of
// the same operands is the same bits on every thread, so the weights are bitwise the same for any
// thread count, as in float64. The alternatives weighed: a float Tensor throughout (a second
// scalar type in every op, kernel and file, or a second build of the library in its own inline
// namespace) would also halve the memory traffic of the elementwise ops, at the cost of doubling
// what every op must be tested for; the products are where the time of a dense network goes.
// Convolutions follow the same rule (Conv2dGeometry::products): their im2col matrices are built
// in float as they are copied, so they convert almost nothing.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "autodiff/linalg.h"
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

// running ← (1 − momentum)·running + momentum·(batch value), after each step; `running` is one
// of the layer's buffers().
struct StatisticNode {
  const Parameter* running;
  Var batch_value;
  Scalar momentum;
};

class BuildContext {
 public:
  // `seed` drives the noise values drawn while building (building is eager); `products` is the
  // precision of the layers' matrix products (TrainingOptions::precision).
  BuildContext(Graph& graph, Mode mode, std::uint64_t seed = 0, Precision products = Precision::Float64)
      : graph_(&graph), mode_(mode), products_(products), rng_(seed) {}

  Graph& graph() const { return *graph_; }
  Mode mode() const { return mode_; }
  bool training() const { return mode_ == Mode::Train; }
  Precision products() const { return products_; }

  // The parameter node holding (a copy of) p's value: created on first use, the same node
  // afterwards (p is found by address).
  Var parameter(const Parameter& p);
  // A fresh noise input of rows × cols, recorded for the trainer.
  Var noise(NoiseKind kind, Index rows, Index cols, Scalar keep = 1);
  // Records a running statistic (training mode): `running` is a buffer of the layer.
  void record_statistic(const Parameter& running, Var batch_value, Scalar momentum);

  // The parameter nodes made so far, in order of first use.
  const std::vector<std::pair<const Parameter*, Var>>& parameter_nodes() const { return parameters_; }
  // Noise and statistic nodes recorded since the last take (one replica's worth).
  std::vector<NoiseNode> take_noise() { return std::exchange(noise_, {}); }
  std::vector<StatisticNode> take_statistics() { return std::exchange(statistics_, {}); }

 private:
  Graph* graph_;
  Mode mode_;
  Precision products_;
  std::mt19937_64 rng_;
  std::map<const Parameter*, Var> nodes_;
  std::vector<std::pair<const Parameter*, Var>> parameters_;
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
  // Appends the layer to x's graph and returns its output; changes nothing in the layer (Note
  // [Building is const]). Throws ShapeError (from the ops) when x does not have the layer's input
  // width.
  virtual Var build(Var x, BuildContext& ctx) const = 0;

  // The trained tensors, in a fixed order, read-only or writable (for trainers and loaders).
  std::vector<const Parameter*> parameters() const { return list_parameters(); }
  std::vector<Parameter*> parameters();
  // Saved but untrained tensors (running statistics), in a fixed order.
  std::vector<const Parameter*> buffers() const { return list_buffers(); }
  std::vector<Parameter*> buffers();

 private:
  // What parameters() and buffers() list: tensors the layer owns (members of it or of the layers
  // it owns), never another object's. A layer with tensors overrides these.
  virtual std::vector<const Parameter*> list_parameters() const { return {}; }
  virtual std::vector<const Parameter*> list_buffers() const { return {}; }
};

}  // namespace dagml::nn
