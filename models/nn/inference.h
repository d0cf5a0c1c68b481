// Evaluation-mode passes over a whole data set, in batches: one evaluation graph is built for a
// batch and replayed (Executor) over the rest, so memory stays bounded by the batch size.
#pragma once

#include <functional>
#include <vector>

#include "models/nn/layer.h"

namespace dagml::nn {

// The network's outputs f(X) (n × out), in evaluation mode, batch_size rows at a time. Throws
// ShapeError (from the ops) when X has the wrong width, ValueError if X is empty or batch_size < 1.
Tensor forward_batches(Layer& network, const Tensor& X, Index batch_size = 256);

// The index of each row's largest entry (the first on ties), as labels 0..K−1.
Vector argmax_rows(const Tensor& scores);
// Each row replaced by its softmax (shifted by the row maximum).
Tensor softmax_rows(Tensor scores);

// Parameter values as one flat vector (each tensor row-major, in list order), and back
// (ShapeError when the length differs).
Vector flatten_parameters(const std::vector<Parameter*>& parameters);
void unflatten_parameters(const Vector& theta, const std::vector<Parameter*>& parameters);

}  // namespace dagml::nn
