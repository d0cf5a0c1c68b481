// Parts of handwritten digits by non-negative matrix factorisation (notes 002 §3): X ≈ W H with
// 16 non-negative parts (the rows of H, 8×8 images) that add up, never cancel, so each is a
// stroke; PCA's 16 components, which may be negative, are whole-digit patterns for comparison.
// Then the same factorisation under the Kullback–Leibler divergence two ways: by the
// multiplicative updates, and by projected gradient on the divergence written as a graph
// (models/decompose/nmf_graph.h), from the same start.
// Writes build/example-output/nmf_parts.png and pca_components.png (4×4 grids, each image scaled
// to its own range).
//
//   ./build/examples/digits_nmf_parts
#include <fmt/format.h>

#include "models/data/datasets.h"
#include "models/decompose/nmf.h"
#include "models/decompose/nmf_graph.h"
#include "models/decompose/pca.h"
#include "models/nn/image_grid.h"

using namespace dagml;

int main() {
  const Tensor X = load_dataset("digits").features;  // 1,797 × 64, pixels 0..16
  const Index k = 16;

  NMF nmf({.num_components = k, .max_iterations = 500, .seed = 0});
  const Tensor W = nmf.fit_transform(X);
  const Tensor& H = nmf.components();
  const Scalar zeros = static_cast<Scalar>((H.array() < 1e-6 * H.maxCoeff()).count()) / static_cast<Scalar>(H.size());
  fmt::print("NMF, {} parts (Frobenius, multiplicative updates): relative error ‖X − WH‖/‖X‖ = {:.4f} after {} "
             "iterations ({}); {:.0f} % of the parts' pixels are zero\n",
             k, nmf.reconstruction_error() / X.norm(), nmf.num_iter(), nmf.converged() ? "converged" : "not converged",
             100 * zeros);
  PCA pca({.num_components = k});
  pca.fit(X);
  fmt::print("PCA, {} components (and the mean): relative error {:.4f}\n", k,
             (X - pca.inverse_transform(pca.transform(X))).norm() / X.norm());
  nn::write_png("nmf_parts.png", nn::tile_images(H, 8, 8, 4, 1, true));
  nn::write_png("pca_components.png", nn::tile_images(pca.components(), 8, 8, 4, 1, true));

  // Kullback–Leibler NMF of the first 300 digits from one start, by both methods.
  const Tensor X_kl = X.topRows(300);
  NMF start({.num_components = k, .max_iterations = 1, .seed = 3});  // one update: a shared non-negative start
  const Tensor W0 = start.fit_transform(X_kl);
  const Tensor H0 = start.components();
  NMF mu({.num_components = k, .loss = NMFLoss::KullbackLeibler, .init = NMFInit::Given, .initial_W = W0,
          .initial_H = H0, .max_iterations = 2000, .tolerance = 1e-6});
  mu.fit(X_kl);
  const Scalar mu_divergence = 0.5 * mu.reconstruction_error() * mu.reconstruction_error();
  const NmfGraphFit pg = fit_nmf_by_gradient(
      X_kl, W0, H0, kullback_leibler_divergence,
      {.stop = {.max_iterations = 2000, .gradient_tolerance = 1e-6, .value_tolerance = 1e-10}});
  fmt::print("KL divergence of 300 digits, 16 parts, from one start:\n"
             "  multiplicative updates      D = {:.3f} ({} iterations)\n"
             "  graph + projected gradient  D = {:.3f} ({} iterations, {})\n",
             mu_divergence, mu.num_iter(), pg.result.value, pg.result.iterations, pg.result.message);
  fmt::print("  (projected gradient is a first-order method and the slower of the two for KL; the graph route\n"
             "   is for divergences that have no multiplicative updates)\n");
  fmt::print("wrote nmf_parts.png and pca_components.png\n");
  return 0;
}
