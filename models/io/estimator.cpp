#include "models/io/estimator.h"

#include "graph/error.h"
#include "models/io/archive.h"
#include "models/data/validate.h"

namespace dagml::detail {

void throw_not_fitted(const char* type_name, const SourceLocation& where) {
  throw NotFittedError(fmt::format("{}::{}: called before fit", type_name, where.function_name()));
}

void check_prediction_input(const Tensor& X, Index num_features, bool allow_missing, const char* type_name,
                            const SourceLocation& where) {
  const std::string who = fmt::format("{}::{}", type_name, where.function_name());
  check_columns(X, num_features, who.c_str());
  check_finite_or_missing(X, allow_missing, who.c_str());
}

void check_loaded_feature_count(const ModelInputArchive& ar, const char* type_name, bool fitted, Index num_features) {
  if (num_features < 0 || (fitted && num_features == 0)) {
    ar.fail(fmt::format("{}: expected a feature count of at least {}, found {}", type_name, fitted ? 1 : 0, num_features));
  }
}

}  // namespace dagml::detail
