#include "models/io/text_model_file.h"
#include "models/classify/kernel_io.h"

#include <fmt/format.h>

#include "graph/error.h"

namespace dagml {

void save_kernel(ModelWriter& w, const Kernel& kernel, const char* who) {
  if (dynamic_cast<const LinearKernel*>(&kernel)) {
    w.put_text("kernel", "linear");
  } else if (const auto* p = dynamic_cast<const PolynomialKernel*>(&kernel)) {
    w.put_text("kernel", "polynomial");
    w.put_scalar("kernel_degree", p->degree());
    w.put_scalar("kernel_gamma", p->gamma());
    w.put_scalar("kernel_coef0", p->coef0());
  } else if (const auto* r = dynamic_cast<const RbfKernel*>(&kernel)) {
    w.put_text("kernel", "rbf");
    w.put_scalar("kernel_gamma", r->gamma());
  } else {
    throw ValueError(fmt::format("{}: kernel {} is custom and cannot be saved; expected linear, polynomial or rbf", who,
                                 kernel.name()));
  }
}

KernelPtr load_kernel(const ModelReader& r) {
  const std::string& type = r.text("kernel");
  if (type == "linear") return std::make_shared<LinearKernel>();
  if (type == "polynomial")
    return std::make_shared<PolynomialKernel>(static_cast<int>(r.scalar("kernel_degree")), r.scalar("kernel_gamma"),
                                              r.scalar("kernel_coef0"));
  if (type == "rbf") return std::make_shared<RbfKernel>(r.scalar("kernel_gamma"));
  throw ValueError(fmt::format("load: unknown kernel type '{}'; expected linear, polynomial or rbf", type));
}

Vector index_vector(const std::vector<Index>& indices) {
  Vector v(static_cast<Index>(indices.size()));
  for (size_t i = 0; i < indices.size(); ++i) v(static_cast<Index>(i)) = static_cast<Scalar>(indices[i]);
  return v;
}

std::vector<Index> vector_indices(const Vector& v) {
  std::vector<Index> out(static_cast<size_t>(v.size()));
  for (Index i = 0; i < v.size(); ++i) out[static_cast<size_t>(i)] = static_cast<Index>(v(i));
  return out;
}

}  // namespace dagml
