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
//
// Reading a row range (read_idx_rows, for a rank's shard of a distributed data set): only the
// header and the rows of the range are read, the rows of a plain file by seeking to the first,
// those of a gzip file by inflating the stream, discarding the bytes before the range and
// stopping after it. A plain file's size is checked against its header as read_idx does; in a
// gzip file only the part up to the end of the range is (inflating the rest is what a shard
// avoids), so a gzip stream truncated or corrupt after the range goes unnoticed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "graph/chunked_sum.h"
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

// What an IDX header declares.
struct IdxHeader {
  IdxType type = IdxType::UnsignedByte;
  std::vector<Index> dims;       // D sizes, outermost first
  std::size_t header_bytes = 0;  // 4 + 4·D
  std::uint64_t count = 0;       // d₁·…·d_D elements
  std::uint64_t inner = 1;       // d₂·…·d_D: the elements of one row
  std::uint64_t data_bytes = 0;  // count · element size
};

// Parses IDX bytes, gunzipping them first if they start with the gzip magic 1f 8b. `source`
// names the data in errors. Throws ParseError or LimitError as described above.
IdxArray parse_idx(std::span<const unsigned char> bytes, const std::string& source = "<idx bytes>");

// Reads an IDX file (plain or .gz). Throws IoError if it cannot be read, ParseError if malformed.
IdxArray read_idx(const std::filesystem::path& path);

// The header of an IDX file (plain or .gz), reading nothing after it. Throws IoError or
// ParseError as read_idx (a gzip file's truncated or corrupt header included).
IdxHeader read_idx_header(const std::filesystem::path& path);

// Rows [rows.begin, rows.end) of an IDX file (plain or .gz): values holds rows.size() × d₂·…·d_D
// doubles, bitwise rows.begin… of read_idx(path).values, and dims[0] is rows.size(). Reads only
// the header and the range (see above). Throws as read_idx (ParseError with the byte offset for a
// truncated or malformed file), LimitError if the range's matrix exceeds file_allocation_limit(),
// and ValueError for a range outside [0, d₁].
IdxArray read_idx_rows(const std::filesystem::path& path, IndexRange rows);

// An image file: n × h × w elements → an n × (h·w) tensor of the stored values (0..255 for
// MNIST-style files). Throws ParseError unless the file has 3 dimensions.
Tensor read_idx_images(const std::filesystem::path& path);

// A label file: n elements → a length-n vector. Throws ParseError unless it has 1 dimension.
Vector read_idx_labels(const std::filesystem::path& path);

// Rows [rows.begin, rows.end) of an image file and of a label file, by read_idx_rows, with the
// dimension checks of read_idx_images and read_idx_labels.
Tensor read_idx_image_rows(const std::filesystem::path& path, IndexRange rows);
Vector read_idx_label_rows(const std::filesystem::path& path, IndexRange rows);

}  // namespace dagml
