// AdaBoost with decision stumps on breast cancer: training and test error after every round, the
// weak learners' weighted errors ε_t and weights α_t, and the training exponential loss, which
// falls by 2√(ε_t(1 − ε_t)) each round (notes 004 Algorithm 13). Writes the rows to
// adaboost_rounds.csv and the training and test error by round to adaboost_rounds.png (with its
// gnuplot script). Usage: adaboost_rounds [out.csv]
#include <fmt/format.h>

#include <string>

#include "models/data/csv.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/ensemble/adaboost_classifier.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/plots.h"

using namespace dagml;

int main(int argc, char** argv) {
  const std::string csv_path = argc > 1 ? argv[1] : "adaboost_rounds.csv";
  const Dataset bc = load_dataset("breast_cancer");
  const TrainTestSplit s = train_test_split(bc.features, bc.target, {.test_fraction = 0.3, .seed = 5, .stratify = true});

  const Index T = 200;
  AdaBoostClassifier model({.num_estimators = T});
  model.fit(s.X_train, s.y_train);
  fmt::print("AdaBoost, decision stumps: {} rounds (run status: {})\n\n", model.trees().size(),
             to_string(model.fit_result().status));
  const std::vector<Scalar> train = model.staged_score(s.X_train, s.y_train), test = model.staged_score(s.X_test, s.y_test);
  const Vector loss = model.exponential_loss();
  const auto rounds = static_cast<Index>(train.size());
  Tensor out(rounds, 6);
  fmt::print("{:>6} {:>10} {:>10} {:>10} {:>10} {:>14}\n", "round", "ε_t", "α_t", "train err", "test err", "exp. loss");
  for (Index t = 0; t < rounds; ++t) {
    const auto u = static_cast<std::size_t>(t);
    out.row(t) << static_cast<Scalar>(t + 1), model.estimator_errors()(t), model.estimator_weights()(t), 1 - train[u],
        1 - test[u], loss(t + 1);
    if (t < 10 || (t + 1) % 20 == 0)
      fmt::print("{:>6} {:>10.4f} {:>10.4f} {:>10.4f} {:>10.4f} {:>14.6g}\n", t + 1, out(t, 1), out(t, 2), out(t, 3),
                 out(t, 4), out(t, 5));
  }
  write_csv(csv_path, out, {"round", "weighted_error", "estimator_weight", "train_error", "test_error", "exponential_loss"});
  fmt::print("\nwrote {} ({} rounds)\n", csv_path, rounds);
  const Vector train_error = out.col(3), test_error = out.col(4);
  plot::Figure curves = plot::learning_curves({{"training error", {train_error.begin(), train_error.end()}},
                                               {"test error", {test_error.begin(), test_error.end()}}});
  for (plot::Series& s : curves.series) s.data.col(0).array() += 1;  // rounds count from 1
  curves.title = "AdaBoost with stumps on breast cancer";
  curves.x.label = "round";
  curves.y.label = "error";
  fmt::print("{}\n", plot::write_plot(curves, "adaboost_rounds").message);
  return 0;
}
