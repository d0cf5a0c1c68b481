#include "models/nn/cnn_classifier.h"

#include <fmt/format.h>

#include <cstdint>
#include <limits>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/io/option_fields.h"
#include "models/nn/activation.h"
#include "models/nn/conv2d_layer.h"
#include "models/nn/dropout.h"
#include "models/nn/linear.h"
#include "models/nn/network_loss.h"
#include "models/nn/pooling.h"

namespace dagml {
template class Estimator<nn::CnnClassifier, nn::CnnClassifierOptions>;
}  // namespace dagml

namespace dagml::nn {
namespace {

// Image sides, channels, kernels, paddings and pools up to 2³¹ − 1 keep the geometry's sums
// (H + 2p − k) far from overflow; products of them go through size_product.
constexpr Index kMaxSide = std::numeric_limits<std::int32_t>::max();

// The convolution and the pooling of block b on images of `shape` (make_cnn's layers).
Conv2dOptions block_convolution(ImageShape shape, const ConvBlock& b, std::uint64_t seed) {
  return {.input = shape, .filters = b.filters, .kernel = b.kernel, .padding = b.padding, .seed = seed};
}
Pool2dGeometry block_pooling(ImageShape shape, const ConvBlock& b) { return {.input = shape, .window = b.pool}; }

}  // namespace

std::string option_type_name(const std::vector<ConvBlock>&) { return "blocks (filters,kernel,padding,pool;…)"; }

std::string format_option(const std::vector<ConvBlock>& blocks) {
  std::string out;
  for (const ConvBlock& b : blocks)
    out += fmt::format("{}{},{},{},{}", out.empty() ? "" : ";", b.filters, b.kernel, b.padding, b.pool);
  return out;
}

void parse_option(std::string_view key, std::string_view text, std::vector<ConvBlock>& blocks) {
  std::vector<ConvBlock> parsed;
  for (std::string_view block : dagml::detail::split_list(text, ';')) {
    std::vector<Index> fields;
    dagml::parse_option(key, block, fields);
    if (fields.size() != 4)
      dagml::detail::bad_option_value(key, "four integers filters,kernel,padding,pool in every block", block);
    parsed.push_back({.filters = fields[0], .kernel = fields[1], .padding = fields[2], .pool = fields[3]});
  }
  blocks = std::move(parsed);
}

void validate(const CnnArchitecture& a, const char* owner) {
  const ImageInput& in = a.input;
  if (in.channels < 1 || in.height < 1 || in.width < 1 || in.channels > kMaxSide || in.height > kMaxSide ||
      in.width > kMaxSide)
    throw ValueError(
        fmt::format("{}: the input image must be at least 1×1×1 and at most {} on each side, found {}×{}×{}", owner,
                    kMaxSide, in.channels, in.height, in.width));
  if (!(a.dropout >= 0 && a.dropout < 1))
    throw ValueError(fmt::format("{}: dropout must be in [0, 1), found {}", owner, a.dropout));
  for (Index h : a.hidden_widths)
    if (h < 1) throw ValueError(fmt::format("{}: every hidden width must be >= 1, found {}", owner, h));
  for (const ConvBlock& b : a.blocks) {
    if (b.filters < 1 || b.kernel < 1 || b.padding < 0 || b.pool < 1 || b.filters > kMaxSide || b.kernel > kMaxSide ||
        b.padding > kMaxSide || b.pool > kMaxSide)
      throw ValueError(
          fmt::format("{}: a block needs filters, kernel, pool in [1, {}] and padding in [0, {}], found {}, {}, {}, {}",
                      owner, kMaxSide, kMaxSide, b.filters, b.kernel, b.pool, b.padding));
    // Note [CNN padding]: at most (kernel − 1)/2, so no layer's output is larger than its input.
    if (b.padding > (b.kernel - 1) / 2)
      throw ValueError(fmt::format(
          "{}: a block's padding must be at most (kernel − 1)/2 = {} (\"same\" size at most), found {} with kernel {}",
          owner, (b.kernel - 1) / 2, b.padding, b.kernel));
  }
  try {
    cnn_size(a, 2);  // the geometry of every layer, and sizes that fit in Index
  } catch (const ValueError& e) {
    throw ValueError(fmt::format("{}: {}", owner, e.what()));
  }
}

Sequential make_cnn(const CnnArchitecture& a, Index classes, std::uint64_t seed) {
  Sequential net;
  ImageShape shape = a.input.shape();
  std::uint64_t layer = 0;
  for (const ConvBlock& b : a.blocks) {
    shape = net.add(Conv2d(block_convolution(shape, b, derive_seed(seed, layer++)))).output();
    net.add(Activation(ActivationKind::Relu));
    if (b.pool > 1) shape = net.add(MaxPool2d(block_pooling(shape, b))).output();
  }
  net.add(Flatten());
  Index width = shape.size();
  for (Index h : a.hidden_widths) {
    if (a.dropout > 0) net.add(Dropout(a.dropout));
    net.add(Linear({.in = width, .out = h, .init = Initializer::He, .seed = derive_seed(seed, layer++)}));
    net.add(Activation(ActivationKind::Relu));
    width = h;
  }
  if (a.dropout > 0) net.add(Dropout(a.dropout));
  net.add(Linear({.in = width, .out = classes, .init = Initializer::Glorot, .seed = derive_seed(seed, layer)}));
  return net;
}

Index cnn_size(const CnnArchitecture& a, Index classes) {
  if (classes < 1) throw ValueError(fmt::format("a CNN needs at least 1 output, found {}", classes));
  EntryCount count;
  ImageShape shape = a.input.shape();
  size_product({shape.channels, shape.height, shape.width});  // X's columns
  for (const ConvBlock& b : a.blocks) {
    const Conv2dGeometry conv = conv2d_geometry(block_convolution(shape, b, 0));
    conv.validate();
    count.add({conv.filters, conv.input.channels, conv.kernel_height, conv.kernel_width}).add({conv.filters});
    shape = conv.output();
    if (b.pool > 1) {
      const Pool2dGeometry pool = block_pooling(shape, b);
      pool.validate();
      shape = pool.output();
    }
  }
  Index width = size_product({shape.channels, shape.height, shape.width});
  for (Index h : a.hidden_widths) {
    count.add({width, h}).add({h});
    width = h;
  }
  return count.add({width, classes}).add({classes}).total();
}

CnnClassifier::CnnClassifier(const CnnClassifierOptions& options) : NetworkClassifier(options) {
  validate(options.architecture, "CnnClassifier");
  validate(options.training, "CnnClassifier");
  if (!(options.lambda >= 0))
    throw ValueError(fmt::format("CnnClassifier: lambda must be >= 0, found {}", options.lambda));
}

void CnnClassifier::build_networks(Index) {
  network_ = make_cnn(options_.architecture, classes_, options_.training.seed);
}

Index CnnClassifier::network_size(Index num_features) const {
  const Index image = options_.architecture.input.shape().size();
  if (num_features != image)
    throw ValueError(
        fmt::format("CnnClassifier: expected {} features (the input images), found {}", image, num_features));
  if (classes_ < 2) throw ValueError(fmt::format("CnnClassifier: expected at least 2 classes, found {}", classes_));
  return cnn_size(options_.architecture, classes_);
}

CnnClassifier& CnnClassifier::fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
  check_not_empty(X, "CnnClassifier::fit");
  check_columns(X, options_.architecture.input.shape().size(), "CnnClassifier::fit");  // the image geometry first
  classes_ = check_classification_data(X, y, "CnnClassifier::fit", 0);
  build_networks(X.cols());
  SupervisedNetwork model(network_, LossKind::SoftmaxCrossEntropy, options_.lambda);
  train(model, X, Tensor(y), callbacks);
  return *this;
}

}  // namespace dagml::nn
