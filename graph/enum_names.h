// Enums stored and parsed by name. Each enum an option can take lists its names once, beside
// the enum, as a function found by argument-dependent lookup:
//
//   enum class LinearSolver { ClosedForm, Iterative };
//   constexpr auto enum_names(LinearSolver) {
//     return std::to_array<EnumName<LinearSolver>>(
//         {{LinearSolver::ClosedForm, "closed_form"}, {LinearSolver::Iterative, "iterative"}});
//   }
//
// Model files store the name, never the number (Note [Model file format] in model_file.h), so
// reordering an enum cannot change what an old file means; the command line and the option
// schema use the same names.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace dagml {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

template <class E>
concept NamedEnum = std::is_enum_v<E> && requires(E e) { enum_names(e); };

// The name of `e`; "?" for a value outside the list (a cast from a number that names nothing).
template <NamedEnum E>
constexpr std::string_view enum_name(E e) {
  for (const auto& entry : enum_names(E{}))
    if (entry.value == e) return entry.name;
  return "?";
}

// The value named `name`, or nothing.
template <NamedEnum E>
constexpr std::optional<E> enum_from_name(std::string_view name) {
  for (const auto& entry : enum_names(E{}))
    if (entry.name == name) return entry.value;
  return std::nullopt;
}

// "a|b|c": every name, for messages and the option schema.
template <NamedEnum E>
std::string enum_choices() {
  std::string out;
  for (const auto& entry : enum_names(E{})) {
    if (!out.empty()) out += '|';
    out += entry.name;
  }
  return out;
}

}  // namespace dagml
