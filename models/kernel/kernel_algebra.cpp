#include "models/kernel/kernel_algebra.h"

#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "graph/error.h"

namespace dagml {
namespace {
KernelHyperparameter renamed(KernelHyperparameter h, const char* name) {
  h.name = name;
  return h;
}

KernelPtr checked_operand(KernelPtr k, const char* who) {
  if (!k) throw ValueError(fmt::format("{}: expected two kernels, found a null pointer", who));
  return k;
}

// An operand's name inside a product: a sum gets parentheses.
std::string factor_name(const Kernel& k) {
  const auto* composite = dynamic_cast<const CompositeKernel*>(&k);
  return composite && composite->operation() == CompositeKernel::Operation::Sum ? "(" + k.name() + ")" : k.name();
}
}  // namespace

// --- Constant and white noise ------------------------------------------------------------------------

ConstantKernel::ConstantKernel(KernelHyperparameter value) : value_(renamed(std::move(value), "value")) {
  check_hyperparameter(value_, "ConstantKernel");
  if (value_.value.size() != 1) throw ValueError("ConstantKernel: expected one value");
}
ConstantKernel::ConstantKernel(Scalar value) : ConstantKernel(scalar_hyperparameter("value", value)) {}

std::string ConstantKernel::name() const { return fmt::format("constant({})", format_hyperparameter(value_)); }

void ConstantKernel::gram_block(const Tensor&, const RowsRef&, Index, Eigen::Ref<Tensor> out) const {
  out.setConstant(value());
}

KernelPtr ConstantKernel::with_values(const std::vector<KernelHyperparameter>& values) const {
  return std::make_shared<ConstantKernel>(values[0]);
}

// K = e^{θ} 𝟙.
Var ConstantKernel::build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const {
  return rows.A.graph().constant(Tensor::Ones(rows.A.rows(), rows.B.rows())) * exp(log_values[0]);
}

WhiteKernel::WhiteKernel(KernelHyperparameter noise) : noise_(renamed(std::move(noise), "noise")) {
  check_hyperparameter(noise_, "WhiteKernel");
  if (noise_.value.size() != 1) throw ValueError("WhiteKernel: expected one noise level");
}
WhiteKernel::WhiteKernel(Scalar noise) : WhiteKernel(scalar_hyperparameter("noise", noise)) {}

std::string WhiteKernel::name() const { return fmt::format("white({})", format_hyperparameter(noise_)); }

Scalar WhiteKernel::operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const {
  return x == z ? noise() : 0;
}

void WhiteKernel::gram_block(const Tensor& A_rows, const RowsRef&, Index diagonal_offset,
                             Eigen::Ref<Tensor> out) const {
  out.setZero();
  if (diagonal_offset >= 0)
    for (Index i = 0; i < A_rows.rows(); ++i) out(i, diagonal_offset + i) = noise();
}

KernelPtr WhiteKernel::with_values(const std::vector<KernelHyperparameter>& values) const {
  return std::make_shared<WhiteKernel>(values[0]);
}

// K = e^{θ} I on a training Gram matrix, 0 otherwise.
Var WhiteKernel::build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const {
  Graph& g = rows.A.graph();
  if (!rows.same) return g.constant(Tensor::Zero(rows.A.rows(), rows.B.rows()));
  return g.constant(Tensor::Identity(rows.A.rows(), rows.A.rows())) * exp(log_values[0]);
}

// --- Sums and products -------------------------------------------------------------------------------

CompositeKernel::CompositeKernel(Operation operation, KernelPtr left, KernelPtr right)
    : operation_(operation),
      left_(checked_operand(std::move(left), "CompositeKernel")),
      right_(checked_operand(std::move(right), "CompositeKernel")) {}

std::string CompositeKernel::name() const {
  if (operation_ == Operation::Sum) return left_->name() + " + " + right_->name();
  return factor_name(*left_) + " * " + factor_name(*right_);
}

Scalar CompositeKernel::operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const {
  const Scalar a = (*left_)(x, z), b = (*right_)(x, z);
  return operation_ == Operation::Sum ? a + b : a * b;
}

std::vector<KernelHyperparameter> CompositeKernel::hyperparameters() const {
  std::vector<KernelHyperparameter> all = left_->hyperparameters();
  for (KernelHyperparameter& h : right_->hyperparameters()) all.push_back(std::move(h));
  return all;
}

void CompositeKernel::gram_block(const Tensor& A_rows, const RowsRef& B, Index diagonal_offset,
                                 Eigen::Ref<Tensor> out) const {
  left_->gram_block(A_rows, B, diagonal_offset, out);
  Tensor other(out.rows(), out.cols());
  right_->gram_block(A_rows, B, diagonal_offset, other);
  if (operation_ == Operation::Sum)
    out += other;
  else
    out.array() *= other.array();
}

// Each operand rebuilt from its share of `values` (an operand without hyperparameters is kept).
KernelPtr CompositeKernel::with_values(const std::vector<KernelHyperparameter>& values) const {
  const std::size_t at = left_->hyperparameters().size();
  const std::vector<KernelHyperparameter> left_values(values.begin(), values.begin() + at);
  const std::vector<KernelHyperparameter> right_values(values.begin() + at, values.end());
  return std::make_shared<CompositeKernel>(operation_, left_values.empty() ? left_ : left_->with_values(left_values),
                                           right_values.empty() ? right_ : right_->with_values(right_values));
}

Var CompositeKernel::build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const {
  const std::size_t at = left_->hyperparameters().size();
  const Var a = left_->build_gram_graph(rows, log_values.first(at));
  const Var b = right_->build_gram_graph(rows, log_values.subspan(at));
  return operation_ == Operation::Sum ? a + b : a * b;
}

KernelPtr constant(Scalar value) { return std::make_shared<ConstantKernel>(value); }
KernelPtr white(Scalar noise) { return std::make_shared<WhiteKernel>(noise); }
KernelPtr operator+(KernelPtr left, KernelPtr right) {
  return std::make_shared<CompositeKernel>(CompositeKernel::Operation::Sum, std::move(left), std::move(right));
}
KernelPtr operator*(KernelPtr left, KernelPtr right) {
  return std::make_shared<CompositeKernel>(CompositeKernel::Operation::Product, std::move(left), std::move(right));
}
KernelPtr operator*(Scalar c, KernelPtr kernel) { return constant(c) * std::move(kernel); }

}  // namespace dagml
