#include "models/metrics/classification_metrics.h"

#include <algorithm>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {

Scalar accuracy_score(const Vector& y_true, const Vector& y_pred) {
  if (y_true.size() != y_pred.size()) {
    throw ShapeError(fmt::format("accuracy_score: expected predictions of the same length as the labels ({}), found {}",
                                 y_true.size(), y_pred.size()));
  }
  if (y_true.size() == 0) throw ValueError("accuracy_score: expected at least one label, found none");
  return (y_true.array() == y_pred.array()).cast<Scalar>().mean();
}

Scalar zero_one_loss(const Vector& y_true, const Vector& y_pred) { return 1.0 - accuracy_score(y_true, y_pred); }

namespace {

// Checks the pair of label vectors; returns K.
Index check_label_pair(const Vector& y_true, const Vector& y_pred, Index num_classes, const char* who) {
  if (y_true.size() != y_pred.size()) {
    throw ShapeError(fmt::format("{}: expected predictions of the same length as the labels ({}), found {}", who,
                                 y_true.size(), y_pred.size()));
  }
  if (y_true.size() == 0) throw ValueError(fmt::format("{}: expected at least one label, found none", who));
  const Index a = check_labels(y_true, who, num_classes), b = check_labels(y_pred, who, num_classes);
  return std::max(a, b);
}

enum class Ratio { Precision, Recall, F1 };

Scalar safe_ratio(Scalar num, Scalar den) { return den > 0 ? num / den : 0.0; }

Scalar averaged(const Vector& y_true, const Vector& y_pred, Average average, Ratio ratio, const char* who) {
  const Index K = check_label_pair(y_true, y_pred, 0, who);
  if (average == Average::Binary && K > 2) {
    throw ValueError(
        fmt::format("{}: Average::Binary needs labels 0 and 1, found label {}; choose Macro, Micro or "
                    "Weighted",
                    who, K - 1));
  }
  const Tensor C = confusion_matrix(y_true, y_pred, std::max<Index>(K, 2));
  const PrecisionRecallF1 s = precision_recall_f1(y_true, y_pred, std::max<Index>(K, 2));
  const Vector& per_class = ratio == Ratio::Precision ? s.precision : ratio == Ratio::Recall ? s.recall : s.f1;
  switch (average) {
    case Average::Binary:
      return per_class(1);
    case Average::Micro: {
      // Pooled over the classes, ΣFP = ΣFN = the number of mistakes: P = R = F1 = ΣTP / n.
      const Scalar p = safe_ratio(C.trace(), C.sum()), r = p;
      return ratio == Ratio::Precision ? p : ratio == Ratio::Recall ? r : safe_ratio(2 * p * r, p + r);
    }
    case Average::Macro: {
      Scalar sum = 0, count = 0;
      for (Index k = 0; k < C.rows(); ++k) {
        if (C.row(k).sum() + C.col(k).sum() == 0) continue;  // absent from both vectors
        sum += per_class(k);
        count += 1;
      }
      return sum / count;
    }
    case Average::Weighted:
      return per_class.dot(s.support) / s.support.sum();
  }
  return 0;
}

}  // namespace

Tensor confusion_matrix(const Vector& y_true, const Vector& y_pred, Index num_classes) {
  const Index K = check_label_pair(y_true, y_pred, num_classes, "confusion_matrix");
  Tensor C = Tensor::Zero(K, K);
  for (Index i = 0; i < y_true.size(); ++i) C(static_cast<Index>(y_true(i)), static_cast<Index>(y_pred(i))) += 1;
  return C;
}

// Per class k: TP = C(k, k), FP = column sum − TP, FN = row sum − TP.
PrecisionRecallF1 precision_recall_f1(const Vector& y_true, const Vector& y_pred, Index num_classes) {
  const Tensor C = confusion_matrix(y_true, y_pred, num_classes);
  const Index K = C.rows();
  PrecisionRecallF1 s{Vector(K), Vector(K), Vector(K), C.rowwise().sum()};
  for (Index k = 0; k < K; ++k) {
    s.precision(k) = safe_ratio(C(k, k), C.col(k).sum());
    s.recall(k) = safe_ratio(C(k, k), C.row(k).sum());
    s.f1(k) = safe_ratio(2 * s.precision(k) * s.recall(k), s.precision(k) + s.recall(k));
  }
  return s;
}

Scalar precision_score(const Vector& y_true, const Vector& y_pred, Average average) {
  return averaged(y_true, y_pred, average, Ratio::Precision, "precision_score");
}
Scalar recall_score(const Vector& y_true, const Vector& y_pred, Average average) {
  return averaged(y_true, y_pred, average, Ratio::Recall, "recall_score");
}
Scalar f1_score(const Vector& y_true, const Vector& y_pred, Average average) {
  return averaged(y_true, y_pred, average, Ratio::F1, "f1_score");
}

}  // namespace dagml
