#include "models/io/estimator.h"

#include <string_view>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml::detail {
namespace {

// "theta" from "const Tensor& dagml::GaussianNB::theta() const".
std::string_view function_name(const std::source_location& where) {
  std::string_view f = where.function_name();
  f = f.substr(0, f.find('('));
  if (const auto colon = f.rfind("::"); colon != std::string_view::npos) f.remove_prefix(colon + 2);
  if (const auto space = f.rfind(' '); space != std::string_view::npos) f.remove_prefix(space + 1);
  return f;
}

}  // namespace

void throw_not_fitted(const char* type_name, const std::source_location& where) {
  throw NotFittedError(fmt::format("{}::{}: called before fit", type_name, function_name(where)));
}

void check_prediction_input(const Tensor& X, Index num_features, bool allow_nan, const char* type_name,
                            const std::source_location& where) {
  const std::string who = fmt::format("{}::{}", type_name, function_name(where));
  check_columns(X, num_features, who.c_str());
  if (!allow_nan) check_finite(X, who.c_str());
}

}  // namespace dagml::detail
