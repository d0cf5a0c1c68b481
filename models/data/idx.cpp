#include "models/data/idx.h"

#include <fmt/ranges.h>

#include <array>
#include <bit>
#include <memory>
#include <cstdint>
#include <functional>
#include <limits>

#include "graph/error.h"
#include "models/data/file_io.h"

namespace dagml {
namespace {

constexpr std::size_t kMagicBytes = 4;

std::size_t element_size(IdxType t) {
  switch (t) {
    case IdxType::UnsignedByte:
    case IdxType::SignedByte:
      return 1;
    case IdxType::Short:
      return 2;
    case IdxType::Int:
    case IdxType::Float:
      return 4;
    case IdxType::Double:
      return 8;
  }
  return 0;
}

std::uint64_t read_be(const unsigned char* p, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

// One element at p, big-endian, converted to double.
double decode(IdxType t, const unsigned char* p) {
  switch (t) {
    case IdxType::UnsignedByte:
      return p[0];
    case IdxType::SignedByte:
      return static_cast<std::int8_t>(p[0]);
    case IdxType::Short:
      return static_cast<std::int16_t>(static_cast<std::uint16_t>(read_be(p, 2)));
    case IdxType::Int:
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(read_be(p, 4)));
    case IdxType::Float:
      return std::bit_cast<float>(static_cast<std::uint32_t>(read_be(p, 4)));
    case IdxType::Double:
      return std::bit_cast<double>(read_be(p, 8));
  }
  return 0;
}

// a·b, or false if it exceeds `limit`.
bool multiply_within(std::uint64_t a, std::uint64_t b, std::uint64_t limit, std::uint64_t& out) {
  if (a != 0 && b > limit / a) return false;
  out = a * b;
  return true;
}

using FailAt = std::function<ParseError(std::size_t offset, const std::string& what)>;

// ParseErrors at byte offsets of `source`; `where` says whether offsets refer to the file or to
// its decompressed contents.
FailAt fail_at(const std::string& source, const char* where) {
  return [&source, where](std::size_t offset, const std::string& what) {
    return ParseError(source, 0, static_cast<long>(offset), where + what);
  };
}

constexpr const char* kInFile = "";
constexpr const char* kInflated = "in the decompressed data: ";

// Reads and checks the header at the start of `b`. ParseError for a malformed header; LimitError
// when the element count overflows 64 bits (as bytes of doubles).
IdxHeader parse_header(std::span<const unsigned char> b, const FailAt& fail) {
  if (b.size() < kMagicBytes) {
    throw fail(b.size(), fmt::format("truncated IDX header: expected at least {} bytes, found {}",
                                     kMagicBytes, b.size()));
  }
  if (b[0] != 0 || b[1] != 0) {
    throw fail(0, fmt::format("wrong magic number: expected an IDX file starting with 00 00, "
                              "found {:02x} {:02x}",
                              b[0], b[1]));
  }
  IdxHeader h;
  h.type = static_cast<IdxType>(b[2]);
  const std::size_t esize = element_size(h.type);
  if (esize == 0) {
    throw fail(
        2,
        fmt::format("unknown IDX element type 0x{:02x}: expected one of 08 09 0b 0c 0d 0e", b[2]));
  }
  const std::size_t ndims = b[3];
  if (ndims == 0) throw fail(3, "expected at least one dimension, found 0");
  h.header_bytes = kMagicBytes + 4 * ndims;
  if (b.size() < h.header_bytes) {
    throw fail(b.size(),
               fmt::format("truncated IDX header: {} dimensions need {} bytes, the data has {}",
                           ndims, h.header_bytes, b.size()));
  }
  // Sizes and their product, checked against overflow: the elements become doubles, 8 bytes each
  // whatever the stored type.
  constexpr std::uint64_t kMaxElements = std::numeric_limits<std::uint64_t>::max() / sizeof(double);
  std::uint64_t count = 1;
  bool within = true;
  for (std::size_t k = 0; k < ndims; ++k) {
    const std::uint64_t d = read_be(b.data() + kMagicBytes + 4 * k, 4);
    h.dims.push_back(static_cast<Index>(d));
    within = within && multiply_within(count, d, kMaxElements, count);
    if (k > 0) within = within && multiply_within(h.inner, d, kMaxElements, h.inner);
  }
  if (!within) {
    throw LimitError(fmt::format(
        "IDX dimensions {} declare more than the file allocation limit of {} bytes (set_file_allocation_limit raises it)",
        fmt::join(h.dims, "×"), file_allocation_limit()));
  }
  h.count = count;
  h.data_bytes = count * esize;
  return h;
}

// LimitError unless `rows` rows of h's file, as a matrix of doubles, fit in file_allocation_limit().
void check_rows_within_limit(const IdxHeader& h, std::uint64_t rows) {
  const std::uint64_t limit = file_allocation_limit();
  std::uint64_t elements = 0, matrix_bytes = 0;
  if (!multiply_within(rows, h.inner, limit, elements) ||
      !multiply_within(elements, sizeof(double), limit, matrix_bytes)) {
    throw LimitError(fmt::format(
        "IDX dimensions {} declare more than the file allocation limit of {} bytes (set_file_allocation_limit raises it)",
        rows == static_cast<std::uint64_t>(h.dims[0]) ? fmt::format("{}", fmt::join(h.dims, "×"))
                                                      : fmt::format("{} rows of {}", rows, fmt::join(h.dims, "×")),
        limit));
  }
}

// ParseError unless `have` bytes after the header are exactly the h.data_bytes declared.
void check_data_size(const IdxHeader& h, std::uint64_t have, const FailAt& fail) {
  if (h.data_bytes > have) {
    throw fail(h.header_bytes + have,
               fmt::format("truncated IDX data: dimensions {} of {}-byte elements need {} "
                           "bytes after the header, the data has {}",
                           fmt::join(h.dims, "×"), element_size(h.type), h.data_bytes, have));
  }
  if (h.data_bytes < have) {
    throw fail(h.header_bytes + h.data_bytes,
               fmt::format("corrupt IDX data: dimensions {} need {} bytes after the "
                           "header, the data has {} more",
                           fmt::join(h.dims, "×"), h.data_bytes, have - h.data_bytes));
  }
}

// The array of `rows` rows of elements starting at p (rows · h.inner of them), row by row.
IdxArray decode_rows(const IdxHeader& h, Index rows, const unsigned char* p) {
  IdxArray out;
  out.type = h.type;
  out.dims = h.dims;
  out.dims[0] = rows;
  out.values.resize(rows, static_cast<Index>(h.inner));
  const std::size_t esize = element_size(h.type);
  const std::uint64_t count = static_cast<std::uint64_t>(rows) * h.inner;
  double* dst = out.values.data();
  for (std::uint64_t i = 0; i < count; ++i, p += esize) dst[i] = decode(h.type, p);
  return out;
}

IdxArray parse_plain(std::span<const unsigned char> b, const std::string& source, const char* where) {
  const FailAt fail = fail_at(source, where);
  const IdxHeader h = parse_header(b, fail);
  check_rows_within_limit(h, static_cast<std::uint64_t>(h.dims[0]));
  check_data_size(h, b.size() - h.header_bytes, fail);
  // The allocation is bounded by the data present and by the limit: count ≤ have.
  return decode_rows(h, h.dims[0], b.data() + h.header_bytes);
}

// A gzip IDX stream is inflated in two steps, so that a small file cannot make dagml allocate
// more than its header declares: the header first (at most 4 + 4·255 bytes), then exactly the
// bytes it declares (one more is a corrupt file).
IdxArray parse_gzip(std::span<const unsigned char> bytes, const std::string& source) {
  const FailAt fail = fail_at(source, kInflated);
  Inflated plain = gunzip(bytes, source, kMagicBytes + 4 * 255);
  if (!plain.complete) {
    const IdxHeader h = parse_header(plain.bytes, fail);
    check_rows_within_limit(h, static_cast<std::uint64_t>(h.dims[0]));
    plain = gunzip(bytes, source, h.header_bytes + h.data_bytes);
    if (!plain.complete) {
      throw fail(h.header_bytes + h.data_bytes,
                 fmt::format("corrupt IDX data: dimensions {} need {} bytes after the header, the "
                             "gzip stream inflates to more",
                             fmt::join(h.dims, "×"), h.data_bytes));
    }
  }
  return parse_plain(plain.bytes, source, kInflated);
}

// The bytes of an IDX file as a stream: the file itself, or its inflated contents when it is
// gzip-compressed. read(out) fills `out`, short only at the end.
class IdxFileStream {
 public:
  explicit IdxFileStream(const std::filesystem::path& path) : file_(path), source_(path.string()) {
    unsigned char magic[2];
    gzip_ = is_gzip(std::span<const unsigned char>(magic, file_.read(magic)));
    file_.seek(0);
    if (gzip_) {
      gzip_reader_ = std::make_unique<GzipReader>(
          [this]() -> std::span<const unsigned char> {
            return std::span<const unsigned char>(input_.data(), file_.read(input_));
          },
          source_);
    }
  }

  bool gzip() const { return gzip_; }
  const std::string& source() const { return source_; }
  std::uint64_t file_size() const { return file_.size(); }

  std::size_t read(std::span<unsigned char> out) { return gzip_ ? gzip_reader_->read(out) : file_.read(out); }

  // Skips `bytes` bytes from the current position (a seek in a plain file); the number skipped,
  // fewer only at the end of the stream.
  std::uint64_t skip(std::uint64_t position, std::uint64_t bytes) {
    if (!gzip_) {
      file_.seek(position + bytes);
      return bytes;
    }
    std::array<unsigned char, 1 << 16> discard;
    std::uint64_t skipped = 0;
    while (skipped < bytes) {
      const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(discard.size(), bytes - skipped));
      const std::size_t got = gzip_reader_->read(std::span(discard.data(), want));
      skipped += got;
      if (got < want) break;
    }
    return skipped;
  }

  // The header, read and checked (the magic, type and size bytes only).
  IdxHeader header() {
    std::array<unsigned char, kMagicBytes + 4 * 255> b;
    std::size_t got = read(std::span(b.data(), kMagicBytes));
    if (got == kMagicBytes) got += read(std::span(b.data() + kMagicBytes, 4 * std::size_t{b[3]}));
    return parse_header(std::span(b.data(), got), fail_at(source_, gzip_ ? kInflated : kInFile));
  }

 private:
  FileReader file_;
  std::string source_;
  bool gzip_ = false;
  std::array<unsigned char, 1 << 16> input_;
  std::unique_ptr<GzipReader> gzip_reader_;
};

// ParseError unless the array has `expected` dimensions (3 for images, 1 for labels).
void check_dimensions(const std::vector<Index>& dims, std::size_t expected, const char* what,
                      const std::filesystem::path& path) {
  if (dims.size() == expected) return;
  throw ParseError(path.string(), 0, 3,
                   fmt::format("expected {}, found {} ({})", what, dims.size(), fmt::join(dims, "×")));
}

constexpr const char* kImageFile = "an image file with 3 dimensions (n × height × width)";
constexpr const char* kLabelFile = "a label file with 1 dimension";

}  // namespace

IdxArray parse_idx(std::span<const unsigned char> bytes, const std::string& source) {
  return is_gzip(bytes) ? parse_gzip(bytes, source) : parse_plain(bytes, source, "");
}

IdxArray read_idx(const std::filesystem::path& path) {
  return parse_idx(read_file_bytes(path), path.string());
}

IdxHeader read_idx_header(const std::filesystem::path& path) { return IdxFileStream(path).header(); }

IdxArray read_idx_rows(const std::filesystem::path& path, IndexRange rows) {
  IdxFileStream stream(path);
  const IdxHeader h = stream.header();
  const Index n = h.dims[0];
  if (rows.begin < 0 || rows.end < rows.begin || rows.end > n) {
    throw ValueError(fmt::format("{}: expected a row range within [0, {}] (the file's {} rows), found [{}, {})",
                                 path.string(), n, n, rows.begin, rows.end));
  }
  check_rows_within_limit(h, static_cast<std::uint64_t>(rows.size()));
  const FailAt fail = fail_at(stream.source(), stream.gzip() ? kInflated : kInFile);
  if (!stream.gzip()) check_data_size(h, stream.file_size() - h.header_bytes, fail);
  const std::uint64_t row_bytes = h.inner * element_size(h.type);
  const std::uint64_t skip = static_cast<std::uint64_t>(rows.begin) * row_bytes;
  std::vector<unsigned char> bytes(static_cast<std::size_t>(rows.size()) * row_bytes);
  const std::uint64_t have = stream.skip(h.header_bytes, skip);
  const std::uint64_t got = have < skip ? 0 : stream.read(bytes);
  if (have < skip || got < bytes.size()) {
    // Only a gzip stream can end early: a plain file's size was checked.
    check_data_size(h, have + got, fail);
  }
  return decode_rows(h, rows.size(), bytes.data());
}

Tensor read_idx_images(const std::filesystem::path& path) {
  IdxArray a = read_idx(path);
  check_dimensions(a.dims, 3, kImageFile, path);
  return std::move(a.values);
}

Vector read_idx_labels(const std::filesystem::path& path) {
  const IdxArray a = read_idx(path);
  check_dimensions(a.dims, 1, kLabelFile, path);
  return a.values.col(0);
}

Tensor read_idx_image_rows(const std::filesystem::path& path, IndexRange rows) {
  check_dimensions(read_idx_header(path).dims, 3, kImageFile, path);
  return std::move(read_idx_rows(path, rows).values);
}

Vector read_idx_label_rows(const std::filesystem::path& path, IndexRange rows) {
  check_dimensions(read_idx_header(path).dims, 1, kLabelFile, path);
  return read_idx_rows(path, rows).values.col(0);
}

}  // namespace dagml
