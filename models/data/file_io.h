// Whole-file reading and writing, and gzip decompression, for the data readers and writers.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dagml {

// The bytes of a file. Throws IoError naming the path and the system's reason if it cannot be
// opened or read.
std::vector<unsigned char> read_file_bytes(const std::filesystem::path& path);

// Replaces the file's contents with `text`. Throws IoError naming the path on failure.
void write_text_file(const std::filesystem::path& path, std::string_view text);

// True if the bytes start with the gzip magic number 1f 8b.
bool is_gzip(std::span<const unsigned char> bytes);

// Decompresses a gzip stream (RFC 1952; several concatenated members are joined). `source`
// names the data in errors. Throws ParseError (line 0, column = byte offset into the compressed
// data) if the stream is corrupt or truncated, or if it would inflate to more than `max_bytes`.
std::vector<unsigned char> gunzip(std::span<const unsigned char> bytes, const std::string& source,
                                  std::size_t max_bytes);

}  // namespace dagml
