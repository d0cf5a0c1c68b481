#include "models/nn/image_grid.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "graph/error.h"

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

void write_pgm(const std::string& path, const Tensor& image, Scalar lo, Scalar hi) {
  if (image.size() == 0) throw ValueError("write_pgm: the image is empty");
  if (!(lo < hi)) throw ValueError(fmt::format("write_pgm: need lo < hi, found {} and {}", lo, hi));
  std::ofstream out(path, std::ios::binary);
  if (!out) throw IoError(fmt::format("write_pgm: cannot open '{}' for writing", path));
  out << "P5\n" << image.cols() << " " << image.rows() << "\n255\n";
  for (Index i = 0; i < image.rows(); ++i)
    for (Index j = 0; j < image.cols(); ++j) {
      const Scalar v = std::clamp((image(i, j) - lo) / (hi - lo), Scalar(0), Scalar(1));
      out.put(static_cast<char>(static_cast<unsigned char>(std::lround(v * 255))));
    }
  if (!out) throw IoError(fmt::format("write_pgm: writing '{}' failed", path));
}

}  // namespace dagml::nn
