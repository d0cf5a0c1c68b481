// Deep autoencoder (notes 002 §3.3, Hinton & Salakhutdinov): an encoder z = g_φ(x) (MLP d →
// hidden… → q) and a decoder x̂ = f_θ(z) (MLP q → reversed hidden… → d), trained jointly on
//   R̂(θ, φ) = (1/N) Σₙ ‖xₙ − f_θ(g_φ(xₙ))‖² / d            (Reconstruction::SquaredError)
// (the notes' cost divided by d: the mean over entries), or, for data in [0, 1], the Bernoulli
// negative log-likelihood with f_θ's outputs as logits (Reconstruction::Bernoulli; the decoder's
// output then goes through a sigmoid). A bottleneck q < d is the usual constraint.
//
//   Autoencoder ae({.hidden_widths = {128}, .code_size = 16, .training = {.num_epochs = 20}});
//   ae.fit(X);
//   Tensor Z = ae.transform(X), Xhat = ae.reconstruct(X);
#pragma once

#include <array>
#include <string>
#include <vector>

#include "models/nn/activation.h"
#include "models/nn/network_estimator.h"

namespace dagml::nn {

enum class Reconstruction {
  SquaredError,  // mean of (x̂ − x)²; decoder output is x̂
  Bernoulli,     // mean binary cross-entropy of x ∈ [0, 1] against sigmoid(decoder output)
};

constexpr auto enum_names(Reconstruction) {
  using enum Reconstruction;
  return std::to_array<EnumName<Reconstruction>>({{SquaredError, "squared_error"}, {Bernoulli, "bernoulli"}});
}

struct AutoencoderOptions {
  std::vector<Index> hidden_widths = {64};  // encoder hidden widths (the decoder mirrors them)
  Index code_size = 8;                      // q ≥ 1
  ActivationKind activation = ActivationKind::Relu;
  Reconstruction reconstruction = Reconstruction::SquaredError;
  TrainingOptions training = {};

  template <class V>
  void visit(V&& v) {
    v("hidden_widths", hidden_widths, "the encoder's hidden widths, each ≥ 1 (the decoder's are the reverse)");
    v("code_size", code_size, "q ≥ 1, the width of the codes");
    v("activation", activation, "the activation after each hidden layer");
    v("reconstruction", reconstruction, "squared_error, or bernoulli (X in [0, 1], the decoder's outputs are logits)");
    v("training", training, "the update rule and the training loop");
  }
};

class Autoencoder : public NetworkEstimator<Autoencoder, AutoencoderOptions> {
 public:
  static constexpr const char* kTypeName = "autoencoder";

  // Throws ValueError for bad options.
  explicit Autoencoder(const AutoencoderOptions& options = {});

  // X n×d finite; Bernoulli needs entries in [0, 1] (ValueError otherwise).
  Autoencoder& fit(const Tensor& X, const CallbackList& callbacks = {});
  Tensor transform(const Tensor& X) const;          // codes, n × q
  Tensor inverse_transform(const Tensor& Z) const;  // reconstructions from codes, n × d
  Tensor reconstruct(const Tensor& X) const;        // inverse_transform(transform(X))
  // The training criterion on X (the mean over entries).
  Scalar reconstruction_error(const Tensor& X) const;

  // The options and the tensors of the encoder and the decoder (Note [Saving a network]).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    serialize_networks(ar);
  }

 private:
  friend class NetworkEstimator<Autoencoder, AutoencoderOptions>;
  std::array<Sequential*, 2> networks() { return {&encoder_, &decoder_}; }
  const char* network_name(std::size_t i) const { return i == 0 ? "encoder" : "decoder"; }
  void build_networks(Index num_features);
  Index network_size(Index num_features) const;

  mutable Sequential encoder_, decoder_;  // evaluation builds graphs over it (Layer::build is not const)
};

}  // namespace dagml::nn

namespace dagml {
extern template class Estimator<nn::Autoencoder, nn::AutoencoderOptions>;
}  // namespace dagml
