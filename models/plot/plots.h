// Ready-made plots, one function per kind, each from plain data (vectors, matrices, labels and
// names) to a Figure that write_plot (gnuplot_writer.h) writes and renders:
//
//   write_plot(learning_curves({{"train", gbm.train_loss()}, {"validation", gbm.validation_loss()}}), "loss");
//   write_plot(roc_curves(y_test, {{"forest", forest.predict_proba(X_test).col(1)}}), "roc");
//
// Labels are class indices 0..K−1 stored as doubles (ValueError otherwise); a name list, where a
// function takes one, names classes, states or features by index (empty: "class 0", … or numbers).
// Every function throws ShapeError when lengths disagree and ValueError for empty input. The
// returned Figure carries a title and axis labels that callers may replace.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "graph/tensor.h"
#include "models/plot/figure.h"

namespace dagml {
class AnyEstimator;
}

namespace dagml::plot {

// A named sequence: a loss history, a trace of evaluations, a state path.
struct NamedValues {
  std::string name;
  std::vector<Scalar> values;
};

// A classifier's scores for the positive class (probabilities or decision values).
struct NamedScores {
  std::string name;
  Vector scores;
};

// --- Curves (curve_plots.cpp) ---------------------------------------------------------------

// One line per history against its index 0, 1, … (an optimizer's Result::history or
// HistoryRecorder::values() start at x_0; the trainer's, EM's and boosting's histories are
// per epoch, iteration or round). log_y: a logarithmic loss axis (values must then be > 0).
Figure learning_curves(const std::vector<NamedValues>& histories, bool log_y = false);

// ROC curves (roc_curve of models/metrics/scoring_metrics.h) of several classifiers on the same
// binary labels y_true (0/1), each named with its AUC, and the chance diagonal.
Figure roc_curves(const Vector& y_true, const std::vector<NamedScores>& classifiers);

// Precision against recall (precision_recall_curve), each named with its average precision.
Figure precision_recall_curves(const Vector& y_true, const std::vector<NamedScores>& classifiers);

// The best value found so far, min(v_1 … v_i) (max with maximize), against the evaluation
// number i = 1, 2, …, as steps: Bayesian-optimisation and random-search traces.
Figure best_so_far(const std::vector<NamedValues>& evaluations, bool maximize = false);

// State index (values 0..S−1) against time step 0, 1, … as steps (state t held from t to t + 1),
// the first path drawn wide and the others thin on top (the true states, then decoded ones);
// S = state_names.size() or the largest state + 1.
Figure state_paths(const std::vector<NamedValues>& paths, const std::vector<std::string>& state_names = {});

// Reinforcement learning: each episode's return (thin) and the mean of the last `window`
// episodes (fewer at the start), against the episode number 1, 2, …; window ≥ 1.
Figure episode_returns(const std::vector<Scalar>& returns, Index window = 20);

// A one-dimensional Gaussian-process posterior: the band mean ± 2 std and the mean over the
// points x (sorted by x for drawing), and the training points (x_train, y_train; may be empty).
// std ≥ 0 (ValueError otherwise).
Figure posterior_band(const Vector& x, const Vector& mean, const Vector& std, const Vector& x_train = {},
                      const Vector& y_train = {});

// --- Maps, scatters and bars (map_plots.cpp) ---------------------------------------------------

// Predicts class labels 0..K−1 for the rows of an m×2 matrix.
using ClassPredictor = std::function<Vector(const Tensor& points)>;

// The plane coloured by a classifier's prediction on a resolution × resolution grid spanning the
// points X (n×2) with a margin of 5 % per side, and the points coloured by their labels y.
// resolution ≥ 2; predictions must be labels (ValueError naming the first that is not).
Figure decision_regions(const ClassPredictor& predict, const Tensor& X, const Vector& y,
                        const std::vector<std::string>& class_names = {}, Index resolution = 200);
// The same for a fitted classifier of the registry (models/io/registry.h) with two features.
Figure decision_regions(const AnyEstimator& classifier, const Tensor& X, const Vector& y,
                        const std::vector<std::string>& class_names = {}, Index resolution = 200);

// A K×K confusion matrix (rows true class, columns prediction, as confusion_matrix of
// models/metrics) as a heat map with the count in each cell, row 0 at the top.
Figure confusion_heat_map(const Tensor& counts, const std::vector<std::string>& class_names = {});

// Points of a 2-D embedding (n×2: PCA, MDS, …) coloured by label (labels may be empty: one colour).
Figure embedding_scatter(const Tensor& points, const Vector& labels = {},
                         const std::vector<std::string>& class_names = {});

// Clusters with their Gaussians: the points (n×2) coloured by cluster label (may be empty), and
// for component k the ellipse {x : (x − μ_k)ᵀ Σ_k⁻¹ (x − μ_k) = sigmas²} of means.row(k) (K×2) and
// covariances[k] (2×2), in colour k. sigmas > 0.
Figure mixture_ellipses(const Tensor& points, const Vector& labels, const Tensor& means,
                        const std::vector<Tensor>& covariances, Scalar sigmas = 2);

// The ellipse row (centre_x, centre_y, semi-axis 1, semi-axis 2, angle) of SeriesKind::Ellipse for
// mean (2) and a symmetric positive semi-definite 2×2 covariance Σ = [a b; b c]: semi-axes
// sigmas·√λ of the eigenvalues λ₁,₂ = (a + c)/2 ± √(((a − c)/2)² + b²), axis 1 at angle
// ½·atan2(2b, a − c). ShapeError for other shapes, ValueError when Σ is not symmetric PSD.
Vector covariance_ellipse(const Vector& mean, const Tensor& covariance, Scalar sigmas = 2);

// Bars of the `top` largest importances (0: all), largest first, named by feature_names (empty:
// "feature j"); importances may be negative (permutation importance).
Figure feature_importances(const Vector& importances, const std::vector<std::string>& feature_names = {},
                           Index top = 0);

}  // namespace dagml::plot
