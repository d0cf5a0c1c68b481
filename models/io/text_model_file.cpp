#include "models/io/text_model_file.h"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <sstream>

#include "graph/error.h"

namespace dagml {
namespace {

bool valid_name(const std::string& name) {
  return !name.empty() && name.find_first_of(" \t\r\n") == std::string::npos;
}

void check_name(const std::string& name) {
  if (!valid_name(name)) throw ValueError(fmt::format("model file: entry name '{}' must be one word", name));
}

}  // namespace

ModelWriter::ModelWriter(std::string model_name) {
  check_name(model_name);
  out_ = fmt::format("dagml-model {} 1\n", model_name);
}

void ModelWriter::put_tensor(const std::string& name, const Tensor& value) {
  check_name(name);
  out_ += fmt::format("{} {} {}\n", name, value.rows(), value.cols());
  for (Index i = 0; i < value.rows(); ++i) {
    for (Index j = 0; j < value.cols(); ++j) out_ += fmt::format("{}{:.17g}", j ? " " : "", value(i, j));
    out_ += '\n';
  }
}

void ModelWriter::put_vector(const std::string& name, const Vector& value) { put_tensor(name, Tensor(value)); }
void ModelWriter::put_scalar(const std::string& name, Scalar value) { put_tensor(name, scalar_tensor(value)); }

void ModelWriter::put_text(const std::string& name, const std::string& value) {
  check_name(name);
  if (value.find('\n') != std::string::npos) throw ValueError(fmt::format("model file: text '{}' must be one line", name));
  out_ += fmt::format("text {} {}\n", name, value);
}

void ModelWriter::save(const std::string& path) const {
  std::ofstream file(path, std::ios::binary);
  if (!file) throw IoError(fmt::format("cannot open '{}' for writing", path));
  file << out_;
  if (!file) throw IoError(fmt::format("failed writing '{}'", path));
}

ModelReader::ModelReader(const std::string& path, const std::string& model_name) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw IoError(fmt::format("cannot open model file '{}'", path));
  std::stringstream buffer;
  buffer << file.rdbuf();
  *this = parse(buffer.str(), model_name, path);
}

ModelReader ModelReader::parse(const std::string& text, const std::string& model_name, const std::string& source) {
  ModelReader r;
  r.source_ = source;
  std::istringstream in(text);
  std::string line;
  long line_no = 0;
  auto fail = [&](const std::string& what) -> ParseError { return ParseError(source, line_no, 1, what); };
  if (!std::getline(in, line)) throw ParseError(source, 1, 1, "empty model file");
  ++line_no;
  const std::string expected = fmt::format("dagml-model {} 1", model_name);
  if (line != expected) throw fail(fmt::format("expected the header '{}', found '{}'", expected, line.substr(0, 80)));
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    std::istringstream head(line);
    std::string name;
    head >> name;
    if (name == "text") {
      std::string key;
      head >> key;
      std::string value;
      std::getline(head, value);
      if (!value.empty() && value[0] == ' ') value.erase(0, 1);
      if (!valid_name(key)) throw fail("a text entry needs a name");
      r.texts_[key] = value;
      continue;
    }
    long long rows = -1, cols = -1;
    head >> rows >> cols;
    if (!head || rows < 0 || cols < 0 || rows > (1LL << 31) || cols > (1LL << 31))
      throw fail(fmt::format("expected '<name> <rows> <cols>', found '{}'", line.substr(0, 80)));
    Tensor t(static_cast<Index>(rows), static_cast<Index>(cols));
    for (Index i = 0; i < t.rows(); ++i) {
      if (!std::getline(in, line)) throw fail(fmt::format("entry '{}' ends after {} of {} rows", name, i, rows));
      ++line_no;
      const char* p = line.data();
      const char* end = line.data() + line.size();
      for (Index j = 0; j < t.cols(); ++j) {
        while (p < end && *p == ' ') ++p;
        double v = 0;
        const auto [next, ec] = std::from_chars(p, end, v);
        if (ec != std::errc())
          throw ParseError(source, line_no, static_cast<long>(p - line.data()) + 1,
                           fmt::format("entry '{}': expected {} numbers on this row", name, cols));
        t(i, j) = v;
        p = next;
      }
    }
    r.tensors_[name] = std::move(t);
  }
  return r;
}

Tensor ModelReader::tensor(const std::string& name) const {
  const auto it = tensors_.find(name);
  if (it == tensors_.end()) throw ParseError(source_, 0, 0, fmt::format("the model file has no entry '{}'", name));
  return it->second;
}

Vector ModelReader::vector(const std::string& name) const {
  const Tensor t = tensor(name);
  if (t.cols() != 1 && t.rows() > 0)
    throw ParseError(source_, 0, 0, fmt::format("entry '{}' should be a column, found {}×{}", name, t.rows(), t.cols()));
  return t.col(0);
}

Scalar ModelReader::scalar(const std::string& name) const {
  const Tensor t = tensor(name);
  if (t.size() != 1) throw ParseError(source_, 0, 0, fmt::format("entry '{}' should be 1×1, found {}×{}", name, t.rows(), t.cols()));
  return t(0, 0);
}

const std::string& ModelReader::text(const std::string& name) const {
  const auto it = texts_.find(name);
  if (it == texts_.end()) throw ParseError(source_, 0, 0, fmt::format("the model file has no text entry '{}'", name));
  return it->second;
}

}  // namespace dagml
