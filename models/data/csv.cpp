#include "models/data/csv.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>
#include <utility>
#include <unordered_map>

#include "graph/error.h"
#include "models/data/file_io.h"

namespace dagml {
namespace {

constexpr char kQuote = '"';

struct Field {
  std::string text;  // unquoted, unescaped, trimmed
  long line = 0;     // 1-based position of the field's first character
  long column = 0;
};

struct Record {
  std::vector<Field> fields;
  std::size_t begin = 0, end = 0;  // the record's bytes in the text, without its line break
  long line = 0;      // line of the first field
  long end_line = 0;  // where the record ends (after its last field)
  long end_column = 0;
};

void check_delimiter(char d, const char* who) {
  const auto u = static_cast<unsigned char>(d);
  if (d == kQuote || d == '\n' || d == '\r' || d == '.' || d == '+' || d == '-' || d == '\0' ||
      std::isalnum(u)) {
    throw ValueError(fmt::format(
        "{}: expected a delimiter that cannot occur in a number or a line break, found '{}'", who,
        d == '\n' ? std::string("\\n") : std::string(1, d)));
  }
}

// Splits CSV text into records of fields, tracking line and column for error messages. The text
// is either all in memory or a file read in blocks of kBlockBytes (count_csv_records,
// read_csv_rows), of which only the current record and at most two blocks are kept: the
// record's bytes (Record::begin, end) are then valid until the next call of next().
class Tokenizer {
 public:
  static constexpr std::size_t kBlockBytes = std::size_t{1} << 16;

  Tokenizer(std::string_view text, char delimiter, const std::string& source)
      : text_(text), delimiter_(delimiter), source_(source) {
    skip_byte_order_mark();
  }
  Tokenizer(FileReader& file, char delimiter, const std::string& source)
      : delimiter_(delimiter), source_(source), file_(&file) {
    while (buffer_.size() < 3 && read_block()) {
    }
    skip_byte_order_mark();
  }

  // Reads the next non-empty record into `record`; false at the end of the text.
  bool next(Record& record) {
    discard_read_blocks();
    skip_empty_lines();
    if (at_end()) return false;
    record.fields.clear();
    record.begin = pos_;
    record.line = line_;
    for (;;) {
      Field& field = record.fields.emplace_back();
      read_field(field);
      if (!at_end() && text_[pos_] == delimiter_) {
        ++pos_;
        continue;
      }
      record.end_line = line_;
      record.end_column = column();
      record.end = pos_;
      if (!at_end()) consume_line_break();
      return true;
    }
  }

 private:
  void skip_byte_order_mark() {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = line_start_ = 3;
  }

  // Appends the file's next block to the buffer; false at the end of the file (or for text in memory).
  bool read_block() {
    if (file_ == nullptr || file_done_) return false;
    const std::size_t old = buffer_.size();
    buffer_.resize(old + kBlockBytes);
    const std::size_t got = file_->read(std::span(reinterpret_cast<unsigned char*>(buffer_.data()) + old, kBlockBytes));
    buffer_.resize(old + got);
    file_done_ = got < kBlockBytes;
    text_ = buffer_;
    return got > 0;
  }

  // Drops the bytes of the records already read from a file's buffer, once they fill a block (so
  // that each byte is moved at most once).
  void discard_read_blocks() {
    const std::size_t drop = std::min(pos_, line_start_);
    if (file_ == nullptr || drop < kBlockBytes) return;
    buffer_.erase(0, drop);
    pos_ -= drop;
    line_start_ -= drop;
    text_ = buffer_;
  }

  // True if the text has a byte at `i`, reading blocks of the file as far as needed.
  bool has_byte(std::size_t i) {
    while (i >= text_.size()) {
      if (!read_block()) return false;
    }
    return true;
  }
  bool at_end() { return !has_byte(pos_); }
  long column() const { return static_cast<long>(pos_ - line_start_) + 1; }
  bool is_blank(char c) const { return (c == ' ' || c == '\t') && c != delimiter_; }

  void new_line() {
    ++line_;
    line_start_ = pos_;
  }

  // At '\n' or "\r\n": step over it.
  void consume_line_break() {
    if (text_[pos_] == '\r') ++pos_;
    if (!at_end() && text_[pos_] == '\n') ++pos_;
    new_line();
  }

  bool at_line_break() {
    return text_[pos_] == '\n' || (text_[pos_] == '\r' && (!has_byte(pos_ + 1) || text_[pos_ + 1] == '\n'));
  }

  void skip_empty_lines() {
    while (!at_end() && at_line_break()) consume_line_break();
  }

  void read_field(Field& field) {
    field.text.clear();
    while (!at_end() && is_blank(text_[pos_])) ++pos_;
    field.line = line_;
    field.column = column();
    if (!at_end() && text_[pos_] == kQuote) {
      read_quoted(field);
      return;
    }
    const std::size_t begin = pos_;
    while (!at_end() && text_[pos_] != delimiter_ && !at_line_break()) ++pos_;
    std::size_t end = pos_;
    while (end > begin && is_blank(text_[end - 1])) --end;
    field.text.assign(text_.substr(begin, end - begin));
  }

  void read_quoted(Field& field) {
    ++pos_;  // opening quote
    for (;;) {
      if (at_end()) {
        throw ParseError(
            source_, field.line, field.column,
            "unterminated quoted field: expected a closing '\"' before the end of the file");
      }
      const char c = text_[pos_];
      if (c == kQuote) {
        if (has_byte(pos_ + 1) && text_[pos_ + 1] == kQuote) {  // "" is an escaped quote
          field.text.push_back(kQuote);
          pos_ += 2;
          continue;
        }
        ++pos_;
        break;
      }
      field.text.push_back(c);
      ++pos_;
      if (c == '\n') new_line();
    }
    while (!at_end() && is_blank(text_[pos_])) ++pos_;
    if (!at_end() && text_[pos_] != delimiter_ && !at_line_break()) {
      throw ParseError(source_, line_, column(),
                       fmt::format("expected a delimiter or the end of the line after a closing "
                                   "quote, found '{}'",
                                   text_[pos_]));
    }
  }

  std::string_view text_;
  char delimiter_;
  const std::string& source_;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  long line_ = 1;
  FileReader* file_ = nullptr;  // null for text in memory
  std::string buffer_;          // the file's blocks not yet discarded
  bool file_done_ = false;
};

// A field for an error message: at most 40 characters.
std::string quote_for_message(const std::string& s) {
  if (s.size() <= 40) return "'" + s + "'";
  return "'" + s.substr(0, 37) + "...'";
}

bool is_missing(const std::string& s) { return s.empty() || s == "NA"; }

// Parses the whole field as a double; std::from_chars rounds correctly, so the shortest or the
// 17-significant-digit form of a double reads back to that double.
double parse_number(const Field& f, const std::string& column_name, std::size_t index,
                    bool missing_as_nan, const std::string& source) {
  const auto where = [&] { return fmt::format("column '{}' (field {})", column_name, index + 1); };
  if (is_missing(f.text)) {
    if (missing_as_nan) return std::numeric_limits<double>::quiet_NaN();
    throw ParseError(source, f.line, f.column,
                     fmt::format("{}: expected a number, found a missing value ({}); set "
                                 "CsvOptions::missing_as_nan to read it as NaN",
                                 where(), f.text.empty() ? "empty field" : "NA"));
  }
  const char* first = f.text.data();
  const char* last = first + f.text.size();
  // from_chars accepts '-' but not '+'.
  if (*first == '+' && last - first > 1 && first[1] != '-' && first[1] != '+') ++first;
  double value = 0;
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec == std::errc::result_out_of_range) {
    throw ParseError(source, f.line, f.column,
                     fmt::format("{}: number {} is out of the range of double", where(),
                                 quote_for_message(f.text)));
  }
  if (ec != std::errc() || end != last) {
    throw ParseError(
        source, f.line, f.column,
        fmt::format("{}: expected a number, found {}", where(), quote_for_message(f.text)));
  }
  return value;
}

// Resolves the target column to an index in [0, ncols), or throws ValueError.
std::size_t target_column(const std::vector<std::string>& names, const CsvOptions& options,
                          const std::string& source) {
  const auto n = static_cast<Index>(names.size());
  if (!options.target.empty()) {
    std::size_t found = names.size();
    for (std::size_t j = 0; j < names.size(); ++j) {
      if (names[j] != options.target) continue;
      if (found != names.size()) {
        throw ValueError(fmt::format(
            "{}: target column '{}' is ambiguous: columns {} and {} both have that name", source,
            options.target, found, j));
      }
      found = j;
    }
    if (found == names.size()) {
      throw ValueError(fmt::format("{}: expected a target column named '{}', found columns: {}",
                                   source, options.target, fmt::join(names, ", ")));
    }
    return found;
  }
  const Index j = options.target_index < 0 ? options.target_index + n : options.target_index;
  if (j < 0 || j >= n) {
    throw ValueError(fmt::format("{}: expected a target column index in [{}, {}), found {}", source,
                                 -n, n, options.target_index));
  }
  return static_cast<std::size_t>(j);
}

// True if the field reads as a number (or is missing): the test of CsvOptions::categorical_auto.
bool reads_as_number(const Field& f) {
  if (is_missing(f.text)) return true;
  const char* first = f.text.data();
  const char* last = first + f.text.size();
  if (*first == '+' && last - first > 1) ++first;
  double value = 0;
  const auto [end, ec] = std::from_chars(first, last, value);
  return ec != std::errc::invalid_argument && end == last;
}

// Which columns are categorical: those named in options.categorical (ValueError for an unknown
// name), the target when its first data field is text, and with categorical_auto every column
// whose first data field is text.
std::vector<bool> categorical_columns(const std::vector<std::string>& names, const Record& first_row,
                                      std::size_t target, const CsvOptions& options, const std::string& source) {
  std::vector<bool> categorical(names.size(), false);
  for (const std::string& wanted : options.categorical) {
    const auto it = std::find(names.begin(), names.end(), wanted);
    if (it == names.end()) {
      throw ValueError(fmt::format("{}: expected a categorical column named '{}', found columns: {}", source,
                                   wanted, fmt::join(names, ", ")));
    }
    categorical[static_cast<std::size_t>(it - names.begin())] = true;
  }
  for (std::size_t j = 0; j < names.size() && j < first_row.fields.size(); ++j) {
    if ((options.categorical_auto || j == target) && !reads_as_number(first_row.fields[j])) categorical[j] = true;
  }
  return categorical;
}

// The categories of one text column, coded in order of first appearance while reading; sorted
// at the end so that the codes do not depend on the order of the rows.
class CategoryCodes {
 public:
  double code(const Field& f, const std::string& column_name, std::size_t index, bool missing_as_nan,
              const std::string& source) {
    if (is_missing(f.text)) {
      if (missing_as_nan) return std::numeric_limits<double>::quiet_NaN();
      throw ParseError(source, f.line, f.column,
                       fmt::format("column '{}' (field {}): expected a category, found a missing value ({}); "
                                   "set CsvOptions::missing_as_nan to read it as NaN",
                                   column_name, index + 1, f.text.empty() ? "empty field" : "NA"));
    }
    const auto [it, added] = codes_.try_emplace(f.text, static_cast<double>(codes_.size()));
    if (added) texts_.push_back(f.text);
    return it->second;
  }
  // The sorted categories, and `recode` mapping each first-appearance code to its sorted one.
  std::vector<std::string> sorted(std::vector<double>& recode) const {
    std::vector<std::string> sorted_texts = texts_;
    std::sort(sorted_texts.begin(), sorted_texts.end());
    recode.assign(texts_.size(), 0.0);
    for (std::size_t c = 0; c < sorted_texts.size(); ++c) recode[static_cast<std::size_t>(codes_.at(sorted_texts[c]))] = static_cast<double>(c);
    return sorted_texts;
  }

 private:
  std::unordered_map<std::string, double> codes_;
  std::vector<std::string> texts_;
};

// "[b, e)" for messages.
std::string range_text(IndexRange rows) { return fmt::format("[{}, {})", rows.begin, rows.end); }

// The Dataset of the records of `tokenizer` (parse_csv), or with `rows` only of its data records
// rows->begin … rows->end − 1 (read_csv_rows): the records before are split (so a malformed one
// is a ParseError as in read_csv) but not parsed, those after are not read.
Dataset parse_records(Tokenizer& tokenizer, const CsvOptions& options, const std::string& source,
                      const IndexRange* rows = nullptr) {
  Record record;
  if (!tokenizer.next(record)) {
    throw ParseError(source, 1, 1,
                     options.header ? "empty file: expected a header row"
                                    : "empty file: expected at least one data row");
  }
  const std::size_t ncols = record.fields.size();
  std::vector<std::string> names;
  for (std::size_t j = 0; j < ncols; ++j) {
    names.push_back(options.header ? record.fields[j].text : fmt::format("c{}", j));
  }
  const std::size_t target = options.no_target ? ncols : target_column(names, options, source);
  // Without a header the first record is data; with one, the first data record follows.
  bool pending = !options.header;
  Index records_read = 0;  // data records, skipped ones included
  const auto next_data_record = [&] {
    const bool have = std::exchange(pending, false) || tokenizer.next(record);
    records_read += have ? 1 : 0;
    return have;
  };
  const auto range_beyond_the_file = [&] {
    return ValueError(fmt::format("{}: expected a row range within [0, {}] (the file's data records), found {}",
                                  source, records_read, range_text(*rows)));
  };
  if (rows != nullptr) {
    while (records_read < rows->begin) {
      if (!next_data_record()) throw range_beyond_the_file();
    }
  }
  const Index max_rows = rows != nullptr ? rows->size() : std::numeric_limits<Index>::max();
  bool have_row = max_rows > 0 && next_data_record();
  if (!have_row && rows == nullptr) {
    throw ParseError(source, record.end_line + 1, 1,
                     "expected at least one data row after the header, found none");
  }
  if (!have_row && max_rows > 0) throw range_beyond_the_file();
  const std::vector<bool> categorical =
      have_row ? categorical_columns(names, record, target, options, source) : std::vector<bool>(ncols, false);
  if (rows != nullptr && std::find(categorical.begin(), categorical.end(), true) != categorical.end()) {
    throw ValueError(fmt::format("{}: reading rows {} of the file needs numeric columns, found text in column '{}' on "
                                 "line {} (the codes of text categories depend on the whole file: encode them first)",
                                 source, range_text(*rows),
                                 names[static_cast<std::size_t>(std::find(categorical.begin(), categorical.end(), true) -
                                                                categorical.begin())],
                                 record.line));
  }
  std::vector<CategoryCodes> codes(ncols);

  std::vector<double> values;  // row-major, ncols per row
  Index nrows = 0;
  // Note [File allocation limit] (file_io.h): an empty field becomes an 8-byte NaN.
  const std::size_t max_values = file_allocation_limit() / sizeof(double);
  while (nrows < max_rows) {
    if (!have_row && !next_data_record()) {
      if (rows != nullptr) throw range_beyond_the_file();
      break;
    }
    have_row = false;
    if (record.fields.size() != ncols) {
      const bool too_many = record.fields.size() > ncols;
      const long line = too_many ? record.fields[ncols].line : record.end_line;
      const long col = too_many ? record.fields[ncols].column : record.end_column;
      throw ParseError(source, line, col,
                       fmt::format("expected {} fields per record (as in the {}), found {} in the "
                                   "record starting on line {}",
                                   ncols, options.header ? "header" : "first record",
                                   record.fields.size(), record.line));
    }
    for (std::size_t j = 0; j < ncols; ++j) {
      values.push_back(categorical[j]
                           ? codes[j].code(record.fields[j], names[j], j, options.missing_as_nan, source)
                           : parse_number(record.fields[j], names[j], j, options.missing_as_nan, source));
    }
    ++nrows;
    if (values.size() > max_values) {
      throw LimitError(fmt::format("{}: {} rows of {} values exceed the file allocation limit of {} bytes "
                                   "(set_file_allocation_limit raises it)",
                                   source, nrows, ncols, file_allocation_limit()));
    }
  }

  // Sorted category codes: the same file gives the same codes whatever the order of its rows.
  std::vector<std::vector<std::string>> column_categories(ncols);
  for (std::size_t j = 0; j < ncols; ++j) {
    if (!categorical[j]) continue;
    std::vector<double> recode;
    column_categories[j] = codes[j].sorted(recode);
    for (Index i = 0; i < nrows; ++i) {
      double& v = values[static_cast<std::size_t>(i) * ncols + j];
      if (!std::isnan(v)) v = recode[static_cast<std::size_t>(v)];
    }
  }

  Dataset out;
  const Index nfeatures = static_cast<Index>(target < ncols ? ncols - 1 : ncols);
  out.features.resize(nrows, nfeatures);
  if (target < ncols) {
    out.target.resize(nrows);
    out.target_column = names[target];
    out.target_names = categorical[target] ? column_categories[target] : std::vector<std::string>{names[target]};
  }
  const bool any_categorical_feature = [&] {
    for (std::size_t j = 0; j < ncols; ++j) {
      if (j != target && categorical[j]) return true;
    }
    return false;
  }();
  for (std::size_t j = 0; j < ncols; ++j) {
    if (j == target) continue;
    out.feature_names.push_back(names[j]);
    if (any_categorical_feature) out.categories.push_back(column_categories[j]);
  }
  for (Index i = 0; i < nrows; ++i) {
    Index f = 0;
    for (std::size_t j = 0; j < ncols; ++j) {
      const double v = values[static_cast<std::size_t>(i) * ncols + j];
      if (j == target) {
        out.target(i) = v;
      } else {
        out.features(i, f++) = v;
      }
    }
  }
  return out;
}

}  // namespace

Dataset parse_csv(std::string_view text, const CsvOptions& options, const std::string& source) {
  check_delimiter(options.delimiter, "CsvOptions::delimiter");
  Tokenizer tokenizer(text, options.delimiter, source);
  return parse_records(tokenizer, options, source);
}

std::vector<std::string> parse_csv_header(std::string_view text, char delimiter, const std::string& source) {
  check_delimiter(delimiter, "parse_csv_header");
  Tokenizer tokenizer(text, delimiter, source);
  Record record;
  if (!tokenizer.next(record)) throw ParseError(source, 1, 1, "empty file: expected a header row");
  std::vector<std::string> names;
  for (const Field& f : record.fields) names.push_back(f.text);
  return names;
}

CsvRecords split_csv_records(std::string_view text, char delimiter, const std::string& source) {
  check_delimiter(delimiter, "split_csv_records");
  Tokenizer tokenizer(text, delimiter, source);
  Record record;
  if (!tokenizer.next(record)) throw ParseError(source, 1, 1, "empty file: expected a header row");
  CsvRecords out;
  out.header.assign(text.substr(record.begin, record.end - record.begin));
  while (tokenizer.next(record)) out.rows.emplace_back(text.substr(record.begin, record.end - record.begin));
  return out;
}

Dataset read_csv(const std::filesystem::path& path, const CsvOptions& options) {
  const std::vector<unsigned char> bytes = read_file_bytes(path);
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return parse_csv(text, options, path.string());
}

Index count_csv_records(const std::filesystem::path& path, const CsvOptions& options) {
  check_delimiter(options.delimiter, "CsvOptions::delimiter");
  FileReader file(path);
  const std::string source = path.string();
  Tokenizer tokenizer(file, options.delimiter, source);
  Record record;
  Index records = 0;
  while (tokenizer.next(record)) ++records;
  return options.header && records > 0 ? records - 1 : records;
}

Dataset read_csv_rows(const std::filesystem::path& path, const CsvOptions& options, IndexRange rows) {
  check_delimiter(options.delimiter, "CsvOptions::delimiter");
  const std::string source = path.string();
  if (!options.categorical.empty() || options.categorical_auto) {
    throw ValueError(fmt::format("{}: reading rows {} of the file needs numeric columns, found CsvOptions::{} set "
                                 "(the codes of text categories depend on the whole file: encode them first)",
                                 source, range_text(rows), options.categorical_auto ? "categorical_auto" : "categorical"));
  }
  if (rows.begin < 0 || rows.end < rows.begin) {
    throw ValueError(fmt::format("{}: expected a row range within [0, {}] (the file's data records), found {}", source,
                                 count_csv_records(path, options), range_text(rows)));
  }
  FileReader file(path);
  Tokenizer tokenizer(file, options.delimiter, source);
  return parse_records(tokenizer, options, source, &rows);
}

// Quotes a field if the reader would otherwise split, trim or drop it: an empty name (a lone
// empty name would write an empty line, which the reader skips), "NA" (read as missing) and a
// name starting with a byte-order mark (read as the file's own at the start of the file) too.
std::string csv_field(const std::string& name, char delimiter) {
  const bool needs_quotes =
      name.empty() || name.starts_with("\xEF\xBB\xBF") ||
      name.find_first_of(std::string{delimiter, kQuote, '\n', '\r'}) != std::string::npos ||
      name.front() == ' ' || name.front() == '\t' || name.back() == ' ' || name.back() == '\t' ||
      name == "NA";
  if (!needs_quotes) return name;
  std::string out(1, kQuote);
  for (const char c : name) {
    if (c == kQuote) out.push_back(kQuote);
    out.push_back(c);
  }
  out.push_back(kQuote);
  return out;
}

std::string format_csv(const Tensor& values, const std::vector<std::string>& header,
                       char delimiter) {
  check_delimiter(delimiter, "format_csv");
  if (static_cast<Index>(header.size()) != values.cols()) {
    throw ShapeError(
        fmt::format("format_csv: expected one header name per column ({}), found {} names",
                    values.cols(), header.size()));
  }
  std::string out;
  for (std::size_t j = 0; j < header.size(); ++j) {
    if (j > 0) out.push_back(delimiter);
    out += csv_field(header[j], delimiter);
  }
  out.push_back('\n');
  auto it = std::back_inserter(out);
  for (Index i = 0; i < values.rows(); ++i) {
    for (Index j = 0; j < values.cols(); ++j) {
      if (j > 0) out.push_back(delimiter);
      // fmt's default for double is the shortest representation that round-trips.
      fmt::format_to(it, "{}", values(i, j));
    }
    out.push_back('\n');
  }
  return out;
}

void write_csv(const std::filesystem::path& path, const Tensor& values,
               const std::vector<std::string>& header, char delimiter) {
  write_text_file(path, format_csv(values, header, delimiter));
}

}  // namespace dagml
