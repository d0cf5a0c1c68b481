// Saliency maps against finite differences, activation maximisation raising its unit, image
// grids as PGM and PNG files, and the rank collapse of deep linear networks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "graph/error.h"
#include "models/nn/activation.h"
#include "models/nn/image_grid.h"
#include "models/nn/inference.h"
#include "models/nn/init.h"
#include "models/nn/linear.h"
#include "models/nn/linear_network.h"
#include "models/nn/understanding.h"
#include "models/plot/png_image.h"

namespace dagml::nn {
namespace {

Sequential small_net() {
  Sequential net;
  net.add(Linear({.in = 6, .out = 5, .seed = 1}));
  net.add(Activation(ActivationKind::Tanh));
  net.add(Linear({.in = 5, .out = 3, .seed = 2}));
  return net;
}

TEST(SaliencyMap, EqualsFiniteDifferencesOfTheClassScore) {
  Sequential net = small_net();
  std::mt19937_64 rng(3);
  Tensor X(2, 6);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = standard_normal(rng);
  const Tensor s = saliency_map(net, X, 1);
  ASSERT_EQ(s.rows(), 2);
  const Scalar h = 1e-6;
  for (Index i = 0; i < 2; ++i)
    for (Index j = 0; j < 6; ++j) {
      Tensor up = X, down = X;
      up(i, j) += h;
      down(i, j) -= h;
      const Scalar numeric = (forward_batches(net, up)(i, 1) - forward_batches(net, down)(i, 1)) / (2 * h);
      EXPECT_NEAR(s(i, j), numeric, 1e-8);
    }
  EXPECT_THAT([&] { saliency_map(net, X, 3); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("unit must be in [0, 3)")));
}

TEST(MaximizeActivation, RaisesTheUnitAndStaysInRange) {
  Sequential net = small_net();
  const Tensor x = maximize_activation(net, 6, 2, {.steps = 100, .step_size = 0.2, .l2 = 0.0, .lower = -1, .upper = 1});
  Tensor start = Tensor::Zero(1, 6);
  EXPECT_GT(forward_batches(net, x)(0, 2), forward_batches(net, start)(0, 2) + 0.1);
  EXPECT_LE(x.maxCoeff(), 1.0);
  EXPECT_GE(x.minCoeff(), -1.0);
  EXPECT_THROW(maximize_activation(net, 6, 2, {.steps = 0}), ValueError);
}

TEST(ImageGrid, TilesAndWritesPgmAndPng) {
  Tensor images(3, 4);
  images << 0, 1, 2, 3, 4, 4, 4, 4, -1, 0, 1, 2;
  const Tensor grid = tile_images(images, 2, 2, 2, 1, true);
  ASSERT_EQ(grid.rows(), 5);
  ASSERT_EQ(grid.cols(), 5);
  EXPECT_DOUBLE_EQ(grid(0, 0), 0.0);
  EXPECT_DOUBLE_EQ(grid(1, 1), 1.0);      // image 0 normalised: 3 → 1
  EXPECT_DOUBLE_EQ(grid(0, 3), 0.5);      // constant image 1 → 0.5
  EXPECT_DOUBLE_EQ(grid(3, 1), 1.0 / 3);  // image 2 at row 1: 0 → 1/3
  EXPECT_DOUBLE_EQ(grid(2, 2), 0.0);      // padding
  const std::string path = (std::filesystem::temp_directory_path() / "dagml_image_grid_test.pgm").string();
  write_pgm(path, grid);
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  Index w = 0, h = 0, maxval = 0;
  in >> magic >> w >> h >> maxval;
  EXPECT_EQ(magic, "P5");
  EXPECT_EQ(w, 5);
  EXPECT_EQ(h, 5);
  EXPECT_EQ(maxval, 255);
  in.get();
  std::string pixels((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_EQ(pixels.size(), 25u);
  EXPECT_EQ(static_cast<unsigned char>(pixels[6]), 255);  // grid(1, 1)
  std::filesystem::remove(path);
  // The same bytes as a PNG, read back.
  const std::string png_path = (std::filesystem::temp_directory_path() / "dagml_image_grid_test.png").string();
  write_png(png_path, grid);
  const plot::Image8 png = plot::read_png(png_path);
  EXPECT_EQ(png.width, 5);
  EXPECT_EQ(png.height, 5);
  EXPECT_EQ(png.channels, 1);
  EXPECT_EQ(std::string(png.pixels.begin(), png.pixels.end()), pixels);
  std::filesystem::remove(png_path);
  EXPECT_THROW(tile_images(images, 3, 2, 2), ValueError);
  EXPECT_THROW(write_pgm("/nonexistent-dir/x.pgm", grid), IoError);
  EXPECT_THROW(write_png("/nonexistent-dir/x.png", grid), IoError);
}

TEST(LinearNetwork, OneNarrowLayerCollapsesTheRank) {
  Sequential wide = make_linear_network({8, 8, 8, 8}, 1);
  EXPECT_EQ(numerical_rank(end_to_end_matrix(wide)), 8);
  Sequential narrow = make_linear_network({8, 8, 2, 8, 8}, 1);
  const Tensor W = end_to_end_matrix(narrow);
  EXPECT_EQ(W.rows(), 8);
  EXPECT_EQ(W.cols(), 8);
  EXPECT_EQ(numerical_rank(W), 2);
  // The network computes x ↦ x W̃.
  std::mt19937_64 rng(2);
  Tensor X(3, 8);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = standard_normal(rng);
  EXPECT_TRUE(forward_batches(narrow, X).isApprox(X * W, 1e-12));
  Sequential nonlinear = small_net();
  EXPECT_THAT([&] { end_to_end_matrix(nonlinear); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("layer 0")));
}

}  // namespace
}  // namespace dagml::nn
