// Tests for the plot kinds of plots.h: golden script and data text for learning curves and the
// confusion-matrix heat map, golden data for the other kinds (values worked by hand beside each;
// the ROC points are scikit-learn 1.2.1's roc_curve of tests/models/metrics/scoring_metrics_test.cpp),
// covariance ellipses against their closed form, the errors, and every kind rendered by gnuplot
// and read back when gnuplot is installed.
#include "models/plot/plots.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <set>

#include "graph/error.h"
#include "models/io/registry.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/png_image.h"

namespace dagml::plot {
namespace {

using ::testing::HasSubstr;

std::string data_of(const Figure& f) { return gnuplot_text(f, "f").data; }
std::string script_of(const Figure& f) { return gnuplot_text(f, "f").script; }

TEST(PlotKinds, LearningCurvesGoldenText) {
  const GnuplotText text = gnuplot_text(learning_curves({{"train", {3, 2, 1.5}}, {"valid", {3.5, 2.5, 2.25}}}), "lc");
  EXPECT_EQ(text.script,
            "# dagml figure: `gnuplot lc.gp`, run in this folder, draws lc.png and lc.svg from lc.dat\n"
            "set encoding utf8\n"
            "set title 'Learning curves'\n"
            "set xlabel 'iteration'\n"
            "set ylabel 'loss'\n"
            "set key top right\n"
            "set grid\n"
            "set terminal pngcairo size 800,600 noenhanced font 'sans,10'\n"
            "set output 'lc.png'\n"
            "plot 'lc.dat' index 0 using 1:2 with lines lw 2 lc rgb '#1f77b4' title 'train', \\\n"
            "     'lc.dat' index 1 using 1:2 with lines lw 2 lc rgb '#ff7f0e' title 'valid'\n"
            "set terminal svg size 800,600 noenhanced font 'sans,10' background '#ffffff'\n"
            "set output 'lc.svg'\n"
            "replot\n"
            "unset output\n");
  EXPECT_EQ(text.data, "# 0: line 'train'\n0 3\n1 2\n2 1.5\n\n\n# 1: line 'valid'\n0 3.5\n1 2.5\n2 2.25\n");
  EXPECT_THAT(script_of(learning_curves({{"a", {1, 0.1}}}, true)), HasSubstr("set logscale y\n"));
  EXPECT_THROW(learning_curves({{"a", {1, 0}}}, true), ValueError);
  EXPECT_THROW(learning_curves({{"a", {}}}), ValueError);
  EXPECT_THROW(learning_curves({}), ValueError);
}

TEST(PlotKinds, ConfusionHeatMapGoldenText) {
  const GnuplotText text = gnuplot_text(confusion_heat_map(Tensor{{5.0, 1.0}, {2.0, 7.0}}, {"no", "yes"}), "cm");
  // x is the predicted class (column j), y the true class (row i), row 0 at the top.
  EXPECT_EQ(text.script,
            "# dagml figure: `gnuplot cm.gp`, run in this folder, draws cm.png and cm.svg from cm.dat\n"
            "set encoding utf8\n"
            "set title 'Confusion matrix'\n"
            "set xlabel 'predicted class'\n"
            "set xrange [-0.5:1.5]\n"
            "set xtics ('no' 0, 'yes' 1)\n"
            "set ylabel 'true class'\n"
            "set yrange [1.5:-0.5]\n"
            "set ytics ('no' 0, 'yes' 1)\n"
            "unset key\n"
            "set size ratio -1\n"
            "set palette defined (0 '#ffffff', 1 '#3a7dbf')\n"
            "set terminal pngcairo size 800,600 noenhanced font 'sans,10'\n"
            "set output 'cm.png'\n"
            "plot 'cm.dat' index 0 using 1:2:3 with image notitle, \\\n"
            "     'cm.dat' index 0 using 1:2:(sprintf('%g', $3)) with labels notitle\n"
            "set terminal svg size 800,600 noenhanced font 'sans,10' background '#ffffff'\n"
            "set output 'cm.svg'\n"
            "replot\n"
            "unset output\n");
  EXPECT_EQ(text.data, "# 0: heat map ''\n0 0 5\n1 0 1\n\n0 1 2\n1 1 7\n");
  EXPECT_THAT(script_of(confusion_heat_map(Tensor{{1.0}})), HasSubstr("set xtics ('class 0' 0)\n"));
  EXPECT_THROW(confusion_heat_map(Tensor::Zero(2, 3)), ShapeError);
  EXPECT_THROW(confusion_heat_map(Tensor(0, 0)), ValueError);
}

TEST(PlotKinds, RocAndPrecisionRecallCurves) {
  const Vector y{{1, 0, 1, 1, 0, 0, 1, 0, 1, 1}};
  const Vector s{{0.9, 0.1, 0.4, 0.8, 0.4, 0.3, 0.35, 0.2, 0.8, 0.55}};
  // sklearn.metrics.roc_curve(y, s, drop_intermediate=False) and roc_auc_score(y, s) = 0.9375.
  EXPECT_EQ(data_of(roc_curves(y, {{"model", s}})),
            "# 0: line 'model (AUC = 0.938)'\n0 0\n0 0.16666667\n0 0.5\n0 0.66666667\n0.25 0.83333333\n0.25 1\n"
            "0.5 1\n0.75 1\n1 1\n\n\n# 1: line 'chance'\n0 0\n1 1\n");
  // Recall on x, precision on y: sklearn.metrics.precision_recall_curve(y, s), average precision 0.9484.
  EXPECT_EQ(data_of(precision_recall_curves(y, {{"model", s}})),
            "# 0: line 'model (AP = 0.948)'\n1 0.6\n1 0.66666667\n1 0.75\n1 0.85714286\n0.83333333 0.83333333\n"
            "0.66666667 1\n0.5 1\n0.16666667 1\n0 1\n");
  EXPECT_THROW(roc_curves(y, {}), ValueError);
  EXPECT_THROW(roc_curves(y, {{"short", Vector{{0.5}}}}), ShapeError);
}

TEST(PlotKinds, BestSoFarStatePathsAndReturns) {
  // Running minimum 5, 3, 3, 1 and running maximum 1, 3, 3, against the evaluation number.
  EXPECT_EQ(data_of(best_so_far({{"bo", {5, 3, 4, 1}}})), "# 0: steps 'bo'\n1 5\n2 3\n3 3\n4 1\n");
  EXPECT_EQ(data_of(best_so_far({{"m", {1, 3, 2}}}, true)), "# 0: steps 'm'\n1 1\n2 3\n3 3\n");
  // The last state is held for one step; the first path is wide.
  const Figure paths = state_paths({{"true", {0, 1, 1}}, {"decoded", {0, 0, 1}}}, {"fair", "loaded"});
  EXPECT_EQ(data_of(paths), "# 0: steps 'true'\n0 0\n1 1\n2 1\n3 1\n\n\n# 1: steps 'decoded'\n0 0\n1 0\n2 1\n3 1\n");
  EXPECT_THAT(script_of(paths), HasSubstr("set yrange [-0.5:1.5]\nset ytics ('fair' 0, 'loaded' 1)\n"));
  EXPECT_THAT(script_of(paths), HasSubstr("with steps lw 6 lc rgb '#1f77b4' title 'true'"));
  EXPECT_THROW(state_paths({{"x", {0, 1.5}}}), ValueError);
  EXPECT_THROW(state_paths({{"x", {0, 2}}}, {"a", "b"}), ValueError);
  // Trailing means over 2 episodes: 1, (1 + 2)/2, (2 + 3)/2, (3 + 4)/2.
  EXPECT_EQ(data_of(episode_returns({1, 2, 3, 4}, 2)),
            "# 0: line 'return'\n1 1\n2 2\n3 3\n4 4\n\n\n# 1: line 'mean of the last 2'\n1 1\n2 1.5\n3 2.5\n4 3.5\n");
  EXPECT_THROW(episode_returns({1}, 0), ValueError);
  EXPECT_THROW(episode_returns({}), ValueError);
}

TEST(PlotKinds, PosteriorBandSortsByX) {
  const Figure f = posterior_band(Vector{{2.0, 0.0, 1.0}}, Vector{{4.0, 0.0, 1.0}}, Vector{{0.5, 0.0, 0.25}},
                                  Vector{{0.5}}, Vector{{0.25}});
  // mean ± 2 std: 0 ± 0, 1 ± 0.5, 4 ± 1.
  EXPECT_EQ(data_of(f),
            "# 0: band 'mean ± 2 std'\n0 0 0\n1 0.5 1.5\n2 3 5\n\n\n# 1: line 'mean'\n0 0\n1 1\n2 4\n\n\n"
            "# 2: points 'observations'\n0.5 0.25\n");
  EXPECT_THROW(posterior_band(Vector{{0.0}}, Vector{{0.0}}, Vector{{-1.0}}), ValueError);
  EXPECT_THROW(posterior_band(Vector{{0.0}}, Vector{{0.0, 1.0}}, Vector{{1.0}}), ShapeError);
}

TEST(PlotKinds, FeatureImportancesLargestFirst) {
  const Figure f = feature_importances(Vector{{0.1, 0.5, -0.05, 0.3}}, {"a", "b", "c", "d"}, 3);
  EXPECT_EQ(data_of(f), "# 0: bars ''\n0 0.5\n1 0.3\n2 0.1\n");
  EXPECT_THAT(script_of(f), HasSubstr("set xrange [-0.6:2.6]\nset xtics ('b' 0, 'd' 1, 'a' 2) rotate by 45 right\n"
                                      "set ylabel 'importance'\nunset key\n"));
  EXPECT_THAT(script_of(feature_importances(Vector{{1.0, 2.0}})),
              HasSubstr("set xtics ('feature 1' 0, 'feature 0' 1)"));
  EXPECT_THROW(feature_importances(Vector{{1.0}}, {"a", "b"}), ShapeError);
  EXPECT_THROW(feature_importances(Vector{{std::nan("")}}), ValueError);
}

TEST(PlotKinds, DecisionRegionsOfACallable) {
  // Points (0, 0) and (1, 1): each axis padded by 5 % to [−0.05, 1.05]; a 3×3 grid at −0.05, 0.5,
  // 1.05 with x fastest, predicted 1 where x1 > x2.
  const Tensor X{{0.0, 0.0}, {1.0, 1.0}};
  const Figure f =
      decision_regions([](const Tensor& P) -> Vector { return (P.col(0).array() > P.col(1).array()).cast<Scalar>(); },
                       X, Vector{{0.0, 1.0}}, {"neg", "pos"}, 3);
  EXPECT_EQ(data_of(f),
            "# 0: heat map ''\n-0.05 -0.05 0\n0.5 -0.05 1\n1.05 -0.05 1\n\n-0.05 0.5 0\n0.5 0.5 0\n1.05 0.5 1\n\n"
            "-0.05 1.05 0\n0.5 1.05 0\n1.05 1.05 0\n\n\n# 1: points 'neg'\n0 0\n\n\n# 2: points 'pos'\n1 1\n");
  EXPECT_THAT(script_of(f), HasSubstr("set xrange [-0.05:1.05]\n"));
  EXPECT_THAT(script_of(f), HasSubstr("set palette maxcolors 2\n"));
  EXPECT_THAT(script_of(f),
              HasSubstr("'f.dat' index 1 using 1:2 with points pt 7 ps 0.6 lc rgb '#1f77b4' title 'neg'"));
  auto half = [](const Tensor& P) -> Vector { return Vector::Constant(P.rows(), 0.5); };
  EXPECT_THROW(decision_regions(half, X, Vector{{0.0, 1.0}}), ValueError);
  auto too_few = [](const Tensor&) -> Vector { return Vector::Zero(1); };
  EXPECT_THROW(decision_regions(too_few, X, Vector{{0.0, 1.0}}), ShapeError);
  EXPECT_THROW(decision_regions(half, Tensor::Zero(2, 3), Vector{{0.0, 1.0}}), ShapeError);
}

TEST(PlotKinds, DecisionRegionsOfARegisteredClassifier) {
  const Tensor X{{0.0, 0.0}, {0.0, 1.0}, {3.0, 0.0}, {3.0, 1.0}};
  const Vector y{{0.0, 0.0, 1.0, 1.0}};
  AnyEstimator knn = make_estimator("knn_classifier", {{"num_neighbors", "1"}});
  knn.fit(X, y);
  // The nearest neighbour splits the plane at x1 = 1.5; the grid has x1 = −0.15, 0.95, 2.05, 3.15.
  const Figure f = decision_regions(knn, X, y, {}, 4);
  const Tensor& grid = f.series[0].data;
  for (Index r = 0; r < grid.rows(); ++r) EXPECT_EQ(grid(r, 2), grid(r, 0) < 1.5 ? 0.0 : 1.0) << "row " << r;
  EXPECT_EQ(f.series[1].label, "class 0");
  AnyEstimator ridge = make_estimator("ridge");
  ridge.fit(X, y);
  EXPECT_THROW(decision_regions(ridge, X, y), ValueError);
}

TEST(PlotKinds, EmbeddingScatterOneSeriesPerLabel) {
  const Tensor Z{{0.0, 1.0}, {2.0, 3.0}, {4.0, 5.0}};
  EXPECT_EQ(data_of(embedding_scatter(Z, Vector{{1.0, 0.0, 1.0}})),
            "# 0: points 'class 0'\n2 3\n\n\n# 1: points 'class 1'\n0 1\n4 5\n");
  EXPECT_EQ(data_of(embedding_scatter(Z)), "# 0: points ''\n0 1\n2 3\n4 5\n");
  EXPECT_THROW(embedding_scatter(Z, Vector{{1.0}}), ShapeError);
  EXPECT_THROW(embedding_scatter(Z, Vector{{1.0, -1.0, 0.0}}), ValueError);
}

TEST(PlotKinds, CovarianceEllipsesFromTheirEigenvalues) {
  const Vector c{{1.0, -1.0}};
  // diag(4, 1): 2σ semi-axes 2·2 and 2·1 along x.
  EXPECT_TRUE(covariance_ellipse(c, Tensor{{4.0, 0.0}, {0.0, 1.0}}).isApprox(Vector{{1.0, -1.0, 4.0, 2.0, 0.0}}));
  // [2 1; 1 2]: eigenvalues 3 and 1, axis 1 along (1, 1) at π/4.
  EXPECT_TRUE(covariance_ellipse(c, Tensor{{2.0, 1.0}, {1.0, 2.0}}, 1)
                  .isApprox(Vector{{1.0, -1.0, std::sqrt(3.0), 1.0, std::numbers::pi / 4}}));
  // diag(1, 4): axis 1 along y (π/2), 3σ semi-axes 6 and 3.
  EXPECT_TRUE(covariance_ellipse(c, Tensor{{1.0, 0.0}, {0.0, 4.0}}, 3)
                  .isApprox(Vector{{1.0, -1.0, 6.0, 3.0, std::numbers::pi / 2}}));
  EXPECT_THROW(covariance_ellipse(c, Tensor{{1.0, 0.5}, {0.0, 1.0}}), ValueError);  // not symmetric
  EXPECT_THROW(covariance_ellipse(c, Tensor{{1.0, 2.0}, {2.0, 1.0}}), ValueError);  // eigenvalue −1
  EXPECT_THROW(covariance_ellipse(c, Tensor{{1.0, 0.0}, {0.0, 1.0}}, 0), ValueError);
  EXPECT_THROW(covariance_ellipse(c, Tensor::Identity(3, 3)), ShapeError);

  const Tensor points{{0.0, 0.0}, {1.0, 0.0}, {5.0, 5.0}};
  const Figure f = mixture_ellipses(points, Vector{{0.0, 0.0, 1.0}}, Tensor{{0.5, 0.0}, {5.0, 5.0}},
                                    {Tensor::Identity(2, 2), Tensor{{4.0, 0.0}, {0.0, 1.0}}});
  ASSERT_EQ(f.series.size(), 4u);
  EXPECT_EQ(f.series[0].label, "cluster 0");
  EXPECT_EQ(f.series[2].kind, SeriesKind::Ellipse);
  EXPECT_EQ(f.series[3].color, 1);
  EXPECT_TRUE(f.series[3].data.row(0).transpose().isApprox(Vector{{5.0, 5.0, 4.0, 2.0, 0.0}}));
  EXPECT_THROW(mixture_ellipses(points, {}, Tensor{{0.5, 0.0}}, {}), ShapeError);
}

TEST(PlotKinds, EveryKindRendersWithGnuplot) {
  if (!gnuplot_available()) GTEST_SKIP() << "gnuplot is not on PATH (Debian: gnuplot-nox); the rendering is not tested";
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / "dagml_plot_kinds";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const Vector y{{1, 0, 1, 1, 0, 0, 1, 0, 1, 1}};
  const Vector s{{0.9, 0.1, 0.4, 0.8, 0.4, 0.3, 0.35, 0.2, 0.8, 0.55}};
  const Tensor X{{0.0, 0.0}, {0.5, 2.0}, {2.0, 1.0}, {3.0, 3.0}};
  const Vector labels{{0.0, 0.0, 1.0, 1.0}};
  auto left_right = [](const Tensor& P) -> Vector { return (P.col(0).array() > 1.5).cast<Scalar>(); };
  const std::vector<std::pair<std::string, Figure>> figures = {
      {"learning", learning_curves({{"train", {3, 2, 1.5}}, {"valid", {3.5, 2.5, 2.25}}}, true)},
      {"roc", roc_curves(y, {{"model", s}})},
      {"pr", precision_recall_curves(y, {{"model", s}})},
      {"best", best_so_far({{"bo", {5, 3, 4, 1}}, {"random", {6, 5, 2, 3}}})},
      {"states", state_paths({{"true", {0, 1, 1, 2}}, {"decoded", {0, 0, 1, 2}}})},
      {"returns", episode_returns({1, 5, 2, 8, 9, 7}, 3)},
      {"band", posterior_band(Vector{{0.0, 1.0, 2.0}}, Vector{{0.0, 1.0, 0.5}}, Vector{{0.1, 0.3, 0.2}})},
      {"regions", decision_regions(left_right, X, labels, {}, 50)},
      {"confusion", confusion_heat_map(Tensor{{5.0, 1.0}, {2.0, 7.0}}, {"no", "yes"})},
      {"embedding", embedding_scatter(X, labels)},
      {"ellipses", mixture_ellipses(X, labels, Tensor{{0.25, 1.0}, {2.5, 2.0}},
                                    {Tensor{{0.1, 0.2}, {0.2, 1.0}}, Tensor{{0.3, 0.0}, {0.0, 1.0}}})},
      {"importances", feature_importances(Vector{{0.1, 0.5, 0.3}}, {"a", "b", "c"})},
  };
  for (const auto& [name, figure] : figures) {
    const PlotFiles files = write_plot(figure, (folder / name).string(), {.width = 400, .height = 300, .svg = false});
    ASSERT_TRUE(files.rendered) << name << ": " << files.message;
    const Image8 png = read_png(files.pictures.at(0));
    EXPECT_EQ(png.width, 400) << name;
    EXPECT_EQ(png.height, 300) << name;
    EXPECT_GT(std::set<std::uint8_t>(png.pixels.begin(), png.pixels.end()).size(), 2u) << name;
  }
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace dagml::plot
