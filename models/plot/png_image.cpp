#include "models/plot/png_image.h"

#include <fmt/format.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "graph/error.h"

namespace dagml::plot {
namespace {

// byte = round(255 · clip((v − lo)/(hi − lo), 0, 1)).
std::uint8_t to_byte(Scalar v, Scalar lo, Scalar hi) {
  const Scalar unit = std::clamp((v - lo) / (hi - lo), Scalar(0), Scalar(1));
  return static_cast<std::uint8_t>(std::lround(unit * 255));
}

void check_values(const Tensor& values, Scalar lo, Scalar hi, const char* who) {
  if (values.size() == 0) throw ValueError(fmt::format("{}: the image is empty (0×0 values)", who));
  if (!(lo < hi)) throw ValueError(fmt::format("{}: need lo < hi, found {} and {}", who, lo, hi));
  if (values.hasNaN()) throw ValueError(fmt::format("{}: expected values without NaN, found a NaN", who));
}

void check_image(const Image8& image, const std::string& path, const char* who) {
  if (image.width < 1 || image.height < 1)
    throw ValueError(fmt::format("{}: '{}': the image is empty ({}×{} pixels)", who, path, image.width, image.height));
  if (image.channels != 1 && image.channels != 3)
    throw ValueError(
        fmt::format("{}: '{}': expected 1 (gray) or 3 (RGB) channels, found {}", who, path, image.channels));
  const auto expected = static_cast<std::size_t>(image.width * image.height * image.channels);
  if (image.pixels.size() != expected)
    throw ValueError(fmt::format("{}: '{}': expected {}×{}×{} = {} bytes of pixels, found {}", who, path, image.width,
                                 image.height, image.channels, expected, image.pixels.size()));
}

}  // namespace

Image8 gray_image(const Tensor& values, Scalar lo, Scalar hi) {
  check_values(values, lo, hi, "gray_image");
  Image8 image{values.cols(), values.rows(), 1, {}};
  image.pixels.reserve(static_cast<std::size_t>(values.size()));
  for (Index i = 0; i < values.rows(); ++i)
    for (Index j = 0; j < values.cols(); ++j) image.pixels.push_back(to_byte(values(i, j), lo, hi));
  return image;
}

Image8 rgb_image(const Tensor& red, const Tensor& green, const Tensor& blue, Scalar lo, Scalar hi) {
  for (const Tensor* channel : {&green, &blue})
    if (channel->rows() != red.rows() || channel->cols() != red.cols())
      throw ShapeError(fmt::format("rgb_image: expected three {}×{} channels, found one of {}×{}", red.rows(),
                                   red.cols(), channel->rows(), channel->cols()));
  for (const Tensor* channel : {&red, &green, &blue}) check_values(*channel, lo, hi, "rgb_image");
  Image8 image{red.cols(), red.rows(), 3, {}};
  image.pixels.reserve(static_cast<std::size_t>(3 * red.size()));
  for (Index i = 0; i < red.rows(); ++i)
    for (Index j = 0; j < red.cols(); ++j)
      for (const Tensor* channel : {&red, &green, &blue}) image.pixels.push_back(to_byte((*channel)(i, j), lo, hi));
  return image;
}

// libpng's simplified API (png_image_*) reports errors through its return value and
// image.message instead of longjmp, so no C++ frame is ever jumped over.
void write_png(const std::string& path, const Image8& image) {
  check_image(image, path, "write_png");
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width);
  png.height = static_cast<png_uint_32>(image.height);
  png.format = image.channels == 1 ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;
  const auto row_stride = static_cast<png_int_32>(image.width * image.channels);
  if (!png_image_write_to_file(&png, path.c_str(), 0, image.pixels.data(), row_stride, nullptr))
    throw IoError(fmt::format("write_png: cannot write '{}': {}", path, png.message));
}

Image8 read_png(const std::string& path) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str()))
    throw IoError(fmt::format("read_png: cannot read '{}' as a PNG file: {}", path, png.message));
  const bool color = (png.format & PNG_FORMAT_FLAG_COLOR) != 0;
  png.format = color ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
  Image8 image{static_cast<Index>(png.width), static_cast<Index>(png.height), color ? 3 : 1, {}};
  image.pixels.resize(PNG_IMAGE_SIZE(png));
  const png_color white{255, 255, 255};  // alpha is composited onto white
  if (!png_image_finish_read(&png, &white, image.pixels.data(), 0, nullptr)) {
    const std::string message = png.message;
    png_image_free(&png);
    throw IoError(fmt::format("read_png: cannot read '{}' as a PNG file: {}", path, message));
  }
  return image;
}

void write_pgm(const std::string& path, const Image8& image) {
  check_image(image, path, "write_pgm");
  if (image.channels != 1)
    throw ValueError(fmt::format("write_pgm: '{}': a PGM holds a gray image, found {} channels", path, image.channels));
  std::ofstream out(path, std::ios::binary);
  if (!out) throw IoError(fmt::format("write_pgm: cannot open '{}' for writing", path));
  out << "P5\n" << image.width << " " << image.height << "\n255\n";
  out.write(reinterpret_cast<const char*>(image.pixels.data()), static_cast<std::streamsize>(image.pixels.size()));
  if (!out) throw IoError(fmt::format("write_pgm: writing '{}' failed", path));
}

}  // namespace dagml::plot
