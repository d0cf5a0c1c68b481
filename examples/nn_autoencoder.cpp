// A deep autoencoder and a variational autoencoder on Fashion-MNIST (or the bundled digits),
// written as PNG images to build/example-output/:
//   nn_autoencoder_reconstructions.png  test images (top row) and their reconstructions (bottom)
//   nn_vae_samples.png                  decoder means of z ~ N(0, I), a 8×8 grid
//   nn_vae_manifold.png                 decodings of a grid of 2-D latent codes
//
//   ./build/examples/nn_autoencoder [epochs]
#include <fmt/format.h>

#include <cstdlib>

#include "models/nn/autoencoder.h"
#include "models/nn/image_grid.h"
#include "models/nn/variational_autoencoder.h"
#include "nn_example_support.h"

using namespace dagml;
using namespace dagml::nn;

int main(int argc, char** argv) {
  const Index epochs = argc > 1 ? std::atoi(argv[1]) : 5;
  const nn_example::ImageData data = nn_example::load_images(10'000);
  const Index side = data.side, d = data.X_train.cols();
  const auto dir = nn_example::output_dir(argv[0]);
  fmt::print("{}: {} training images of {}×{}\n", data.name, data.X_train.rows(), side, side);

  // Deep autoencoder d → 256 → 32 → 256 → d, Bernoulli reconstruction (pixels in [0, 1]).
  Autoencoder ae(
      {.hidden_widths = {256},
       .code_size = 32,
       .reconstruction = Reconstruction::Bernoulli,
       .training = {.learning_rate = 1e-3, .num_epochs = epochs, .batch_size = 64, .seed = 1, .verbose = true}});
  ae.fit(data.X_train);
  fmt::print("autoencoder: test reconstruction error (mean binary cross-entropy) {:.4f}\n",
             ae.reconstruction_error(data.X_test));
  const Tensor originals = data.X_test.topRows(10);
  Tensor pair(20, d);
  pair << originals, ae.reconstruct(originals);
  write_png((dir / "nn_autoencoder_reconstructions.png").string(), tile_images(pair, side, side, 10));

  // VAE with a 2-D latent space, so its decoder can be drawn over a grid of codes.
  VariationalAutoencoder vae(
      {.hidden_widths = {256},
       .latent_size = 2,
       .training = {.learning_rate = 1e-3, .num_epochs = epochs, .batch_size = 64, .seed = 1, .verbose = true}});
  vae.fit(data.X_train);
  fmt::print("VAE: test −ELBO per image {:.2f} nats\n", vae.negative_elbo(data.X_test, 5));
  write_png((dir / "nn_vae_samples.png").string(), tile_images(vae.sample(64, 7), side, side, 8));
  const Index g = 12;
  Tensor codes(g * g, 2);
  for (Index i = 0; i < g; ++i)
    for (Index j = 0; j < g; ++j) {
      codes(i * g + j, 0) = -2.5 + 5.0 * static_cast<Scalar>(j) / static_cast<Scalar>(g - 1);
      codes(i * g + j, 1) = 2.5 - 5.0 * static_cast<Scalar>(i) / static_cast<Scalar>(g - 1);
    }
  write_png((dir / "nn_vae_manifold.png").string(), tile_images(vae.decode(codes), side, side, g, 0));
  fmt::print("wrote nn_autoencoder_reconstructions.png, nn_vae_samples.png and nn_vae_manifold.png to {}\n",
             dir.string());
  return 0;
}
