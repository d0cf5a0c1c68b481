// Tests for read_csv / parse_csv / write_csv.
#include "models/data/csv.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>

#include "graph/error.h"
#include "models/data/test_files.h"

namespace dagml {
namespace {

using ::dagml::testing::AllocationLimit;
using ::dagml::testing::TempDir;

// Runs f, expects a ParseError at (line, column) whose message contains `what`.
void expect_parse_error(const std::function<void()>& f, long line, long column, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.column(), column) << e.what();
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(CsvTest, ReadsHeaderFeaturesAndLastColumnAsTarget) {
  const Dataset d = parse_csv("a,b,y\n1,2,0\n3.5,-4e2,1\n");
  ASSERT_EQ(d.features.rows(), 2);
  ASSERT_EQ(d.features.cols(), 2);
  EXPECT_EQ(d.features(0, 0), 1);
  EXPECT_EQ(d.features(1, 0), 3.5);
  EXPECT_EQ(d.features(1, 1), -400);
  EXPECT_EQ(d.target(0), 0);
  EXPECT_EQ(d.target(1), 1);
  EXPECT_EQ(d.feature_names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(d.target_names, (std::vector<std::string>{"y"}));
}

TEST(CsvTest, ChoosesTargetByNameOrIndex) {
  const std::string text = "a,b,c\n1,2,3\n4,5,6\n";
  const Dataset by_name = parse_csv(text, {.target = "a"});
  EXPECT_EQ(by_name.target, (Vector(2) << 1, 4).finished());
  EXPECT_EQ(by_name.feature_names, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(by_name.features(1, 1), 6);

  const Dataset by_index = parse_csv(text, {.target_index = 1});
  EXPECT_EQ(by_index.target, (Vector(2) << 2, 5).finished());
  EXPECT_EQ(by_index.target_names, (std::vector<std::string>{"b"}));

  const Dataset from_end = parse_csv(text, {.target_index = -3});
  EXPECT_EQ(from_end.target_names, (std::vector<std::string>{"a"}));

  const Dataset none = parse_csv(text, {.no_target = true});
  EXPECT_EQ(none.features.cols(), 3);
  EXPECT_EQ(none.target.size(), 0);
  EXPECT_TRUE(none.target_names.empty());
}

TEST(CsvTest, OnlyTheChosenDelimiterSeparates) {
  // With ';' as the delimiter, "1,5" is one field, and not a number.
  expect_parse_error([] { parse_csv("x;y\n1,5;2\n", {.delimiter = ';'}); }, 2, 1, "'1,5'");
}

TEST(CsvTest, SemicolonTabAndHeaderless) {
  const Dataset semi = parse_csv("x;y\n1.5;2\n", {.delimiter = ';'});
  EXPECT_EQ(semi.features(0, 0), 1.5);
  EXPECT_EQ(semi.target(0), 2);
  const Dataset tab = parse_csv("x\ty\n 1\t 2 \n", {.delimiter = '\t'});
  EXPECT_EQ(tab.features(0, 0), 1);
  EXPECT_EQ(tab.target(0), 2);
  const Dataset raw = parse_csv("1,2\n3,4\n", {.header = false});
  EXPECT_EQ(raw.features.rows(), 2);
  EXPECT_EQ(raw.feature_names, (std::vector<std::string>{"c0"}));
  EXPECT_EQ(raw.target_names, (std::vector<std::string>{"c1"}));
}

TEST(CsvTest, QuotedFieldsCrlfBomBlankLinesAndSpaces) {
  const std::string text =
      "\xEF\xBB\xBF\"a, with comma\",\"say \"\"hi\"\"\",\"multi\nline\"\r\n"
      "\r\n"
      "  \"1.25\" , +2 ,3\r\n"
      "\n"
      "4,  5e-1,\"-6\"\r\n";
  const Dataset d = parse_csv(text, {.no_target = true});
  EXPECT_EQ(d.feature_names, (std::vector<std::string>{"a, with comma", "say \"hi\"", "multi\nline"}));
  ASSERT_EQ(d.features.rows(), 2);
  EXPECT_EQ(d.features(0, 0), 1.25);
  EXPECT_EQ(d.features(0, 1), 2);
  EXPECT_EQ(d.features(0, 2), 3);
  EXPECT_EQ(d.features(1, 1), 0.5);
  EXPECT_EQ(d.features(1, 2), -6);
}

TEST(CsvTest, NonFiniteLiteralsAndMissingAsNan) {
  const Dataset d = parse_csv("a,b,c\ninf,-inf,nan\n", {.no_target = true});
  EXPECT_EQ(d.features(0, 0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(d.features(0, 1), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(d.features(0, 2)));

  const Dataset m = parse_csv("a,b,c\n1,,NA\n", {.no_target = true, .missing_as_nan = true});
  EXPECT_EQ(m.features(0, 0), 1);
  EXPECT_TRUE(std::isnan(m.features(0, 1)));
  EXPECT_TRUE(std::isnan(m.features(0, 2)));
}

// std::from_chars is correctly rounded: whatever printf("%.17g") writes reads back bit for bit.
TEST(CsvTest, ParsingIsExactForPrintf17g) {
  std::mt19937_64 rng(2024);
  std::string text = "v\n";
  std::vector<double> expected;
  for (int i = 0; i < 2000; ++i) {
    double v = std::bit_cast<double>(rng());
    if (!std::isfinite(v)) continue;
    expected.push_back(v);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g\n", v);
    text += buf;
  }
  for (const double v : {4.9406564584124654e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                         0.1, -0.0, 1.0 / 3.0}) {
    expected.push_back(v);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g\n", v);
    text += buf;
  }
  const Dataset d = parse_csv(text, {.no_target = true});
  ASSERT_EQ(d.features.rows(), static_cast<Index>(expected.size()));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(d.features(static_cast<Index>(i), 0)),
              std::bit_cast<std::uint64_t>(expected[i]))
        << "row " << i;
  }
}

TEST(CsvTest, WriteThenReadGivesIdenticalDoubles) {
  TempDir dir;
  std::mt19937_64 rng(7);
  Tensor X(300, 4);
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      double v = std::bit_cast<double>(rng());
      if (!std::isfinite(v)) v = std::ldexp(static_cast<double>(rng() >> 11), -53);  // in [0, 1)
      X(i, j) = v;
    }
  }
  X(0, 0) = -0.0;
  X(0, 1) = std::numeric_limits<double>::denorm_min();
  X(0, 2) = std::numeric_limits<double>::max();
  X(0, 3) = std::numeric_limits<double>::lowest();
  X(1, 0) = std::numeric_limits<double>::infinity();
  X(1, 1) = -std::numeric_limits<double>::infinity();
  X(1, 2) = std::numeric_limits<double>::quiet_NaN();
  X(1, 3) = 0.1;
  const std::vector<std::string> header = {"plain", "with,comma", "with \"quote\"", " padded "};
  write_csv(dir / "x.csv", X, header);
  const Dataset d = read_csv(dir / "x.csv", {.no_target = true});
  EXPECT_EQ(d.feature_names, header);
  ASSERT_EQ(d.features.rows(), X.rows());
  ASSERT_EQ(d.features.cols(), X.cols());
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      if (std::isnan(X(i, j))) {
        EXPECT_TRUE(std::isnan(d.features(i, j)));
      } else {
        EXPECT_EQ(std::bit_cast<std::uint64_t>(d.features(i, j)), std::bit_cast<std::uint64_t>(X(i, j)))
            << "at " << i << "," << j;
      }
    }
  }
  // Another delimiter round-trips too.
  const Dataset semi = parse_csv(format_csv(X.topRows(1), header, ';'), {.delimiter = ';', .no_target = true});
  EXPECT_EQ(std::bit_cast<std::uint64_t>(semi.features(0, 0)), std::bit_cast<std::uint64_t>(-0.0));
}

TEST(CsvTest, EmptyNamesAndALeadingByteOrderMarkRoundTrip) {
  // The reproducers: one column with an empty name wrote an empty header line, which the reader
  // skips; a first name starting with U+FEFF lost it as the file's byte-order mark.
  Tensor X(2, 1);
  X << 1.5, -2;
  for (const std::string& name : {std::string(), std::string("\xEF\xBB\xBFname"), std::string("\xEF\xBB\xBF")}) {
    const Dataset d = parse_csv(format_csv(X, {name}), {.no_target = true});
    EXPECT_EQ(d.feature_names, std::vector<std::string>{name});
    EXPECT_EQ(d.features, X);
  }
  Tensor Y(1, 3);
  Y << 1, 2, 3;
  const std::vector<std::string> names = {"", "b", ""};
  EXPECT_EQ(parse_csv(format_csv(Y, names), {.no_target = true}).feature_names, names);
}

TEST(CsvTest, TheFileAllocationLimitIsATypedError) {
  AllocationLimit limit(1000);
  // 200 empty fields become 200 NaNs: 1,600 bytes from a 200-byte text.
  std::string text = "a\n";
  for (int i = 0; i < 200; ++i) text += "NA\n";
  EXPECT_THROW(parse_csv(text, {.no_target = true, .missing_as_nan = true}), LimitError);
  EXPECT_EQ(parse_csv(text.substr(0, 2 + 3 * 100), {.no_target = true, .missing_as_nan = true}).features.rows(), 100);
}

TEST(CsvTest, FormatWritesShortestForm) {
  Tensor X(2, 2);
  X << 0.1, 5, -2.5e-10, 1e100;
  EXPECT_EQ(format_csv(X, {"a", "b"}), "a,b\n0.1,5\n-2.5e-10,1e+100\n");
}

TEST(CsvTest, EmptyFileAndHeaderOnly) {
  expect_parse_error([] { parse_csv(""); }, 1, 1, "empty file");
  expect_parse_error([] { parse_csv("\n\r\n\n"); }, 1, 1, "empty file");
  expect_parse_error([] { parse_csv("a,b\n"); }, 2, 1, "at least one data row");
}

TEST(CsvTest, RaggedRows) {
  // Too few fields: the fault is at the end of the short record.
  expect_parse_error([] { parse_csv("a,b,c\n1,2,3\n4,5\n"); }, 3, 4, "expected 3 fields");
  // Too many: the fault is at the first extra field.
  expect_parse_error([] { parse_csv("a,b\n1,2\n3,4,5\n"); }, 3, 5, "found 3");
}

TEST(CsvTest, NonNumericAndMissingFieldsNameLineAndColumn) {
  expect_parse_error([] { parse_csv("a,b,y\n1,2,0\n1,abc,0\n"); }, 3, 3, "column 'b' (field 2): expected a number, found 'abc'");
  expect_parse_error([] { parse_csv("a,b,y\n1,2.5x,0\n"); }, 2, 3, "'2.5x'");
  expect_parse_error([] { parse_csv("a,b,y\n1,,0\n"); }, 2, 3, "missing value");
  expect_parse_error([] { parse_csv("a,b,y\n1,NA,0\n"); }, 2, 3, "missing_as_nan");
  expect_parse_error([] { parse_csv("a,b,y\n1,1e400,0\n"); }, 2, 3, "out of the range");
  // Line numbers count the physical lines of a quoted header field.
  expect_parse_error([] { parse_csv("y,\"a\nb\"\n1,x\n", {.target_index = 0}); }, 3, 3, "column 'a\nb'");
  // A target whose first value is a number stays numeric: text further down is an error.
  expect_parse_error([] { parse_csv("a,y\n1,2\n3,x\n"); }, 3, 3, "column 'y'");
}

TEST(CsvTest, QuoteErrors) {
  expect_parse_error([] { parse_csv("a,b\n1,\"2\n"); }, 2, 3, "unterminated");
  expect_parse_error([] { parse_csv("a,b\n1,\"2\"x\n"); }, 2, 6, "after a closing quote");
}

TEST(CsvTest, MissingTargetColumnIsAValueErrorListingColumns) {
  try {
    parse_csv("a,b\n1,2\n", {.target = "label"}, "f.csv");
    ADD_FAILURE();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("'label'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("a, b"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_csv("a,b\n1,2\n", {.target_index = 2}), ValueError);
  EXPECT_THROW(parse_csv("a,b\n1,2\n", {.target_index = -3}), ValueError);
  EXPECT_THROW(parse_csv("a,a\n1,2\n", {.target = "a"}), ValueError);
}

TEST(CsvTest, BadDelimiterAndHeaderMismatch) {
  EXPECT_THROW(parse_csv("a\n1\n", {.delimiter = '"'}), ValueError);
  EXPECT_THROW(parse_csv("a\n1\n", {.delimiter = '.'}), ValueError);
  EXPECT_THROW(format_csv(Tensor::Zero(1, 2), {"a"}), ShapeError);
  EXPECT_THROW(format_csv(Tensor::Zero(1, 1), {"a"}, '\n'), ValueError);
}

TEST(CsvTest, MissingFileIsAnIoErrorNamingThePath) {
  TempDir dir;
  try {
    read_csv(dir / "nope.csv");
    ADD_FAILURE();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("nope.csv"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_csv(dir.path()), IoError);  // a directory
  EXPECT_THROW(write_csv(dir / "no_such_dir" / "x.csv", Tensor::Zero(1, 1), {"a"}), IoError);
}

TEST(CsvTest, ParseErrorNamesTheFile) {
  TempDir dir;
  dagml::testing::write_text(dir / "bad.csv", "a,b\n1,2\n3\n");
  try {
    read_csv(dir / "bad.csv");
    ADD_FAILURE();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), (dir / "bad.csv").string());
    EXPECT_EQ(e.line(), 3);
  }
}

}  // namespace
}  // namespace dagml

namespace dagml {
namespace {

TEST(CsvCategoricalTest, TextColumnsReadAsSortedCategoryCodes) {
  const Dataset d = parse_csv("colour,x,label\nred,1,yes\nblue,2,no\nred,3,no\n\"green, light\",4,yes\n",
                              {.categorical = {"colour", "label"}});
  EXPECT_EQ(d.feature_names, (std::vector<std::string>{"colour", "x"}));
  ASSERT_EQ(d.categories.size(), 2u);
  EXPECT_EQ(d.categories[0], (std::vector<std::string>{"blue", "green, light", "red"}));
  EXPECT_TRUE(d.categories[1].empty());
  EXPECT_EQ(Vector(d.features.col(0)), (Vector(4) << 2, 0, 2, 1).finished());
  EXPECT_EQ(Vector(d.features.col(1)), (Vector(4) << 1, 2, 3, 4).finished());
  // A text target is a class label; its classes are the target names.
  EXPECT_EQ(d.target_names, (std::vector<std::string>{"no", "yes"}));
  EXPECT_EQ(d.target_column, "label");
  EXPECT_EQ(d.target, (Vector(4) << 1, 0, 0, 1).finished());
}

TEST(CsvCategoricalTest, AutoDetectsTextByTheFirstRowAndNumbersStayNumbers) {
  const Dataset d = parse_csv("a,b,c\n1,x,2\n3,y,4\n", {.no_target = true, .categorical_auto = true});
  ASSERT_EQ(d.categories.size(), 3u);
  EXPECT_TRUE(d.categories[0].empty());
  EXPECT_EQ(d.categories[1], (std::vector<std::string>{"x", "y"}));
  EXPECT_TRUE(d.categories[2].empty());
  // Only text features make categories; a numeric file has none.
  EXPECT_TRUE(parse_csv("a,y\n1,2\n", {.categorical_auto = true}).categories.empty());
  // A text target is read as class names without being asked.
  const Dataset labelled = parse_csv("a,y\n1,cat\n2,dog\n3,cat\n");
  EXPECT_EQ(labelled.target_names, (std::vector<std::string>{"cat", "dog"}));
  EXPECT_EQ(labelled.target, (Vector(3) << 0, 1, 0).finished());
  // A number column that later holds text is still a parse error, at its place.
  expect_parse_error([] { parse_csv("a,y\n1,2\nz,3\n", {.categorical_auto = true}); }, 3, 1, "expected a number, found 'z'");
}

TEST(CsvCategoricalTest, MissingCategoriesAndUnknownColumns) {
  expect_parse_error([] { parse_csv("c,y\nred,1\n,2\n", {.categorical = {"c"}}); }, 3, 1,
                     "column 'c' (field 1): expected a category, found a missing value (empty field)");
  const Dataset d = parse_csv("c,y\nred,1\nNA,2\n", {.missing_as_nan = true, .categorical = {"c"}});
  EXPECT_EQ(d.features(0, 0), 0);
  EXPECT_TRUE(std::isnan(d.features(1, 0)));
  EXPECT_EQ(d.categories[0], std::vector<std::string>{"red"});
  try {
    parse_csv("a,y\n1,2\n", {.categorical = {"colour"}});
    ADD_FAILURE() << "expected a ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("expected a categorical column named 'colour', found columns: a, y"),
              std::string::npos)
        << e.what();
  }
}

TEST(CsvCategoricalTest, HeaderAndFieldQuoting) {
  EXPECT_EQ(parse_csv_header("\"a,b\",c\n1,2\n"), (std::vector<std::string>{"a,b", "c"}));
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("NA"), "\"NA\"");
  EXPECT_THROW(parse_csv_header(""), ParseError);
}

}  // namespace
}  // namespace dagml

namespace dagml {
namespace {

TEST(CsvRecordsTest, RecordsKeepTheirTextAndSkipBlankLines) {
  const CsvRecords r = split_csv_records("a,b\r\n\"x,\n y\",2\n\n 3 ,4\n");
  EXPECT_EQ(r.header, "a,b");
  EXPECT_EQ(r.rows, (std::vector<std::string>{"\"x,\n y\",2", " 3 ,4"}));
  EXPECT_THROW(split_csv_records(""), ParseError);
  EXPECT_THROW(split_csv_records("a\n\"open\n"), ParseError);
}

// Reading a row range (count_csv_records, read_csv_rows).

// Rows [b, e) of a dataset, every member compared bitwise (NaN included) with the reader of the range.
void expect_rows_equal(const Dataset& whole, const Dataset& range, IndexRange rows) {
  ASSERT_EQ(range.features.rows(), rows.size());
  ASSERT_EQ(range.features.cols(), whole.features.cols());
  for (Index i = 0; i < rows.size(); ++i) {
    for (Index j = 0; j < whole.features.cols(); ++j) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(range.features(i, j)),
                std::bit_cast<std::uint64_t>(whole.features(rows.begin + i, j)))
          << "row " << rows.begin + i << " column " << j;
    }
    if (whole.target.size() > 0) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(range.target(i)), std::bit_cast<std::uint64_t>(whole.target(rows.begin + i)));
    }
  }
  EXPECT_EQ(range.target.size(), whole.target.size() > 0 ? rows.size() : 0);
  EXPECT_EQ(range.feature_names, whole.feature_names);
  EXPECT_EQ(range.target_names, whole.target_names);
  EXPECT_EQ(range.target_column, whole.target_column);
}

// A CSV file with every way of splitting records: a byte-order mark, a header with quoted
// delimiters and line breaks, CRLF and LF, runs of empty lines, quoted numbers with spaces around,
// NA and empty fields, and a last line ending in a lone CR. Values of all magnitudes in %.17g.
std::string tricky_csv(int rows, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::string text = "\xEF\xBB\xBF\"a, first\",\"b\r\nsecond\",\"say \"\"c\"\"\",y\r\n\r\n";
  char number[32];
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (j > 0) text += ',';
      const auto kind = rng() % 10;
      std::snprintf(number, sizeof number, "%.17g", uniform(rng) * std::pow(10.0, static_cast<double>(rng() % 9) - 4));
      if (kind == 0 && j < 3) {
        text += "NA";
      } else if (kind == 1 && j < 3) {
        text += "";
      } else if (kind == 2) {
        text += std::string(" \"") + number + "\" ";
      } else {
        text += number;
      }
    }
    const auto ending = rng() % 6;
    text += ending == 0 ? "\r\n" : ending == 1 ? "\n\n\r\n" : "\n";
  }
  while (text.back() == '\n' || text.back() == '\r') text.pop_back();
  text += '\r';  // the last record ends in a lone CR: a line break at the end of the file
  return text;
}

TEST(CsvRowsTest, EveryRangeEqualsTheRowsOfReadCsv) {
  TempDir dir;
  const auto path = dir / "tricky.csv";
  ::dagml::testing::write_text(path, tricky_csv(23, 1));
  const CsvOptions options{.missing_as_nan = true};
  const Dataset whole = read_csv(path, options);
  ASSERT_EQ(whole.features.rows(), 23);
  ASSERT_EQ(count_csv_records(path, options), 23);
  for (Index b = 0; b <= 23; ++b) {
    for (Index e = b; e <= 23; ++e) expect_rows_equal(whole, read_csv_rows(path, options, {b, e}), {b, e});
  }
}

TEST(CsvRowsTest, RangesAcrossManyBlocksEqualTheRowsOfReadCsv) {
  // About 300 kB: records, quoted fields and CRLF pairs fall across the reader's 64 KiB blocks.
  TempDir dir;
  const auto path = dir / "large.csv";
  const int n = 4000;
  ::dagml::testing::write_text(path, tricky_csv(n, 2));
  const CsvOptions options{.target = "y", .missing_as_nan = true};
  const Dataset whole = read_csv(path, options);
  ASSERT_EQ(count_csv_records(path, options), n);
  for (const IndexRange rows : {IndexRange{0, n}, IndexRange{0, 1}, IndexRange{n - 1, n}, IndexRange{n, n},
                                IndexRange{1234, 3210}, IndexRange{2999, 3001}}) {
    SCOPED_TRACE(::testing::Message() << "rows [" << rows.begin << ", " << rows.end << ")");
    expect_rows_equal(whole, read_csv_rows(path, options, rows), rows);
  }
}

TEST(CsvRowsTest, HeaderlessFilesCountEveryRecord) {
  TempDir dir;
  const auto path = dir / "raw.csv";
  ::dagml::testing::write_text(path, "1;2\n\n3;4\r\n5;6");
  const CsvOptions options{.delimiter = ';', .header = false};
  EXPECT_EQ(count_csv_records(path, options), 3);
  expect_rows_equal(read_csv(path, options), read_csv_rows(path, options, {0, 2}), {0, 2});
  expect_rows_equal(read_csv(path, options), read_csv_rows(path, options, {1, 3}), {1, 3});
}

TEST(CsvRowsTest, QuotedLineBreaksBeforeTheRangeAreSkippedAsRecords) {
  // The first data record is text over three lines (read_csv would reject it; the range skips it
  // unparsed); a fault in the range is reported on its true line of the file.
  TempDir dir;
  const auto path = dir / "skipped.csv";
  ::dagml::testing::write_text(path, "a,b\n\"x\n\ny\",1\n\n2,3\n4,oops\n");
  EXPECT_EQ(count_csv_records(path, {}), 3);
  const Dataset d = read_csv_rows(path, {}, {1, 2});
  ASSERT_EQ(d.features.rows(), 1);
  EXPECT_EQ(d.features(0, 0), 2);
  EXPECT_EQ(d.target(0), 3);
  expect_parse_error([&] { read_csv_rows(path, {}, {1, 3}); }, 7, 3, "column 'b' (field 2): expected a number");
  // A record that cannot be split before the range is an error, as in read_csv.
  ::dagml::testing::write_text(path, "a,b\n\"x\"y,1\n2,3\n");
  expect_parse_error([&] { read_csv_rows(path, {}, {1, 2}); }, 2, 4, "after a closing quote");
  ::dagml::testing::write_text(path, "a,b\n2,3\n\"open,1\n");
  expect_parse_error([&] { count_csv_records(path, {}); }, 3, 1, "unterminated quoted field");
}

TEST(CsvRowsTest, RangesOutsideTheFileAreValueErrors) {
  TempDir dir;
  const auto path = dir / "small.csv";
  ::dagml::testing::write_text(path, "a,b\n1,2\n3,4\n5,6\n");
  for (const IndexRange rows : {IndexRange{0, 4}, IndexRange{4, 4}, IndexRange{-1, 2}, IndexRange{2, 1}}) {
    try {
      read_csv_rows(path, {}, rows);
      ADD_FAILURE() << "expected a ValueError";
    } catch (const ValueError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("within [0, 3]"), std::string::npos) << what;
      EXPECT_NE(what.find(fmt::format("found [{}, {})", rows.begin, rows.end)), std::string::npos) << what;
    }
  }
  EXPECT_EQ(read_csv_rows(path, {}, {3, 3}).features.rows(), 0);
  EXPECT_EQ(read_csv_rows(path, {}, {3, 3}).feature_names, std::vector<std::string>{"a"});
  EXPECT_THROW(read_csv_rows(dir / "missing.csv", {}, {0, 1}), IoError);
}

TEST(CsvRowsTest, TextCategoriesNeedTheWholeFile) {
  TempDir dir;
  const auto path = dir / "labels.csv";
  ::dagml::testing::write_text(path, "x,label\n1,cat\n2,dog\n");
  for (const CsvOptions& options : {CsvOptions{.categorical = {"label"}}, CsvOptions{.categorical_auto = true},
                                    CsvOptions{}}) {
    try {
      read_csv_rows(path, options, {0, 2});
      ADD_FAILURE() << "expected a ValueError";
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find("needs numeric columns"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("encode them first"), std::string::npos) << e.what();
    }
  }
  // The count does not parse values.
  EXPECT_EQ(count_csv_records(path, {}), 2);
}

}  // namespace
}  // namespace dagml
