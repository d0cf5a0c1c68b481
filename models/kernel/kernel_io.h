// Kernels as option values: one text form for the command line, the option schema and model
// files, so that any options struct with a KernelPtr field (SVCOptions, NeighborSearchOptions,
// KernelRidgeOptions …) lists it in its visit() like any other field (models/io/option_fields.h).
//
// Note [Kernel text form]
// The text of a built-in kernel is its Kernel::name():
//
//   linear
//   polynomial(degree=3, gamma=0.5, coef0=1)     degree required; gamma and coef0 default to 1
//   rbf(gamma=0.5)                               exp(−γ‖x − z‖²)
//   rbf(length_scale=2)                          exp(−‖x − z‖²/(2ℓ²)); a list [ℓ₁, …, ℓ_d] for ARD
//   matern(nu=2.5, length_scale=1)               nu ∈ {0.5, 1.5, 2.5}; length_scale may be a list
//   rational_quadratic(length_scale=1, alpha=1)
//   periodic(length_scale=1, period=1)
//   constant(value=1)    white(noise=1)          (defaults 1, also for the three above)
//   k1 + k2, k1 * k2, (k1 + k2) * k3, 2 * k      sums and products (kernel_algebra.h); a bare
//                                                number is a constant kernel
//
// A hyperparameter h may carry bounds for optimisers (Note [Kernel hyperparameters]):
// h_bounds=(1e-3, 1e3), or h_bounds=fixed; omitted, they are (1e-5, 1e5).
//
// Numbers are written in the shortest form that reads back to the same double, so the text
// round-trips exactly; spaces are optional and parameters may come in any order. The empty text
// is the null KernelPtr (an estimator's documented default, e.g. SVC's scaled RBF). A model file
// stores the text; a CustomKernel has no text form (it is code), so saving one is a ValueError.
// All of this is found by argument-dependent lookup: KernelPtr is std::shared_ptr<const Kernel>.
#pragma once

#include <cereal/macros.hpp>

#include <string>
#include <string_view>

#include "models/kernel/kernel.h"

namespace dagml {

class ModelOutputArchive;
class ModelInputArchive;

// The kernel the text names (Note [Kernel text form]). Throws ValueError, saying which forms are
// expected, for anything else, and the kernel's own ValueError for a bad parameter (gamma ≤ 0 …).
KernelPtr parse_kernel(std::string_view text);

// The option-field protocol of models/io/option_fields.h.
inline std::string option_type_name(const KernelPtr&) { return "kernel"; }
std::string format_option(const KernelPtr& kernel);  // "" for null, else kernel->name()
void parse_option(std::string_view key, std::string_view text, KernelPtr& kernel);

// Model files: the text form. Saving a CustomKernel throws ValueError; loading a text that names
// no built-in kernel throws ParseError naming the file.
void CEREAL_SAVE_FUNCTION_NAME(ModelOutputArchive& ar, const KernelPtr& kernel);
void CEREAL_LOAD_FUNCTION_NAME(ModelInputArchive& ar, KernelPtr& kernel);

}  // namespace dagml
