#include "models/io/option_fields.h"

namespace dagml {
namespace detail {

void bad_option_value(std::string_view key, std::string_view expected, std::string_view found) {
  throw ValueError(fmt::format("option {}: expected {}, found '{}'", key, expected, found));
}

std::vector<std::string_view> split_list(std::string_view text, char separator) {
  std::vector<std::string_view> items;
  if (text.empty()) return items;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(separator, start);
    items.push_back(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return items;
    start = comma + 1;
  }
}

}  // namespace detail

std::string format_option(const Vector& v) {
  std::string out;
  for (Index i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    out += detail::format_number(v(i));
  }
  return out;
}

std::string format_option(const Tensor& m) {
  std::string out;
  for (Index i = 0; i < m.rows(); ++i) {
    if (i > 0) out += ';';
    out += format_option(Vector(m.row(i).transpose()));
  }
  return out;
}

void parse_option(std::string_view key, std::string_view text, Tensor& m) {
  const auto rows = detail::split_list(text, ';');
  m.resize(static_cast<Index>(rows.size()), 0);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    Vector row;
    parse_option(key, rows[i], row);
    if (i == 0) m.resize(m.rows(), row.size());
    if (row.size() != m.cols()) {
      detail::bad_option_value(key, fmt::format("{} entries in every row", m.cols()), rows[i]);
    }
    m.row(static_cast<Index>(i)) = row.transpose();
  }
}

void parse_option(std::string_view key, std::string_view text, bool& v) {
  if (text == "true" || text == "1") {
    v = true;
  } else if (text == "false" || text == "0") {
    v = false;
  } else {
    detail::bad_option_value(key, "true or false", text);
  }
}

void parse_option(std::string_view key, std::string_view text, Vector& v) {
  const auto items = detail::split_list(text);
  v.resize(static_cast<Index>(items.size()));
  for (std::size_t i = 0; i < items.size(); ++i) v(static_cast<Index>(i)) = detail::parse_number<Scalar>(key, items[i]);
}

}  // namespace dagml
