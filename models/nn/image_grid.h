// Writing images for inspecting networks: a grid of small images in one picture, saved as an
// 8-bit gray PNG (or a binary PGM, the portable graymap) through models/plot/png_image.h.
#pragma once

#include <string>

#include "graph/tensor.h"

namespace dagml::nn {

// Lays out the rows of `images` (n × (height·width), each a row-major image) in a grid of
// `columns` images with `padding` pixels between them, background 0. With normalize each image is
// rescaled to [0, 1] by its own min and max (a constant image becomes 0.5). Throws ValueError
// when the widths disagree or a size is < 1.
Tensor tile_images(const Tensor& images, Index height, Index width, Index columns, Index padding = 1,
                   bool normalize = false);

// Writes `image` as an 8-bit gray PNG (write_png) or PGM (write_pgm), mapping [lo, hi] to 0..255
// (values outside are clipped; plot::gray_image). Throws IoError naming the path when it cannot
// be written, ValueError when lo ≥ hi, the image is empty or holds a NaN.
void write_png(const std::string& path, const Tensor& image, Scalar lo = 0, Scalar hi = 1);
void write_pgm(const std::string& path, const Tensor& image, Scalar lo = 0, Scalar hi = 1);

}  // namespace dagml::nn
