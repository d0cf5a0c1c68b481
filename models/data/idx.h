// Reading the IDX format of MNIST and Fashion-MNIST, plain or gzip-compressed.
//
// IDX layout (all integers big-endian):
//   bytes 0–1   0x00 0x00
//   byte  2     element type: 0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32,
//               0x0E float64
//   byte  3     number of dimensions D ≥ 1
//   then        D uint32 sizes, outermost first
//   then        the elements, row-major (last index fastest)
// The file must hold exactly 4 + 4·D + (d₁·…·d_D)·(element size) bytes. Anything else (too
// short or too long, a wrong magic number, an unknown type) is a ParseError whose line is 0 and
// whose column is the byte offset of the fault (for a gzip file, into the decompressed data, as
// the message then says); a corrupt or truncated gzip stream is a ParseError too. Sizes whose
// matrix of doubles would exceed file_allocation_limit() (file_io.h), overflow included, are a
// LimitError. Nothing is read past the end of the data and no memory is allocated for a size the
// data does not contain: a gzip file is inflated header first, then only as far as the header
// declares.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "graph/tensor.h"

namespace dagml {

enum class IdxType : unsigned char {
  UnsignedByte = 0x08,
  SignedByte = 0x09,
  Short = 0x0B,
  Int = 0x0C,
  Float = 0x0D,
  Double = 0x0E,
};

struct IdxArray {
  IdxType type = IdxType::UnsignedByte;
  std::vector<Index> dims;  // D sizes, outermost first
  // The elements converted to double, as a d₁ × (d₂·…·d_D) matrix (d₁ × 1 when D = 1): one
  // image per row for a d₁ × h × w image file.
  Tensor values;
};

// Parses IDX bytes, gunzipping them first if they start with the gzip magic 1f 8b. `source`
// names the data in errors. Throws ParseError or LimitError as described above.
IdxArray parse_idx(std::span<const unsigned char> bytes, const std::string& source = "<idx bytes>");

// Reads an IDX file (plain or .gz). Throws IoError if it cannot be read, ParseError if malformed.
IdxArray read_idx(const std::filesystem::path& path);

// An image file: n × h × w elements → an n × (h·w) tensor of the stored values (0..255 for
// MNIST-style files). Throws ParseError unless the file has 3 dimensions.
Tensor read_idx_images(const std::filesystem::path& path);

// A label file: n elements → a length-n vector. Throws ParseError unless it has 1 dimension.
Vector read_idx_labels(const std::filesystem::path& path);

}  // namespace dagml
