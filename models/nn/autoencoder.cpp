#include "models/nn/autoencoder.h"

#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/nn/inference.h"
#include "models/nn/mlp_network.h"
#include "models/nn/network_loss.h"

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

}  // namespace

Autoencoder::Autoencoder(const AutoencoderOptions& options) : options_(options) {
  validate(MlpArchitecture{.hidden = options.hidden, .activation = options.activation}, "Autoencoder");
  validate(options.training, "Autoencoder");
  if (options.code_size < 1)
    throw ValueError(fmt::format("Autoencoder: code_size must be >= 1, found {}", options.code_size));
}

void Autoencoder::build_networks() {
  const MlpArchitecture enc{.hidden = options_.hidden, .activation = options_.activation};
  MlpArchitecture dec = enc;
  dec.hidden.assign(options_.hidden.rbegin(), options_.hidden.rend());
  encoder_ = make_mlp(features_, options_.code_size, enc, derive_seed(options_.training.seed, 1));
  decoder_ = make_mlp(options_.code_size, features_, dec, derive_seed(options_.training.seed, 2));
}

Autoencoder& Autoencoder::fit(const Tensor& X, const CallbackList& callbacks) {
  check_fit_data(X, "Autoencoder::fit");
  if (options_.reconstruction == Reconstruction::Bernoulli && (X.minCoeff() < 0 || X.maxCoeff() > 1))
    throw ValueError(
        fmt::format("Autoencoder::fit: Bernoulli reconstruction needs X in [0, 1], found values in [{}, {}]",
                    X.minCoeff(), X.maxCoeff()));
  features_ = X.cols();
  build_networks();
  AutoencoderLoss model(encoder_, decoder_, options_.reconstruction);
  const FitCallbacks all(options_.training.verbose, callbacks);
  result_ = Trainer(trainer_options(options_.training))
                .fit(model, X, Tensor(X.rows(), 0), *make_update_rule(options_.training), all.list());
  fitted_ = true;
  return *this;
}

Tensor Autoencoder::transform(const Tensor& X) const {
  check_fitted(fitted_, "Autoencoder::transform");
  check_columns(X, features_, "Autoencoder::transform");
  check_finite(X, "Autoencoder::transform");
  return forward_batches(encoder_, X);
}

Tensor Autoencoder::inverse_transform(const Tensor& Z) const {
  check_fitted(fitted_, "Autoencoder::inverse_transform");
  check_columns(Z, options_.code_size, "Autoencoder::inverse_transform");
  check_finite(Z, "Autoencoder::inverse_transform");
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

const Result& Autoencoder::training_result() const {
  check_fitted(fitted_, "Autoencoder::training_result");
  return result_;
}

void Autoencoder::save(const std::string& path) const {
  check_fitted(fitted_, "Autoencoder::save");
  ModelWriter w("Autoencoder");
  write_hidden_widths(w, options_.hidden);
  w.put_scalar("code_size", static_cast<Scalar>(options_.code_size));
  w.put_scalar("activation", static_cast<Scalar>(options_.activation));
  w.put_scalar("reconstruction", static_cast<Scalar>(options_.reconstruction));
  w.put_scalar("features", static_cast<Scalar>(features_));
  write_training_options(w, options_.training);
  write_tensors(w, encoder_, "encoder.");
  write_tensors(w, decoder_, "decoder.");
  w.save(path);
}

Autoencoder Autoencoder::load(const std::string& path) {
  const ModelReader r(path, "Autoencoder");
  AutoencoderOptions o;
  o.hidden = read_hidden_widths(r);
  o.code_size = static_cast<Index>(r.scalar("code_size"));
  o.activation = static_cast<ActivationKind>(static_cast<int>(r.scalar("activation")));
  o.reconstruction = static_cast<Reconstruction>(static_cast<int>(r.scalar("reconstruction")));
  o.training = read_training_options(r);
  Autoencoder m(o);
  m.features_ = static_cast<Index>(r.scalar("features"));
  m.build_networks();
  read_tensors(r, m.encoder_, "encoder.");
  read_tensors(r, m.decoder_, "decoder.");
  m.fitted_ = true;
  return m;
}

}  // namespace dagml::nn
