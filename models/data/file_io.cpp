#include "models/data/file_io.h"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "graph/error.h"

namespace dagml {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

std::string system_reason() { return errno != 0 ? std::strerror(errno) : "unknown error"; }

std::atomic<std::size_t> file_allocation_limit_bytes{kDefaultFileAllocationLimit};

}  // namespace

std::size_t file_allocation_limit() { return file_allocation_limit_bytes.load(std::memory_order_relaxed); }

void set_file_allocation_limit(std::size_t bytes) {
  file_allocation_limit_bytes.store(bytes, std::memory_order_relaxed);
}

std::vector<unsigned char> read_file_bytes(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw IoError(
        fmt::format("cannot read '{}': expected a file, found a directory", path.string()));
  }
  errno = 0;
  FilePtr f(std::fopen(path.c_str(), "rb"));
  if (!f) throw IoError(fmt::format("cannot open '{}': {}", path.string(), system_reason()));
  const std::size_t limit = file_allocation_limit();
  std::vector<unsigned char> bytes;
  unsigned char buffer[1 << 16];
  for (;;) {
    const std::size_t got = std::fread(buffer, 1, sizeof buffer, f.get());
    if (bytes.size() + got > limit) {
      throw LimitError(fmt::format("cannot read '{}': the file is larger than the file allocation limit of {} bytes "
                                   "(set_file_allocation_limit raises it)",
                                   path.string(), limit));
    }
    bytes.insert(bytes.end(), buffer, buffer + got);
    if (got < sizeof buffer) break;
  }
  if (std::ferror(f.get())) {
    throw IoError(fmt::format("cannot read '{}': {}", path.string(), system_reason()));
  }
  return bytes;
}

void write_text_file(const std::filesystem::path& path, std::string_view text) {
  errno = 0;
  FilePtr f(std::fopen(path.c_str(), "wb"));
  if (!f)
    throw IoError(fmt::format("cannot open '{}' for writing: {}", path.string(), system_reason()));
  if (std::fwrite(text.data(), 1, text.size(), f.get()) != text.size() ||
      std::fflush(f.get()) != 0) {
    throw IoError(fmt::format("cannot write '{}': {}", path.string(), system_reason()));
  }
  if (std::fclose(f.release()) != 0) {
    throw IoError(fmt::format("cannot write '{}': {}", path.string(), system_reason()));
  }
}

bool is_gzip(std::span<const unsigned char> bytes) {
  return bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

// zlib's inflate with windowBits 15 + 16 reads exactly one gzip member (header, deflate data,
// CRC-32 and length trailer, both verified). After each member the rest of the input must be
// another member or zero padding. Inflating one byte past `max_bytes` tells a stream that goes on
// from one that ends exactly there.
Inflated gunzip(std::span<const unsigned char> bytes, const std::string& source, std::size_t max_bytes) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 16) != Z_OK) {
    throw IoError(fmt::format("{}: cannot initialise zlib", source));
  }
  struct Ender {
    z_stream* zs;
    ~Ender() { inflateEnd(zs); }
  } ender{&zs};

  Inflated out;
  unsigned char chunk[1 << 16];
  std::size_t consumed = 0;  // bytes of `bytes` handed to zlib so far
  const auto fail = [&](const std::string& what) -> void {
    throw ParseError(source, 0, static_cast<long>(consumed - zs.avail_in), what);
  };
  for (;;) {
    if (zs.avail_in == 0 && consumed < bytes.size()) {
      // avail_in is 32-bit: feed large inputs in pieces.
      const std::size_t piece = std::min<std::size_t>(bytes.size() - consumed, 1u << 30);
      zs.next_in = const_cast<unsigned char*>(bytes.data() + consumed);
      zs.avail_in = static_cast<uInt>(piece);
      consumed += piece;
    }
    const std::size_t room = std::min<std::size_t>(sizeof chunk, max_bytes - out.bytes.size() + 1);
    zs.next_out = chunk;
    zs.avail_out = static_cast<uInt>(room);
    const int rc = inflate(&zs, Z_NO_FLUSH);
    const std::size_t produced = room - zs.avail_out;
    if (out.bytes.size() + produced > max_bytes) {
      out.bytes.insert(out.bytes.end(), chunk, chunk + (max_bytes - out.bytes.size()));
      return out;  // incomplete: the stream goes on past max_bytes
    }
    out.bytes.insert(out.bytes.end(), chunk, chunk + produced);
    if (rc == Z_STREAM_END) {
      const std::size_t pos = consumed - zs.avail_in;
      const auto rest = bytes.subspan(pos);
      if (rest.empty()) break;
      if (is_gzip(rest)) {
        inflateReset(&zs);
        continue;
      }
      if (std::all_of(rest.begin(), rest.end(), [](unsigned char b) { return b == 0; })) break;
      fail("unexpected bytes after the end of the gzip stream");
    }
    if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT) {
      fail(fmt::format("corrupt gzip data ({})", zs.msg ? zs.msg : "invalid deflate stream"));
    }
    if (rc == Z_MEM_ERROR) throw IoError(fmt::format("{}: out of memory while inflating", source));
    if (rc == Z_BUF_ERROR && zs.avail_in == 0 && consumed == bytes.size()) {
      fail("truncated gzip data: the stream ends before its trailer");
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) fail(fmt::format("gzip error code {}", rc));
  }
  out.complete = true;
  return out;
}

}  // namespace dagml
