// Convolutional classifier (notes 000 chapter 8): blocks of conv – ReLU – max-pool, then fully
// connected layers, softmax cross-entropy on the K logits. The default is the LeNet-style network
// of the Fashion-MNIST benchmark for 1×28×28 images:
//   conv(1→8, 5×5) – ReLU – maxpool 2 – conv(8→16, 5×5) – ReLU – maxpool 2 – linear(256→K).
//
//   CnnClassifier cnn({.architecture = {.input = {1, 28, 28}}, .training = {.solver = Solver::Momentum,
//                      .learning_rate = 0.05, .batch_size = 64}});
//   cnn.fit(X, y);   // X: one image per row, channels × height × width
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "autodiff/conv.h"
#include "models/nn/network_classifier.h"

namespace dagml::nn {

// The images of X: one per row, channels × height × width (row-major).
struct ImageInput {
  Index channels = 1;  // ≥ 1
  Index height = 28;   // ≥ 1
  Index width = 28;    // ≥ 1

  ImageShape shape() const { return {channels, height, width}; }

  template <class V>
  void visit(V&& v) {
    v("channels", channels, "≥ 1, the channels of each image (1: grey levels)");
    v("height", height, "≥ 1, the rows of pixels of each image");
    v("width", width, "≥ 1, the columns of pixels of each image");
  }
};

// conv(filters, kernel × kernel, zero padding) – ReLU – max-pool(pool × pool, stride pool).
//
// Note [CNN padding]
// A block pads by at most (kernel − 1)/2 zeros on each side ("same" size for an odd kernel), so
// no layer's output is larger than its input, and every buffer a prediction needs is bounded by
// the input image and the weights the model holds. Beyond that, output pixels would see only
// padding, and a model file could declare an image of a few pixels padded by 2³⁰ whose first
// activation alone needs 10¹⁶ bytes: a ValueError (a ParseError when loading) instead.
struct ConvBlock {
  Index filters = 8;  // ≥ 1
  Index kernel = 5;   // square kernel, ≥ 1
  Index padding = 0;  // zeros on each side, at most (kernel − 1)/2 (Note [CNN padding])
  Index pool = 2;     // max-pool window (= stride); 1: no pooling

  template <class V>
  void visit(V&& v) {
    v("filters", filters, "≥ 1, the output channels");
    v("kernel", kernel, "≥ 1, the side of the square kernel");
    v("padding", padding, "≥ 0, the zeros added on each side");
    v("pool", pool, "≥ 1, the max-pool window and stride (1: no pooling)");
  }
};

// A list of blocks as option text: "filters,kernel,padding,pool" per block, blocks separated by
// semicolons ("8,5,0,2;16,5,0,2"); the empty text is no block. parse_option throws ValueError
// naming `key` for any other text.
std::string option_type_name(const std::vector<ConvBlock>&);
std::string format_option(const std::vector<ConvBlock>& blocks);
void parse_option(std::string_view key, std::string_view text, std::vector<ConvBlock>& blocks);

struct CnnArchitecture {
  ImageInput input = {};
  std::vector<ConvBlock> blocks = {{.filters = 8, .kernel = 5}, {.filters = 16, .kernel = 5}};
  std::vector<Index> hidden_widths = {};  // widths of fully connected ReLU layers after the blocks
  Scalar dropout = 0;                     // before each fully connected layer, in [0, 1)

  template <class V>
  void visit(V&& v) {
    v("input", input, "the shape of the images, one per row of X");
    v("blocks", blocks, "conv – ReLU – max-pool blocks: filters,kernel,padding,pool per block, ';' between blocks");
    v("hidden_widths", hidden_widths, "the widths of the fully connected ReLU layers after the blocks, each ≥ 1");
    v("dropout", dropout, "in [0, 1), the dropout before each fully connected layer in training");
  }
};

// Throws ValueError (naming `owner`) when the blocks do not fit the image; builds nothing.
void validate(const CnnArchitecture& architecture, const char* owner);
// The network for K classes; layer l is seeded with derive_seed(seed, l).
Sequential make_cnn(const CnnArchitecture& architecture, Index classes, std::uint64_t seed);
// The entries of the parameters of make_cnn(architecture, classes, ·), counted without building
// it (Note [Saving a network] in network_io.h). Throws ValueError as validate, or when classes < 1.
Index cnn_size(const CnnArchitecture& architecture, Index classes);

struct CnnClassifierOptions {
  CnnArchitecture architecture = {};
  TrainingOptions training = {.solver = Solver::Momentum, .learning_rate = 0.05, .batch_size = 64};
  Scalar lambda = 0;  // ≥ 0

  template <class V>
  void visit(V&& v) {
    v("architecture", architecture, "the image shape and the layers");
    v("training", training, "the update rule and the training loop");
    v("lambda", lambda, "λ ≥ 0, the weight of the penalty (λ/2)Σ‖W‖² on the weights and filters (not the biases)");
  }
};

class CnnClassifier : public NetworkClassifier<CnnClassifier, CnnClassifierOptions> {
 public:
  static constexpr const char* kTypeName = "cnn_classifier";

  // Throws ValueError for bad options.
  explicit CnnClassifier(const CnnClassifierOptions& options = {});

  // X n × (C·H·W) finite (the architecture's input shape), y labels 0..K−1 with at least two classes
  // present, K = max label + 1 (ValueError / ShapeError otherwise).
  CnnClassifier& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});
 private:
  friend class NetworkEstimator<CnnClassifier, CnnClassifierOptions>;
  void build_networks(Index num_features);
  Index network_size(Index num_features) const;
};

}  // namespace dagml::nn

namespace dagml {
extern template class Estimator<nn::CnnClassifier, nn::CnnClassifierOptions>;
}  // namespace dagml
