#include "models/kernel/kernel.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "autodiff/softmax.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {
namespace {
// Rows of A per parallel task: a fixed split, so results do not depend on the thread count.
constexpr Index kRowsPerBlock = 64;

// Note [Symmetric Gram]
// The Gram matrix of a set of rows with itself is symmetric: row block [b, e) is computed against
// the rows [0, e) only (the blocks on and left of the diagonal, about half of the work and of the
// packing of B into a product), and the upper triangle is then copied from the lower one, so
// K(i, j) and K(j, i) are the same number.

// Runs body(begin, count) over fixed blocks of `rows` rows, in parallel.
template <class Body>
void for_row_blocks(Index rows, const Body& body) {
  const Index blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  tbb::parallel_for(tbb::blocked_range<Index>(0, blocks, 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index b = r.begin(); b != r.end(); ++b) {
      const Index begin = b * kRowsPerBlock;
      body(begin, std::min(kRowsPerBlock, rows - begin));
    }
  });
}

bool is_constant(Var v) { return v.graph().node(v.id()).kind == NodeKind::Constant; }
}  // namespace

// --- The Gram matrix ------------------------------------------------------------------------------

void Kernel::gram_block(const Tensor& A_rows, const RowsRef& B, Index, Eigen::Ref<Tensor> out) const {
  for (Index i = 0; i < A_rows.rows(); ++i) {
    const Vector a = A_rows.row(i).transpose();
    for (Index j = 0; j < B.rows(); ++j) out(i, j) = (*this)(a, B.row(j).transpose());
  }
}

void Kernel::gram_rows(const Tensor& A, const Tensor& B, bool same, Tensor& K) const {
  if (A.cols() != B.cols())
    throw ShapeError(fmt::format("{} kernel: the two sets of rows have {} and {} features", name(), A.cols(), B.cols()));
  const std::string who = name() + " kernel";
  check_finite(A, who.c_str());
  if (!same) check_finite(B, who.c_str());
  K.resize(A.rows(), B.rows());
  for_row_blocks(A.rows(), [&](Index begin, Index count) {
    if (same)  // Note [Symmetric Gram]
      gram_block(A.middleRows(begin, count), B.topRows(begin + count), begin, K.block(begin, 0, count, begin + count));
    else
      gram_block(A.middleRows(begin, count), B, -1, K.middleRows(begin, count));
  });
  if (same)
    for_row_blocks(A.rows(), [&](Index begin, Index count) {
      for (Index i = begin; i < begin + count; ++i) K.row(i).tail(K.cols() - i - 1) = K.col(i).tail(K.cols() - i - 1);
    });
}

Tensor Kernel::gram(const Tensor& A, const Tensor& B) const {
  Tensor K;
  gram_rows(A, B, false, K);
  return K;
}
Tensor Kernel::gram(const Tensor& A) const {
  Tensor K;
  gram_rows(A, A, true, K);
  return K;
}
void Kernel::gram_into(const Tensor& A, Tensor& K) const { gram_rows(A, A, true, K); }

// --- Hyperparameters (Note [Kernel hyperparameters]) ------------------------------------------------

Vector Kernel::free_log_hyperparameters() const {
  std::vector<Scalar> theta;
  for (const KernelHyperparameter& h : hyperparameters())
    if (!h.fixed)
      for (Scalar v : h.value) theta.push_back(std::log(v));
  return Eigen::Map<const Vector>(theta.data(), static_cast<Index>(theta.size()));
}

std::pair<Vector, Vector> Kernel::free_log_bounds() const {
  std::vector<Scalar> lower, upper;
  for (const KernelHyperparameter& h : hyperparameters())
    if (!h.fixed)
      for (Index k = 0; k < h.value.size(); ++k) {
        lower.push_back(std::log(h.lower));
        upper.push_back(std::log(h.upper));
      }
  const auto n = static_cast<Index>(lower.size());
  return {Eigen::Map<const Vector>(lower.data(), n), Eigen::Map<const Vector>(upper.data(), n)};
}

Index Kernel::num_free_blocks() const {
  Index n = 0;
  for (const KernelHyperparameter& h : hyperparameters()) n += h.fixed ? 0 : 1;
  return n;
}

std::vector<Var> Kernel::log_hyperparameter_nodes(Graph& graph, bool as_parameters) const {
  std::vector<Var> nodes;
  for (const KernelHyperparameter& h : hyperparameters()) {
    if (h.fixed) continue;
    const Tensor theta = h.value.array().log().matrix().transpose();
    nodes.push_back(as_parameters ? graph.parameter(h.name, theta) : graph.constant(theta));
  }
  return nodes;
}

KernelPtr Kernel::with_log_hyperparameters(std::span<const Scalar> theta) const {
  std::vector<KernelHyperparameter> values = hyperparameters();
  std::size_t next = 0;
  for (KernelHyperparameter& h : values) {
    if (h.fixed) continue;
    for (Index k = 0; k < h.value.size(); ++k, ++next) {
      if (next >= theta.size()) break;
      h.value[k] = std::exp(theta[next]);
    }
  }
  const Index expected = free_log_hyperparameters().size();
  if (next != theta.size() || static_cast<Index>(next) != expected)
    throw ShapeError(fmt::format("{}: expected {} log-hyperparameters, found {}", name(), expected, theta.size()));
  if (values.empty()) {
    KernelPtr self = weak_from_this().lock();
    if (!self) throw ValueError(fmt::format("{}: kernels are shared objects; make them with std::make_shared", name()));
    return self;
  }
  return with_values(values);
}

KernelPtr Kernel::with_values(const std::vector<KernelHyperparameter>&) const {
  throw ValueError(fmt::format("{}: this kernel has no hyperparameters to set", name()));
}

Var Kernel::gram_graph(const GramRows& rows, std::span<const Var> log_hyperparameters) const {
  if (rows.A.cols() != rows.B.cols())
    throw ShapeError(
        fmt::format("{} kernel: the two sets of rows have {} and {} features", name(), rows.A.cols(), rows.B.cols()));
  const std::vector<KernelHyperparameter> blocks = hyperparameters();
  std::vector<Var> log_values;
  std::size_t next = 0;
  for (const KernelHyperparameter& h : blocks) {
    if (h.fixed) {
      log_values.push_back(rows.A.graph().constant(h.value.array().log().matrix().transpose()));
      continue;
    }
    if (next >= log_hyperparameters.size()) break;
    const Var v = log_hyperparameters[next++];
    if (v.rows() != 1 || v.cols() != h.value.size())
      throw ShapeError(fmt::format("{}: the log-hyperparameter node of {} must be 1×{}, found {}×{}", name(), h.name,
                                   h.value.size(), v.rows(), v.cols()));
    log_values.push_back(v);
  }
  if (next != log_hyperparameters.size() || log_values.size() != blocks.size())
    throw ShapeError(fmt::format("{}: expected {} log-hyperparameter nodes, found {}", name(), num_free_blocks(),
                                 log_hyperparameters.size()));
  return build_gram_graph(rows, log_values);
}

Var Kernel::build_gram_graph(const GramRows&, std::span<const Var>) const {
  throw ValueError(fmt::format("kernel {} is user code and has no graph form; expected a built-in kernel", name()));
}

void check_hyperparameter(const KernelHyperparameter& h, const char* who) {
  if (h.value.size() == 0 || !h.value.allFinite() || !(h.value.array() > 0).all())
    throw ValueError(fmt::format("{}: expected {} > 0 and finite, found [{}]", who, h.name,
                                 fmt::join(h.value.begin(), h.value.end(), ", ")));
  if (!(h.lower > 0) || !(h.lower <= h.upper) || !std::isfinite(h.upper))
    throw ValueError(fmt::format("{}: expected bounds 0 < lower ≤ upper < ∞ for {}, found ({}, {})", who, h.name,
                                 h.lower, h.upper));
}

std::string format_hyperparameter(const KernelHyperparameter& h) {
  std::string text = h.value.size() == 1 ? fmt::format("{}={}", h.name, h.value[0])
                                         : fmt::format("{}=[{}]", h.name, fmt::join(h.value.begin(), h.value.end(), ", "));
  const KernelHyperparameter defaults;
  if (h.fixed) return text + fmt::format(", {}_bounds=fixed", h.name);
  if (h.lower != defaults.lower || h.upper != defaults.upper)
    text += fmt::format(", {}_bounds=({}, {})", h.name, h.lower, h.upper);
  return text;
}

// --- Distances ---------------------------------------------------------------------------------------

Tensor squared_distances(const Tensor& A, const Tensor& B) {
  DAGML_CHECK(A.cols() == B.cols(), "squared_distances: feature counts differ");
  Tensor D(A.rows(), B.rows());
  for_row_blocks(A.rows(), [&](Index begin, Index count) {
    for (Index i = begin; i < begin + count; ++i)
      for (Index j = 0; j < B.rows(); ++j) D(i, j) = (A.row(i) - B.row(j)).squaredNorm();
  });
  return D;
}

Var squared_distances_graph(const GramRows& rows) {
  Graph& g = rows.A.graph();
  if (is_constant(rows.A) && is_constant(rows.B)) {
    const Tensor& A = rows.A.value();
    return g.constant(squared_distances(A, rows.same ? A : rows.B.value()));
  }
  // [‖a‖², 1, −2a] · [1, ‖b‖², b]ᵀ = ‖a‖² + ‖b‖² − 2aᵀb.
  const Var ones_a = g.constant(Tensor::Ones(rows.A.rows(), 1)), ones_b = g.constant(Tensor::Ones(rows.B.rows(), 1));
  const Var left = concat_cols({row_sums(square(rows.A)), ones_a, rows.A * -2.0});
  const Var right = concat_cols({ones_b, row_sums(square(rows.B)), rows.B});
  Var D = clamp(matmul(left, right, false, true), 0, std::numeric_limits<Scalar>::infinity());
  if (rows.same) D = D * g.constant(Tensor::Ones(D.rows(), D.cols()) - Tensor::Identity(D.rows(), D.cols()));
  return D;
}

Tensor kernel_distances_squared(const Kernel& kernel, const Tensor& A, const Tensor& B) {
  Tensor D = -2 * kernel.gram(A, B);
  for (Index i = 0; i < A.rows(); ++i) D.row(i).array() += kernel(A.row(i).transpose(), A.row(i).transpose());
  for (Index j = 0; j < B.rows(); ++j) D.col(j).array() += kernel(B.row(j).transpose(), B.row(j).transpose());
  return D.cwiseMax(0);
}

// --- Linear, polynomial, RBF --------------------------------------------------------------------------

void LinearKernel::gram_block(const Tensor& A_rows, const RowsRef& B, Index, Eigen::Ref<Tensor> out) const {
  out.noalias() = A_rows * B.transpose();
}

Var LinearKernel::build_gram_graph(const GramRows& rows, std::span<const Var>) const {
  return matmul(rows.A, rows.B, false, true);
}

PolynomialKernel::PolynomialKernel(int degree, Scalar gamma, Scalar coef0) : degree_(degree), gamma_(gamma), coef0_(coef0) {
  if (degree < 1 || !(gamma > 0) || !(coef0 >= 0) || !std::isfinite(gamma) || !std::isfinite(coef0))
    throw ValueError(fmt::format("PolynomialKernel: expected degree ≥ 1, gamma > 0, coef0 ≥ 0; found {}, {}, {}", degree,
                                 gamma, coef0));
}

std::string PolynomialKernel::name() const {
  return fmt::format("polynomial(degree={}, gamma={}, coef0={})", degree_, gamma_, coef0_);
}

Scalar PolynomialKernel::operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const {
  return std::pow(gamma_ * x.dot(z) + coef0_, degree_);
}

void PolynomialKernel::gram_block(const Tensor& A_rows, const RowsRef& B, Index, Eigen::Ref<Tensor> out) const {
  out.noalias() = A_rows * B.transpose();
  out = (gamma_ * out.array() + coef0_).pow(degree_).matrix();
}

std::vector<KernelHyperparameter> PolynomialKernel::hyperparameters() const {
  KernelHyperparameter coef0 = scalar_hyperparameter("coef0", coef0_ > 0 ? coef0_ : 1);
  coef0.fixed = !(coef0_ > 0);
  return {scalar_hyperparameter("gamma", gamma_), coef0};
}

KernelPtr PolynomialKernel::with_values(const std::vector<KernelHyperparameter>& values) const {
  return std::make_shared<PolynomialKernel>(degree_, values[0].value[0], coef0_ > 0 ? values[1].value[0] : 0);
}

// K = (γ ABᵀ + c)ᵖ with γ = e^{θ₀}, c = e^{θ₁} (or 0).
Var PolynomialKernel::build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const {
  Var inner = matmul(rows.A, rows.B, false, true) * exp(log_values[0]);
  if (coef0_ > 0) inner = inner + exp(log_values[1]);
  return pow(inner, static_cast<Scalar>(degree_));
}

RbfKernel::RbfKernel(Scalar gamma, Scalar lower, Scalar upper, bool fixed)
    : gamma_{.name = "gamma", .value = Vector::Constant(1, gamma), .lower = lower, .upper = upper, .fixed = fixed} {
  check_hyperparameter(gamma_, "RbfKernel");
}

std::string RbfKernel::name() const { return fmt::format("rbf({})", format_hyperparameter(gamma_)); }

Scalar RbfKernel::operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const {
  return std::exp(-gamma() * (x - z).squaredNorm());
}

void RbfKernel::gram_block(const Tensor& A_rows, const RowsRef& B, Index diagonal_offset,
                           Eigen::Ref<Tensor> out) const {
  // ‖a − b‖² = ‖a‖² + ‖b‖² − 2 aᵀb, clamped at 0 against rounding; exactly 0 on a diagonal.
  out.noalias() = -2 * A_rows * B.transpose();
  out.colwise() += A_rows.rowwise().squaredNorm();
  out.rowwise() += B.rowwise().squaredNorm().transpose();
  out = (-gamma() * out.array().max(Scalar(0))).matrix();
  // exp in vector packets, 0 where the value would be subnormal (far points would otherwise fill
  // the Gram matrix with subnormals, slow in every later product).
  for (Index i = 0; i < out.rows(); ++i) detail::exp_in_packets(out.row(i).data(), out.cols());
  if (diagonal_offset >= 0)
    for (Index i = 0; i < A_rows.rows(); ++i) out(i, diagonal_offset + i) = 1;
}

KernelPtr RbfKernel::with_values(const std::vector<KernelHyperparameter>& values) const {
  return std::make_shared<RbfKernel>(values[0].value[0], gamma_.lower, gamma_.upper, gamma_.fixed);
}

// K = exp(−e^{θ} D).
Var RbfKernel::build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const {
  return exp(neg(squared_distances_graph(rows) * exp(log_values[0])));
}

CustomKernel::CustomKernel(std::string name, Function k) : name_(std::move(name)), k_(std::move(k)) {
  if (!k_) throw ValueError(fmt::format("CustomKernel '{}': the function is empty", name_));
}

}  // namespace dagml
