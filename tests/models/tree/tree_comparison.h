// Comparing two CART trees node by node in the tree tests.
#pragma once

#include <gtest/gtest.h>

#include "models/tree/tree.h"

namespace dagml::testing {

// The same nodes, tests, missing-value sides and training rows (values are compared apart, to the
// tolerance each test needs).
inline void expect_same_tree_structure(const tree::Tree& a, const tree::Tree& b) {
  EXPECT_EQ(a.left, b.left);
  EXPECT_EQ(a.right, b.right);
  EXPECT_EQ(a.feature, b.feature);
  EXPECT_EQ(a.threshold, b.threshold);
  EXPECT_EQ(a.missing_left, b.missing_left);
  EXPECT_EQ(a.num_samples, b.num_samples);
}

}  // namespace dagml::testing
