// Tests for the NIST StRD reader and models: every bundled file reads with NIST's sizes, and every
// model, evaluated at NIST's certified parameters, reproduces NIST's certified residual sum of
// squares (which checks each graph against NIST's own formula); malformed files are ParseErrors.
#include "models/data/nist_strd.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "autodiff/elementwise.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "models/data/datasets.h"
#include "test_files.h"

namespace dagml {
namespace {

struct NistSize {
  const char* name;
  Index observations, parameters;
};

// n and p as NIST's files state them ("Number of Observations", "b1 … bp").
const NistSize kNistSizes[] = {
    {"Bennett5", 154, 3}, {"BoxBOD", 6, 2},   {"Chwirut1", 214, 3}, {"Chwirut2", 54, 3}, {"DanWood", 6, 2},
    {"ENSO", 168, 9},     {"Eckerle4", 35, 3}, {"Gauss1", 250, 8},   {"Gauss2", 250, 8},  {"Gauss3", 250, 8},
    {"Hahn1", 236, 7},    {"Kirby2", 151, 5},  {"Lanczos1", 24, 6},  {"Lanczos2", 24, 6}, {"Lanczos3", 24, 6},
    {"MGH09", 11, 4},     {"MGH10", 16, 3},    {"MGH17", 33, 5},     {"Misra1a", 14, 2},  {"Misra1b", 14, 2},
    {"Misra1c", 14, 2},   {"Misra1d", 14, 2},  {"Nelson", 128, 3},   {"Rat42", 9, 3},     {"Rat43", 15, 4},
    {"Roszman1", 25, 4},  {"Thurber", 37, 7},
};

TEST(NistStrd, EveryProblemReadsWithNistSizes) {
  ASSERT_EQ(nist_problem_names().size(), std::size(kNistSizes));
  for (const NistSize& s : kNistSizes) {
    SCOPED_TRACE(s.name);
    const NistProblem p = load_nist_problem(s.name);
    EXPECT_EQ(p.name, s.name);
    EXPECT_EQ(p.y.size(), s.observations);
    EXPECT_EQ(p.x.rows(), s.observations);
    EXPECT_EQ(p.x.cols(), p.name == "Nelson" ? 2 : 1);
    EXPECT_EQ(p.certified.size(), s.parameters);
    EXPECT_EQ(p.starts[0].size(), s.parameters);
    EXPECT_EQ(p.starts[1].size(), s.parameters);
    EXPECT_TRUE(p.level == "Lower" || p.level == "Average" || p.level == "Higher") << p.level;
  }
}

TEST(NistStrd, Misra1aValuesAsInTheFile) {
  const NistProblem p = load_nist_problem("Misra1a");
  EXPECT_EQ(p.starts[0], (Vector(2) << 500, 1e-4).finished());
  EXPECT_EQ(p.starts[1], (Vector(2) << 250, 5e-4).finished());
  EXPECT_EQ(p.certified, (Vector(2) << 2.3894212918E+02, 5.5015643181E-04).finished());
  EXPECT_EQ(p.certified_deviation[0], 2.7070075241E+00);
  EXPECT_EQ(p.certified_rss, 1.2455138894E-01);
  EXPECT_EQ(p.y[0], 10.07);
  EXPECT_EQ(p.x(0, 0), 77.6);
  EXPECT_EQ(p.level, "Lower");
}

// NIST certifies RSS(b*) to 10–11 digits; the model graphs must give it back at b*. Where the
// residuals are at the rounding of the data (Lanczos1: RSS 1.4e-25), b*'s 11 digits cannot give
// the RSS to 7: there RSS(b*) must be at the data's rounding level instead.
TEST(NistStrd, EveryModelGivesTheCertifiedResidualSumOfSquares) {
  for (const std::string& name : nist_problem_names()) {
    SCOPED_TRACE(name);
    const NistProblem p = load_nist_problem(name);
    Graph g;
    Var b = g.parameter("b", p.certified);
    Var r = nist_model(name, b, g.constant(p.x)) - g.constant(p.y);
    const Scalar rss = r.value().squaredNorm(), scale = p.y.squaredNorm();
    if (p.certified_rss > 1e-12 * scale) EXPECT_NEAR(rss, p.certified_rss, 1e-7 * p.certified_rss);
    else EXPECT_LE(rss, 1e-18 * scale);
  }
}

TEST(NistStrd, LogRelativeError) {
  const Vector certified = (Vector(2) << 2.0, -4.0).finished();
  EXPECT_EQ(log_relative_error(certified, certified), 11);
  EXPECT_NEAR(log_relative_error((Vector(2) << 2.002, -4.0).finished(), certified), 3, 1e-9);
  EXPECT_NEAR(log_relative_error((Vector(2) << 2.0, -4.00004).finished(), certified), 5, 1e-9);
  EXPECT_EQ(log_relative_error((Vector(2) << 20.0, -4.0).finished(), certified), 0);  // clamped at 0
  EXPECT_EQ(log_relative_error((Vector(2) << std::nan(""), -4.0).finished(), certified), 0);
  EXPECT_THROW(log_relative_error(Vector::Zero(3), certified), ShapeError);
}

TEST(NistStrd, UnknownNamesAndShapes) {
  EXPECT_THROW(load_nist_problem("Misra9"), ValueError);
  Graph g;
  EXPECT_THROW(nist_model("Misra9", g.parameter("b", Tensor::Zero(2, 1)), g.constant(Tensor::Zero(3, 1))), ValueError);
  EXPECT_THROW(nist_model("Misra1a", g.parameter("c", Tensor::Zero(3, 1)), g.constant(Tensor::Zero(3, 1))), ShapeError);
  EXPECT_THROW(nist_model("Nelson", g.parameter("d", Tensor::Zero(3, 1)), g.constant(Tensor::Zero(3, 1))), ShapeError);
}

std::string bundled_text(const std::string& name) {
  std::ifstream in(data_file_path("test", "nist/" + name + ".dat"), std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The message of the ParseError that reading `text` throws ("" if none).
std::string parse_failure(const std::string& text) {
  testing::TempDir dir;
  testing::write_text(dir / "p.dat", text);
  try {
    read_nist_problem(dir / "p.dat");
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

TEST(NistStrd, MalformedFilesAreParseErrors) {
  const std::string good = bundled_text("Misra1a");
  ASSERT_EQ(parse_failure(good), "");
  // Truncated after a whole data row, and inside one.
  const std::string truncated = parse_failure(good.substr(0, good.rfind('\n', good.size() - 40) + 1));
  EXPECT_NE(truncated.find("expected 14 observations"), std::string::npos) << truncated;
  const std::string cut_row = parse_failure(good.substr(0, good.rfind("760.0E0")));  // the last x
  EXPECT_NE(cut_row.find("expected 2 numbers (y and 1 predictor), found 1"), std::string::npos) << cut_row;
  // A number that is not one.
  std::string bad_number = good;
  bad_number.replace(bad_number.find("2.3894212918E+02"), 16, "2.38942x2918E+02");
  const std::string number = parse_failure(bad_number);
  EXPECT_NE(number.find("expected a finite number, found '2.38942x2918E+02'"), std::string::npos) << number;
  // A parameter line missing a column.
  std::string short_line = good;
  short_line.replace(short_line.find("2.7070075241E+00"), 16, "");
  const std::string columns = parse_failure(short_line);
  EXPECT_NE(columns.find("expected 4 numbers after 'b1 ='"), std::string::npos) << columns;
  // A data row with an extra column.
  std::string extra = good;
  extra.replace(extra.find("77.6E0"), 6, "77.6E0 1");
  const std::string row = parse_failure(extra);
  EXPECT_NE(row.find("expected 2 numbers (y and 1 predictor), found 3"), std::string::npos) << row;
  EXPECT_NE(parse_failure(""), "");
  EXPECT_NE(parse_failure("NIST/ITL StRD\nDataset Name:  Misra1a\n"), "");
  EXPECT_THROW(read_nist_problem("/nonexistent/Misra1a.dat"), IoError);
}

}  // namespace
}  // namespace dagml
