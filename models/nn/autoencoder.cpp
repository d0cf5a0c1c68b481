#include "models/nn/autoencoder.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/nn/inference.h"
#include "models/nn/mlp_network.h"
#include "models/nn/network_loss.h"

namespace dagml {
template class Estimator<nn::Autoencoder, nn::AutoencoderOptions>;
}  // namespace dagml

namespace dagml::nn {
namespace {

class AutoencoderLoss final : public Trainable {
 public:
  AutoencoderLoss(Sequential& encoder, Sequential& decoder, Reconstruction kind)
      : encoder_(&encoder), decoder_(&decoder), kind_(kind) {}
  std::vector<Parameter*> parameters() override {
    std::vector<Parameter*> all = encoder_->parameters();
    for (Parameter* p : decoder_->parameters()) all.push_back(p);
    return all;
  }
  Var loss(Var x, Var, BuildContext& ctx) override {
    const Var out = decoder_->build(encoder_->build(x, ctx), ctx);
    return network_loss(out, x,
                        kind_ == Reconstruction::Bernoulli ? LossKind::BinaryCrossEntropy : LossKind::MeanSquaredError);
  }

 private:
  Sequential* encoder_;
  Sequential* decoder_;
  Reconstruction kind_;
};

MlpArchitecture encoder_architecture(const AutoencoderOptions& o) {
  return {.hidden_widths = o.hidden_widths, .activation = o.activation};
}

}  // namespace

Autoencoder::Autoencoder(const AutoencoderOptions& options) : NetworkEstimator(options) {
  validate(encoder_architecture(options), "Autoencoder");
  validate(options.training, "Autoencoder");
  if (options.code_size < 1)
    throw ValueError(fmt::format("Autoencoder: code_size must be >= 1, found {}", options.code_size));
}

void Autoencoder::build_networks(Index num_features) {
  const MlpArchitecture enc = encoder_architecture(options_);
  encoder_ = make_mlp(num_features, options_.code_size, enc, derive_seed(options_.training.seed, 1));
  decoder_ = make_mlp(options_.code_size, num_features, reversed(enc), derive_seed(options_.training.seed, 2));
}

Index Autoencoder::network_size(Index num_features) const {
  const MlpArchitecture enc = encoder_architecture(options_);
  return EntryCount()
      .add({mlp_size(num_features, options_.code_size, enc)})
      .add({mlp_size(options_.code_size, num_features, reversed(enc))})
      .total();
}

Autoencoder& Autoencoder::fit(const Tensor& X, const CallbackList& callbacks) {
  check_not_empty(X, "Autoencoder::fit");
  check_finite(X, "Autoencoder::fit");
  if (options_.reconstruction == Reconstruction::Bernoulli && (X.minCoeff() < 0 || X.maxCoeff() > 1))
    throw ValueError(
        fmt::format("Autoencoder::fit: Bernoulli reconstruction needs X in [0, 1], found values in [{}, {}]",
                    X.minCoeff(), X.maxCoeff()));
  build_networks(X.cols());
  AutoencoderLoss model(encoder_, decoder_, options_.reconstruction);
  train(model, X, Tensor(X.rows(), 0), callbacks);
  return *this;
}

Tensor Autoencoder::transform(const Tensor& X) const {
  check_input(X);
  return forward_batches(encoder_, X);
}

Tensor Autoencoder::inverse_transform(const Tensor& Z) const {
  check_codes(Z, options_.code_size);
  Tensor out = forward_batches(decoder_, Z);
  if (options_.reconstruction == Reconstruction::Bernoulli) out = (1.0 / (1.0 + (-out.array()).exp())).matrix();
  return out;
}

Tensor Autoencoder::reconstruct(const Tensor& X) const { return inverse_transform(transform(X)); }

Scalar Autoencoder::reconstruction_error(const Tensor& X) const {
  const Tensor out = forward_batches(decoder_, transform(X));
  if (options_.reconstruction == Reconstruction::SquaredError) return (out - X).array().square().mean();
  // max(z, 0) − z·x + log(1 + e^{−|z|})
  return (out.array().max(0) - out.array() * X.array() + (-out.array().abs()).exp().log1p()).mean();
}

}  // namespace dagml::nn
