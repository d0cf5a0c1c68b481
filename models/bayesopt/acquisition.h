// Acquisition functions of Bayesian optimisation (notes 004 §3.5), for maximisation of a black
// box f with a Gaussian-process surrogate: μ(x) the posterior mean, σ(x) = √k_post(x, x), and the
// incumbent μ⁺ = maxᵢ μ(xᵢ) over the evaluated points (the notes' choice, not the best observed y).
// With γ(x) = (μ(x) − μ⁺ − ξ)/σ(x), Φ and φ the standard normal CDF and density:
//
//   expected improvement     ζ_EI  = (μ − μ⁺ − ξ) Φ(γ) + σ φ(γ)
//   probability of improvement ζ_PI = Φ(γ)
//   upper confidence bound   ζ_UCB = μ + β σ   (GP-UCB)
//
// written as graph nodes on the GP's posterior graph (GaussianProcessRegressor::posterior_graph),
// so that ∂ζ/∂x comes from reverse-mode autodiff and the acquisition is maximised by L-BFGS.
#pragma once

#include <random>

#include "graph/enum_names.h"
#include "models/gp/gaussian_process_regressor.h"

namespace dagml {

enum class AcquisitionKind { ExpectedImprovement, ProbabilityOfImprovement, UpperConfidenceBound };
constexpr auto enum_names(AcquisitionKind) {
  return std::to_array<EnumName<AcquisitionKind>>({{AcquisitionKind::ExpectedImprovement, "expected_improvement"},
                                                   {AcquisitionKind::ProbabilityOfImprovement, "probability_of_improvement"},
                                                   {AcquisitionKind::UpperConfidenceBound, "upper_confidence_bound"}});
}

struct AcquisitionOptions {
  AcquisitionKind kind = AcquisitionKind::ExpectedImprovement;
  Scalar xi = 0.01;   // ≥ 0, the improvement threshold ξ of EI and PI
  Scalar beta = 2.0;  // ≥ 0, the exploration weight β of UCB
};

// ζ at the rows of X (m×D, a graph node) as an m×1 node. σ is clamped below at 1e-150 (where
// its gradient is 0): at an evaluated point of a noise-free GP the variance is 0 up to rounding.
Var acquisition_graph(const GaussianProcessRegressor& gp, Var X, Scalar incumbent, const AcquisitionOptions& options);

// μ⁺ = maxᵢ μ(xᵢ) over the GP's training points.
Scalar incumbent_mean(const GaussianProcessRegressor& gp);

struct AcquisitionSearchOptions {
  Index candidates = 2000;  // ≥ 1 uniform points of the box where ζ is evaluated at once
  Index starts = 5;         // ≥ 1 of the best candidates from which L-BFGS climbs ζ
};

// argmax of ζ over the unit box [0, 1]ᴰ: ζ on `candidates` uniform points in one batch, then
// ProjectedLbfgs on −ζ (gradient by autodiff) from the best `starts` of them; the best end point
// (ties: the earliest start). Returns the point and ζ there.
std::pair<Vector, Scalar> maximize_acquisition(const GaussianProcessRegressor& gp, Scalar incumbent,
                                               const AcquisitionOptions& acquisition,
                                               const AcquisitionSearchOptions& search, std::mt19937_64& rng);

}  // namespace dagml
