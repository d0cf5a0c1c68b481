// Lossy image compression by vector quantisation (notes 004): every image is cut into 4×4 pixel
// blocks, k-means learns a codebook of K blocks from training images, and each block of a test
// image is stored as the ⌈log₂ K⌉-bit index of its nearest codebook block. Fashion-MNIST (28×28,
// 49 blocks an image) when the Debian package dataset-fashion-mnist is installed, else the bundled
// digits (8×8, 4 blocks). Prints the bits per image against the 8 bits per pixel of the original,
// and the mean squared error; writes build/example-output/vq_original.png and vq_K<K>.png, a grid
// of 64 test images as stored and as decoded.
//
//   ./build/examples/image_vector_quantization
#include <fmt/format.h>

#include "models/cluster/vector_quantizer.h"
#include "models/nn/image_grid.h"
#include "nn_example_support.h"

using namespace dagml;

namespace {

constexpr Index kBlock = 4;  // block side in pixels

// The kBlock×kBlock blocks of square images (one image per row, side × side), one block per row,
// image by image and within an image in row-major block order.
Tensor cut_blocks(const Tensor& images, Index side) {
  const Index per_side = side / kBlock;
  Tensor blocks(images.rows() * per_side * per_side, kBlock * kBlock);
  Index b = 0;
  for (Index i = 0; i < images.rows(); ++i)
    for (Index by = 0; by < per_side; ++by)
      for (Index bx = 0; bx < per_side; ++bx, ++b)
        for (Index y = 0; y < kBlock; ++y)
          for (Index x = 0; x < kBlock; ++x)
            blocks(b, y * kBlock + x) = images(i, (by * kBlock + y) * side + bx * kBlock + x);
  return blocks;
}

// The inverse of cut_blocks.
Tensor join_blocks(const Tensor& blocks, Index num_images, Index side) {
  const Index per_side = side / kBlock;
  Tensor images(num_images, side * side);
  Index b = 0;
  for (Index i = 0; i < num_images; ++i)
    for (Index by = 0; by < per_side; ++by)
      for (Index bx = 0; bx < per_side; ++bx, ++b)
        for (Index y = 0; y < kBlock; ++y)
          for (Index x = 0; x < kBlock; ++x)
            images(i, (by * kBlock + y) * side + bx * kBlock + x) = blocks(b, y * kBlock + x);
  return images;
}

}  // namespace

int main(int /*argc*/, char** argv) {
  const nn_example::ImageData data = nn_example::load_images(2'000);
  const Index side = data.side, blocks_per_image = (side / kBlock) * (side / kBlock);
  const auto dir = nn_example::output_dir(argv[0]);
  const Tensor training_blocks = cut_blocks(data.X_train, side);
  const Tensor test_images = data.X_test.topRows(64);
  const Tensor test_blocks = cut_blocks(test_images, side);
  nn::write_png((dir / "vq_original.png").string(), nn::tile_images(test_images, side, side, 8));
  fmt::print("{}: codebooks of {}×{} blocks learnt from {} blocks of {} training images\n", data.name, kBlock, kBlock,
             training_blocks.rows(), data.X_train.rows());
  fmt::print("original: {} bits an image (8 bits a pixel)\n", side * side * 8);

  fmt::print("{:>5} {:>14} {:>12} {:>16} {:>14}\n", "K", "bits an image", "compression", "codebook bits", "test MSE");
  for (Index K : {4, 16, 64, 256}) {
    KMeans codebook({.num_clusters = K, .num_init = 1, .seed = 1});
    codebook.fit(training_blocks);
    const QuantizedData q = quantize(codebook, test_blocks);
    const Tensor decoded = join_blocks(dequantize(codebook.centers(), q.codes), test_images.rows(), side);
    const Index bits = blocks_per_image * q.bits_per_code;
    fmt::print("{:>5} {:>14} {:>11.0f}× {:>16} {:>14.5f}\n", K, bits, static_cast<Scalar>(side * side * 8) / bits,
               K * kBlock * kBlock * 8, (decoded - test_images).squaredNorm() / static_cast<Scalar>(decoded.size()));
    nn::write_png((dir / fmt::format("vq_K{}.png", K)).string(), nn::tile_images(decoded, side, side, 8));
  }
  fmt::print("(the codebook is stored once, at 8 bits a pixel; the MSE is per pixel on a 0–1 scale)\n");
  fmt::print("wrote vq_original.png and vq_K4.png … vq_K256.png to {}\n", dir.string());
  return 0;
}
