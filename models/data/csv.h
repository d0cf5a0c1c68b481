// CSV reading and writing.
//
// Format read (RFC 4180 with common relaxations):
// - Records are separated by LF or CRLF; a UTF-8 byte-order mark at the start is skipped; lines
//   that are completely empty are skipped.
// - Fields are separated by `delimiter`. A field may be quoted with '"': inside quotes the
//   delimiter and line breaks are literal and "" stands for one '"'. Spaces and tabs around a
//   field (outside quotes) are ignored.
// - The first record is the header (column names) unless `header` is false.
// - Every value must be a number in the syntax of std::from_chars (general format): decimal or
//   scientific notation, "inf", "nan", with an optional sign. This is exact (correctly rounded)
//   for what printf("%.17g") or write_csv writes, so written doubles read back bit for bit.
// - A missing value is an empty field or "NA".
// - A categorical column (CsvOptions::categorical) holds text: its K distinct values, sorted
//   byte-wise, are its categories and each field reads as its category's code 0..K−1
//   (Dataset::categories). A categorical target is a class label; its categories are the class
//   names (Dataset::target_names). A target whose first value is text is categorical.
//
// Errors: a malformed file throws ParseError with the file name, the 1-based line and the
// 1-based character column where the fault is, and a message naming the column:
// empty file, no data rows, a record with a different number of fields than the header, an
// unterminated quote, text after a closing quote, a non-numeric or out-of-range value, a
// missing value (unless missing_as_nan). A target column that does not exist is a ValueError; a
// file that cannot be opened is an IoError.
//
// Reading a row range (count_csv_records, read_csv_rows: a rank's shard of a distributed data
// set, models/data/sharded_dataset.h) streams the file in fixed-size blocks, never holding more
// than the current record and two blocks: the records are split exactly as read_csv splits them
// (quotes, line breaks inside quotes, CRLF, the byte-order mark, empty lines), those before the
// range are skipped unparsed and those after it not read, and the range is parsed and checked by
// read_csv's own code, errors naming the file's true line. Text categories cannot be read so:
// their codes come from the distinct values of the whole file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "graph/chunked_sum.h"
#include "graph/tensor.h"
#include "models/data/dataset.h"

namespace dagml {

struct CsvOptions {
  char delimiter = ',';  // any character but '"', CR, LF, letters, digits, '.', '+', '-'
  bool header = true;    // first record holds the column names; if false they are c0, c1, …
  // The target column, by name (when not empty) or else by 0-based index; a negative index
  // counts from the end (−1 is the last column, the layout of the bundled datasets).
  std::string target = {};
  Index target_index = -1;
  bool no_target = false;       // every column is a feature; target and target_names stay empty
  bool missing_as_nan = false;  // missing values become NaN instead of a ParseError
  // Columns read as text categories (see above), by name; the target may be one of them.
  std::vector<std::string> categorical = {};
  // Also every column whose first data row holds a value that is neither a number nor missing.
  bool categorical_auto = false;
};

// Reads a CSV file into a Dataset: the target column goes to `target` (its name is the one entry
// of `target_names`), the other columns, in file order, to `features` and `feature_names`.
// Throws IoError, ParseError or ValueError as described above.
Dataset read_csv(const std::filesystem::path& path, const CsvOptions& options = {});

// The number of data records of a CSV file (the header excluded, empty lines skipped), reading it
// in blocks as read_csv_rows does. Throws IoError, and ParseError for a record read_csv could not
// split (an unterminated quote, text after a closing quote); 0 for an empty file.
Index count_csv_records(const std::filesystem::path& path, const CsvOptions& options = {});

// Data records [rows.begin, rows.end) of a CSV file (0-based, the header excluded), bitwise rows
// rows.begin… of read_csv(path, options), with the same names; an empty range gives no rows and
// the names. Only the records up to the end of the range are read (see above), so a fault after
// it goes unnoticed. Throws as read_csv for the records read, and ValueError for a range outside
// [0, count_csv_records(path, options)] (saying the range and the count), for
// options.categorical or categorical_auto, and for a target that is text in the range's first
// record (read_csv would code it as class names): the reader of a range needs numeric columns.
Dataset read_csv_rows(const std::filesystem::path& path, const CsvOptions& options, IndexRange rows);

// The same for CSV text in memory; `source` names it in errors.
Dataset parse_csv(std::string_view text, const CsvOptions& options = {},
                  const std::string& source = "<csv text>");

// The column names of CSV text (its first record), without reading the rest; ParseError for an
// empty text.
std::vector<std::string> parse_csv_header(std::string_view text, char delimiter = ',',
                                          const std::string& source = "<csv text>");

// The header and the data records of CSV text, each as its exact text in the file (quoted fields
// as written, the line break left out), for passing records through unchanged (`dagml split`).
// ParseError for an empty text or an unterminated quote.
struct CsvRecords {
  std::string header;
  std::vector<std::string> rows;
};
CsvRecords split_csv_records(std::string_view text, char delimiter = ',', const std::string& source = "<csv text>");

// `text` as one CSV field: quoted (with '"' doubled) where the reader would otherwise split, trim
// or drop it, or read it as missing.
std::string csv_field(const std::string& text, char delimiter = ',');

// CSV text for a matrix: the header (one name per column, quoted where needed), then one line
// per row. Each value is written in the shortest form that reads back to the identical double
// ("nan", "inf" and "-inf" for non-finite values), so read_csv(write_csv(X)) == X bit for bit.
// Throws ShapeError if header.size() != values.cols(), ValueError for a bad delimiter.
std::string format_csv(const Tensor& values, const std::vector<std::string>& header,
                       char delimiter = ',');

// Writes format_csv(values, header, delimiter) to `path` (for predictions, histories, …).
// Throws as format_csv, and IoError if the file cannot be written.
void write_csv(const std::filesystem::path& path, const Tensor& values,
               const std::vector<std::string>& header, char delimiter = ',');

}  // namespace dagml
