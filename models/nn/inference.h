// Evaluation-mode passes over a whole data set, in batches: one evaluation graph is built for a
// batch and replayed (Executor) over the rest, so memory stays bounded by the batch size. Labels
// and probabilities from a classifier's outputs are argmax_rows and softmax_rows
// (models/classify/score_labels.h).
#pragma once

#include <functional>
#include <vector>

#include "models/nn/layer.h"

namespace dagml::nn {

// The network's outputs f(X) (n × out), in evaluation mode, batch_size rows at a time. Reads the
// network only (its own graph each call), so several threads may call it on one network at once
// (Note [Building is const] in layer.h). Throws ShapeError (from the ops) when X has the wrong
// width, ValueError if X is empty or batch_size < 1.
Tensor forward_batches(const Layer& network, const Tensor& X, Index batch_size = 256);

// Parameter values as one flat vector (each tensor row-major, in list order), and back
// (ShapeError when the length differs).
Vector flatten_parameters(const std::vector<Parameter*>& parameters);
void unflatten_parameters(const Vector& theta, const std::vector<Parameter*>& parameters);

}  // namespace dagml::nn
