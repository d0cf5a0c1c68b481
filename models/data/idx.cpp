#include "models/data/idx.h"

#include <fmt/ranges.h>

#include <bit>
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

// What an IDX header declares.
struct IdxHeader {
  IdxType type = IdxType::UnsignedByte;
  std::vector<Index> dims;
  std::size_t header_bytes = 0;  // 4 + 4·D
  std::uint64_t count = 0;       // d₁·…·d_D elements
  std::uint64_t inner = 1;       // d₂·…·d_D
  std::uint64_t data_bytes = 0;  // count · element size
};

// Reads and checks the header at the start of `b`. ParseError for a malformed header; LimitError
// when the data it declares, or the matrix of doubles it becomes, exceeds file_allocation_limit().
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
  // Sizes and their product, checked against overflow and against the allocation limit: the
  // elements become doubles, so the matrix takes 8 bytes per element whatever the stored type.
  const std::uint64_t limit = file_allocation_limit();
  std::uint64_t count = 1;
  bool within = true;
  for (std::size_t k = 0; k < ndims; ++k) {
    const std::uint64_t d = read_be(b.data() + kMagicBytes + 4 * k, 4);
    h.dims.push_back(static_cast<Index>(d));
    within = within && multiply_within(count, d, limit, count);
    if (k > 0) within = within && multiply_within(h.inner, d, limit, h.inner);
  }
  std::uint64_t matrix_bytes = 0;
  within = within && multiply_within(count, sizeof(double), limit, matrix_bytes);
  if (!within) {
    throw LimitError(fmt::format(
        "IDX dimensions {} declare more than the file allocation limit of {} bytes (set_file_allocation_limit raises it)",
        fmt::join(h.dims, "×"), limit));
  }
  h.count = count;
  h.data_bytes = count * esize;
  return h;
}

// `where` says whether offsets refer to the file or to its decompressed contents.
IdxArray parse_plain(std::span<const unsigned char> b, const std::string& source,
                     const char* where) {
  const FailAt fail = [&](std::size_t offset, const std::string& what) {
    return ParseError(source, 0, static_cast<long>(offset), where + what);
  };
  const IdxHeader h = parse_header(b, fail);
  const std::uint64_t have = b.size() - h.header_bytes;
  if (h.data_bytes > have) {
    throw fail(b.size(), fmt::format("truncated IDX data: dimensions {} of {}-byte elements need {} "
                                     "bytes after the header, the data has {}",
                                     fmt::join(h.dims, "×"), element_size(h.type), h.data_bytes, have));
  }
  if (h.data_bytes < have) {
    throw fail(h.header_bytes + h.data_bytes,
               fmt::format("corrupt IDX data: dimensions {} need {} bytes after the "
                           "header, the data has {} more",
                           fmt::join(h.dims, "×"), h.data_bytes, have - h.data_bytes));
  }

  // The allocation is bounded by the data present and by the limit: count ≤ have.
  IdxArray out;
  out.type = h.type;
  out.dims = h.dims;
  out.values.resize(out.dims[0], static_cast<Index>(h.inner));
  const std::size_t esize = element_size(h.type);
  const unsigned char* p = b.data() + h.header_bytes;
  double* dst = out.values.data();
  for (std::uint64_t i = 0; i < h.count; ++i, p += esize) dst[i] = decode(h.type, p);
  return out;
}

// A gzip IDX stream is inflated in two steps, so that a small file cannot make dagml allocate
// more than its header declares: the header first (at most 4 + 4·255 bytes), then exactly the
// bytes it declares (one more is a corrupt file).
IdxArray parse_gzip(std::span<const unsigned char> bytes, const std::string& source) {
  constexpr const char* kWhere = "in the decompressed data: ";
  const FailAt fail = [&](std::size_t offset, const std::string& what) {
    return ParseError(source, 0, static_cast<long>(offset), kWhere + what);
  };
  Inflated plain = gunzip(bytes, source, kMagicBytes + 4 * 255);
  if (!plain.complete) {
    const IdxHeader h = parse_header(plain.bytes, fail);
    plain = gunzip(bytes, source, h.header_bytes + h.data_bytes);
    if (!plain.complete) {
      throw fail(h.header_bytes + h.data_bytes,
                 fmt::format("corrupt IDX data: dimensions {} need {} bytes after the header, the "
                             "gzip stream inflates to more",
                             fmt::join(h.dims, "×"), h.data_bytes));
    }
  }
  return parse_plain(plain.bytes, source, kWhere);
}

}  // namespace

IdxArray parse_idx(std::span<const unsigned char> bytes, const std::string& source) {
  return is_gzip(bytes) ? parse_gzip(bytes, source) : parse_plain(bytes, source, "");
}

IdxArray read_idx(const std::filesystem::path& path) {
  return parse_idx(read_file_bytes(path), path.string());
}

Tensor read_idx_images(const std::filesystem::path& path) {
  IdxArray a = read_idx(path);
  if (a.dims.size() != 3) {
    throw ParseError(path.string(), 0, 3,
                     fmt::format("expected an image file with 3 dimensions (n × height × width), "
                                 "found {} ({})",
                                 a.dims.size(), fmt::join(a.dims, "×")));
  }
  return std::move(a.values);
}

Vector read_idx_labels(const std::filesystem::path& path) {
  IdxArray a = read_idx(path);
  if (a.dims.size() != 1) {
    throw ParseError(path.string(), 0, 3,
                     fmt::format("expected a label file with 1 dimension, found {} ({})",
                                 a.dims.size(), fmt::join(a.dims, "×")));
  }
  return a.values.col(0);
}

}  // namespace dagml
