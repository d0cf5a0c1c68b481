// The estimator registry: every estimator by name, with its option schema, behind one
// type-erased handle. The command-line tool and the conformance suite are built on it.
//
//   AnyEstimator ridge = make_estimator("ridge", {{"lambda", "0.5"}});
//   ridge.fit(X, y);
//   ridge.save("ridge.dagml");
//   AnyEstimator again = load_model("ridge.dagml");   // a Ridge, whatever the caller knew
//   Tensor y_hat = again.predict(X);
//
// An estimator joins with one line in models/io/registry.cpp (Note [The estimator contract],
// models/io/estimator.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "graph/error.h"
#include "graph/tensor.h"
#include "graph/enum_names.h"
#include "models/io/option_fields.h"

namespace dagml {

class ModelFile;

// What an estimator learns, which fixes what fit takes and what predict returns.
enum class Task {
  Regression,      // fit(X, y) with real targets; predict → n values
  Classification,  // fit(X, y) with labels 0..K−1; predict → n labels, often predict_proba
  Clustering,      // fit(X); predict → n cluster indices
  Transformation,  // fit(X); transform → n × k
};
constexpr auto enum_names(Task) {
  return std::to_array<EnumName<Task>>({{Task::Regression, "regression"},
                                        {Task::Classification, "classification"},
                                        {Task::Clustering, "clustering"},
                                        {Task::Transformation, "transformation"}});
}

// The values X may hold; fit rejects others with a ValueError.
enum class InputDomain {
  Real,         // any finite value
  NonNegative,  // counts or frequencies (multinomial naive Bayes)
  Binary,       // 0 or 1 (Bernoulli naive Bayes)
  Categorical,  // category codes 0, 1, 2, … (categorical naive Bayes)
  UnitInterval, // values in [0, 1] (a Bernoulli decoder: the variational autoencoder)
};
constexpr auto enum_names(InputDomain) {
  return std::to_array<EnumName<InputDomain>>({{InputDomain::Real, "real"},
                                               {InputDomain::NonNegative, "non_negative"},
                                               {InputDomain::Binary, "binary"},
                                               {InputDomain::Categorical, "categorical"},
                                               {InputDomain::UnitInterval, "unit_interval"}});
}

// The methods an estimator has beyond fit and save.
struct Capabilities {
  bool predict = false, predict_proba = false, decision_function = false, transform = false, score = false;
};

// The interface every registered estimator is seen through (internal to the registry).
class ErasedEstimator {
 public:
  virtual ~ErasedEstimator() = default;
  virtual std::unique_ptr<ErasedEstimator> clone() const = 0;
  virtual void fit(const Tensor& X, const Vector* y) = 0;
  virtual Tensor predict(const Tensor& X) const = 0;
  virtual Tensor predict_proba(const Tensor& X) const = 0;
  virtual Tensor decision_function(const Tensor& X) const = 0;
  virtual Tensor transform(const Tensor& X) const = 0;
  virtual Scalar score(const Tensor& X, const Vector* y) const = 0;
  virtual bool fitted() const = 0;
  virtual Index num_features() const = 0;
  virtual std::string to_bytes() const = 0;
  virtual void save(const std::string& path) const = 0;
  virtual std::vector<OptionInfo> options() const = 0;  // the current values
};

struct EstimatorInfo;

// A registered estimator of any type. Copies are deep and independent. The const methods may be
// called from several threads at once.
class AnyEstimator {
 public:
  AnyEstimator(const EstimatorInfo& info, std::unique_ptr<ErasedEstimator> self);
  AnyEstimator(const AnyEstimator& other);
  AnyEstimator& operator=(const AnyEstimator& other);
  AnyEstimator(AnyEstimator&&) noexcept = default;
  AnyEstimator& operator=(AnyEstimator&&) noexcept = default;

  const EstimatorInfo& info() const { return *info_; }
  const std::string& name() const;

  // Supervised estimators (Regression, Classification) take y; the others fit(X). A call that does
  // not fit the estimator's task is a ValueError naming both.
  AnyEstimator& fit(const Tensor& X, const Vector& y);
  AnyEstimator& fit(const Tensor& X);
  // predict: n×1 (labels, targets or cluster indices); the others as the estimator returns them.
  // ValueError when the estimator has no such method.
  Tensor predict(const Tensor& X) const;
  Tensor predict_proba(const Tensor& X) const;
  Tensor decision_function(const Tensor& X) const;
  Tensor transform(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;
  Scalar score(const Tensor& X) const;

  bool fitted() const { return self_->fitted(); }
  // The number of columns fit saw, which predict and transform take (NotFittedError before fit).
  Index num_features() const { return self_->num_features(); }
  void save(const std::string& path) const { self_->save(path); }
  std::string to_bytes() const { return self_->to_bytes(); }
  // The current option values (the defaults unless set), in schema order.
  std::vector<OptionInfo> options() const { return self_->options(); }

 private:
  void require(bool has, const char* method) const;
  const EstimatorInfo* info_;
  std::unique_ptr<ErasedEstimator> self_;
};

using OptionSettings = std::vector<std::pair<std::string, std::string>>;
// Sets `key` to `value` in `settings`, replacing an earlier setting of the same key.
void set_option(OptionSettings& settings, const std::string& key, const std::string& value);

struct EstimatorInfo {
  std::string name;     // "ridge": the registry key and the model files' type name
  std::string summary;  // one line
  Task task = Task::Regression;
  InputDomain input = InputDomain::Real;
  Capabilities capabilities;
  std::vector<OptionInfo> options;  // the schema: names, types, defaults, docs
  // Builds the estimator with the given options set by name; ValueError for an unknown name or
  // a value the option cannot take.
  AnyEstimator (*make)(const EstimatorInfo&, const OptionSettings&) = nullptr;
  AnyEstimator (*load)(const EstimatorInfo&, const ModelFile&) = nullptr;
};

// Every registered estimator, sorted by name.
const std::vector<EstimatorInfo>& registered_estimators();
// ValueError listing the registered names when `name` is not one.
const EstimatorInfo& estimator_info(std::string_view name);
AnyEstimator make_estimator(std::string_view name, const OptionSettings& settings = {});
// Reads any model file and returns its estimator (IoError, ParseError).
AnyEstimator load_model(const std::string& path);
AnyEstimator load_model_from_bytes(std::string bytes, std::string source);
AnyEstimator load_model(const ModelFile& file);

}  // namespace dagml
