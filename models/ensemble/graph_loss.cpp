#include "models/ensemble/graph_loss.h"

#include <fmt/format.h>

#include <Eigen/QR>
#include <cmath>

#include "autodiff/derivatives.h"
#include "autodiff/reduce.h"
#include "graph/error.h"

namespace dagml {

GraphBoostingLoss::GraphBoostingLoss(std::string name, Index outputs, BoostingLink link, Builder build)
    : name_(std::move(name)), outputs_(outputs), link_(link), graph_(std::make_unique<Graph>()) {
  if (outputs < 1) throw ValueError(fmt::format("GraphBoostingLoss '{}': expected K ≥ 1 outputs, found {}", name_, outputs));
  Graph& g = *graph_;
  // Built on two rows, so that a loss reduced over the rows shows.
  F_ = g.input("F", Tensor::Zero(2, outputs));
  y_ = g.input("y", Tensor::Zero(2, 1));
  losses_ = build(F_, y_);
  if (losses_.rows() != 2 || losses_.cols() != 1) {
    throw ValueError(fmt::format("GraphBoostingLoss '{}': expected the builder to return the n × 1 per-row losses "
                                 "(2 × 1 for two rows), found {} × {} for two rows",
                                 name_, losses_.rows(), losses_.cols()));
  }
  const Var total = sum(losses_);
  gradient_ = gradient(total, F_);
  std::vector<Var> outs{losses_, gradient_};
  for (Index k = 0; k < outputs; ++k) {
    units_.push_back(g.input(fmt::format("E{}", k), Tensor::Zero(2, outputs)));
    products_.push_back(hvp(total, F_, units_.back()));
    outs.push_back(products_.back());
  }
  executor_ = std::make_unique<Executor>(g, std::move(outs));
}

void GraphBoostingLoss::run(const Vector& y, const Tensor& F) const {
  DAGML_CHECK(F.cols() == outputs_ && F.rows() == y.size(), "GraphBoostingLoss: F is {} × {} for {} targets", F.rows(),
              F.cols(), y.size());
  executor_->feed(F_, F);
  executor_->feed(y_, Tensor(y));
  for (Index k = 0; k < outputs_; ++k) {
    Tensor unit = Tensor::Zero(F.rows(), outputs_);
    unit.col(k).setOnes();
    executor_->feed(units_[static_cast<std::size_t>(k)], unit);
  }
  executor_->run();
}

void GraphBoostingLoss::gradients(const Vector& y, const Tensor& F, Tensor& G, Tensor& H) const {
  run(y, F);
  G = gradient_.value();
  H.resize(F.rows(), outputs_);
  for (Index k = 0; k < outputs_; ++k) H.col(k) = products_[static_cast<std::size_t>(k)].value().col(k);
}

Vector GraphBoostingLoss::row_losses(const Vector& y, const Tensor& F) const {
  run(y, F);
  return losses_.value().col(0);
}

std::vector<Tensor> GraphBoostingLoss::hessian_blocks(const Vector& y, const Tensor& F) const {
  run(y, F);
  std::vector<Tensor> blocks(static_cast<std::size_t>(F.rows()), Tensor(outputs_, outputs_));
  for (Index k = 0; k < outputs_; ++k) {
    const Tensor& P = products_[static_cast<std::size_t>(k)].value();
    for (Index i = 0; i < F.rows(); ++i) blocks[static_cast<std::size_t>(i)].col(k) = P.row(i).transpose();
  }
  return blocks;
}

Vector GraphBoostingLoss::baseline(const Vector& y, const Vector& w, Index outputs) const {
  DAGML_CHECK(outputs == outputs_, "GraphBoostingLoss: {} outputs asked of a loss with {}", outputs, outputs_);
  if (outputs_ == 1) return BoostingLoss::baseline(y, w, 1);
  Vector c = Vector::Zero(outputs_);
  for (int step = 0; step < 100; ++step) {
    Tensor F(y.size(), outputs_);
    for (Index i = 0; i < y.size(); ++i) F.row(i) = c.transpose();
    const std::vector<Tensor> blocks = hessian_blocks(y, F);
    const Vector g = gradient_.value().transpose() * w;
    Tensor H = Tensor::Zero(outputs_, outputs_);
    for (std::size_t i = 0; i < blocks.size(); ++i) H += w(static_cast<Index>(i)) * blocks[i];
    const Eigen::MatrixXd Hd = H;
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
    cod.setThreshold(1e-10);  // the softmax's Σ H_i is singular along (1, …, 1)
    const Vector delta = cod.compute(Hd).solve(g);
    if (!delta.allFinite()) break;
    c -= delta;
    if (delta.cwiseAbs().maxCoeff() <= 1e-15 * std::max<Scalar>(1, c.cwiseAbs().maxCoeff())) break;
  }
  return c;
}

}  // namespace dagml
