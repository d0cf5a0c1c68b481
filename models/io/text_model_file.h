// The text model-file format of dagml 0.1 (format 1), kept only while estimators move to the
// versioned binary format of model_file.h; removed once none uses it.
//
// The file format of every estimator's save/load: a text file, exact for doubles.
//
//   dagml-model <ModelName> 1
//   <entry name> <rows> <cols>
//   <rows lines of cols values, written with %.17g>
//   …
//   text <entry name> <the rest of the line>
//
// Entries are read back by name; a missing entry, a wrong model name, a bad number or a short
// file is a ParseError naming the file, line and column.
#pragma once

#include <map>
#include <string>

#include "graph/tensor.h"

namespace dagml {

class ModelWriter {
 public:
  explicit ModelWriter(std::string model_name);
  void put_tensor(const std::string& name, const Tensor& value);
  void put_vector(const std::string& name, const Vector& value);
  void put_scalar(const std::string& name, Scalar value);
  void put_text(const std::string& name, const std::string& value);
  // Writes the file; throws IoError naming the path.
  void save(const std::string& path) const;
  const std::string& contents() const { return out_; }

 private:
  std::string out_;
};

class ModelReader {
 public:
  // Reads and parses the whole file; throws IoError (cannot open) or ParseError (malformed, or a
  // model name other than `model_name`).
  ModelReader(const std::string& path, const std::string& model_name);
  // Parses text already in memory; `source` names it in errors.
  static ModelReader parse(const std::string& text, const std::string& model_name, const std::string& source);

  Tensor tensor(const std::string& name) const;
  Vector vector(const std::string& name) const;  // a k×1 entry
  Scalar scalar(const std::string& name) const;  // a 1×1 entry
  const std::string& text(const std::string& name) const;
  bool has(const std::string& name) const { return tensors_.count(name) || texts_.count(name); }

 private:
  ModelReader() = default;
  std::string source_;
  std::map<std::string, Tensor> tensors_;
  std::map<std::string, std::string> texts_;
};

}  // namespace dagml
