// Helpers for the data-layer tests: IDX bytes, gzip compression and temporary files.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "models/data/file_io.h"
#include "models/io/model_file.h"

namespace dagml::testing {

using Bytes = std::vector<unsigned char>;

// An IDX header (00 00 type ndims, big-endian sizes) followed by `payload`.
inline Bytes make_idx(unsigned char type, const std::vector<std::uint32_t>& dims, const Bytes& payload) {
  Bytes b = {0, 0, type, static_cast<unsigned char>(dims.size())};
  for (const std::uint32_t d : dims) {
    for (int shift = 24; shift >= 0; shift -= 8) b.push_back(static_cast<unsigned char>(d >> shift));
  }
  b.insert(b.end(), payload.begin(), payload.end());
  return b;
}

// A gzip member holding `plain` (zlib deflate with the gzip wrapper).
inline Bytes gzip_bytes(const Bytes& plain) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  Bytes out(deflateBound(&zs, static_cast<uLong>(plain.size())) + 64);
  zs.next_in = const_cast<unsigned char*>(plain.data());
  zs.avail_in = static_cast<uInt>(plain.size());
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// A fresh, empty folder under the system's temporary directory, removed by the destructor.
class TempDir {
 public:
  // The folder is named after the running test, so tests running in parallel never share one.
  TempDir() : path_(std::filesystem::temp_directory_path() / unique_name()) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& file) const { return path_ / file; }

 private:
  static std::string unique_name() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("dagml_data_test_") + info->test_suite_name() + "_" + info->name();
    for (char& c : name) {
      if (c == '/') c = '_';
    }
    return name;
  }
  std::filesystem::path path_;
};

inline void write_bytes(const std::filesystem::path& p, const Bytes& bytes) {
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(f.good()) << p;
}

inline void write_text(const std::filesystem::path& p, const std::string& text) {
  write_bytes(p, Bytes(text.begin(), text.end()));
}

// The model of type Model read from the bytes of a model file (as Model::to_bytes writes them).
template <class Model>
Model load_bytes(const std::string& bytes) {
  return Model::from_model_file(ModelFile(bytes, "crafted"));
}

// Sets the file allocation limit (models/data/file_io.h) for one test and restores the default.
class AllocationLimit {
 public:
  explicit AllocationLimit(std::size_t bytes) { set_file_allocation_limit(bytes); }
  ~AllocationLimit() { set_file_allocation_limit(kDefaultFileAllocationLimit); }
  AllocationLimit(const AllocationLimit&) = delete;
  AllocationLimit& operator=(const AllocationLimit&) = delete;
};

}  // namespace dagml::testing
