#include "models/nn/variational_autoencoder.h"

#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "autodiff/losses.h"
#include "autodiff/reduce.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/nn/inference.h"
#include "models/nn/init.h"
#include "models/nn/mlp_network.h"

namespace dagml::nn {
namespace {

// The mean −ELBO of a batch (see the header), on the graph of x. `eps` is the n×k noise node.
Var negative_elbo_node(const Sequential& encoder, const Sequential& decoder, Var x, Var eps, Index k, Scalar beta,
                       BuildContext& ctx) {
  const Var h = encoder.build(x, ctx);
  const Var mu = slice_cols(h, 0, k), log_var = slice_cols(h, k, k);
  const Var z = mu + exp(log_var * 0.5) * eps;  // reparameterisation: μ + σ ⊙ ε
  const Var logits = decoder.build(z, ctx);
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

}  // namespace

VariationalAutoencoder::VariationalAutoencoder(const VariationalAutoencoderOptions& options) : options_(options) {
  validate(MlpArchitecture{.hidden = options.hidden, .activation = options.activation}, "VariationalAutoencoder");
  validate(options.training, "VariationalAutoencoder");
  if (options.latent < 1)
    throw ValueError(fmt::format("VariationalAutoencoder: latent must be >= 1, found {}", options.latent));
  if (!(options.beta > 0))
    throw ValueError(fmt::format("VariationalAutoencoder: beta must be > 0, found {}", options.beta));
}

void VariationalAutoencoder::build_networks() {
  const MlpArchitecture enc{.hidden = options_.hidden, .activation = options_.activation};
  MlpArchitecture dec = enc;
  dec.hidden.assign(options_.hidden.rbegin(), options_.hidden.rend());
  encoder_ = make_mlp(features_, 2 * options_.latent, enc, derive_seed(options_.training.seed, 1));
  decoder_ = make_mlp(options_.latent, features_, dec, derive_seed(options_.training.seed, 2));
}

void VariationalAutoencoder::check_input(const Tensor& X, const char* who) const {
  check_fit_data(X, who);
  if (X.minCoeff() < 0 || X.maxCoeff() > 1)
    throw ValueError(fmt::format("{}: the Bernoulli decoder needs X in [0, 1], found values in [{}, {}]", who,
                                 X.minCoeff(), X.maxCoeff()));
}

VariationalAutoencoder& VariationalAutoencoder::fit(const Tensor& X, const CallbackList& callbacks) {
  check_input(X, "VariationalAutoencoder::fit");
  features_ = X.cols();
  build_networks();
  VaeLoss model(encoder_, decoder_, options_.latent, options_.beta);
  const FitCallbacks all(options_.training.verbose, callbacks);
  result_ = Trainer(trainer_options(options_.training))
                .fit(model, X, Tensor(X.rows(), 0), *make_update_rule(options_.training), all.list());
  fitted_ = true;
  return *this;
}

Tensor VariationalAutoencoder::encode_mean(const Tensor& X) const {
  check_fitted(fitted_, "VariationalAutoencoder::encode_mean");
  check_columns(X, features_, "VariationalAutoencoder::encode_mean");
  return forward_batches(encoder_, X).leftCols(options_.latent);
}

Tensor VariationalAutoencoder::encode_log_variance(const Tensor& X) const {
  check_fitted(fitted_, "VariationalAutoencoder::encode_log_variance");
  check_columns(X, features_, "VariationalAutoencoder::encode_log_variance");
  return forward_batches(encoder_, X).rightCols(options_.latent);
}

Tensor VariationalAutoencoder::decode(const Tensor& Z) const {
  check_fitted(fitted_, "VariationalAutoencoder::decode");
  check_columns(Z, options_.latent, "VariationalAutoencoder::decode");
  check_finite(Z, "VariationalAutoencoder::decode");
  return sigmoid_of(forward_batches(decoder_, Z));
}

Tensor VariationalAutoencoder::sample(Index n, std::uint64_t seed) const {
  if (n < 1) throw ValueError(fmt::format("VariationalAutoencoder::sample: n must be >= 1, found {}", n));
  std::mt19937_64 rng(seed);
  Tensor Z(n, options_.latent);
  for (Index i = 0; i < Z.size(); ++i) Z.data()[i] = standard_normal(rng);
  return decode(Z);
}

Tensor VariationalAutoencoder::reconstruct(const Tensor& X) const { return decode(encode_mean(X)); }

Scalar VariationalAutoencoder::negative_elbo(const Tensor& X, std::uint64_t seed) const {
  check_fitted(fitted_, "VariationalAutoencoder::negative_elbo");
  check_columns(X, features_, "VariationalAutoencoder::negative_elbo");
  check_input(X, "VariationalAutoencoder::negative_elbo");
  Graph g;
  BuildContext ctx(g, Mode::Eval);
  std::mt19937_64 rng(seed);
  Tensor eps(X.rows(), options_.latent);
  for (Index i = 0; i < eps.size(); ++i) eps.data()[i] = standard_normal(rng);
  return negative_elbo_node(encoder_, decoder_, g.input("x", X), g.input("eps", eps), options_.latent, options_.beta,
                            ctx)
      .item();
}

const Result& VariationalAutoencoder::training_result() const {
  check_fitted(fitted_, "VariationalAutoencoder::training_result");
  return result_;
}

void VariationalAutoencoder::save(const std::string& path) const {
  check_fitted(fitted_, "VariationalAutoencoder::save");
  ModelWriter w("VariationalAutoencoder");
  write_hidden_widths(w, options_.hidden);
  w.put_scalar("latent", static_cast<Scalar>(options_.latent));
  w.put_scalar("activation", static_cast<Scalar>(options_.activation));
  w.put_scalar("beta", options_.beta);
  w.put_scalar("features", static_cast<Scalar>(features_));
  write_training_options(w, options_.training);
  write_tensors(w, encoder_, "encoder.");
  write_tensors(w, decoder_, "decoder.");
  w.save(path);
}

VariationalAutoencoder VariationalAutoencoder::load(const std::string& path) {
  const ModelReader r(path, "VariationalAutoencoder");
  VariationalAutoencoderOptions o;
  o.hidden = read_hidden_widths(r);
  o.latent = static_cast<Index>(r.scalar("latent"));
  o.activation = static_cast<ActivationKind>(static_cast<int>(r.scalar("activation")));
  o.beta = r.scalar("beta");
  o.training = read_training_options(r);
  VariationalAutoencoder m(o);
  m.features_ = static_cast<Index>(r.scalar("features"));
  m.build_networks();
  read_tensors(r, m.encoder_, "encoder.");
  read_tensors(r, m.decoder_, "decoder.");
  m.fitted_ = true;
  return m;
}

}  // namespace dagml::nn
