// What DP-means, soft k-means and k-medians share once fitted: the K×d centres, the objective the
// fit minimised (at its end, on the training data), the iteration count, the convergence flag and
// the fit's Result (of this process, not saved), with their accessors, the model-file form and its
// checks. A derived estimator ends fit with set_fit.
#pragma once

#include <fmt/format.h>

#include <cmath>

#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "optim/result.h"

namespace dagml {

class ModelInputArchive;

namespace detail {
// ParseError (through the archive, naming `type`) unless the loaded centres are K×d with K ≥ 1 (K
// = expected_clusters when that is ≥ 1) and finite, and the objective is finite.
void check_loaded_centers(const ModelInputArchive& ar, const Tensor& centers, Scalar objective, Index expected_clusters,
                          Index num_features, const char* type);
}  // namespace detail

template <class Derived, class Options>
class CenterClustering : public Estimator<Derived, Options> {
 public:
  const Tensor& centers() const { return this->fitted_value(centers_); }  // K×d
  Scalar objective() const { return this->fitted_value(objective_); }     // on the training data, at the end
  Index num_iter() const { return this->fitted_value(num_iter_); }
  bool converged() const { return this->fitted_value(converged_); }         // a convergence test held
  const Result& fit_result() const { return this->fitted_value(result_); }  // of this process, not saved

  // The options, the centres, the objective, the iteration count and the convergence flag.
  template <class Archive>
  void serialize(Archive& ar) {
    this->serialize_estimator(ar);
    ar(centers_, objective_, num_iter_, converged_);
    if constexpr (Archive::is_loading::value) {
      Index expected = -1;
      if constexpr (requires { this->options_.num_clusters; }) expected = this->options_.num_clusters;
      if (this->fitted())
        detail::check_loaded_centers(ar, centers_, objective_, expected, this->num_features(), Derived::kTypeName);
    }
  }

 protected:
  using Estimator<Derived, Options>::Estimator;

  // The end of fit: the centres, the run's result (its value is the objective) and d.
  void set_fit(Tensor centers, Result result, Index num_features) {
    centers_ = std::move(centers);
    objective_ = result.value;
    num_iter_ = result.iterations;
    converged_ = result.converged();
    result_ = std::move(result);
    this->set_fitted(num_features);
  }

 private:
  Tensor centers_;
  Scalar objective_ = 0;
  Index num_iter_ = 0;
  bool converged_ = false;
  Result result_;
};

}  // namespace dagml
