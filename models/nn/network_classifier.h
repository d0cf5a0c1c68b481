// The base of the network classifiers (MlpClassifier, CnnClassifier): one network whose K outputs
// are the class scores (logits) z; predict is argmax_k z_k, predict_proba the softmax
// p_k = exp z_k / Σ_j exp z_j (notes 004 §3.6), score the accuracy.
//
// A derived classifier D declares, privately, with `friend class NetworkEstimator<D, DOptions>;`:
//   void build_networks(Index num_features);        // makes network_ with classes_ outputs
//   Index network_size(Index num_features) const;  // as in network_estimator.h
// and its fit sets classes_, builds the network and trains it.
#pragma once

#include <array>
#include <cstddef>

#include "models/classify/score_labels.h"
#include "models/metrics/classification_metrics.h"
#include "models/nn/inference.h"
#include "models/nn/network_estimator.h"

namespace dagml::nn {

template <class Derived, class Options>
class NetworkClassifier : public NetworkEstimator<Derived, Options> {
 public:
  // The const members change nothing; several threads may call them on one model at once.
  Tensor decision_function(const Tensor& X) const {  // the logits, n × K
    this->check_input(X);
    return forward_batches(network_, X);
  }
  Tensor predict_proba(const Tensor& X) const { return softmax_rows(decision_function(X)); }
  Vector predict(const Tensor& X) const { return argmax_rows(decision_function(X)); }
  Scalar score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

  Index num_classes() const { return this->fitted_value(classes_); }
  const Sequential& network() const { return this->fitted_value(network_); }

  // The options, K and the network's tensors (Note [Saving a network]).
  template <class Archive>
  void serialize(Archive& ar) {
    this->serialize_estimator(ar);
    ar(classes_);
    this->serialize_networks(ar);
  }

 protected:
  using NetworkEstimator<Derived, Options>::NetworkEstimator;

  Index classes_ = 0;
  Sequential network_;

 private:
  friend class NetworkEstimator<Derived, Options>;
  std::array<Sequential*, 1> networks() { return {&network_}; }
  const char* network_name(std::size_t) const { return "network"; }
};

}  // namespace dagml::nn
