// Fuzzes the row-range readers of sharded data (read_csv_rows, count_csv_records in
// models/data/csv.h; read_idx_rows, read_idx_header in models/data/idx.h), which stream a file
// instead of parsing it whole. The first byte chooses the format and the CSV options, the next two
// the range; the rest is the file, written to a temporary file. Oracle: only dagml::Error
// escapes; when the whole-file reader accepts the file, count_csv_records (or the header's d₁)
// is its row count and every range reads to its rows, bit for bit, with the same names; a range
// outside [0, n] is refused.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/fuzz_check.h"
#include "models/data/csv.h"
#include "models/data/file_io.h"
#include "models/data/idx.h"

using namespace dagml;

namespace {

// This process's scratch file, rewritten for every input.
const std::filesystem::path& scratch_file() {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("dagml_row_range_fuzz_" + std::to_string(::getpid()));
  return path;
}

void write_scratch(const std::uint8_t* data, std::size_t size) {
  std::ofstream out(scratch_file(), std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) fuzz::fail("cannot write the scratch file");
}

// [a, b] of [0, n + 2] from two bytes (so that ranges past the end occur too), ordered.
IndexRange range_from(std::uint8_t x, std::uint8_t y, Index n) {
  const Index a = x % (n + 3), b = y % (n + 3);
  return a <= b ? IndexRange{a, b} : IndexRange{b, a};
}

void check_csv(std::uint8_t options_byte, IndexRange range) {
  constexpr char kDelimiters[] = {',', ';', '\t', '|'};
  const CsvOptions options{.delimiter = kDelimiters[(options_byte >> 2) & 3],
                           .header = (options_byte & 1) != 0,
                           .no_target = true,
                           .missing_as_nan = (options_byte & 2) != 0};
  Dataset whole;
  const bool whole_read = fuzz::accepts([&] { whole = read_csv(scratch_file(), options); });
  Index count = -1;
  const bool counted = fuzz::accepts([&] { count = count_csv_records(scratch_file(), options); });
  Dataset part;
  const bool part_read = fuzz::accepts([&] { part = read_csv_rows(scratch_file(), options, range); });
  if (!whole_read) return;  // a fault after the range may go unnoticed (csv.h): any typed answer
  const Index n = whole.features.rows();
  fuzz::check(counted && count == n, "count_csv_records differs from read_csv's row count");
  if (range.end > n) {
    fuzz::check(!part_read, "a range past the last record was read");
    return;
  }
  fuzz::check(part_read, "read_csv_rows refused a range of a file read_csv reads");
  fuzz::check(part.feature_names == whole.feature_names, "the range's column names differ");
  fuzz::check(fuzz::same_values(part.features, whole.features.middleRows(range.begin, range.size())),
              "the range's rows differ from read_csv's");
}

void check_idx(IndexRange range) {
  IdxArray whole;
  const bool whole_read = fuzz::accepts([&] { whole = read_idx(scratch_file()); });
  IdxHeader header;
  const bool header_read = fuzz::accepts([&] { header = read_idx_header(scratch_file()); });
  IdxArray part;
  const bool part_read = fuzz::accepts([&] { part = read_idx_rows(scratch_file(), range); });
  if (!whole_read) return;
  fuzz::check(header_read && header.type == whole.type && header.dims == whole.dims,
              "read_idx_header differs from read_idx's header");
  const Index n = whole.dims.empty() ? 0 : whole.dims[0];
  if (range.end > n) {
    fuzz::check(!part_read, "a range past the last row was read");
    return;
  }
  fuzz::check(part_read, "read_idx_rows refused a range of a file read_idx reads");
  fuzz::check(part.type == whole.type && part.dims.size() == whole.dims.size() && part.dims[0] == range.size(),
              "the range's dimensions are not the file's with d₁ = its rows");
  fuzz::check(fuzz::same_values(part.values, whole.values.middleRows(range.begin, range.size())),
              "the range's rows differ from read_idx's");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  set_file_allocation_limit(std::size_t{64} << 20);  // a gzip input may inflate this far
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  write_scratch(data + 3, size - 3);
  // The range is drawn against a small n: most fuzzed files have few rows.
  const IndexRange range = range_from(data[1], data[2], 16);
  if ((data[0] & 0x80) != 0) {
    check_idx(range);
  } else {
    check_csv(data[0], range);
  }
  return 0;
}
