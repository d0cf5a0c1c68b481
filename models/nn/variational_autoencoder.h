// Variational autoencoder (notes 004 §3.8, Kingma & Welling): a Gaussian encoder
// q_φ(z|x) = N(μ_φ(x), diag σ²_φ(x)) (one MLP d → hidden… → 2k giving μ and log σ²), the prior
// p(z) = N(0, I), and a Bernoulli decoder p_θ(x|z) whose logits are an MLP k → hidden… → d.
// Training maximises the ELBO, i.e. minimises per sample
//   −ELBO(x) = −E_q log p_θ(x|z) + KL(q_φ(z|x) ‖ p(z))
//            ≈ Σⱼ BCE(xⱼ, f_θ(z)ⱼ) + ½ Σⱼ (μⱼ² + σⱼ² − log σⱼ² − 1)
// with one reparameterised sample z = μ + σ ⊙ ε, ε ~ N(0, I) (the notes print μ + σ²ε, a typo:
// σ is the standard deviation), averaged over the batch. β scales the KL term (the β-ELBO; β = 1
// is the ELBO). ε is a noise input of the training graph, redrawn every step from the seed.
//
//   VariationalAutoencoder vae({.hidden_widths = {256}, .latent_size = 2});
//   vae.fit(X);                         // X in [0, 1]
//   Tensor images = vae.sample(16, 7);  // decoder means of 16 draws z ~ N(0, I)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/nn/activation.h"
#include "models/nn/network_estimator.h"

namespace dagml::nn {

struct VariationalAutoencoderOptions {
  std::vector<Index> hidden_widths = {128};  // encoder hidden widths (the decoder mirrors them)
  Index latent_size = 2;                     // k ≥ 1
  ActivationKind activation = ActivationKind::Relu;
  Scalar beta = 1;  // KL weight, > 0
  TrainingOptions training = {};

  template <class V>
  void visit(V&& v) {
    v("hidden_widths", hidden_widths, "the encoder's hidden widths, each ≥ 1 (the decoder's are the reverse)");
    v("latent_size", latent_size, "k ≥ 1, the dimension of the latent codes z");
    v("activation", activation, "the activation after each hidden layer");
    v("beta", beta, "β > 0, the weight of the KL term (1: the ELBO)");
    v("training", training, "the update rule and the training loop");
  }
};

class VariationalAutoencoder : public NetworkEstimator<VariationalAutoencoder, VariationalAutoencoderOptions> {
 public:
  static constexpr const char* kTypeName = "variational_autoencoder";

  // Throws ValueError for bad options.
  explicit VariationalAutoencoder(const VariationalAutoencoderOptions& options = {});

  // X n×d with entries in [0, 1] (ValueError otherwise).
  VariationalAutoencoder& fit(const Tensor& X, const CallbackList& callbacks = {});
  // The encoder's mean μ_φ(x) (n × k) and log-variance log σ²_φ(x) (n × k).
  Tensor encode_mean(const Tensor& X) const;
  Tensor encode_log_variance(const Tensor& X) const;
  // The codes of X: encode_mean(X).
  Tensor transform(const Tensor& X) const { return encode_mean(X); }
  // The decoder's Bernoulli means sigmoid(f_θ(z)) for codes Z (n × k).
  Tensor decode(const Tensor& Z) const;
  // n samples: decode(z) for z ~ N(0, I) drawn from `seed`.
  Tensor sample(Index n, std::uint64_t seed) const;
  // decode(μ_φ(x)).
  Tensor reconstruct(const Tensor& X) const;
  // The mean −ELBO over the rows of X (in [0, 1]), estimated with one draw of ε per row from `seed`.
  Scalar negative_elbo(const Tensor& X, std::uint64_t seed) const;

  // The options and the tensors of the encoder and the decoder (Note [Saving a network]).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    serialize_networks(ar);
  }

 private:
  friend class NetworkEstimator<VariationalAutoencoder, VariationalAutoencoderOptions>;
  std::array<Sequential*, 2> networks() { return {&encoder_, &decoder_}; }
  const char* network_name(std::size_t i) const { return i == 0 ? "encoder" : "decoder"; }
  void build_networks(Index num_features);
  Index network_size(Index num_features) const;

  mutable Sequential encoder_, decoder_;  // evaluation builds graphs over it (Layer::build is not const)
};

}  // namespace dagml::nn

namespace dagml {
extern template class Estimator<nn::VariationalAutoencoder, nn::VariationalAutoencoderOptions>;
}  // namespace dagml
