// Minimal cost-complexity pruning (Breiman et al., CART, ch. 3; scikit-learn's
// cost_complexity_pruning_path and ccp_alpha). The notes only say "prune a fully grown tree by
// re-combining splits if doing so reduces validation error" (notes 000 L4745, notes 001 L1068);
// this is the standard completion, and choosing α by cross-validation gives that validation-driven
// pruning.
//
// Note [Cost-complexity pruning]
// A node t alone costs R(t) = (W_t / W_root) · i(t); a subtree T_t costs R(T_t) = Σ_{leaves l of
// T_t} R(l), and with complexity α, R_α(T) = R(T) + α |leaves(T)|. Collapsing T_t into the leaf t
// pays off once α ≥ g(t) = (R(t) − R(T_t)) / (|leaves(T_t)| − 1), its effective α. Weakest-link
// pruning repeatedly collapses the internal node with the smallest g(t) (ties: the smallest node
// number) and records (g(t), R(T)) after each collapse, from (0, R(T_full)) until only the root is
// left: the path of α values and total leaf impurities. Pruning with a given α collapses while
// the smallest g(t) ≤ α. The pruned tree keeps its nodes' statistics and values and is renumbered
// in pre-order.
#pragma once

#include "models/tree/tree.h"

namespace dagml::tree {

struct CostComplexityPath {
  Vector ccp_alphas;  // increasing effective α values, the first 0
  Vector impurities;  // R(T) of the subtree after each step: total weighted leaf impurity
};

CostComplexityPath cost_complexity_path(const Tree& tree);

// The minimal cost-complexity subtree for α = ccp_alpha ≥ 0.
Tree prune_cost_complexity(const Tree& tree, Scalar ccp_alpha);

}  // namespace dagml::tree
