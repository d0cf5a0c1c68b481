#include "models/data/idx.h"

#include <fmt/ranges.h>

#include <bit>
#include <cstdint>
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

// `where` says whether offsets refer to the file or to its decompressed contents.
IdxArray parse_plain(std::span<const unsigned char> b, const std::string& source,
                     const char* where) {
  const auto fail = [&](std::size_t offset, const std::string& what) {
    return ParseError(source, 0, static_cast<long>(offset), where + what);
  };
  if (b.size() < kMagicBytes) {
    throw fail(b.size(), fmt::format("truncated IDX header: expected at least {} bytes, found {}",
                                     kMagicBytes, b.size()));
  }
  if (b[0] != 0 || b[1] != 0) {
    throw fail(0, fmt::format("wrong magic number: expected an IDX file starting with 00 00, "
                              "found {:02x} {:02x}",
                              b[0], b[1]));
  }
  const auto type = static_cast<IdxType>(b[2]);
  const std::size_t esize = element_size(type);
  if (esize == 0) {
    throw fail(
        2,
        fmt::format("unknown IDX element type 0x{:02x}: expected one of 08 09 0b 0c 0d 0e", b[2]));
  }
  const std::size_t ndims = b[3];
  if (ndims == 0) throw fail(3, "expected at least one dimension, found 0");
  const std::size_t header = kMagicBytes + 4 * ndims;
  if (b.size() < header) {
    throw fail(b.size(),
               fmt::format("truncated IDX header: {} dimensions need {} bytes, the data has {}",
                           ndims, header, b.size()));
  }

  // Sizes and their product, checked against overflow and against the bytes present.
  constexpr std::uint64_t kLimit = std::numeric_limits<std::int64_t>::max();
  IdxArray out;
  out.type = type;
  std::uint64_t count = 1, inner = 1;
  bool overflow = false;
  for (std::size_t k = 0; k < ndims; ++k) {
    const std::uint64_t d = read_be(b.data() + kMagicBytes + 4 * k, 4);
    out.dims.push_back(static_cast<Index>(d));
    overflow = overflow || !multiply_within(count, d, kLimit, count);
    if (k > 0) overflow = overflow || !multiply_within(inner, d, kLimit, inner);
  }
  std::uint64_t need = 0;
  overflow = overflow || !multiply_within(count, esize, kLimit, need);
  const std::uint64_t have = b.size() - header;
  if (overflow || need > have) {
    throw fail(
        b.size(),
        fmt::format("truncated IDX data: dimensions {} of {}-byte elements need {} "
                    "bytes after the header, the data has {}",
                    fmt::join(out.dims, "×"), esize,
                    overflow ? std::string("more than 2⁶³") : fmt::format("{}", need), have));
  }
  if (need < have) {
    throw fail(header + need, fmt::format("corrupt IDX data: dimensions {} need {} bytes after the "
                                          "header, the data has {} more",
                                          fmt::join(out.dims, "×"), need, have - need));
  }

  // The allocation is bounded by the data present: count ≤ have / esize.
  out.values.resize(out.dims[0], static_cast<Index>(inner));
  const unsigned char* p = b.data() + header;
  double* dst = out.values.data();
  for (std::uint64_t i = 0; i < count; ++i, p += esize) dst[i] = decode(type, p);
  return out;
}

}  // namespace

IdxArray parse_idx(std::span<const unsigned char> bytes, const std::string& source) {
  if (is_gzip(bytes)) {
    const std::vector<unsigned char> plain = gunzip(bytes, source, kMaxIdxBytes);
    return parse_plain(plain, source, "in the decompressed data: ");
  }
  return parse_plain(bytes, source, "");
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
