// How a concrete estimator M is seen through AnyEstimator (registry.h): each method forwards to
// M's when M has it, found by its signature. Included by registry.cpp only.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/io/model_file.h"
#include "models/io/registry.h"

namespace dagml::detail {

template <class M>
concept Supervised = requires(M& m, const Tensor& X, const Vector& y) { m.fit(X, y); };
template <class M>
concept Unsupervised = requires(M& m, const Tensor& X) { m.fit(X); };
template <class M>
concept HasPredict = requires(const M& m, const Tensor& X) { m.predict(X); };
template <class M>
concept HasPredictProba = requires(const M& m, const Tensor& X) { m.predict_proba(X); };
template <class M>
concept HasDecisionFunction = requires(const M& m, const Tensor& X) { m.decision_function(X); };
template <class M>
concept HasTransform = requires(const M& m, const Tensor& X) { m.transform(X); };
template <class M>
concept HasSupervisedScore = requires(const M& m, const Tensor& X, const Vector& y) {
  { m.score(X, y) } -> std::convertible_to<Scalar>;
};
template <class M>
concept HasUnsupervisedScore = requires(const M& m, const Tensor& X) {
  { m.score(X) } -> std::convertible_to<Scalar>;
};

inline Tensor as_tensor(Tensor t) { return t; }
inline Tensor as_tensor(const Vector& v) { return Tensor(v); }

template <class M>
class Erased final : public ErasedEstimator {
 public:
  explicit Erased(M model) : model_(std::move(model)) {}

  std::unique_ptr<ErasedEstimator> clone() const override { return std::make_unique<Erased>(model_); }

  void fit(const Tensor& X, const Vector* y) override {
    if constexpr (Supervised<M>) {
      model_.fit(X, *y);
    } else {
      model_.fit(X);
    }
  }
  Tensor predict(const Tensor& X) const override {
    if constexpr (HasPredict<M>) return as_tensor(model_.predict(X));
    return {};
  }
  Tensor predict_proba(const Tensor& X) const override {
    if constexpr (HasPredictProba<M>) return as_tensor(model_.predict_proba(X));
    return {};
  }
  Tensor decision_function(const Tensor& X) const override {
    if constexpr (HasDecisionFunction<M>) return as_tensor(model_.decision_function(X));
    return {};
  }
  Tensor transform(const Tensor& X) const override {
    if constexpr (HasTransform<M>) return as_tensor(model_.transform(X));
    return {};
  }
  Scalar score(const Tensor& X, const Vector* y) const override {
    if constexpr (HasSupervisedScore<M>) {
      return model_.score(X, *y);
    } else if constexpr (HasUnsupervisedScore<M>) {
      return model_.score(X);
    }
    return 0;
  }
  bool fitted() const override { return model_.fitted(); }
  Index num_features() const override { return model_.num_features(); }
  std::string to_bytes() const override { return model_.to_bytes(); }
  void save(const std::string& path) const override { model_.save(path); }
  std::vector<OptionInfo> options() const override {
    auto copy = model_.options();
    std::vector<OptionInfo> out;
    list_options(copy, out);
    return out;
  }

  const M& model() const { return model_; }

 private:
  M model_;
};

template <class M>
AnyEstimator make_erased(const EstimatorInfo& info, const OptionSettings& settings) {
  typename M::OptionsType options{};
  for (const auto& [key, value] : settings) {
    if (!set_option(options, key, value)) {
      std::string known;
      for (const OptionInfo& o : info.options) known += (known.empty() ? "" : ", ") + o.name;
      throw ValueError(fmt::format("{}: no option named '{}'; its options are: {}", info.name, key, known));
    }
  }
  return AnyEstimator(info, std::make_unique<Erased<M>>(M(options)));
}

template <class M>
AnyEstimator load_erased(const EstimatorInfo& info, const ModelFile& file) {
  return AnyEstimator(info, std::make_unique<Erased<M>>(M::from_model_file(file)));
}

// The registry entry of M.
template <class M>
EstimatorInfo describe(Task task, InputDomain input, std::string summary) {
  if constexpr (Supervised<M>) {
    static_assert(std::is_same_v<decltype(std::declval<M&>().fit(std::declval<const Tensor&>(), std::declval<const Vector&>())), M&>,
                  "fit returns the estimator");
  } else {
    static_assert(std::is_same_v<decltype(std::declval<M&>().fit(std::declval<const Tensor&>())), M&>,
                  "fit returns the estimator");
  }
  const bool supervised = task == Task::Regression || task == Task::Classification;
  DAGML_CHECK(supervised ? Supervised<M> : Unsupervised<M>, "{} is registered for {} but its fit does not match",
              M::kTypeName, enum_name(task));
  EstimatorInfo info;
  info.name = M::kTypeName;
  info.summary = std::move(summary);
  info.task = task;
  info.input = input;
  info.capabilities = {.predict = HasPredict<M>,
                       .predict_proba = HasPredictProba<M>,
                       .decision_function = HasDecisionFunction<M>,
                       .transform = HasTransform<M>,
                       .score = HasSupervisedScore<M> || HasUnsupervisedScore<M>};
  info.options = option_schema<typename M::OptionsType>();
  info.make = &make_erased<M>;
  info.load = &load_erased<M>;
  return info;
}

}  // namespace dagml::detail
