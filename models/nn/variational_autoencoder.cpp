#include "models/nn/variational_autoencoder.h"

#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "autodiff/losses.h"
#include "autodiff/reduce.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/nn/inference.h"
#include "models/nn/init.h"
#include "models/nn/mlp_network.h"

namespace dagml {
template class Estimator<nn::VariationalAutoencoder, nn::VariationalAutoencoderOptions>;
}  // namespace dagml

namespace dagml::nn {
namespace {

// The mean −ELBO of a batch (see the header), on the graph of x. `eps` is the n×k noise node.
Var negative_elbo_node(const Sequential& encoder, const Sequential& decoder, Var x, Var eps, Index k, Scalar beta,
                       BuildContext& ctx) {
  const Var h = const_cast<Sequential&>(encoder).build(x, ctx);  // Layer::build is not const
  const Var mu = slice_cols(h, 0, k), log_var = slice_cols(h, k, k);
  const Var z = mu + exp(log_var * 0.5) * eps;  // reparameterisation: μ + σ ⊙ ε
  const Var logits = const_cast<Sequential&>(decoder).build(z, ctx);
  // Σⱼ BCE per row, averaged over rows = (mean over entries)·d.
  const Var reconstruction = binary_cross_entropy_with_logits(logits, x) * static_cast<Scalar>(x.cols());
  // ½ Σⱼ (μ² + σ² − log σ² − 1) per row, averaged over rows = (mean over entries)·k/2.
  const Var kl = mean(square(mu) + exp(log_var) - log_var - 1.0) * (0.5 * static_cast<Scalar>(k));
  return reconstruction + kl * beta;
}

class VaeLoss final : public Trainable {
 public:
  VaeLoss(Sequential& encoder, Sequential& decoder, Index k, Scalar beta)
      : encoder_(&encoder), decoder_(&decoder), k_(k), beta_(beta) {}
  std::vector<Parameter*> parameters() override {
    std::vector<Parameter*> all = encoder_->parameters();
    for (Parameter* p : decoder_->parameters()) all.push_back(p);
    return all;
  }
  Var loss(Var x, Var, BuildContext& ctx) override {
    const Var eps = ctx.noise(NoiseKind::StandardNormal, x.rows(), k_);
    return negative_elbo_node(*encoder_, *decoder_, x, eps, k_, beta_, ctx);
  }

 private:
  Sequential* encoder_;
  Sequential* decoder_;
  Index k_;
  Scalar beta_;
};

Tensor sigmoid_of(const Tensor& z) { return (1.0 / (1.0 + (-z.array()).exp())).matrix(); }

MlpArchitecture encoder_architecture(const VariationalAutoencoderOptions& o) {
  return {.hidden_widths = o.hidden_widths, .activation = o.activation};
}

// Throws ValueError naming `who` unless X is non-empty, finite and in [0, 1].
void check_unit_interval(const Tensor& X, const char* who) {
  check_not_empty(X, who);
  check_finite(X, who);
  if (X.minCoeff() < 0 || X.maxCoeff() > 1)
    throw ValueError(fmt::format("{}: the Bernoulli decoder needs X in [0, 1], found values in [{}, {}]", who,
                                 X.minCoeff(), X.maxCoeff()));
}

}  // namespace

VariationalAutoencoder::VariationalAutoencoder(const VariationalAutoencoderOptions& options)
    : NetworkEstimator(options) {
  validate(encoder_architecture(options), "VariationalAutoencoder");
  validate(options.training, "VariationalAutoencoder");
  if (options.latent_size < 1)
    throw ValueError(fmt::format("VariationalAutoencoder: latent_size must be >= 1, found {}", options.latent_size));
  if (!(options.beta > 0))
    throw ValueError(fmt::format("VariationalAutoencoder: beta must be > 0, found {}", options.beta));
}

void VariationalAutoencoder::build_networks(Index num_features) {
  const MlpArchitecture enc = encoder_architecture(options_);
  encoder_ = make_mlp(num_features, 2 * options_.latent_size, enc, derive_seed(options_.training.seed, 1));
  decoder_ = make_mlp(options_.latent_size, num_features, reversed(enc), derive_seed(options_.training.seed, 2));
}

Index VariationalAutoencoder::network_size(Index num_features) const {
  const MlpArchitecture enc = encoder_architecture(options_);
  return EntryCount()
      .add({mlp_size(num_features, size_product({2, options_.latent_size}), enc)})
      .add({mlp_size(options_.latent_size, num_features, reversed(enc))})
      .total();
}

VariationalAutoencoder& VariationalAutoencoder::fit(const Tensor& X, const CallbackList& callbacks) {
  check_unit_interval(X, "VariationalAutoencoder::fit");
  build_networks(X.cols());
  VaeLoss model(encoder_, decoder_, options_.latent_size, options_.beta);
  train(model, X, Tensor(X.rows(), 0), callbacks);
  return *this;
}

Tensor VariationalAutoencoder::encode_mean(const Tensor& X) const {
  check_input(X);
  return forward_batches(encoder_, X).leftCols(options_.latent_size);
}

Tensor VariationalAutoencoder::encode_log_variance(const Tensor& X) const {
  check_input(X);
  return forward_batches(encoder_, X).rightCols(options_.latent_size);
}

Tensor VariationalAutoencoder::decode(const Tensor& Z) const {
  check_codes(Z, options_.latent_size);
  return sigmoid_of(forward_batches(decoder_, Z));
}

Tensor VariationalAutoencoder::sample(Index n, std::uint64_t seed) const {
  require_fitted();
  if (n < 1) throw ValueError(fmt::format("VariationalAutoencoder::sample: n must be >= 1, found {}", n));
  std::mt19937_64 rng(seed);
  Tensor Z(n, options_.latent_size);
  for (Index i = 0; i < Z.size(); ++i) Z.data()[i] = standard_normal(rng);
  return decode(Z);
}

Tensor VariationalAutoencoder::reconstruct(const Tensor& X) const { return decode(encode_mean(X)); }

Scalar VariationalAutoencoder::negative_elbo(const Tensor& X, std::uint64_t seed) const {
  check_input(X);
  check_unit_interval(X, "VariationalAutoencoder::negative_elbo");
  Graph g;
  BuildContext ctx(g, Mode::Eval);
  std::mt19937_64 rng(seed);
  Tensor eps(X.rows(), options_.latent_size);
  for (Index i = 0; i < eps.size(); ++i) eps.data()[i] = standard_normal(rng);
  return negative_elbo_node(encoder_, decoder_, g.input("x", X), g.input("eps", eps), options_.latent_size,
                            options_.beta, ctx)
      .item();
}

}  // namespace dagml::nn
