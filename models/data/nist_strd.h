// The NIST StRD nonlinear regression problems: 27 certified least-squares problems (public
// domain; bundled in data/nist/, see data/README.md), read from NIST's own file layout, with each
// problem's model written as a graph.
//
//   NistProblem p = load_nist_problem("MGH17");
//   Graph g;
//   Var b = g.parameter("b", p.starts[0]);            // Start 1, far from the solution
//   Var x = g.input("x", p.x);
//   Var r = nist_model(p.name, b, x) - g.constant(p.y);  // residuals r(b) = f(x; b) − y
//   Result fit = minimize_residuals(r, {b}, LevenbergMarquardtOptions{});
//   Scalar lre = log_relative_error(fit.x, p.certified);  // ≥ 4: solved
//
// Note [NIST evaluation]
// Each problem has two starting points (Start 1 far from the solution, Start 2 near it) and
// certified parameters b* to 11 significant digits. The log relative error of a solution b is
//   LRE(b) = min_j clamp(−log10(|b_j − b*_j| / |b*_j|), 0, 11),
// the number of significant digits every parameter gets right; a run counts as solved when
// LRE ≥ 4 (Mondragon & Borchers, "A Comparison of Nonlinear Regression Codes", JMASM 4(1), 2005,
// the rule Ceres Solver's NIST example uses). Nelson's model is fitted to log y, as NIST writes it;
// Roszman1's arctan is atan2(b3, x − b4), the form NIST's certified b1 = 1.20196866396 fits (in
// the data every x − b4 < 0, so the plain arctan would certify b1 − 1 instead).
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "graph/op.h"
#include "graph/tensor.h"

namespace dagml {

struct NistProblem {
  std::string name;               // "Misra1a", …, as the file's "Dataset Name"
  Tensor x;                       // n × k predictors (k = 2 for Nelson, else 1)
  Vector y;                       // n responses (log y already taken for Nelson)
  std::array<Vector, 2> starts;   // Start 1 and Start 2, p entries each
  Vector certified;               // b*, p entries
  Vector certified_deviation;     // NIST's standard deviations of b*
  Scalar certified_rss = 0;       // certified residual sum of squares ‖r(b*)‖²
  std::string level;              // "Lower", "Average" or "Higher" difficulty, as NIST rates it
};

// The 27 problem names in NIST's order of difficulty (lower, average, higher).
const std::vector<std::string>& nist_problem_names();

// Reads one problem file in NIST's layout. Throws IoError if it cannot be read and ParseError
// (with line and column) when a required part is missing or malformed: the dataset name, the
// parameter lines "bj = start1 start2 certified deviation" numbered 1..p, the residual sum of
// squares, the observation count, the data header ("Data: y x…") and exactly that many data
// rows of 1 + k numbers; ValueError for a dataset name nist_model does not know.
// LimitError for a file larger than file_allocation_limit() (models/data/file_io.h).
NistProblem read_nist_problem(const std::filesystem::path& path);
// The same for the text of a problem file in memory; `source` names it in errors.
NistProblem parse_nist_problem(std::string_view text, const std::string& source = "<nist text>");

// read_nist_problem on the bundled data/nist/<name>.dat (Note [Data folder lookup] in
// models/data/datasets.h). Throws ValueError for an unknown name, listing the known ones.
NistProblem load_nist_problem(std::string_view name);

// The model f(x; b) of problem `name` as an n×1 node, from the p×1 parameter node b and the
// n×k predictor node x. Throws ValueError for an unknown name and ShapeError when b does not have
// the problem's p entries or x its k columns.
Var nist_model(std::string_view name, Var b, Var x);

// LRE of Note [NIST evaluation]. Throws ShapeError if the lengths differ.
Scalar log_relative_error(const Vector& b, const Vector& certified);

}  // namespace dagml
