// The base of every estimator: options, the fitted flag and the number of features seen at
// fit, the not-fitted and column checks, and save/load through the model file (model_file.h).
//
// Note [The estimator contract]
// An estimator M derives from Estimator<M, MOptions> and declares
//
//   static constexpr const char* kTypeName = "ridge";   // its registry and model-file name
//   template <class Archive> void serialize(Archive& ar) {
//     serialize_estimator(ar);       // options, fitted flag, feature count
//     ar(coef_, intercept_);         // then its own fitted state, in a fixed order
//   }
//
// plus `extern template class Estimator<M, MOptions>;` after the class and
// `template class Estimator<M, MOptions>;` in its .cpp (which includes model_file.h), so cereal is
// instantiated once, in the estimator's own file. fit() ends with set_fitted(X.cols());
// accessors of fitted state are one line each: `const Tensor& theta() const { return fitted_value(theta_); }`.
// MOptions lists its fields once (option_fields.h). M is registered by one line in
// models/io/registry.cpp and then covered by the conformance suite
// (tests/models/io/conformance_test.cpp). docs/adding_an_estimator.md walks through it.
#pragma once

#include <string>

#include "graph/source_location.h"
#include "graph/tensor.h"

namespace dagml {

class ModelFile;
class ModelInputArchive;

namespace detail {
// NotFittedError "<type>::<function>: called before fit", the function read from `where`.
[[noreturn]] void throw_not_fitted(const char* type_name, const SourceLocation& where);
// The columns and finiteness of a prediction input (models/data/validate.h's messages).
void check_prediction_input(const Tensor& X, Index num_features, bool allow_missing, const char* type_name,
                            const SourceLocation& where);
// ParseError through the archive unless a loaded feature count is ≥ 0, and ≥ 1 for a fitted model.
void check_loaded_feature_count(const ModelInputArchive& ar, const char* type_name, bool fitted, Index num_features);
}  // namespace detail

template <class Derived, class Options>
class Estimator {
 public:
  using OptionsType = Options;

  const Options& options() const { return options_; }
  bool fitted() const { return fitted_; }
  // d, the columns of the X given to fit. NotFittedError before fit.
  Index num_features(SourceLocation where = SourceLocation::current()) const {
    require_fitted(where);
    return num_features_;
  }

  // Writes the model file atomically (Note [Model file format]); IoError when it cannot.
  void save(const std::string& path) const;
  // Reads a model file written by save(); IoError, or ParseError naming the file and the fault.
  static Derived load(const std::string& path);
  // The same from a file already read (the registry's type-erased load_model uses it).
  static Derived from_model_file(const ModelFile& file);
  // The file's bytes, as save() would write them.
  std::string to_bytes() const;

 protected:
  explicit Estimator(Options options = {}) : options_(std::move(options)) {}

  // NotFittedError naming the calling function unless fit has run.
  void require_fitted(SourceLocation where = SourceLocation::current()) const {
    if (!fitted_) [[unlikely]]
      detail::throw_not_fitted(Derived::kTypeName, where);
  }
  // A fitted attribute, checked: `return fitted_value(coef_);`.
  template <class T>
  const T& fitted_value(const T& member, SourceLocation where = SourceLocation::current()) const {
    require_fitted(where);
    return member;
  }
  // Before predicting on X: fitted, X with the columns seen at fit, and finite (with
  // allow_missing, NaN marks a missing value: check_finite_or_missing).
  void check_input(const Tensor& X, bool allow_missing = false,
                   SourceLocation where = SourceLocation::current()) const {
    require_fitted(where);
    detail::check_prediction_input(X, num_features_, allow_missing, Derived::kTypeName, where);
  }
  void set_fitted(Index num_features) {
    fitted_ = true;
    num_features_ = num_features;
  }
  template <class Archive>
  void serialize_estimator(Archive& ar) {
    ar(options_, fitted_, num_features_);
    if constexpr (Archive::is_loading::value) {
      detail::check_loaded_feature_count(ar, Derived::kTypeName, fitted_, num_features_);
    }
  }

  Options options_;

 private:
  bool fitted_ = false;
  Index num_features_ = 0;
};

}  // namespace dagml
