// The ranking score of the positive class (class 1) of a binary classifier, for ROC and
// precision–recall: its probability when the model gives probabilities, else its decision value.
#pragma once

#include <optional>

#include "models/io/registry.h"

namespace dagml::cli {

// nullopt when the model has neither (or more than two columns of them).
std::optional<Vector> positive_class_scores(const AnyEstimator& model, const Tensor& X);

}  // namespace dagml::cli
