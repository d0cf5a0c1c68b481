// Model files: every estimator's save and load.
//
// Note [Model file format]
// A model file is binary and self-describing (all integers little-endian):
//
//   bytes 0–7   "DAGMLMOD"
//   u32         format version (kModelFormatVersion; 2 since dagml 0.2)
//   u64         body size in bytes
//   u32         CRC-32 (zlib) of the body
//   body        written by ModelOutputArchive (archive.h):
//                 dagml version (text), model type name (the registry's, e.g. "ridge"),
//                 u32 model version (the estimator's own layout version, kModelVersion, 1 by default),
//                 then the estimator's serialize(): its options, field by field, then its fitted state.
//
// Reading checks, in order, each with a ParseError that names the file and what was found:
// the magic (a dagml 0.1 text file, "dagml-model …", is format 1: it is refused with a message
// naming both formats, since this dagml no longer carries the old loaders); the format version
// (newer than this dagml reads: refused, naming both); the body size (a truncated file); the
// checksum (a damaged file: any single flipped byte is caught here); the type name against the
// estimator asked for; the model version (newer than this dagml: refused). An estimator that
// changes its layout raises its kModelVersion and reads older layouts through
// ModelInputArchive::model_version(). The body is parsed by the hardened archive (archive.h);
// the loaded options then pass the estimator's constructor checks.
//
// Saving is atomic: the bytes go to a temporary file in the target's folder, are flushed and
// synced, and the temporary is renamed over the target, so a failure part-way leaves the
// previous file as it was.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include "models/io/archive.h"

namespace dagml {

inline constexpr std::uint32_t kModelFormatVersion = 2;

// dagml's version, "0.2.0".
const char* dagml_version();

// The layout version of estimator M: M::kModelVersion when it declares one, else 1.
template <class M>
constexpr std::uint32_t model_version() {
  if constexpr (requires { M::kModelVersion; }) {
    return M::kModelVersion;
  } else {
    return 1;
  }
}

// A model file read into memory and checked up to its payload (Note [Model file format]).
class ModelFile {
 public:
  // Throws ParseError for anything but a well-formed, undamaged file of a format this dagml reads.
  ModelFile(std::string bytes, std::string source);
  // Reads `path`; IoError when it cannot be read.
  static ModelFile read(const std::string& path);

  std::uint32_t format_version() const { return format_version_; }
  const std::string& dagml_version() const { return dagml_version_; }
  const std::string& type_name() const { return type_name_; }
  std::uint32_t model_version() const { return model_version_; }
  const std::string& source() const { return source_; }
  // An archive positioned at the estimator's serialised state.
  ModelInputArchive payload() const;
  // ParseError unless the file holds a `type_name` model of a layout version ≤ `max_version`.
  void expect(std::string_view type_name, std::uint32_t max_version) const;

 private:
  std::string bytes_, source_;
  std::uint32_t format_version_ = 0;
  std::string dagml_version_, type_name_;
  std::uint32_t model_version_ = 0;
  std::size_t payload_offset_ = 0;
};

// The whole file: header, then `payload` (the serialised estimator) in the body.
std::string frame_model_file(std::string_view type_name, std::uint32_t model_version, const std::string& payload);

// Writes `path` atomically: `write` fills a stream bound to a temporary file in the same folder;
// if it throws or leaves the stream failed, the temporary is removed, the target is untouched and
// IoError is thrown. Otherwise the temporary is flushed, synced and renamed over the target.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

// --- The generic save and load of an estimator M (M::kTypeName, M::serialize(Archive&)) -----------

template <class M>
std::string model_to_bytes(const M& model) {
  std::string payload;
  {
    ModelOutputArchive archive(payload);
    archive(model);
  }
  return frame_model_file(M::kTypeName, model_version<M>(), payload);
}

// Reads the file's state into `model`, a default-constructed M unless the estimator needs a part
// that no file holds (NonlinearLeastSquares: its model function); then checks the options read
// back with M's constructor.
template <class M>
M model_from_file(const ModelFile& file, M model) {
  file.expect(M::kTypeName, model_version<M>());
  ModelInputArchive archive = file.payload();
  archive(model);
  if (archive.remaining() != 0) archive.fail(fmt::format("{} bytes left over after the model", archive.remaining()));
  M checked(model.options());  // the constructor's option checks, on the options read back
  (void)checked;
  return model;
}

template <class M>
M model_from_file(const ModelFile& file) {
  return model_from_file(file, M());
}

template <class M>
void save_model(const M& model, const std::string& path) {
  const std::string bytes = model_to_bytes(model);
  write_file_atomically(path, [&](std::ostream& out) { out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())); });
}

template <class M>
M load_model_file(const std::string& path) {
  return model_from_file<M>(ModelFile::read(path));
}

}  // namespace dagml

// --- Estimator's save and load (estimator.h), instantiated in each estimator's .cpp ---------------

#include "models/io/estimator.h"

namespace dagml {

template <class Derived, class Options>
void Estimator<Derived, Options>::save(const std::string& path) const {
  save_model(static_cast<const Derived&>(*this), path);
}

template <class Derived, class Options>
Derived Estimator<Derived, Options>::load(const std::string& path) {
  return load_model_file<Derived>(path);
}

template <class Derived, class Options>
Derived Estimator<Derived, Options>::from_model_file(const ModelFile& file) {
  return model_from_file<Derived>(file);
}

template <class Derived, class Options>
std::string Estimator<Derived, Options>::to_bytes() const {
  return model_to_bytes(static_cast<const Derived&>(*this));
}

}  // namespace dagml
