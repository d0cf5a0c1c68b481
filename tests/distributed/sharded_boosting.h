// Gradient boosting over ranks under mpirun (tests/distributed/mpi_distributed.cpp): each rank
// fits a regressor with missing values, row and column subsampling, and a three-class classifier
// on its rows, and checks that every tree equals the one-process recomputation on all rows with
// the same chunk layout, bit for bit.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <string>

#include "graph/communicator.h"
#include "graph/error.h"
#include "models/data/datasets.h"
#include "models/ensemble/gradient_boosting_classifier.h"
#include "models/ensemble/gradient_boosting_regressor.h"

namespace dagml::testing {

inline bool same_gradient_trees(const std::vector<tree::GradientTree>& a, const std::vector<tree::GradientTree>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t t = 0; t < a.size(); ++t)
    if (a[t].left != b[t].left || a[t].right != b[t].right || a[t].feature != b[t].feature ||
        a[t].threshold != b[t].threshold || a[t].missing_left != b[t].missing_left || a[t].value != b[t].value ||
        a[t].gain != b[t].gain || a[t].num_samples != b[t].num_samples)
      return false;
  return true;
}

inline void check_sharded_boosting(Communicator& comm) {
  const auto fail_unless = [&](bool ok, const std::string& what) {
    if (!ok) throw InternalError(fmt::format("check failed: sharded boosting on rank {}: {}", comm.rank(), what));
  };
  SingleProcessCommunicator single;
  {
    const Dataset d = load_dataset("diabetes");
    Tensor X = d.features;
    for (Index i = 0; i < X.rows(); i += 5) X(i, 3) = std::numeric_limits<Scalar>::quiet_NaN();
    const GradientBoostingRegressorOptions o{
        .boosting = {.max_iterations = 8, .max_leaf_nodes = 6, .min_samples_leaf = 8, .subsample = 0.8,
                     .colsample = 0.7, .allow_missing = true, .seed = 2}};
    const ChunkLayout layout(X.rows(), 6, comm.size());
    const IndexRange mine = layout.rank_rows(comm.rank());
    GradientBoostingRegressor sharded(o), serial(o);
    sharded.fit(comm, layout, X.middleRows(mine.begin, mine.size()), d.target.segment(mine.begin, mine.size()));
    serial.fit(single, ChunkLayout(X.rows(), 6, 1), X, d.target);
    fail_unless(same_gradient_trees(sharded.trees(), serial.trees()), "the regressor's trees");
    fail_unless(sharded.train_loss() == serial.train_loss(), "the regressor's training losses");
  }
  {
    const Dataset iris = load_dataset("iris");
    const GradientBoostingClassifierOptions o{.boosting = {.max_iterations = 5, .max_leaf_nodes = 4,
                                                           .min_samples_leaf = 5}};
    const ChunkLayout layout(iris.features.rows(), 5, comm.size());
    const IndexRange mine = layout.rank_rows(comm.rank());
    GradientBoostingClassifier sharded(o), serial(o);
    sharded.fit(comm, layout, iris.features.middleRows(mine.begin, mine.size()),
                iris.target.segment(mine.begin, mine.size()));
    serial.fit(single, ChunkLayout(iris.features.rows(), 5, 1), iris.features, iris.target);
    fail_unless(sharded.num_classes() == 3 && same_gradient_trees(sharded.trees(), serial.trees()),
                "the classifier's trees");
  }
}

}  // namespace dagml::testing
