// Deep autoencoder (notes 002 §3.3, Hinton & Salakhutdinov): an encoder z = g_φ(x) (MLP d →
// hidden… → q) and a decoder x̂ = f_θ(z) (MLP q → reversed hidden… → d), trained jointly on
//   R̂(θ, φ) = (1/N) Σₙ ‖xₙ − f_θ(g_φ(xₙ))‖² / d            (Reconstruction::SquaredError)
// (the notes' cost divided by d: the mean over entries), or, for data in [0, 1], the Bernoulli
// negative log-likelihood with f_θ's outputs as logits (Reconstruction::Bernoulli; the decoder's
// output then goes through a sigmoid). A bottleneck q < d is the usual constraint.
//
//   Autoencoder ae({.hidden = {128}, .code_size = 16, .training = {.epochs = 20}});
//   ae.fit(X);
//   Tensor Z = ae.transform(X), Xhat = ae.reconstruct(X);
#pragma once

#include <string>
#include <vector>

#include "models/nn/activation.h"
#include "models/nn/network_options.h"
#include "models/nn/sequential.h"

namespace dagml::nn {

enum class Reconstruction {
  SquaredError,  // mean of (x̂ − x)²; decoder output is x̂
  Bernoulli,     // mean binary cross-entropy of x ∈ [0, 1] against sigmoid(decoder output)
};

struct AutoencoderOptions {
  std::vector<Index> hidden = {64};  // encoder hidden widths (the decoder mirrors them)
  Index code_size = 8;               // q ≥ 1
  ActivationKind activation = ActivationKind::Relu;
  Reconstruction reconstruction = Reconstruction::SquaredError;
  TrainingOptions training = {};
};

class Autoencoder {
 public:
  // Throws ValueError for bad options.
  explicit Autoencoder(const AutoencoderOptions& options = {});

  // X n×d finite; Bernoulli needs entries in [0, 1] (ValueError otherwise).
  Autoencoder& fit(const Tensor& X, const CallbackList& callbacks = {});
  // The const members change nothing; several threads may call them on one model at once.
  Tensor transform(const Tensor& X) const;          // codes, n × q
  Tensor inverse_transform(const Tensor& Z) const;  // reconstructions from codes, n × d
  Tensor reconstruct(const Tensor& X) const;        // inverse_transform(transform(X))
  // The training criterion on X (the mean over entries).
  Scalar reconstruction_error(const Tensor& X) const;

  const Result& training_result() const;
  const AutoencoderOptions& options() const { return options_; }

  void save(const std::string& path) const;
  static Autoencoder load(const std::string& path);

 private:
  void build_networks();
  AutoencoderOptions options_;
  Index features_ = 0;
  Sequential encoder_, decoder_;
  Result result_;
  bool fitted_ = false;
};

}  // namespace dagml::nn
