// Whole-file reading and writing, and gzip decompression, for the data readers and writers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dagml {

// Note [File allocation limit]
// A file read by dagml (CSV, IDX plain or gzip, a model file) cannot make it allocate more than
// file_allocation_limit() bytes for the file's contents: a file larger than that, a gzip stream
// that inflates beyond it, or a header declaring more is a LimitError before the memory is asked
// for, instead of std::bad_alloc or the out-of-memory killer. What a header declares is also
// checked against the bytes actually present (a ParseError when they are missing), so the limit
// only matters for files that are that large, or inflate to that size. The default is 4 GiB;
// set_file_allocation_limit changes it for the whole process (a test harness lowers it, a user
// with a 6 GiB IDX file raises it).
inline constexpr std::size_t kDefaultFileAllocationLimit = std::size_t{1} << 32;
std::size_t file_allocation_limit();
void set_file_allocation_limit(std::size_t bytes);

// The bytes of a file. Throws IoError naming the path and the system's reason if it cannot be
// opened or read, LimitError if it is larger than file_allocation_limit().
std::vector<unsigned char> read_file_bytes(const std::filesystem::path& path);

// A file read in pieces, for readers that stream a file instead of holding it whole (read_csv_rows,
// read_idx_rows). Throws IoError naming the path and the system's reason when the file cannot be
// opened (a directory included), read or positioned.
class FileReader {
 public:
  explicit FileReader(const std::filesystem::path& path);
  // Reads up to out.size() bytes into `out`; fewer only at the end of the file.
  std::size_t read(std::span<unsigned char> out);
  // Continues reading at byte `offset` from the start.
  void seek(std::uint64_t offset);
  // The file's size in bytes.
  std::uint64_t size() const;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
};

// Replaces the file's contents with `text`. Throws IoError naming the path on failure.
void write_text_file(const std::filesystem::path& path, std::string_view text);

// True if the bytes start with the gzip magic number 1f 8b.
bool is_gzip(std::span<const unsigned char> bytes);

// Decompresses a gzip stream (RFC 1952; several concatenated members are joined), inflating at
// most `max_bytes`. `source` names the data in errors. `complete` tells whether the whole stream
// was read (its trailers verified) within `max_bytes`; when it was not, `bytes` holds the first
// `max_bytes` bytes, so a reader can inflate a header first and bound the rest by what it declares.
// Throws ParseError (line 0, column = byte offset into the compressed data) if the stream read so
// far is corrupt or truncated.
struct Inflated {
  std::vector<unsigned char> bytes;
  bool complete = false;
};
Inflated gunzip(std::span<const unsigned char> bytes, const std::string& source, std::size_t max_bytes);

// A gzip stream inflated piece by piece (gunzip is one use): the compressed bytes come from
// `next_input`, which returns the next piece of them (empty at their end; a piece must stay valid
// until the next call), so neither the compressed nor the inflated stream need be held whole.
// Errors as gunzip, the column counting the compressed bytes handed in so far.
class GzipReader {
 public:
  using NextInput = std::function<std::span<const unsigned char>()>;
  GzipReader(NextInput next_input, std::string source);
  ~GzipReader();
  GzipReader(const GzipReader&) = delete;
  GzipReader& operator=(const GzipReader&) = delete;

  // Inflates up to out.size() bytes into `out`; fewer only at the end of the stream, whose
  // trailers (and the zero padding or further members after it) have then been checked.
  std::size_t read(std::span<unsigned char> out);
  // Inflated bytes returned so far.
  std::uint64_t position() const { return position_; }

 private:
  bool next_piece();

  struct Stream;
  std::unique_ptr<Stream> stream_;
  NextInput next_input_;
  std::string source_;
  std::uint64_t consumed_ = 0;  // compressed bytes handed to zlib
  std::uint64_t position_ = 0;
  bool input_done_ = false, ended_ = false;
};

}  // namespace dagml
