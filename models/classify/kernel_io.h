// Saving the built-in kernels (linear, polynomial, RBF) in a model file, and index lists as
// vectors. Shared by the kernel classifiers' save/load.
#pragma once

#include <vector>

#include "graph/tensor.h"
#include "models/io/text_model_file.h"
#include "models/kernel/kernel.h"

namespace dagml {

// Writes entries "kernel" (text: linear, polynomial or rbf) and its parameters. Throws
// ValueError naming `who` for a custom kernel, which has no file form.
void save_kernel(ModelWriter& w, const Kernel& kernel, const char* who);
// Reads them back: ParseError (from the reader) when an entry is missing, ValueError for an
// unknown kernel type or invalid parameters.
KernelPtr load_kernel(const ModelReader& r);

Vector index_vector(const std::vector<Index>& indices);
std::vector<Index> vector_indices(const Vector& v);

}  // namespace dagml
