// Consistency checks of a loaded estimator's fitted state, for the check_loaded of an
// estimator's serialize (Note [The estimator contract] in models/io/estimator.h). A model file
// that passes its checksum can still be hand-made or written by a buggy program; predicting with
// arrays of the wrong shape or labels out of range would read out of bounds, so every array a
// prediction indexes is checked here first. Each check throws ParseError through the archive
// (naming the file and the byte offset): "<type>: expected <what> of shape R×C, found r×c".
#pragma once

#include "graph/tensor.h"

namespace dagml {

class ModelInputArchive;

// ParseError unless m is rows×cols.
void expect_shape(const ModelInputArchive& ar, const char* type, const char* what, const Tensor& m, Index rows,
                  Index cols);
// ParseError unless v has `size` entries.
void expect_size(const ModelInputArchive& ar, const char* type, const char* what, const Vector& v, Index size);
// The most classes a loaded classifier may declare. A class count that no stored array bounds
// (a bagging ensemble whose members each saw a subset of the classes) sizes every prediction's
// n × K scores, so a file could otherwise ask predict for exabytes.
inline constexpr Index kMaxLoadedClasses = 1'000'000;
// ParseError unless 2 ≤ num_classes ≤ kMaxLoadedClasses.
void expect_class_count(const ModelInputArchive& ar, const char* type, Index num_classes);
// ParseError unless every entry of `labels` is an integer in 0..num_classes − 1.
void expect_labels(const ModelInputArchive& ar, const char* type, const char* what, const Vector& labels,
                   Index num_classes);

}  // namespace dagml
