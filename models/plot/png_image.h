// 8-bit images as PNG files (through libpng): grayscale or RGB, written and read back.
//
//   Image8 image = gray_image(tile_images(filters, 5, 5, 8), 0, 1);
//   write_png("filters.png", image);
//   Image8 again = read_png("filters.png");  // equal to image
//
// Every picture dagml makes (image grids of networks, rendered plots) goes through Image8, so
// one mapping from values to bytes serves PNG and PGM alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/tensor.h"

namespace dagml::plot {

// An 8-bit image: `channels` 1 (gray) or 3 (RGB) bytes per pixel, rows top to bottom, pixels left
// to right, channels interleaved: pixel (r, c) channel k is pixels[(r·width + c)·channels + k].
struct Image8 {
  Index width = 0;
  Index height = 0;
  Index channels = 1;
  std::vector<std::uint8_t> pixels;

  std::uint8_t at(Index row, Index column, Index channel = 0) const {
    return pixels[static_cast<std::size_t>((row * width + column) * channels + channel)];
  }
  bool operator==(const Image8&) const = default;
};

// Gray image of a matrix (rows top to bottom): [lo, hi] mapped linearly to 0..255, rounded,
// values outside clipped. ValueError when the matrix is empty, lo ≥ hi or an entry is NaN.
Image8 gray_image(const Tensor& values, Scalar lo = 0, Scalar hi = 1);

// RGB image of three equal-size matrices (red, green, blue), each mapped as gray_image does.
// ShapeError when their sizes differ; ValueError as gray_image.
Image8 rgb_image(const Tensor& red, const Tensor& green, const Tensor& blue, Scalar lo = 0, Scalar hi = 1);

// Writes an 8-bit gray (channels 1) or RGB (channels 3) PNG. ValueError for an empty image, other
// channel counts or a pixel buffer of the wrong length; IoError naming the path when the file
// cannot be written.
void write_png(const std::string& path, const Image8& image);

// Reads a PNG of any bit depth and color type and returns it as 8-bit gray (gray and gray+alpha
// files; alpha is dropped) or RGB (palette, RGB and RGBA files; alpha is dropped, 16-bit samples
// keep their high byte). IoError naming the path when it cannot be opened or is not a valid PNG.
Image8 read_png(const std::string& path);

// Writes a binary PGM (P5) of a gray image: ValueError when it is not gray or empty, IoError
// naming the path when it cannot be written.
void write_pgm(const std::string& path, const Image8& image);

}  // namespace dagml::plot
