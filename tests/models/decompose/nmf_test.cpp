// Tests for NMF: scikit-learn 1.2.1's multiplicative updates from the same initial factors
// (nmf_reference.py: error, iteration count, parts, codes and transform for both losses), the
// monotone decrease of the error, an exact rank-1 factorisation, callbacks and bad input.
#include "models/decompose/nmf.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/error.h"
#include "literals.h"
#include "models/data/datasets.h"
#include "nmf_reference.h"
#include "optim/stop_after.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using testing::kNaN;
using testing::rows;

Tensor digits_rows(Index begin, Index count) { return load_dataset("digits").features.middleRows(begin, count); }

NMFOptions from_reference_start(NMFLoss loss, Scalar tolerance, Index max_iterations) {
  return {.num_components = 4,
          .loss = loss,
          .init = NMFInit::Given,
          .initial_W = testing::reference_rows(nmf_reference::k_W0, 40),
          .initial_H = testing::reference_rows(nmf_reference::k_H0, 4),
          .max_iterations = max_iterations,
          .tolerance = tolerance};
}

TEST(NMF, MatchesScikitLearnMultiplicativeUpdates) {
  namespace ref = nmf_reference;
  struct Case {
    NMFLoss loss;
    Scalar fixed_error, tol_error;
    Index tol_iterations;
    Tensor components, codes, transformed;
  };
  const Case cases[] = {
      {NMFLoss::Frobenius, ref::k_fro_fixed_error, ref::k_fro_tol_error, ref::k_fro_tol_iterations,
       testing::reference_rows(ref::k_fro_components, 4), testing::reference_rows(ref::k_fro_codes, 3),
       testing::reference_rows(ref::k_fro_transform, 3)},
      {NMFLoss::KullbackLeibler, ref::k_kl_fixed_error, ref::k_kl_tol_error, ref::k_kl_tol_iterations,
       testing::reference_rows(ref::k_kl_components, 4), testing::reference_rows(ref::k_kl_codes, 3),
       testing::reference_rows(ref::k_kl_transform, 3)},
  };
  const Tensor X = digits_rows(0, 40);
  for (const Case& c : cases) {
    SCOPED_TRACE(enum_name(c.loss));
    NMF fixed(from_reference_start(c.loss, 0, 200));
    const Tensor W = fixed.fit_transform(X);
    EXPECT_EQ(fixed.num_iter(), 200);
    EXPECT_FALSE(fixed.converged());
    EXPECT_NEAR(fixed.reconstruction_error(), c.fixed_error, 1e-9 * c.fixed_error);
    EXPECT_LT((fixed.components() - c.components).cwiseAbs().maxCoeff(), 1e-7 * c.components.cwiseAbs().maxCoeff());
    EXPECT_LT((W.topRows(3) - c.codes).cwiseAbs().maxCoeff(), 1e-7 * c.codes.cwiseAbs().maxCoeff());
    const Tensor transformed = fixed.transform(digits_rows(40, 3));
    EXPECT_LT((transformed - c.transformed).cwiseAbs().maxCoeff(), 1e-7 * c.transformed.cwiseAbs().maxCoeff());

    NMF stopped(from_reference_start(c.loss, 1e-4, 1000));
    stopped.fit(X);
    EXPECT_EQ(stopped.num_iter(), c.tol_iterations);
    EXPECT_TRUE(stopped.converged()) << stopped.fit_result().message;
    EXPECT_NEAR(stopped.reconstruction_error(), c.tol_error, 1e-9 * c.tol_error);

    // Each multiplicative update is a majorise–minimise step: the error never increases.
    const auto& history = fixed.fit_result().history;
    ASSERT_EQ(history.size(), 201u);
    for (std::size_t t = 1; t < history.size(); ++t) EXPECT_LE(history[t], history[t - 1] * (1 + 1e-12));
  }
}

TEST(NMF, RecoversAnExactRankOneFactorisation) {
  // X = w hᵀ with positive w, h: the Frobenius updates drive ‖X − WH‖ towards 0, and WH → X.
  const Tensor X =
      Vector((Vector(4) << 1, 2, 3, 4).finished()) * Vector((Vector(3) << 0.5, 1, 2).finished()).transpose();
  for (NMFLoss loss : {NMFLoss::Frobenius, NMFLoss::KullbackLeibler}) {
    SCOPED_TRACE(enum_name(loss));
    NMF nmf({.num_components = 1, .loss = loss, .max_iterations = 2000, .tolerance = 0, .seed = 3});
    const Tensor W = nmf.fit_transform(X);
    EXPECT_LT(nmf.reconstruction_error(), 1e-6);
    EXPECT_TRUE(nmf.inverse_transform(W).isApprox(X, 1e-6));
  }
}

TEST(NMF, CallbacksSeeTheErrorAndMayStop) {
  testing::StopAfter stop(5);
  NMF nmf({.num_components = 3, .tolerance = 0, .seed = 1});
  nmf.fit(digits_rows(0, 30), {&stop});
  EXPECT_EQ(nmf.num_iter(), 5);
  EXPECT_EQ(nmf.fit_result().status, Status::CallbackStop);
  // The same seed gives the same parts.
  NMF again({.num_components = 3, .max_iterations = 5, .tolerance = 0, .seed = 1});
  EXPECT_EQ(again.fit(digits_rows(0, 30)).components(), nmf.components());
}

TEST(NMF, RejectsBadOptionsAndInput) {
  EXPECT_THROW(NMF({.num_components = 0}), ValueError);
  EXPECT_THROW(NMF({.max_iterations = 0}), ValueError);
  EXPECT_THROW(NMF({.tolerance = -1}), ValueError);
  EXPECT_THROW(NMF({.num_components = 1, .init = NMFInit::Given}), ValueError);  // no factors
  EXPECT_THROW(NMF({.num_components = 1, .init = NMFInit::Given, .initial_W = rows({{-1}}), .initial_H = rows({{1}})}),
               ValueError);
  try {
    NMF().fit(rows({{1, 2}, {3, -4}}));
    FAIL() << "expected a ValueError";
  } catch (const ValueError& e) {
    EXPECT_THAT(e.what(), HasSubstr("expected non-negative data, found -4 at row 1, column 1"));
  }
  EXPECT_THROW(NMF().fit(rows({{1, kNaN}, {3, 4}})), ValueError);
  EXPECT_THROW(NMF().fit(Tensor::Zero(3, 2)), ValueError);
  EXPECT_THROW(NMF({.num_components = 1, .init = NMFInit::Given, .initial_W = rows({{1}}), .initial_H = rows({{1, 1}})})
                   .fit(rows({{1, 2}, {3, 4}})),
               ShapeError);
  NMF nmf({.num_components = 1});
  EXPECT_THROW(nmf.transform(rows({{1, 2}})), NotFittedError);
  nmf.fit(rows({{1, 2}, {3, 4}}));
  EXPECT_THROW(nmf.transform(rows({{1, 2, 3}})), ShapeError);
  EXPECT_THROW(nmf.transform(rows({{1, -2}})), ValueError);
  EXPECT_THROW(nmf.inverse_transform(rows({{1, 2}})), ShapeError);
}

}  // namespace
}  // namespace dagml
