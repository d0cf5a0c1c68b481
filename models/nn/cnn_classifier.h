// Convolutional classifier (notes 000 chapter 8): blocks of conv – ReLU – max-pool, then fully
// connected layers, softmax cross-entropy on the K logits. The default is the LeNet-style network
// of the Fashion-MNIST benchmark for 1×28×28 images:
//   conv(1→8, 5×5) – ReLU – maxpool 2 – conv(8→16, 5×5) – ReLU – maxpool 2 – linear(256→K).
//
//   CnnClassifier cnn({.architecture = {.input = {1, 28, 28}}, .training = {.solver = Solver::Momentum,
//                      .learning_rate = 0.05, .batch_size = 64}});
//   cnn.fit(X, y);   // X: one image per row, channels × height × width
#pragma once

#include <string>
#include <vector>

#include "autodiff/conv.h"
#include "models/nn/network_options.h"
#include "models/nn/sequential.h"

namespace dagml::nn {

struct ConvBlock {
  Index filters = 8;  // ≥ 1
  Index kernel = 5;   // square kernel, ≥ 1
  Index padding = 0;  // zeros on each side
  Index pool = 2;     // max-pool window (= stride); 1: no pooling
};

struct CnnArchitecture {
  ImageShape input = {1, 28, 28};
  std::vector<ConvBlock> blocks = {{.filters = 8, .kernel = 5}, {.filters = 16, .kernel = 5}};
  std::vector<Index> hidden = {};  // widths of fully connected ReLU layers after the blocks
  Scalar dropout = 0;              // before each fully connected layer, in [0, 1)
};

// Throws ValueError (naming `owner`) when the blocks do not fit the image.
void validate(const CnnArchitecture& architecture, const char* owner);
// The network for K classes; layer l is seeded with derive_seed(seed, l).
Sequential make_cnn(const CnnArchitecture& architecture, Index classes, std::uint64_t seed);

struct CnnClassifierOptions {
  CnnArchitecture architecture = {};
  TrainingOptions training = {.solver = Solver::Momentum, .learning_rate = 0.05, .batch_size = 64};
  Scalar l2 = 0;  // ≥ 0
};

class CnnClassifier {
 public:
  // Throws ValueError for bad options.
  explicit CnnClassifier(const CnnClassifierOptions& options = {});

  // X n × (C·H·W) finite, y labels 0..K−1 with at least two classes present, K = max label + 1
  // (ValueError / ShapeError otherwise).
  CnnClassifier& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});
  // The const members change nothing; several threads may call them on one model at once.
  Vector predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor decision_function(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  const Result& training_result() const;
  Index num_classes() const { return classes_; }
  Sequential& network();
  const CnnClassifierOptions& options() const { return options_; }

  void save(const std::string& path) const;
  static CnnClassifier load(const std::string& path);

 private:
  CnnClassifierOptions options_;
  Index classes_ = 0;
  Sequential network_;
  Result result_;
  bool fitted_ = false;
};

}  // namespace dagml::nn
