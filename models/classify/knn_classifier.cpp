#include "models/classify/knn_classifier.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {
namespace {
constexpr const char* kName = "KnnClassifier";
}  // namespace

KnnClassifier::KnnClassifier(KnnClassifierOptions options) : options_(std::move(options)), search_(options_.search) {
  if (options_.k < 1) throw ValueError(fmt::format("{}: expected k ≥ 1, found {}", kName, options_.k));
}

KnnClassifier& KnnClassifier::fit(const Tensor& X, const Vector& y) {
  const char* who = "KnnClassifier::fit";
  const Index K = check_classification_data(X, y, who, 0);
  check_neighbor_count(options_.k, X.rows(), who);
  fitted_ = false;
  search_.fit(X);
  y_ = y;
  num_classes_ = K;
  fitted_ = true;
  return *this;
}

Neighbors KnnClassifier::kneighbors(const Tensor& X, Index k) const {
  check_fitted(fitted_, "KnnClassifier::kneighbors");
  return search_.query(X, k == 0 ? options_.k : k);
}

Tensor KnnClassifier::votes(const Neighbors& nb) const {
  const Tensor w = neighbor_weights(nb.distances, options_.weights);
  Tensor v = Tensor::Zero(nb.indices.rows(), num_classes_);
  for (Index i = 0; i < v.rows(); ++i)
    for (Index r = 0; r < nb.indices.cols(); ++r) v(i, static_cast<Index>(y_(nb.indices(i, r)))) += w(i, r);
  return v;
}

Vector KnnClassifier::predict(const Tensor& X) const {
  const Neighbors nb = kneighbors(X);
  const Tensor v = votes(nb);
  Vector labels = argmax_rows(v);  // SmallestLabel: the first maximum
  if (options_.tie_rule == KnnTieRule::Nearest) {
    for (Index i = 0; i < v.rows(); ++i) {
      const Scalar best = v.row(i).maxCoeff();
      for (Index r = 0; r < nb.indices.cols(); ++r) {
        const auto c = static_cast<Index>(y_(nb.indices(i, r)));
        if (v(i, c) == best) {
          labels(i) = static_cast<Scalar>(c);
          break;
        }
      }
    }
  }
  return labels;
}

Tensor KnnClassifier::predict_proba(const Tensor& X) const {
  Tensor v = votes(kneighbors(X));
  v.array().colwise() /= v.rowwise().sum().array();
  return v;
}

Scalar KnnClassifier::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

Index KnnClassifier::num_classes() const {
  check_fitted(fitted_, kName);
  return num_classes_;
}

void KnnClassifier::save(const std::string& path) const {
  check_fitted(fitted_, "KnnClassifier::save");
  ModelWriter w(kName);
  w.put_scalar("k", static_cast<Scalar>(options_.k));
  w.put_scalar("weights", options_.weights == NeighborWeights::Uniform ? 0 : 1);
  w.put_scalar("tie_rule", options_.tie_rule == KnnTieRule::SmallestLabel ? 0 : 1);
  w.put_scalar("num_classes", static_cast<Scalar>(num_classes_));
  search_.save_to(w);
  w.put_vector("training_labels", y_);
  w.save(path);
}

KnnClassifier KnnClassifier::load(const std::string& path) {
  ModelReader r(path, kName);
  NeighborSearch search = NeighborSearch::load_from(r);
  KnnClassifierOptions o;
  o.k = static_cast<Index>(r.scalar("k"));
  o.weights = r.scalar("weights") == 0 ? NeighborWeights::Uniform : NeighborWeights::Distance;
  o.tie_rule = r.scalar("tie_rule") == 0 ? KnnTieRule::SmallestLabel : KnnTieRule::Nearest;
  o.search = search.options();
  KnnClassifier m(o);
  m.search_ = std::move(search);
  m.y_ = r.vector("training_labels");
  m.num_classes_ = static_cast<Index>(r.scalar("num_classes"));
  m.fitted_ = true;
  return m;
}

}  // namespace dagml
