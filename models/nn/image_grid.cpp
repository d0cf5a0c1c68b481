#include "models/nn/image_grid.h"

#include <fmt/format.h>

#include <algorithm>

#include "graph/error.h"
#include "models/plot/png_image.h"

namespace dagml::nn {

Tensor tile_images(const Tensor& images, Index height, Index width, Index columns, Index padding, bool normalize) {
  if (height < 1 || width < 1 || columns < 1 || padding < 0)
    throw ValueError(
        fmt::format("tile_images: height, width, columns must be >= 1 and padding >= 0, found {}, {}, {}, {}", height,
                    width, columns, padding));
  if (images.rows() < 1 || images.cols() != height * width)
    throw ValueError(fmt::format("tile_images: expected n × {} images (n >= 1), found {}×{}", height * width,
                                 images.rows(), images.cols()));
  const Index n = images.rows(), cols = std::min(columns, n), rows = (n + cols - 1) / cols;
  Tensor grid = Tensor::Zero(rows * height + (rows - 1) * padding, cols * width + (cols - 1) * padding);
  for (Index k = 0; k < n; ++k) {
    Eigen::Map<const Tensor> image(images.row(k).data(), height, width);
    Tensor tile = image;
    if (normalize) {
      const Scalar lo = tile.minCoeff(), hi = tile.maxCoeff();
      tile = hi > lo ? Tensor((tile.array() - lo) / (hi - lo)) : Tensor::Constant(height, width, 0.5);
    }
    grid.block((k / cols) * (height + padding), (k % cols) * (width + padding), height, width) = tile;
  }
  return grid;
}

void write_png(const std::string& path, const Tensor& image, Scalar lo, Scalar hi) {
  plot::write_png(path, plot::gray_image(image, lo, hi));
}

void write_pgm(const std::string& path, const Tensor& image, Scalar lo, Scalar hi) {
  plot::write_pgm(path, plot::gray_image(image, lo, hi));
}

}  // namespace dagml::nn
