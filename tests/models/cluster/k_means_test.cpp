// Tests for KMeans: the worked iterations of notes004.md §2.2 and notes000_part2.md §2.2,
// scikit-learn's Lloyd result from the same initial centres, k-means++ on separated blobs,
// restarts, empty clusters, same seed same model, thread-count independence, bad input and
// save/load.
#include "models/cluster/k_means.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "graph/error.h"
#include "graph/threads.h"
#include "literals.h"
#include "models/data/datasets.h"
#include "models/io/model_file.h"
#include "models/io/option_layouts.h"
#include "optim/callbacks.h"
#include "optim/stop_after.h"

namespace dagml {
namespace {

using testing::column;

TEST(KMeans, Notes004WorkedIterations) {
  // x = [1, 2, 3, 10, 11, 12], K = 2, μ⁽⁰⁾ = (1, 2): iteration 1 gives μ = (1, 7.6), iteration 2
  // μ = (2, 11), W = 4.
  const Tensor X = column({1, 2, 3, 10, 11, 12});
  KMeans one({.num_clusters = 2, .init = KMeansInit::Given, .initial_centers = column({1, 2}), .max_iterations = 1});
  one.fit(X);
  EXPECT_NEAR(one.centers()(0, 0), 1.0, 1e-15);
  EXPECT_NEAR(one.centers()(1, 0), 7.6, 1e-14);
  EXPECT_FALSE(one.converged());
  KMeans km({.num_clusters = 2, .init = KMeansInit::Given, .initial_centers = column({1, 2})});
  km.fit(X);
  EXPECT_NEAR(km.centers()(0, 0), 2.0, 1e-15);
  EXPECT_NEAR(km.centers()(1, 0), 11.0, 1e-15);
  EXPECT_NEAR(km.inertia(), 4.0, 1e-12);
  EXPECT_TRUE(km.converged());
  EXPECT_EQ(km.labels(), Vector((Vector(6) << 0, 0, 0, 1, 1, 1).finished()));
  EXPECT_NEAR(km.score(X), -4.0, 1e-12);
}

TEST(KMeans, Notes000WorkedIterations) {
  // X = {0, 1, 10, 11}, init (0, 1): after one update c = (0, 7.3333); converged c = (0.5, 10.5), W = 1.
  const Tensor X = column({0, 1, 10, 11});
  KMeans one({.num_clusters = 2, .init = KMeansInit::Given, .initial_centers = column({0, 1}), .max_iterations = 1});
  EXPECT_NEAR(one.fit(X).centers()(1, 0), 22.0 / 3, 1e-14);
  KMeans km({.num_clusters = 2, .init = KMeansInit::Given, .initial_centers = column({0, 1})});
  km.fit(X);
  EXPECT_NEAR(km.centers()(0, 0), 0.5, 1e-15);
  EXPECT_NEAR(km.centers()(1, 0), 10.5, 1e-15);
  EXPECT_NEAR(km.inertia(), 1.0, 1e-12);
}

TEST(KMeans, MatchesScikitLearnLloydFromTheSameStart) {
  // sklearn.cluster.KMeans(n_clusters=3, init=X[[0, 50, 100]], n_init=1).fit(X) on iris,
  // scikit-learn 1.2.1: inertia_ 78.851441426146, n_iter_ 4, cluster sizes 50, 62, 38.
  const Dataset iris = load_dataset("iris");
  Tensor init(3, 4);
  init << iris.features.row(0), iris.features.row(50), iris.features.row(100);
  KMeans km({.num_clusters = 3, .init = KMeansInit::Given, .initial_centers = init});
  km.fit(iris.features);
  EXPECT_NEAR(km.inertia(), 78.851441426146, 1e-9);
  EXPECT_EQ(km.num_iter(), 4);
  EXPECT_NEAR(km.centers()(1, 0), 5.901612903225806, 1e-12);
  EXPECT_NEAR(km.centers()(2, 2), 5.742105263157894, 1e-12);
  Vector counts = Vector::Zero(3);
  for (Index i = 0; i < 150; ++i) counts(static_cast<Index>(km.labels()(i))) += 1;
  EXPECT_EQ(counts, Vector((Vector(3) << 50, 62, 38).finished()));
  // sklearn.cluster.KMeans(n_clusters=4, init=X[:4], n_init=1).fit(X) on wine: inertia_ 1560626.8894379486.
  const Dataset wine = load_dataset("wine");
  KMeans w({.num_clusters = 4, .init = KMeansInit::Given, .initial_centers = wine.features.topRows(4)});
  EXPECT_NEAR(w.fit(wine.features).inertia(), 1560626.8894379486, 1e-6);
}

Tensor blobs(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Tensor X(300, 2);
  for (Index i = 0; i < 300; ++i) {
    const Scalar cx = (i % 3) * 100.0, cy = (i % 3 == 1) * 100.0;
    X(i, 0) = cx + static_cast<Scalar>(rng() % 1000) / 1000.0;
    X(i, 1) = cy + static_cast<Scalar>(rng() % 1000) / 1000.0;
  }
  return X;
}

TEST(KMeans, PlusPlusFindsSeparatedBlobsAndIsSeeded) {
  const Tensor X = blobs(1);
  KMeans km({.num_clusters = 3, .seed = 11});
  km.fit(X);
  // Every blob is one cluster: rows i and i + 3 share a label, rows i and i + 1 do not.
  for (Index i = 0; i + 3 < 300; ++i) EXPECT_EQ(km.labels()(i), km.labels()(i + 3));
  EXPECT_NE(km.labels()(0), km.labels()(1));
  EXPECT_NE(km.labels()(1), km.labels()(2));
  EXPECT_NE(km.labels()(0), km.labels()(2));
  KMeans again({.num_clusters = 3, .seed = 11});
  EXPECT_EQ(again.fit(X).centers(), km.centers());
  // Restarts keep the lowest inertia: never worse than the first run alone.
  const Dataset digits = load_dataset("digits");
  const Scalar single = KMeans({.num_clusters = 10, .num_init = 1, .seed = 5}).fit(digits.features).inertia();
  const Scalar multi = KMeans({.num_clusters = 10, .num_init = 4, .seed = 5}).fit(digits.features).inertia();
  EXPECT_LE(multi, single);
}

TEST(KMeans, ResultDoesNotDependOnTheThreadCount) {
  const Dataset digits = load_dataset("digits");
  const int before = num_threads();
  set_num_threads(1);
  KMeans a({.num_clusters = 10, .num_init = 2, .seed = 3});
  a.fit(digits.features);
  set_num_threads(2);
  KMeans b({.num_clusters = 10, .num_init = 2, .seed = 3});
  b.fit(digits.features);
  set_num_threads(before);
  EXPECT_EQ(a.centers(), b.centers());
  EXPECT_EQ(a.labels(), b.labels());
  EXPECT_EQ(a.inertia(), b.inertia());
}

TEST(KMeans, EmptyClusterIsMovedToTheFarthestPoint) {
  // The centre at 1000 attracts no point; it moves to the point farthest from its centre (x = 10).
  const Tensor X = column({0, 1, 2, 10});
  KMeans km({.num_clusters = 2, .init = KMeansInit::Given, .initial_centers = column({1, 1000})});
  km.fit(X);
  EXPECT_TRUE(km.centers().allFinite());
  EXPECT_NEAR(km.centers()(1, 0), 10.0, 1e-15);
  EXPECT_NEAR(km.inertia(), 2.0, 1e-12);
}

TEST(KMeans, BadInputAndSaveLoad) {
  EXPECT_THROW(KMeans({.num_clusters = 0}), ValueError);
  EXPECT_THROW(KMeans({.num_init = 0}), ValueError);
  EXPECT_THROW(KMeans({.tolerance = -1}), ValueError);
  EXPECT_THROW(KMeans({.num_clusters = 2, .init = KMeansInit::Given}), ValueError);
  EXPECT_THROW(KMeans({.num_clusters = 1, .init = KMeansInit::Given, .initial_centers = column({1}), .num_init = 2}),
               ValueError);
  const Tensor X = column({0, 1, 2});
  EXPECT_THAT([&] { KMeans({.num_clusters = 4}).fit(X); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("at least num_clusters")));
  Tensor nan = X;
  nan(1, 0) = std::nan("");
  EXPECT_THROW(KMeans({.num_clusters = 2}).fit(nan), ValueError);
  EXPECT_THROW(KMeans().predict(X), NotFittedError);
  Tensor wide(2, 2);
  wide << 0, 0, 1, 1;
  EXPECT_THROW(KMeans({.num_clusters = 2, .init = KMeansInit::Given, .initial_centers = wide}).fit(X), ShapeError);
  EXPECT_THROW(KMeans({.max_iterations = 0}), ValueError);
}

TEST(KMeans, SaveLoadRoundTrip) {
  const Dataset iris = load_dataset("iris");
  KMeans km({.num_clusters = 3, .max_iterations = 50, .tolerance = 1e-6, .seed = 2});
  km.fit(iris.features);
  const std::string path = (std::filesystem::temp_directory_path() / "dagml_test_kmeans.model").string();
  km.save(path);
  const KMeans back = KMeans::load(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.centers(), km.centers());
  EXPECT_EQ(back.inertia(), km.inertia());
  EXPECT_EQ(back.num_iter(), km.num_iter());
  EXPECT_EQ(back.converged(), km.converged());
  EXPECT_EQ(back.options().max_iterations, 50);
  EXPECT_EQ(back.options().tolerance, 1e-6);
  EXPECT_EQ(back.options().seed, 2u);
  EXPECT_EQ(back.predict(iris.features), km.labels());
  EXPECT_EQ(back.transform(iris.features), km.transform(iris.features));
  EXPECT_EQ(back.to_bytes(), km.to_bytes());
  // The training labels are not saved: a clear error, not an empty vector.
  EXPECT_THAT([&] { (void)back.labels(); },
              ::testing::ThrowsMessage<NotFittedError>(::testing::HasSubstr("not saved")));
  // Given initial centres travel with the options.
  KMeans given({.num_clusters = 2, .init = KMeansInit::Given, .initial_centers = column({1, 2})});
  given.fit(column({1, 2, 3, 10, 11, 12}));
  const KMeans given_back = KMeans::from_model_file(ModelFile(given.to_bytes(), "given"));
  EXPECT_EQ(given_back.options().init, KMeansInit::Given);
  EXPECT_EQ(given_back.options().initial_centers, column({1, 2}));
  EXPECT_EQ(given_back.centers(), given.centers());
}

// A k_means model file of layout 1 (options without `algorithm`) with the given fitted state,
// written in KMeans::serialize's field order.
std::string kmeans_file(const Tensor& centers, Scalar inertia, Index num_iter = 3, Index num_features = 1) {
  std::string payload;
  {
    ModelOutputArchive ar(payload);
    KMeansOptions options{.num_clusters = 2};
    testing::OptionsOfLayout<KMeansOptions> layout_1{options, 1};
    ar(layout_1, true, num_features, centers, inertia, num_iter, true);
  }
  return frame_model_file(KMeans::kTypeName, 1, payload);
}

TEST(KMeans, ReadsLayout1FilesAndKeepsTheAlgorithmInLayout2) {
  const KMeans old = KMeans::from_model_file(ModelFile(kmeans_file(column({0, 5}), 1.5), "layout 1"));
  EXPECT_EQ(old.options().algorithm, KMeansAlgorithm::Auto);
  EXPECT_EQ(old.options().num_clusters, 2);
  EXPECT_EQ(old.centers(), column({0, 5}));
  KMeans hamerly({.num_clusters = 2, .algorithm = KMeansAlgorithm::Hamerly});
  hamerly.fit(column({0, 1, 5, 6}));
  const KMeans back = KMeans::from_model_file(ModelFile(hamerly.to_bytes(), "layout 2"));
  EXPECT_EQ(back.options().algorithm, KMeansAlgorithm::Hamerly);
  EXPECT_EQ(back.to_bytes(), hamerly.to_bytes());
}

TEST(KMeans, InconsistentFilesAreParseErrors) {
  const auto load = [](const std::string& bytes) { return KMeans::from_model_file(ModelFile(bytes, "crafted")); };
  const KMeans ok = load(kmeans_file(column({0, 5}), 1.5));
  EXPECT_EQ(ok.predict(column({1, 4})), (Vector(2) << 0, 1).finished());
  EXPECT_THAT([&] { load(kmeans_file(column({0, 5, 7}), 1.5)); },  // 3 centres for K = 2
              ::testing::ThrowsMessage<ParseError>(::testing::HasSubstr("centres")));
  EXPECT_THROW(load(kmeans_file(column({0, 5}), 1.5, 3, 2)), ParseError);  // centres of width 1, d = 2
  EXPECT_THROW(load(kmeans_file(column({0, std::nan("")}), 1.5)), ParseError);
  EXPECT_THROW(load(kmeans_file(column({0, 5}), -1)), ParseError);
  EXPECT_THROW(load(kmeans_file(column({0, 5}), 1.5, -1)), ParseError);
  // Bad options read back are the constructor's ValueError.
  std::string payload;
  {
    ModelOutputArchive ar(payload);
    KMeansOptions options{.num_clusters = 0};
    testing::OptionsOfLayout<KMeansOptions> layout_1{options, 1};
    ar(layout_1, false, Index{0}, Tensor(), Scalar{0}, Index{0}, false);
  }
  EXPECT_THROW(load(frame_model_file(KMeans::kTypeName, 1, payload)), ValueError);
}

// The callback protocol (optim/callbacks.h): a Stop after iteration k leaves the model of exactly
// k Lloyd iterations (the same centres as max_iterations = k) and reports CallbackStop; the value is the
// inertia of the iteration's centres, which is what inertia() says of the stopped model.
TEST(KMeans, CallbackStopsAfterTheIterationItAskedFor) {
  const Dataset iris = load_dataset("iris");
  Tensor init(3, 4);
  init << iris.features.row(0), iris.features.row(50), iris.features.row(100);  // converges in 4
  const KMeansOptions o{.num_clusters = 3, .init = KMeansInit::Given, .initial_centers = init};
  testing::StopAfter stop_at_2(2);
  KMeans stopped(o);
  stopped.fit(iris.features, {&stop_at_2});
  KMeansOptions two = o;
  two.max_iterations = 2;
  const KMeans capped = KMeans(two).fit(iris.features);
  EXPECT_EQ(stop_at_2.seen, (std::vector<Index>{1, 2}));
  EXPECT_EQ(stopped.fit_result().status, Status::CallbackStop);
  EXPECT_EQ(stopped.num_iter(), 2);
  EXPECT_FALSE(stopped.converged());
  EXPECT_EQ(capped.fit_result().status, Status::MaxIterations);
  EXPECT_EQ(stopped.centers(), capped.centers());
  EXPECT_EQ(stopped.labels(), capped.labels());
  EXPECT_EQ(stop_at_2.values.back(), stopped.inertia());
  EXPECT_EQ(stop_at_2.last_x, Eigen::Map<const Vector>(stopped.centers().data(), 12));  // x: the centres, row by row
  // The history: the inertia of the initial centres, then the callbacks' stop_at_2.values; non-increasing.
  KMeans full(o);
  const Result& r = full.fit(iris.features).fit_result();
  EXPECT_EQ(r.status, Status::StepTolerance);
  ASSERT_EQ(r.history.size(), 5u);
  EXPECT_EQ(r.history[1], stop_at_2.values[0]);
  EXPECT_EQ(r.history[2], stop_at_2.values[1]);
  for (std::size_t t = 1; t < r.history.size(); ++t) EXPECT_LE(r.history[t], r.history[t - 1]) << t;
  EXPECT_EQ(r.value, r.history.back());
}

TEST(KMeans, RestartsShareOneCallbackSession) {
  const Dataset iris = load_dataset("iris");
  const KMeansOptions o{.num_clusters = 3, .num_init = 4, .seed = 3};
  std::vector<Index> seen;
  FunctionCallback record([&](const IterationInfo& info) {
    seen.push_back(info.iteration);
    EXPECT_EQ(info.max_iterations, 4 * 300);
    return true;
  });
  HistoryRecorder history;
  KMeans all(o);
  all.fit(iris.features, {&record, &history});
  EXPECT_EQ(history.values().size(), seen.size() + 1);  // one on_begin for the four restarts
  ASSERT_GT(static_cast<Index>(seen.size()), all.num_iter());  // every restart's iterations
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], static_cast<Index>(i) + 1);
  EXPECT_TRUE(all.converged());
  EXPECT_EQ(all.centers(), KMeans(o).fit(iris.features).centers());  // watching changes nothing

  // A Stop in a later restart ends the whole fit, which says so.
  const Index stop = static_cast<Index>(seen.size()) - 1;
  std::vector<Index> seen_stopped;
  FunctionCallback stopper([&](const IterationInfo& info) {
    seen_stopped.push_back(info.iteration);
    return info.iteration < stop;
  });
  KMeans cut(o);
  cut.fit(iris.features, {&stopper});
  EXPECT_EQ(static_cast<Index>(seen_stopped.size()), stop);
  EXPECT_EQ(seen_stopped.back(), stop);
  EXPECT_EQ(cut.fit_result().status, Status::CallbackStop);
  EXPECT_FALSE(cut.converged());
  EXPECT_EQ(cut.predict(iris.features).size(), 150);
}

// on_end may amend the result (EarlyStopping restores its best iterate): the model then holds
// those centres, with labels and inertia reassigned to them.
TEST(KMeans, EarlyStoppingRestoresTheBestCentres) {
  const Dataset iris = load_dataset("iris");
  Tensor init(3, 4);
  init << iris.features.row(0), iris.features.row(50), iris.features.row(100);
  // A score that is best after iteration 1 (on_begin scores the start first): 2, 1, 2, 3, …
  Index calls = 0;
  EarlyStopping early([&](const Vector&) { return std::abs(static_cast<Scalar>(calls++) - 1.0) + 1; },
                      {.patience = 2});
  KMeans km({.num_clusters = 3, .init = KMeansInit::Given, .initial_centers = init});
  km.fit(iris.features, {&early});
  const KMeans one = KMeans({.num_clusters = 3, .init = KMeansInit::Given, .initial_centers = init, .max_iterations = 1})
                         .fit(iris.features);
  EXPECT_EQ(km.fit_result().status, Status::CallbackStop);
  EXPECT_EQ(km.num_iter(), 3);
  EXPECT_EQ(km.centers(), one.centers());
  EXPECT_EQ(km.labels(), one.labels());
  EXPECT_EQ(km.inertia(), one.inertia());
}

}  // namespace
}  // namespace dagml
