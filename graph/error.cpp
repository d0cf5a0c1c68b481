#include "graph/error.h"

#include "graph/tensor.h"

namespace dagml {

std::string to_string(const Shape& s) { return fmt::format("{}×{}", s.rows, s.cols); }

ParseError::ParseError(std::string file, long line, long column, const std::string& what)
    : Error(fmt::format("{}:{}:{}: {}", file, line, column, what)),
      file_(std::move(file)),
      line_(line),
      column_(column) {}

namespace detail {
void check_failed(const char* expr, const char* file, int line, const std::string& msg) {
  throw InternalError(fmt::format("internal check '{}' failed at {}:{}: {}", expr, file, line, msg));
}
}  // namespace detail

}  // namespace dagml
