// The error types of dagml. Every error is a dagml::Error; messages say what was expected and
// what was found. Internal invariants use DAGML_CHECK, which is always on.
#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace dagml {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Operands whose shapes do not fit an op.
class ShapeError : public Error {
 public:
  using Error::Error;
};

// Bad data or bad options: NaN, empty input, one class only, negative regularisation…
class ValueError : public Error {
 public:
  using Error::Error;
};

// predict/transform called before fit.
class NotFittedError : public Error {
 public:
  using Error::Error;
};

// A malformed file. Carries the place of the fault.
class ParseError : public Error {
 public:
  ParseError(std::string file, long line, long column, const std::string& what);
  const std::string& file() const { return file_; }
  long line() const { return line_; }
  long column() const { return column_; }

 private:
  std::string file_;
  long line_;
  long column_;
};

// A file that cannot be opened, read or written.
class IoError : public Error {
 public:
  using Error::Error;
};

// A file whose contents would make dagml allocate more than the file allocation limit
// (models/data/file_io.h): a huge declared size, a gzip bomb, an oversized file.
class LimitError : public Error {
 public:
  using Error::Error;
};

// A numerical failure with no fallback (a singular system, a non-SPD matrix).
class NumericalError : public Error {
 public:
  using Error::Error;
};

// A broken internal invariant: a bug in dagml, never the user's input.
class InternalError : public Error {
 public:
  using Error::Error;
};

namespace detail {
[[noreturn]] void check_failed(const char* expr, const char* file, int line, const std::string& msg);
}  // namespace detail

}  // namespace dagml

// Always-on invariant check: DAGML_CHECK(cond, "fmt {}", args...).
#define DAGML_CHECK(cond, ...)                                                                \
  do {                                                                                        \
    if (!(cond)) [[unlikely]]                                                                 \
      ::dagml::detail::check_failed(#cond, __FILE__, __LINE__, ::fmt::format(__VA_ARGS__));  \
  } while (0)
