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

FileReader::FileReader(const std::filesystem::path& path) : path_(path), file_(nullptr, &std::fclose) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw IoError(fmt::format("cannot read '{}': expected a file, found a directory", path.string()));
  }
  errno = 0;
  file_.reset(std::fopen(path.c_str(), "rb"));
  if (!file_) throw IoError(fmt::format("cannot open '{}': {}", path.string(), system_reason()));
}

std::size_t FileReader::read(std::span<unsigned char> out) {
  const std::size_t got = std::fread(out.data(), 1, out.size(), file_.get());
  if (got < out.size() && std::ferror(file_.get())) {
    throw IoError(fmt::format("cannot read '{}': {}", path_.string(), system_reason()));
  }
  return got;
}

void FileReader::seek(std::uint64_t offset) {
  errno = 0;
  if (std::fseek(file_.get(), static_cast<long>(offset), SEEK_SET) != 0) {
    throw IoError(fmt::format("cannot read '{}' at byte {}: {}", path_.string(), offset, system_reason()));
  }
}

std::uint64_t FileReader::size() const {
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(path_, ec);
  if (ec) throw IoError(fmt::format("cannot read the size of '{}': {}", path_.string(), ec.message()));
  return bytes;
}

std::vector<unsigned char> read_file_bytes(const std::filesystem::path& path) {
  FileReader file(path);
  const std::size_t limit = file_allocation_limit();
  std::vector<unsigned char> bytes;
  unsigned char buffer[1 << 16];
  for (;;) {
    const std::size_t got = file.read(buffer);
    if (bytes.size() + got > limit) {
      throw LimitError(fmt::format("cannot read '{}': the file is larger than the file allocation limit of {} bytes "
                                   "(set_file_allocation_limit raises it)",
                                   path.string(), limit));
    }
    bytes.insert(bytes.end(), buffer, buffer + got);
    if (got < sizeof buffer) break;
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

struct GzipReader::Stream {
  z_stream zs{};
  ~Stream() { inflateEnd(&zs); }
};

GzipReader::GzipReader(NextInput next_input, std::string source)
    : stream_(std::make_unique<Stream>()), next_input_(std::move(next_input)), source_(std::move(source)) {
  if (inflateInit2(&stream_->zs, 15 + 16) != Z_OK) {
    stream_->zs = z_stream{};  // nothing for inflateEnd to free
    throw IoError(fmt::format("{}: cannot initialise zlib", source_));
  }
}

GzipReader::~GzipReader() = default;

// Hands zlib the next piece of input; false at the end of the input.
bool GzipReader::next_piece() {
  if (input_done_) return false;
  std::span<const unsigned char> piece = next_input_();
  if (piece.empty()) {
    input_done_ = true;
    return false;
  }
  piece = piece.first(std::min<std::size_t>(piece.size(), 1u << 30));  // avail_in is 32-bit
  stream_->zs.next_in = const_cast<unsigned char*>(piece.data());
  stream_->zs.avail_in = static_cast<uInt>(piece.size());
  consumed_ += piece.size();
  return true;
}

// zlib's inflate with windowBits 15 + 16 reads exactly one gzip member (header, deflate data,
// CRC-32 and length trailer, both verified). After each member the rest of the input must be
// another member (starting with 1f, whose header inflate then checks) or zero padding.
std::size_t GzipReader::read(std::span<unsigned char> out) {
  z_stream& zs = stream_->zs;
  const auto fail = [&](const std::string& what) {
    throw ParseError(source_, 0, static_cast<long>(consumed_ - zs.avail_in), what);
  };
  std::size_t produced = 0;
  while (produced < out.size() && !ended_) {
    if (zs.avail_in == 0) next_piece();
    const std::size_t room = std::min<std::size_t>(out.size() - produced, 1u << 30);
    zs.next_out = out.data() + produced;
    zs.avail_out = static_cast<uInt>(room);
    const int rc = inflate(&zs, Z_NO_FLUSH);
    produced += room - zs.avail_out;
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0 && !next_piece()) {
        ended_ = true;
      } else if (*zs.next_in == 0x1f) {
        inflateReset(&zs);
      } else {
        // Zero padding up to the end of the input, or an error.
        for (;;) {
          if (!std::all_of(zs.next_in, zs.next_in + zs.avail_in, [](unsigned char b) { return b == 0; })) {
            fail("unexpected bytes after the end of the gzip stream");
          }
          zs.next_in += zs.avail_in;
          zs.avail_in = 0;
          if (!next_piece()) break;
        }
        ended_ = true;
      }
      continue;
    }
    if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT) {
      fail(fmt::format("corrupt gzip data ({})", zs.msg ? zs.msg : "invalid deflate stream"));
    }
    if (rc == Z_MEM_ERROR) throw IoError(fmt::format("{}: out of memory while inflating", source_));
    if (rc == Z_BUF_ERROR && zs.avail_in == 0 && input_done_) {
      fail("truncated gzip data: the stream ends before its trailer");
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) fail(fmt::format("gzip error code {}", rc));
  }
  position_ += produced;
  return produced;
}

// Inflating one byte past `max_bytes` tells a stream that goes on from one that ends exactly there.
Inflated gunzip(std::span<const unsigned char> bytes, const std::string& source, std::size_t max_bytes) {
  bool handed = false;
  std::span<const unsigned char> rest = bytes;
  GzipReader reader(
      [&]() -> std::span<const unsigned char> {
        if (handed) rest = rest.subspan(std::min<std::size_t>(rest.size(), 1u << 30));
        handed = true;
        return rest;
      },
      source);
  Inflated out;
  unsigned char chunk[1 << 16];
  for (;;) {
    const std::size_t want = std::min<std::size_t>(sizeof chunk, max_bytes - out.bytes.size() + 1);
    const std::size_t got = reader.read(std::span(chunk, want));
    if (out.bytes.size() + got > max_bytes) {
      out.bytes.insert(out.bytes.end(), chunk, chunk + (max_bytes - out.bytes.size()));
      return out;  // incomplete: the stream goes on past max_bytes
    }
    out.bytes.insert(out.bytes.end(), chunk, chunk + got);
    if (got < want) break;
  }
  out.complete = true;
  return out;
}

}  // namespace dagml
