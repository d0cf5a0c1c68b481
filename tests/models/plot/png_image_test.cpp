// Tests for the PNG writer and reader: the bytes of the file header against the PNG
// specification (signature and IHDR fields), round trips of gray and RGB images, the value-to-byte
// mapping, and the errors.
#include "models/plot/png_image.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "graph/error.h"
#include "literals.h"

namespace dagml::plot {
namespace {

using ::testing::HasSubstr;
using testing::rows;

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("dagml_png_test_" + name)).string();
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A big-endian 4-byte number at `offset`.
std::uint32_t be32(const std::string& bytes, std::size_t offset) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(bytes[offset + i]);
  return v;
}

TEST(PngImage, GrayImageMapsLowHighToBytes) {
  // round(255·clip((v − lo)/(hi − lo))) with lo = −1, hi = 1: −1 → 0, 0 → 128 (127.5 rounds up),
  // 1 → 255, 0.2 → round(153) = 153, −3 clips to 0, 7 clips to 255.
  const Image8 image = gray_image(rows({{-1, 0, 1}, {0.2, -3, 7}}), -1, 1);
  EXPECT_EQ(image.width, 3);
  EXPECT_EQ(image.height, 2);
  EXPECT_EQ(image.channels, 1);
  EXPECT_EQ(image.pixels, (std::vector<std::uint8_t>{0, 128, 255, 153, 0, 255}));
  EXPECT_EQ(image.at(1, 0), 153);
}

TEST(PngImage, GrayRoundTripAndHeaderBytes) {
  Tensor values(7, 5);  // 5 wide, 7 high: width and height must not be swapped
  for (Index i = 0; i < 7; ++i)
    for (Index j = 0; j < 5; ++j) values(i, j) = static_cast<Scalar>(i * 5 + j) / 34;
  const Image8 image = gray_image(values);
  const std::string path = temp_path("gray.png");
  write_png(path, image);
  const std::string bytes = file_bytes(path);
  // PNG specification §5.2 and §11.2.2: the 8-byte signature, then the IHDR chunk (length 13):
  // width, height, bit depth 8, colour type 0 (greyscale).
  ASSERT_GE(bytes.size(), 33u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(be32(bytes, 8), 13u);
  EXPECT_EQ(bytes.substr(12, 4), "IHDR");
  EXPECT_EQ(be32(bytes, 16), 5u);
  EXPECT_EQ(be32(bytes, 20), 7u);
  EXPECT_EQ(bytes[24], 8);
  EXPECT_EQ(bytes[25], 0);
  EXPECT_EQ(read_png(path), image);
  std::filesystem::remove(path);
}

TEST(PngImage, RgbRoundTrip) {
  const Tensor red = rows({{1, 0, 0}, {0.5, 0.25, 1}});
  const Tensor green = rows({{0, 1, 0}, {0.5, 0.75, 1}});
  const Tensor blue = rows({{0, 0, 1}, {0.5, 0.0, 1}});
  const Image8 image = rgb_image(red, green, blue);
  EXPECT_EQ(image.channels, 3);
  // Pixel (1, 1): red round(63.75) = 64, green round(191.25) = 191, blue 0.
  EXPECT_EQ(image.at(1, 1, 0), 64);
  EXPECT_EQ(image.at(1, 1, 1), 191);
  EXPECT_EQ(image.at(1, 1, 2), 0);
  const std::string path = temp_path("rgb.png");
  write_png(path, image);
  const std::string bytes = file_bytes(path);
  ASSERT_GE(bytes.size(), 26u);
  EXPECT_EQ(bytes[25], 2);  // colour type 2: truecolour
  EXPECT_EQ(read_png(path), image);
  std::filesystem::remove(path);
}

TEST(PngImage, PgmHoldsTheSameBytes) {
  const Image8 image = gray_image(rows({{0, 0.5}, {1, 0.25}}));
  const std::string path = temp_path("gray.pgm");
  write_pgm(path, image);
  EXPECT_EQ(file_bytes(path), std::string("P5\n2 2\n255\n\x00\x80\xff\x40", 15));
  std::filesystem::remove(path);
}

TEST(PngImage, ErrorsNameThePathAndWhatWasFound) {
  const Image8 image = gray_image(rows({{0, 1}}));
  try {
    write_png("/nonexistent-dir/x.png", image);
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent-dir/x.png"));
  }
  try {
    read_png("/nonexistent-dir/y.png");
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent-dir/y.png"));
  }
  const std::string not_png = temp_path("not.png");
  std::ofstream(not_png) << "P5\n1 1\n255\n0";
  EXPECT_THROW(read_png(not_png), IoError);
  std::filesystem::remove(not_png);

  EXPECT_THROW(write_png(temp_path("empty.png"), Image8{}), ValueError);
  EXPECT_THROW(write_png(temp_path("two.png"), Image8{1, 1, 2, {0, 0}}), ValueError);
  EXPECT_THROW(write_png(temp_path("short.png"), Image8{2, 2, 1, {0, 0, 0}}), ValueError);
  EXPECT_THROW(write_pgm(temp_path("rgb.pgm"), Image8{1, 1, 3, {0, 0, 0}}), ValueError);
  EXPECT_THROW(write_pgm("/nonexistent-dir/x.pgm", image), IoError);
  EXPECT_THROW(gray_image(Tensor(0, 0)), ValueError);
  EXPECT_THROW(gray_image(rows({{0, 1}}), 1, 1), ValueError);
  EXPECT_THROW(gray_image(rows({{0, testing::kNaN}})), ValueError);
  EXPECT_THROW(rgb_image(rows({{0, 1}}), rows({{0, 1}}), rows({{0}, {1}})), ShapeError);
}

}  // namespace
}  // namespace dagml::plot
