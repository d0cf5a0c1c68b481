#include "models/nn/cnn_classifier.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "graph/random.h"
#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/metrics/classification_metrics.h"
#include "models/nn/activation.h"
#include "models/nn/conv2d_layer.h"
#include "models/nn/dropout.h"
#include "models/nn/inference.h"
#include "models/nn/linear.h"
#include "models/nn/network_loss.h"
#include "models/nn/pooling.h"

namespace dagml::nn {

void validate(const CnnArchitecture& a, const char* owner) {
  if (a.input.channels < 1 || a.input.height < 1 || a.input.width < 1)
    throw ValueError(fmt::format("{}: the input image must be at least 1×1×1, found {}×{}×{}", owner, a.input.channels,
                                 a.input.height, a.input.width));
  if (!(a.dropout >= 0 && a.dropout < 1))
    throw ValueError(fmt::format("{}: dropout must be in [0, 1), found {}", owner, a.dropout));
  for (Index h : a.hidden)
    if (h < 1) throw ValueError(fmt::format("{}: every hidden width must be >= 1, found {}", owner, h));
  for (const ConvBlock& b : a.blocks)
    if (b.filters < 1 || b.kernel < 1 || b.padding < 0 || b.pool < 1)
      throw ValueError(
          fmt::format("{}: a block needs filters, kernel, pool >= 1 and padding >= 0, found {}, {}, {}, {}", owner,
                      b.filters, b.kernel, b.pool, b.padding));
  make_cnn(a, 2, 0);  // the geometry checks of every layer
}

Sequential make_cnn(const CnnArchitecture& a, Index classes, std::uint64_t seed) {
  Sequential net;
  ImageShape shape = a.input;
  std::uint64_t layer = 0;
  for (const ConvBlock& b : a.blocks) {
    const Conv2d& conv = net.add(Conv2d({.input = shape,
                                         .filters = b.filters,
                                         .kernel = b.kernel,
                                         .padding = b.padding,
                                         .seed = derive_seed(seed, layer++)}));
    shape = conv.output();
    net.add(Activation(ActivationKind::Relu));
    if (b.pool > 1) shape = net.add(MaxPool2d({.input = shape, .window = b.pool})).output();
  }
  net.add(Flatten());
  Index width = shape.size();
  for (Index h : a.hidden) {
    if (a.dropout > 0) net.add(Dropout(a.dropout));
    net.add(Linear({.in = width, .out = h, .init = Initializer::He, .seed = derive_seed(seed, layer++)}));
    net.add(Activation(ActivationKind::Relu));
    width = h;
  }
  if (a.dropout > 0) net.add(Dropout(a.dropout));
  net.add(Linear({.in = width, .out = classes, .init = Initializer::Glorot, .seed = derive_seed(seed, layer)}));
  return net;
}

CnnClassifier::CnnClassifier(const CnnClassifierOptions& options) : options_(options) {
  validate(options.architecture, "CnnClassifier");
  validate(options.training, "CnnClassifier");
  if (!(options.l2 >= 0)) throw ValueError(fmt::format("CnnClassifier: l2 must be >= 0, found {}", options.l2));
}

CnnClassifier& CnnClassifier::fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
  check_columns(X, options_.architecture.input.size(), "CnnClassifier::fit");
  classes_ = check_classification_data(X, y, "CnnClassifier::fit", 0);
  network_ = make_cnn(options_.architecture, classes_, options_.training.seed);
  SupervisedNetwork model(network_, LossKind::SoftmaxCrossEntropy, options_.l2);
  const FitCallbacks all(options_.training.verbose, callbacks);
  result_ = Trainer(trainer_options(options_.training))
                .fit(model, X, Tensor(y), *make_update_rule(options_.training), all.list());
  fitted_ = true;
  return *this;
}

Tensor CnnClassifier::decision_function(const Tensor& X) const {
  check_fitted(fitted_, "CnnClassifier::decision_function");
  check_columns(X, options_.architecture.input.size(), "CnnClassifier::decision_function");
  check_finite(X, "CnnClassifier::decision_function");
  return forward_batches(network_, X);
}

Tensor CnnClassifier::predict_proba(const Tensor& X) const { return softmax_rows(decision_function(X)); }
Vector CnnClassifier::predict(const Tensor& X) const { return argmax_rows(decision_function(X)); }
Scalar CnnClassifier::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

const Result& CnnClassifier::training_result() const {
  check_fitted(fitted_, "CnnClassifier::training_result");
  return result_;
}

Sequential& CnnClassifier::network() {
  check_fitted(fitted_, "CnnClassifier::network");
  return network_;
}

void CnnClassifier::save(const std::string& path) const {
  check_fitted(fitted_, "CnnClassifier::save");
  const CnnArchitecture& a = options_.architecture;
  ModelWriter w("CnnClassifier");
  w.put_tensor("input", (Tensor(1, 3) << static_cast<Scalar>(a.input.channels), static_cast<Scalar>(a.input.height),
                         static_cast<Scalar>(a.input.width))
                            .finished());
  w.put_scalar("blocks", static_cast<Scalar>(a.blocks.size()));
  for (std::size_t i = 0; i < a.blocks.size(); ++i) {
    const ConvBlock& b = a.blocks[i];
    w.put_tensor(fmt::format("block{}", i),
                 (Tensor(1, 4) << static_cast<Scalar>(b.filters), static_cast<Scalar>(b.kernel),
                  static_cast<Scalar>(b.padding), static_cast<Scalar>(b.pool))
                     .finished());
  }
  write_hidden_widths(w, a.hidden);
  w.put_scalar("dropout", a.dropout);
  write_training_options(w, options_.training);
  w.put_scalar("l2", options_.l2);
  w.put_scalar("classes", static_cast<Scalar>(classes_));
  write_tensors(w, network_);
  w.save(path);
}

CnnClassifier CnnClassifier::load(const std::string& path) {
  const ModelReader r(path, "CnnClassifier");
  CnnArchitecture a;
  const Tensor input = r.tensor("input");
  a.input = {static_cast<Index>(input(0, 0)), static_cast<Index>(input(0, 1)), static_cast<Index>(input(0, 2))};
  a.blocks.clear();
  for (Index i = 0; i < static_cast<Index>(r.scalar("blocks")); ++i) {
    const Tensor b = r.tensor(fmt::format("block{}", i));
    a.blocks.push_back({static_cast<Index>(b(0, 0)), static_cast<Index>(b(0, 1)), static_cast<Index>(b(0, 2)),
                        static_cast<Index>(b(0, 3))});
  }
  a.hidden = read_hidden_widths(r);
  a.dropout = r.scalar("dropout");
  CnnClassifier m({.architecture = a, .training = read_training_options(r), .l2 = r.scalar("l2")});
  m.classes_ = static_cast<Index>(r.scalar("classes"));
  m.network_ = make_cnn(a, m.classes_, m.options_.training.seed);
  read_tensors(r, m.network_);
  m.fitted_ = true;
  return m;
}

}  // namespace dagml::nn
