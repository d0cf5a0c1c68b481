// Fuzzes the CSV reader (models/data/csv.h). The first byte chooses the options; the rest is the
// text. Oracle: only dagml::Error escapes, and what the reader accepts round-trips: format_csv
// of it reads back to the same names and the same doubles, bit for bit (NaN as NaN), as the
// header promises.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "models/data/csv.h"

using namespace dagml;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  constexpr char kDelimiters[] = {',', ';', '\t', '|'};
  const CsvOptions options{.delimiter = kDelimiters[(data[0] >> 2) & 3],
                           .header = (data[0] & 1) != 0,
                           .no_target = true,
                           .missing_as_nan = (data[0] & 2) != 0};
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  Dataset read;
  if (!fuzz::accepts([&] { read = parse_csv(text, options, "<fuzz>"); })) return 0;
  // The default layout (the last column is the target) reads the same text too.
  CsvOptions with_target = options;
  with_target.no_target = false;
  fuzz::accepts([&] { parse_csv(text, with_target, "<fuzz>"); });

  const std::string written = format_csv(read.features, read.feature_names, options.delimiter);
  CsvOptions back_options = options;
  back_options.header = true;
  Dataset back;
  if (!fuzz::accepts([&] { back = parse_csv(written, back_options, "<written>"); })) {
    fuzz::fail("format_csv wrote text that parse_csv rejects");
  }
  fuzz::check(back.feature_names == read.feature_names, "column names changed in a write-read round trip");
  fuzz::check(fuzz::same_values(back.features, read.features), "values changed in a write-read round trip");
  return 0;
}
