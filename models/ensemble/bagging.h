// Bagging (bootstrap aggregation, Breiman 1996; notes 004 Algorithm 12 and §2.5.3, notes 001
// L1089, notes 000 §7.2) of any registered estimator: what BaggingClassifier and BaggingRegressor
// share — the options, each member's rows and features, the members' estimator and option text,
// and their storage in a model file.
//
// Note [Bagging draws]
// Member b (0 ≤ b < num_estimators) of a fit with seed s sees m = max(1, ⌊max_samples·n⌋) rows and
// k = max(1, ⌊max_features·d⌋) features:
//   rows      from std::mt19937_64 seeded with derive_seed(s, 2b): with bootstrap, m draws
//             uniform_below(n) with replacement (forest::bootstrap_counts; for m = n the very
//             bootstrap sample of the random forest's tree b with the same seed); without, the
//             first m of a Fisher–Yates shuffle of 0..n−1 (random_permutation). Rows in
//             increasing order, row i repeated as often as it was drawn;
//   features  all d in order when k = d and not bootstrap_features; else from std::mt19937_64
//             seeded with derive_seed(s, 2b + 1): k draws with replacement (bootstrap_features)
//             or the first k of a shuffle of 0..d−1, in increasing order.
// So member b depends only on (s, b), the members are fitted in parallel by TBB each into its
// own slot, every sum over members runs in member order, and the model is bitwise the same for
// any number of threads (as Note [Forest determinism]). The member estimators' own seeds are
// their options' (estimator_options), the same for every member.
// Out of bag (notes 004 L802): row i is out of bag for member b when b did not draw it; the
// out-of-bag prediction of row i averages the members it is out of bag for, and oob_score is the
// accuracy (R²) over the rows out of bag for at least one member (needs bootstrap).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/tensor.h"
#include "models/io/registry.h"

namespace dagml {

struct BaggingOptions {
  // The members: a registered estimator of the bagging's task, by registry name (empty: the CART
  // tree, decision_tree_classifier or decision_tree_regressor), and its options as
  // "key=value;key=value" (a ';' separates entries only when a key and '=' follow it, so values
  // may hold ';' and ','; spaces around keys and values are dropped): "growth.max_depth=3;criterion=entropy".
  std::string estimator = "";
  std::string estimator_options = "";
  Index num_estimators = 10;
  Scalar max_samples = 1;   // (0, 1]: the fraction of the n rows each member draws
  Scalar max_features = 1;  // (0, 1]: the fraction of the d features each member sees
  bool bootstrap = true;
  bool bootstrap_features = false;
  bool oob_score = false;
  std::uint64_t seed = 0;

  template <class V>
  void visit(V&& v) {
    v("estimator", estimator, "the members' registered estimator (empty: the CART tree of the task)");
    v("estimator_options", estimator_options, "the members' options as key=value;key=value");
    v("num_estimators", num_estimators, "≥ 1 members");
    v("max_samples", max_samples, "in (0, 1]: each member draws max(1, ⌊max_samples·n⌋) rows");
    v("max_features", max_features, "in (0, 1]: each member sees max(1, ⌊max_features·d⌋) features");
    v("bootstrap", bootstrap, "draw rows with replacement (else without)");
    v("bootstrap_features", bootstrap_features, "draw features with replacement (else without)");
    v("oob_score", oob_score, "compute the out-of-bag score (needs bootstrap)");
    v("seed", seed, "member b draws with seeds derived from (seed, b)");
  }
};

namespace bagging {

// The rows (increasing, repeated as drawn) and features (increasing) of member b (Note [Bagging draws]).
struct MemberSample {
  std::vector<Index> rows, features;
};
MemberSample draw_member(Index n, Index d, const BaggingOptions& options, Index member);

// The rows of 0..n−1 not in `rows` (a member's sample): the member's out-of-bag rows, increasing.
std::vector<Index> out_of_bag_rows(const std::vector<Index>& rows, Index n);

// "key=value;key=value" → settings (empty text: none). ValueError naming `who` for an entry
// without '=' or with an empty key.
OptionSettings parse_estimator_options(std::string_view text, const char* who);

// `options` with its members described by a prototype: estimator = the prototype's registry name
// and estimator_options = every option whose value differs from the registry's default, as
// key=value text (the prototype's fitted state, if any, is not used).
BaggingOptions with_prototype(BaggingOptions options, const AnyEstimator& prototype);

// The members' registry name: options.estimator, or `default_name` when it is empty.
std::string member_name(const BaggingOptions& options, const char* default_name);

// Whether the members take NaN as a missing value: their estimator has an option named
// `allow_missing` or `<group>.allow_missing` set to true (growth.allow_missing of the trees,
// forests and tree boosting, boosting.allow_missing of gradient boosting). The bagging then lets
// NaN through its own checks (±∞ stays a ValueError) and the members route it, as scikit-learn
// 1.4's bagging leaves NaN to its base estimator.
bool members_allow_missing(const BaggingOptions& options, const char* default_name);

// The constructor checks: the numbers in range, oob_score with bootstrap, and the members'
// estimator registered for `task` and able to take estimator_options (it makes one). ValueError
// naming `who` otherwise.
void validate_options(const BaggingOptions& options, Task task, const char* default_name, const char* who);

// X restricted to the given rows (repeated as listed) and features.
Tensor take(const Tensor& X, const std::vector<Index>& rows, const std::vector<Index>& features);
Tensor take_columns(const Tensor& X, const std::vector<Index>& features);

// The members' model files (empty for a member that holds no estimator), and back. The loaded
// member must be a fitted `name` (ParseError through `fail` otherwise; a damaged member file is
// its own ParseError).
std::vector<std::string> member_bytes(const std::vector<std::optional<AnyEstimator>>& members);
template <class Fail>
std::optional<AnyEstimator> member_from_bytes(const std::string& bytes, const std::string& name, std::size_t index,
                                              Fail&& fail) {
  if (bytes.empty()) return std::nullopt;
  AnyEstimator member = load_model_from_bytes(bytes, "bagging member " + std::to_string(index));
  if (member.name() != name) fail("member " + std::to_string(index) + ": expected a " + name + ", found a " + member.name());
  if (!member.fitted()) fail("member " + std::to_string(index) + ": expected a fitted estimator, found an unfitted one");
  return member;
}

// "" when the members' features are consistent: `count` lists, each non-empty with entries in
// 0..d−1; else what is wrong.
std::string check_loaded_features(const std::vector<std::vector<Index>>& features, Index count, Index num_features);

}  // namespace bagging
}  // namespace dagml
