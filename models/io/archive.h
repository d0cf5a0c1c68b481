// The archives every model file is written and read with: cereal's serialisation framework
// (one `serialize(Archive&)` per class, used in both directions; std::string, std::vector and
// nested classes handled by cereal) over a little-endian binary encoding of dagml's own.
//
// Note [Hardened model archive]
// cereal's stock binary archives trust the bytes they read: a container size read from a
// damaged file is allocated before any element is read. ModelInputArchive reads from memory
// and checks every read against the bytes that remain, so a size that the rest of the file
// cannot hold is a ParseError before anything is allocated (each element takes at least one
// byte), a bool must be 0 or 1, and an enum must be one of its names. Tensors store rows and
// columns then the entries bitwise, so doubles (NaN payloads and −0 included) round-trip exactly.
#pragma once

#include <cereal/cereal.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "graph/error.h"
#include "graph/tensor.h"
#include "graph/enum_names.h"
#include "models/io/option_fields.h"

static_assert(std::endian::native == std::endian::little,
              "dagml model files are little-endian; a big-endian port must byte-swap in models/io/archive.h");

namespace dagml {

class ModelOutputArchive : public cereal::OutputArchive<ModelOutputArchive, cereal::AllowEmptyClassElision> {
 public:
  explicit ModelOutputArchive(std::string& out) : OutputArchive(this), out_(out) {}
  void save_bytes(const void* data, std::size_t size) { out_.append(static_cast<const char*>(data), size); }

 private:
  std::string& out_;
};

class ModelInputArchive : public cereal::InputArchive<ModelInputArchive, cereal::AllowEmptyClassElision> {
 public:
  // Reads `bytes` (which must outlive the archive); `source` names the file in errors, and
  // `model_version` is the version of the estimator's layout the file was written with.
  ModelInputArchive(std::string_view bytes, std::string source, std::uint32_t model_version = 1)
      : InputArchive(this), bytes_(bytes), source_(std::move(source)), model_version_(model_version) {}

  // Copies the next `size` bytes; ParseError if fewer remain.
  void load_bytes(void* data, std::size_t size);
  std::size_t remaining() const { return bytes_.size() - pos_; }
  std::size_t position() const { return pos_; }
  std::uint32_t model_version() const { return model_version_; }
  // Throws ParseError naming the file and the byte offset.
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
  std::string source_;
  std::uint32_t model_version_;
};

// --- cereal's primitives for the two archives ---------------------------------------------------

template <class T>
  requires std::is_arithmetic_v<T>
void CEREAL_SAVE_FUNCTION_NAME(ModelOutputArchive& ar, const T& t) {
  ar.save_bytes(std::addressof(t), sizeof(T));
}

template <class T>
  requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
void CEREAL_LOAD_FUNCTION_NAME(ModelInputArchive& ar, T& t) {
  ar.load_bytes(std::addressof(t), sizeof(T));
}

void CEREAL_LOAD_FUNCTION_NAME(ModelInputArchive& ar, bool& t);

template <class Archive, class T>
CEREAL_ARCHIVE_RESTRICT(ModelInputArchive, ModelOutputArchive)
CEREAL_SERIALIZE_FUNCTION_NAME(Archive& ar, cereal::NameValuePair<T>& t) {
  ar(t.value);
}

template <class T>
void CEREAL_SAVE_FUNCTION_NAME(ModelOutputArchive& ar, const cereal::SizeTag<T>& t) {
  ar(static_cast<std::uint64_t>(t.size));
}

template <class T>
void CEREAL_LOAD_FUNCTION_NAME(ModelInputArchive& ar, cereal::SizeTag<T>& t) {
  std::uint64_t size = 0;
  ar(size);
  if (size > ar.remaining()) {
    ar.fail(fmt::format("a container of {} elements, but only {} bytes remain", size, ar.remaining()));
  }
  t.size = static_cast<std::remove_reference_t<T>>(size);
}

template <class T>
void CEREAL_SAVE_FUNCTION_NAME(ModelOutputArchive& ar, const cereal::BinaryData<T>& bd) {
  ar.save_bytes(bd.data, static_cast<std::size_t>(bd.size));
}

template <class T>
void CEREAL_LOAD_FUNCTION_NAME(ModelInputArchive& ar, cereal::BinaryData<T>& bd) {
  ar.load_bytes(bd.data, static_cast<std::size_t>(bd.size));
}

// --- dagml's types ----------------------------------------------------------------------------------

// Dense matrices (Tensor, Vector, …): rows, columns, then the entries in storage order.
template <class S, int R, int C, int O, int MR, int MC>
void CEREAL_SAVE_FUNCTION_NAME(ModelOutputArchive& ar, const Eigen::Matrix<S, R, C, O, MR, MC>& m) {
  ar(static_cast<std::int64_t>(m.rows()), static_cast<std::int64_t>(m.cols()));
  ar(cereal::binary_data(m.data(), static_cast<std::size_t>(m.size()) * sizeof(S)));
}

template <class S, int R, int C, int O, int MR, int MC>
void CEREAL_LOAD_FUNCTION_NAME(ModelInputArchive& ar, Eigen::Matrix<S, R, C, O, MR, MC>& m) {
  std::int64_t rows = 0, cols = 0;
  ar(rows, cols);
  const bool fits = rows >= 0 && cols >= 0 && (R == Eigen::Dynamic || rows == R) &&
                    (C == Eigen::Dynamic || cols == C) &&
                    (rows == 0 || cols == 0 ||
                     static_cast<std::uint64_t>(cols) <= ar.remaining() / sizeof(S) / static_cast<std::uint64_t>(rows));
  if (!fits) {
    ar.fail(fmt::format("a {}×{} matrix{}, but only {} bytes remain", rows, cols,
                        C == 1 ? " (a vector: one column)" : "", ar.remaining()));
  }
  m.resize(static_cast<Index>(rows), static_cast<Index>(cols));
  ar(cereal::binary_data(m.data(), static_cast<std::size_t>(m.size()) * sizeof(S)));
}

// Enums by name (enum_names.h).
template <NamedEnum E>
std::string save_minimal(const ModelOutputArchive&, const E& e) {
  return std::string(enum_name(e));
}

template <NamedEnum E>
void load_minimal(const ModelInputArchive& ar, E& e, const std::string& name) {
  const auto value = enum_from_name<E>(name);
  if (!value) ar.fail(fmt::format("expected one of {}, found '{}'", enum_choices<E>(), name));
  e = *value;
}

// Options structs through their one list of fields (option_fields.h). A struct whose fields were
// added over the estimator's layouts says which layout added each, `static constexpr
// std::uint32_t field_layout(std::string_view name)`: a file of an older layout has no such field,
// which keeps its default.
template <class Archive, OptionStruct O>
CEREAL_ARCHIVE_RESTRICT(ModelInputArchive, ModelOutputArchive)
CEREAL_SERIALIZE_FUNCTION_NAME(Archive& ar, O& options) {
  options.visit([&](const char* name, auto& field, const char*) {
    if constexpr (Archive::is_loading::value && requires { O::field_layout(std::string_view()); }) {
      if (ar.model_version() < O::field_layout(name)) return;
    }
    ar(cereal::make_nvp(name, field));
  });
}

}  // namespace dagml

CEREAL_REGISTER_ARCHIVE(dagml::ModelOutputArchive)
CEREAL_REGISTER_ARCHIVE(dagml::ModelInputArchive)
CEREAL_SETUP_ARCHIVE_TRAITS(dagml::ModelInputArchive, dagml::ModelOutputArchive)
