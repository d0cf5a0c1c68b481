// SourceLocation: the function a call came from, recorded by a default argument.
//
// It plays std::source_location's role for the one thing dagml reads, the caller's name, and is
// written on the builtin that GCC and Clang share: Clang before 15 cannot compile libstdc++'s
// <source_location> (it lacks __builtin_source_location), and the fuzzing build (fuzz/) needs
// Clang's libFuzzer.
#pragma once

namespace dagml {

class SourceLocation {
 public:
  // The unqualified name of the calling function ("theta" for GaussianNB::theta).
  static constexpr SourceLocation current(const char* function = __builtin_FUNCTION()) noexcept {
    return SourceLocation(function);
  }
  constexpr const char* function_name() const noexcept { return function_; }

 private:
  constexpr explicit SourceLocation(const char* function) noexcept : function_(function) {}
  const char* function_;
};

}  // namespace dagml
