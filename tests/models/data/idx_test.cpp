// Tests for the IDX reader: every element type, gzip, and each malformed input.
#include "models/data/idx.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <functional>

#include "graph/error.h"
#include "models/data/test_files.h"

namespace dagml {
namespace {

using ::dagml::testing::AllocationLimit;
using ::dagml::testing::Bytes;
using ::dagml::testing::gzip_bytes;
using ::dagml::testing::make_idx;
using ::dagml::testing::TempDir;
using ::dagml::testing::write_bytes;

void expect_parse_error(const std::function<void()>& f, long column, const std::string& what) {
  try {
    f();
    ADD_FAILURE() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 0) << e.what();
    EXPECT_EQ(e.column(), column) << e.what();
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

Bytes images_2x2x3() { return make_idx(0x08, {2, 2, 3}, {0, 1, 2, 3, 4, 5, 250, 251, 252, 253, 254, 255}); }

TEST(IdxTest, ParsesUnsignedByteImagesOnePerRow) {
  const IdxArray a = parse_idx(images_2x2x3());
  EXPECT_EQ(a.type, IdxType::UnsignedByte);
  EXPECT_EQ(a.dims, (std::vector<Index>{2, 2, 3}));
  ASSERT_EQ(a.values.rows(), 2);
  ASSERT_EQ(a.values.cols(), 6);
  EXPECT_EQ(a.values(0, 5), 5);
  EXPECT_EQ(a.values(1, 0), 250);
  EXPECT_EQ(a.values(1, 5), 255);
}

TEST(IdxTest, ParsesEveryElementTypeBigEndian) {
  EXPECT_EQ(parse_idx(make_idx(0x09, {2}, {0xFF, 0x7F})).values.col(0), (Vector(2) << -1, 127).finished());
  EXPECT_EQ(parse_idx(make_idx(0x0B, {2}, {0x80, 0x00, 0x01, 0x02})).values.col(0),
            (Vector(2) << -32768, 258).finished());
  EXPECT_EQ(parse_idx(make_idx(0x0C, {1}, {0xFF, 0xFF, 0xFF, 0xFE})).values(0, 0), -2);
  // 1.5f = 0x3FC00000
  EXPECT_EQ(parse_idx(make_idx(0x0D, {1}, {0x3F, 0xC0, 0x00, 0x00})).values(0, 0), 1.5);
  // 0.1 = 0x3FB999999999999A
  EXPECT_EQ(parse_idx(make_idx(0x0E, {1}, {0x3F, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A})).values(0, 0), 0.1);
}

TEST(IdxTest, GzipGivesTheSameArray) {
  const IdxArray plain = parse_idx(images_2x2x3());
  const IdxArray gz = parse_idx(gzip_bytes(images_2x2x3()));
  EXPECT_EQ(gz.dims, plain.dims);
  EXPECT_EQ(gz.values, plain.values);
  // Two concatenated gzip members are one stream (as gunzip reads them).
  const Bytes whole = images_2x2x3();
  const Bytes head(whole.begin(), whole.begin() + 7), tail(whole.begin() + 7, whole.end());
  Bytes two = gzip_bytes(head);
  const Bytes second = gzip_bytes(tail);
  two.insert(two.end(), second.begin(), second.end());
  EXPECT_EQ(parse_idx(two).values, plain.values);
}

TEST(IdxTest, ReadsImageAndLabelFiles) {
  TempDir dir;
  write_bytes(dir / "images.gz", gzip_bytes(images_2x2x3()));
  write_bytes(dir / "labels", make_idx(0x08, {2}, {7, 3}));
  const Tensor images = read_idx_images(dir / "images.gz");
  EXPECT_EQ(images.rows(), 2);
  EXPECT_EQ(images.cols(), 6);
  EXPECT_EQ(read_idx_labels(dir / "labels"), (Vector(2) << 7, 3).finished());
  EXPECT_THROW(read_idx_images(dir / "labels"), ParseError);  // 1 dimension, not 3
  EXPECT_THROW(read_idx_labels(dir / "images.gz"), ParseError);
  EXPECT_THROW(read_idx(dir / "missing"), IoError);
}

TEST(IdxTest, EmptyAndShortHeaders) {
  expect_parse_error([] { parse_idx(Bytes{}); }, 0, "truncated IDX header");
  expect_parse_error([] { parse_idx(Bytes{0, 0, 8}); }, 3, "truncated IDX header");
  // Three dimensions declared, only one size present.
  expect_parse_error([] { parse_idx(Bytes{0, 0, 8, 3, 0, 0, 0, 1}); }, 8, "3 dimensions need 16 bytes");
  expect_parse_error([] { parse_idx(Bytes{0, 0, 8, 0}); }, 3, "at least one dimension");
}

TEST(IdxTest, WrongMagicAndType) {
  Bytes b = images_2x2x3();
  b[1] = 0x01;
  expect_parse_error([&] { parse_idx(b); }, 0, "wrong magic number");
  b = images_2x2x3();
  b[2] = 0x07;
  expect_parse_error([&] { parse_idx(b); }, 2, "unknown IDX element type 0x07");
  // A text file is not IDX.
  const std::string text = "hello";
  expect_parse_error([&] { parse_idx(Bytes(text.begin(), text.end())); }, 0, "wrong magic number");
}

TEST(IdxTest, TruncatedAndOverlongData) {
  Bytes b = images_2x2x3();
  b.pop_back();
  expect_parse_error([&] { parse_idx(b); }, static_cast<long>(b.size()), "need 12 bytes after the header, the data has 11");
  b = images_2x2x3();
  b.push_back(0);
  expect_parse_error([&] { parse_idx(b); }, 4 + 12 + 12, "1 more");
}

TEST(IdxTest, HugeDeclaredDimensionsAreRejectedWithoutAllocating) {
  // 4·10⁹ × 4·10⁹ × 4·10⁹ elements: the product overflows 64 bits.
  EXPECT_THROW(parse_idx(make_idx(0x08, {0xEE6B2800, 0xEE6B2800, 0xEE6B2800}, {1, 2, 3})), LimitError);
  // 2³¹ × 2³¹ doubles fit in 64 bits but exceed the file allocation limit (file_io.h).
  try {
    parse_idx(make_idx(0x0E, {0x80000000, 0x80000000}, {1, 2, 3, 4, 5, 6, 7, 8}));
    ADD_FAILURE() << "expected a LimitError";
  } catch (const LimitError& e) {
    EXPECT_NE(std::string(e.what()).find("2147483648×2147483648"), std::string::npos) << e.what();
  }
  // 2¹⁴ × 2¹⁴ bytes (2 GiB as doubles) are within the limit, but not in the 8 bytes present.
  expect_parse_error([] { parse_idx(make_idx(0x08, {0x4000, 0x4000}, {1, 2, 3, 4, 5, 6, 7, 8})); }, 4 + 8 + 8,
                     "the data has 8");
  // Fashion-MNIST's header with almost no pixels.
  expect_parse_error([] { parse_idx(gzip_bytes(make_idx(0x08, {60000, 28, 28}, {1, 2, 3}))); }, 4 + 12 + 3,
                     "need 47040000 bytes");
}

TEST(IdxTest, AGzipStreamIsInflatedOnlyAsFarAsItsHeaderDeclares) {
  // The reproducer of a decompression bomb: a header declaring one element, then 16 MiB of zeros
  // (16 KiB compressed). The whole stream used to be inflated before the header was read; now
  // inflating stops one byte past the declared 9 bytes, so even a 1 MiB limit is never reached.
  Bytes bomb = make_idx(0x08, {1}, {7});
  bomb.resize(bomb.size() + (std::size_t{16} << 20), 0);
  const Bytes gz = gzip_bytes(bomb);
  ASSERT_LT(gz.size(), std::size_t{1} << 16);
  AllocationLimit limit(std::size_t{1} << 20);
  expect_parse_error([&] { parse_idx(gz); }, 4 + 4 + 1, "the gzip stream inflates to more");
}

TEST(IdxTest, TheFileAllocationLimitIsATypedError) {
  AllocationLimit limit(1000);
  // 200 float64 elements: 1,600 bytes as stored and as doubles.
  EXPECT_THROW(parse_idx(make_idx(0x0E, {200}, Bytes(1600, 0))), LimitError);
  // 200 bytes are 1,600 bytes of doubles too: the limit bounds what is allocated.
  EXPECT_THROW(parse_idx(make_idx(0x08, {200}, Bytes(200, 0))), LimitError);
  EXPECT_EQ(parse_idx(make_idx(0x08, {100}, Bytes(100, 0))).values.rows(), 100);
  // A file larger than the limit is not read.
  TempDir dir;
  write_bytes(dir / "big.idx", make_idx(0x08, {2000}, Bytes(2000, 0)));
  try {
    read_idx(dir / "big.idx");
    ADD_FAILURE() << "expected a LimitError";
  } catch (const LimitError& e) {
    EXPECT_NE(std::string(e.what()).find("larger than the file allocation limit of 1000 bytes"), std::string::npos)
        << e.what();
  }
}

TEST(IdxTest, TruncatedOrCorruptGzip) {
  const Bytes gz = gzip_bytes(images_2x2x3());
  const Bytes cut(gz.begin(), gz.end() - 6);
  EXPECT_THROW(parse_idx(cut), ParseError);
  const Bytes header_only(gz.begin(), gz.begin() + 10);
  EXPECT_THROW(parse_idx(header_only), ParseError);
  Bytes flipped = gz;
  flipped[gz.size() - 5] ^= 0xFF;  // the stored length no longer matches
  EXPECT_THROW(parse_idx(flipped), ParseError);
  Bytes trailing = gz;
  trailing.push_back('x');
  EXPECT_THROW(parse_idx(trailing), ParseError);
  Bytes padded = gz;
  padded.insert(padded.end(), 8, 0);  // zero padding after the stream is accepted
  EXPECT_EQ(parse_idx(padded).values.rows(), 2);
}

TEST(IdxTest, ErrorsNameTheFile) {
  TempDir dir;
  Bytes b = images_2x2x3();
  b.resize(b.size() - 3);
  write_bytes(dir / "short.idx", b);
  try {
    read_idx(dir / "short.idx");
    ADD_FAILURE();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), (dir / "short.idx").string());
  }
}

// Reading a row range (read_idx_header, read_idx_rows).

// 5 images of 2 × 3 int16 elements, each element's value distinct.
Bytes shorts_5x2x3() {
  Bytes payload;
  for (int k = 0; k < 30; ++k) {
    const auto v = static_cast<std::uint16_t>(k * 997 - 12000);
    payload.push_back(static_cast<unsigned char>(v >> 8));
    payload.push_back(static_cast<unsigned char>(v));
  }
  return make_idx(0x0B, {5, 2, 3}, payload);
}

TEST(IdxRowsTest, HeaderWithoutTheData) {
  TempDir dir;
  write_bytes(dir / "plain", shorts_5x2x3());
  write_bytes(dir / "file.gz", gzip_bytes(shorts_5x2x3()));
  for (const char* name : {"plain", "file.gz"}) {
    const IdxHeader h = read_idx_header(dir / name);
    EXPECT_EQ(h.type, IdxType::Short);
    EXPECT_EQ(h.dims, (std::vector<Index>{5, 2, 3}));
    EXPECT_EQ(h.header_bytes, 16u);
    EXPECT_EQ(h.inner, 6u);
    EXPECT_EQ(h.data_bytes, 60u);
  }
  // Only the header is read: a file cut after it still has one.
  Bytes cut = shorts_5x2x3();
  cut.resize(16);
  write_bytes(dir / "cut", cut);
  EXPECT_EQ(read_idx_header(dir / "cut").dims, (std::vector<Index>{5, 2, 3}));
  write_bytes(dir / "short", Bytes{0, 0, 0x0B, 3, 0, 0});
  expect_parse_error([&] { read_idx_header(dir / "short"); }, 6, "3 dimensions need 16 bytes");
}

TEST(IdxRowsTest, EveryRangeEqualsTheRowsOfReadIdxPlainAndGzip) {
  TempDir dir;
  write_bytes(dir / "plain", shorts_5x2x3());
  write_bytes(dir / "file.gz", gzip_bytes(shorts_5x2x3()));
  // Two gzip members, split inside the third image.
  const Bytes whole = shorts_5x2x3();
  Bytes two = gzip_bytes(Bytes(whole.begin(), whole.begin() + 43));
  const Bytes second = gzip_bytes(Bytes(whole.begin() + 43, whole.end()));
  two.insert(two.end(), second.begin(), second.end());
  write_bytes(dir / "two.gz", two);
  const IdxArray all = read_idx(dir / "plain");
  for (const char* name : {"plain", "file.gz", "two.gz"}) {
    for (Index b = 0; b <= 5; ++b) {
      for (Index e = b; e <= 5; ++e) {
        const IdxArray rows = read_idx_rows(dir / name, {b, e});
        EXPECT_EQ(rows.type, IdxType::Short);
        EXPECT_EQ(rows.dims, (std::vector<Index>{e - b, 2, 3}));
        EXPECT_EQ(rows.values, all.values.middleRows(b, e - b)) << name << " [" << b << ", " << e << ")";
      }
    }
  }
  write_bytes(dir / "labels", make_idx(0x08, {5}, {9, 8, 7, 6, 5}));
  EXPECT_EQ(read_idx_label_rows(dir / "labels", {1, 3}), (Vector(2) << 8, 7).finished());
  EXPECT_EQ(read_idx_image_rows(dir / "file.gz", {4, 5}), all.values.middleRows(4, 1));
  EXPECT_THROW(read_idx_image_rows(dir / "labels", {0, 1}), ParseError);
  EXPECT_THROW(read_idx_label_rows(dir / "plain", {0, 1}), ParseError);
}

TEST(IdxRowsTest, RangesOutsideTheFileAreValueErrors) {
  TempDir dir;
  write_bytes(dir / "plain", shorts_5x2x3());
  for (const IndexRange rows : {IndexRange{0, 6}, IndexRange{-1, 2}, IndexRange{3, 2}, IndexRange{6, 6}}) {
    try {
      read_idx_rows(dir / "plain", rows);
      ADD_FAILURE() << "expected a ValueError";
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find(fmt::format("within [0, 5] (the file's 5 rows), found [{}, {})", rows.begin,
                                                       rows.end)),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_THROW(read_idx_rows(dir / "missing", {0, 1}), IoError);
}

TEST(IdxRowsTest, TruncatedAndMalformedFiles) {
  TempDir dir;
  // A plain file's size is checked against its header, as read_idx does, whatever the range.
  Bytes b = shorts_5x2x3();
  b.pop_back();
  write_bytes(dir / "short", b);
  expect_parse_error([&] { read_idx_rows(dir / "short", {0, 1}); }, 4 + 12 + 59, "need 60 bytes after the header, the data has 59");
  b = shorts_5x2x3();
  b.push_back(0);
  write_bytes(dir / "long", b);
  expect_parse_error([&] { read_idx_rows(dir / "long", {0, 1}); }, 16 + 60, "1 more");
  b = shorts_5x2x3();
  b[0] = 1;
  write_bytes(dir / "magic", b);
  expect_parse_error([&] { read_idx_rows(dir / "magic", {0, 1}); }, 0, "wrong magic number");
  // A gzip stream that ends inside the range: the offset counts the decompressed bytes.
  Bytes cut = shorts_5x2x3();
  cut.resize(16 + 30);  // two and a half images
  write_bytes(dir / "cut.gz", gzip_bytes(cut));
  EXPECT_EQ(read_idx_rows(dir / "cut.gz", {0, 2}).values, parse_idx(shorts_5x2x3()).values.topRows(2));
  expect_parse_error([&] { read_idx_rows(dir / "cut.gz", {1, 3}); }, 46,
                     "in the decompressed data: truncated IDX data: dimensions 5×2×3 of 2-byte elements need 60 bytes "
                     "after the header, the data has 30");
  expect_parse_error([&] { read_idx_rows(dir / "cut.gz", {4, 5}); }, 46, "the data has 30");
  // A corrupt gzip stream.
  Bytes gz = gzip_bytes(shorts_5x2x3());
  gz.resize(gz.size() / 2);
  write_bytes(dir / "torn.gz", gz);
  EXPECT_THROW(read_idx_rows(dir / "torn.gz", {4, 5}), ParseError);
}

TEST(IdxRowsTest, TheLimitAppliesToTheRangeRead) {
  TempDir dir;
  write_bytes(dir / "plain", shorts_5x2x3());
  const AllocationLimit limit(2 * 6 * sizeof(double));  // two rows of doubles
  EXPECT_EQ(read_idx_rows(dir / "plain", {1, 3}).values.rows(), 2);
  EXPECT_THROW(read_idx_rows(dir / "plain", {1, 4}), LimitError);
  EXPECT_THROW(read_idx(dir / "plain"), LimitError);
}

}  // namespace
}  // namespace dagml
