// The base of the network estimators (MlpClassifier, MlpRegressor, CnnClassifier, Autoencoder,
// VariationalAutoencoder): the estimator contract (models/io/estimator.h), training with the
// options' TrainingOptions, the result of the last training run, and the saving of the networks
// (Note [Saving a network] in network_io.h).
//
// A derived estimator D (options with a `training` field) declares, privately, with
// `friend class NetworkEstimator<D, DOptions>;`:
//   std::array<Sequential*, N> networks();  // its networks, in a fixed order
//   const char* network_name(std::size_t i) const;  // "network", "encoder" … for messages
//   void build_networks(Index num_features);  // fit's construction, from the options and sizes
//   Index network_size(Index num_features) const;  // the entries build_networks makes, counted
//       // without building them; ValueError when the sizes are not ones fit can produce
// and its serialize is
//   serialize_estimator(ar); ar(its own sizes…); serialize_networks(ar);
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "graph/error.h"
#include "graph/source_location.h"
#include "models/io/estimator.h"
#include "models/nn/network_io.h"
#include "models/nn/network_options.h"
#include "models/nn/sequential.h"
#include "optim/result.h"

namespace dagml::nn {

template <class Derived, class Options>
class NetworkEstimator : public Estimator<Derived, Options> {
 public:
  // Layout 2 added TrainingOptions::precision.
  static constexpr std::uint32_t kModelVersion = 2;

  // The trainer's result of the last fit (final and per-epoch loss, status). A training
  // diagnostic: not saved, so empty after load. NotFittedError before fit.
  const Result& training_result() const { return this->fitted_value(result_); }

 protected:
  using Estimator<Derived, Options>::Estimator;

  // Trains `model` (a loss over the networks that build_networks(X.cols()) made) on the rows of
  // X with targets Y (0 columns when there are none), then marks the estimator fitted on X.
  void train(Trainable& model, const Tensor& X, const Tensor& Y, const CallbackList& callbacks) {
    result_ = train_network(model, X, Y, this->options_.training, callbacks);
    this->set_fitted(X.cols());
  }

  // Before decoding Z: fitted, Z with `columns` columns (the code size) and finite entries.
  void check_codes(const Tensor& Z, Index columns, SourceLocation where = SourceLocation::current()) const {
    this->require_fitted(where);
    detail::check_prediction_input(Z, columns, /*allow_missing=*/false, Derived::kTypeName, where);
  }

  // Each network's tensors, after the estimator's own fields (Note [Saving a network]).
  template <class Archive>
  void serialize_networks(Archive& ar) {
    const auto networks = derived().networks();
    if constexpr (Archive::is_saving::value) {
      for (const Sequential* network : networks) ar(network_tensors(*network));
    } else {
      std::array<std::vector<Tensor>, std::tuple_size_v<decltype(networks)>> stored;
      for (std::vector<Tensor>& tensors : stored) ar(tensors);
      load_networks(ar, networks, stored);
    }
  }

 private:
  Derived& derived() { return static_cast<Derived&>(*this); }

  template <class Archive, std::size_t N>
  void load_networks(Archive& ar, const std::array<Sequential*, N>& networks,
                     const std::array<std::vector<Tensor>, N>& stored) {
    if (!this->fitted()) {
      for (std::size_t i = 0; i < N; ++i) {
        if (!stored[i].empty())
          ar.fail(fmt::format("{}: expected no {} tensors in an unfitted model, found {}", Derived::kTypeName,
                              derived().network_name(i), stored[i].size()));
        *networks[i] = Sequential();
      }
      return;
    }
    Index entries = 0;
    for (const std::vector<Tensor>& tensors : stored) entries += num_entries(tensors);
    try {
      const Derived checked(this->options_);  // the constructor's checks, before anything is built
      const Index expected = derived().network_size(this->num_features());
      if (expected != entries)
        ar.fail(fmt::format("{}: expected {} network entries for the options and sizes read, found {}",
                            Derived::kTypeName, expected, entries));
      derived().build_networks(this->num_features());
    } catch (const ValueError& e) {
      ar.fail(e.what());
    }
    for (std::size_t i = 0; i < N; ++i) {
      const std::string what = fmt::format("saved {}", derived().network_name(i));
      set_network_tensors(*networks[i], stored[i], ar, what.c_str());
    }
  }

  Result result_;
};

}  // namespace dagml::nn
