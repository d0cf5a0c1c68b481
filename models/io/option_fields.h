// Options structs list their fields once; that one list gives the model file its options, the
// estimator registry its option schema, and the command line its `--set key=value`.
//
// Note [One list of fields per options struct]
// An options struct stays an aggregate with defaults (designated initializers work as before)
// and adds one member template that names every field, in file order, with a one-line doc:
//
//   struct RidgeOptions {
//     Scalar lambda = 1.0;
//     bool fit_intercept = true;
//     template <class V> void visit(V&& v) {
//       v("lambda", lambda, "λ ≥ 0, the weight of the L2 penalty");
//       v("fit_intercept", fit_intercept, "fit an unpenalised intercept");
//     }
//   };
//
// A field may itself be an options struct with `visit` (its keys are then "outer.inner"). Field
// types: bool, integers, floating point, std::string, enums with enum_names (enum_names.h),
// Vector and std::vector of numbers (written "1,2,3"), Tensor (rows split by semicolons: "1,0;0,1"), and any type T that provides
// `format_option(const T&)` and `parse_option(std::string_view, T&)` found by argument-dependent
// lookup (kernels do). Naming rule (docs/adding_an_estimator.md): snake_case, the full word
// (`max_iterations`, `tolerance`, `seed`, `num_threads` …), the same name for the same meaning in
// every estimator.
#pragma once

#include <fmt/format.h>

#include <charconv>
#include <concepts>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "graph/error.h"
#include "graph/tensor.h"
#include "graph/enum_names.h"

namespace dagml {

template <class T>
concept OptionStruct = requires(T& t) { t.visit([](const char*, auto&, const char*) {}); };

// One row of an estimator's option schema.
struct OptionInfo {
  std::string name;           // "lambda", "iterative.max_iterations"
  std::string type;           // "number", "integer", "bool", "text", "numbers", "closed_form|iterative" …
  std::string default_value;  // as `--set` would write it
  std::string doc;            // one line
};

namespace detail {

[[noreturn]] void bad_option_value(std::string_view key, std::string_view expected, std::string_view found);

template <class T>
T parse_number(std::string_view key, std::string_view text) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) {
    bad_option_value(key, std::is_integral_v<T> ? "an integer" : "a number", text);
  }
  return value;
}

template <class T>
std::string format_number(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return fmt::format("{}", value);  // shortest text that reads back to the same double
  } else {
    return std::to_string(value);
  }
}

std::vector<std::string_view> split_list(std::string_view text, char separator = ',');

}  // namespace detail

// --- Text form of one field ---------------------------------------------------------------------

inline std::string option_type_name(const bool&) { return "bool"; }
template <class T>
  requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
std::string option_type_name(const T&) {
  return std::is_integral_v<T> ? "integer" : "number";
}
template <NamedEnum E>
std::string option_type_name(const E&) {
  return enum_choices<E>();
}
inline std::string option_type_name(const std::string&) { return "text"; }
inline std::string option_type_name(const Vector&) { return "numbers"; }
inline std::string option_type_name(const Tensor&) { return "matrix"; }
template <class T>
  requires std::is_arithmetic_v<T>
std::string option_type_name(const std::vector<T>&) {
  return std::is_integral_v<T> ? "integers" : "numbers";
}

inline std::string format_option(const bool& v) { return v ? "true" : "false"; }
template <class T>
  requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
std::string format_option(const T& v) {
  return detail::format_number(v);
}
template <NamedEnum E>
std::string format_option(const E& v) {
  return std::string(enum_name(v));
}
inline std::string format_option(const std::string& v) { return v; }
std::string format_option(const Vector& v);
std::string format_option(const Tensor& m);  // rows separated by semicolons, entries by commas
template <class T>
  requires std::is_arithmetic_v<T>
std::string format_option(const std::vector<T>& v) {
  std::string out;
  for (const T& x : v) {
    if (!out.empty()) out += ',';
    out += detail::format_number(x);
  }
  return out;
}

// parse_option(key, text, field): `key` names the option in the ValueError a bad text throws.
void parse_option(std::string_view key, std::string_view text, bool& v);
template <class T>
  requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
void parse_option(std::string_view key, std::string_view text, T& v) {
  v = detail::parse_number<T>(key, text);
}
template <NamedEnum E>
void parse_option(std::string_view key, std::string_view text, E& v) {
  const auto value = enum_from_name<E>(text);
  if (!value) detail::bad_option_value(key, "one of " + enum_choices<E>(), text);
  v = *value;
}
inline void parse_option(std::string_view, std::string_view text, std::string& v) { v = std::string(text); }
void parse_option(std::string_view key, std::string_view text, Vector& v);
void parse_option(std::string_view key, std::string_view text, Tensor& m);
template <class T>
  requires std::is_arithmetic_v<T>
void parse_option(std::string_view key, std::string_view text, std::vector<T>& v) {
  v.clear();
  for (std::string_view item : detail::split_list(text)) v.push_back(detail::parse_number<T>(key, item));
}

// --- Whole structs --------------------------------------------------------------------------------

// Every leaf field of `options` with its type, value (read as the default when `options` is
// default-constructed) and doc.
template <OptionStruct O>
void list_options(O& options, std::vector<OptionInfo>& out, const std::string& prefix = "") {
  options.visit([&](const char* name, auto& field, const char* doc) {
    using F = std::remove_cvref_t<decltype(field)>;
    if constexpr (OptionStruct<F>) {
      list_options(field, out, prefix + name + ".");
    } else {
      out.push_back({prefix + name, option_type_name(field), format_option(field), doc});
    }
  });
}

template <OptionStruct O>
std::vector<OptionInfo> option_schema() {
  O defaults{};
  std::vector<OptionInfo> out;
  list_options(defaults, out);
  return out;
}

// Sets the field called `key` ("lambda", "iterative.max_iterations") from its text. Returns
// false when no field has that name; throws ValueError for a text the field cannot take.
template <OptionStruct O>
bool set_option(O& options, std::string_view key, std::string_view text, const std::string& prefix = "") {
  bool found = false;
  options.visit([&](const char* name, auto& field, const char*) {
    using F = std::remove_cvref_t<decltype(field)>;
    if (found) return;
    const std::string full = prefix + name;
    if constexpr (OptionStruct<F>) {
      if (key.starts_with(full + ".")) found = set_option(field, key, text, full + ".");
    } else if (key == full) {
      parse_option(key, text, field);
      found = true;
    }
  });
  return found;
}

}  // namespace dagml
