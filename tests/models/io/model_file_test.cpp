// The model file format (Note [Model file format], Note [Hardened model archive]) and the text
// form of options (Note [One list of fields per options struct]): bitwise round trips, every way a
// file can be refused, and atomic saves.
#include "models/io/model_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "graph/error.h"
#include "models/cluster/k_means.h"
#include "models/data/standard_scaler.h"
#include "models/io/option_fields.h"
#include "models/linear/bayesian_linear_regression.h"
#include "models/linear/lasso.h"
#include "models/linear/ridge.h"

namespace dagml {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

constexpr std::size_t kHeaderSize = 24;  // magic, format version, body size, CRC-32

// A folder of its own under the system's temporary directory, removed at the end.
class TempFolder {
 public:
  TempFolder()
      : path_(std::filesystem::temp_directory_path() /
              ("dagml_model_file_test_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(path_)) names.push_back(entry.path().filename().string());
    return names;
  }

 private:
  std::filesystem::path path_;
};

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::move(buffer).str();
}

// A small fitted ridge model and its file.
Ridge small_ridge() {
  Tensor X(4, 2);
  X << 1, 2, 3, 5, -1, 0.5, 2, -2;
  Ridge ridge({.lambda = 0.5});
  ridge.fit(X, (Vector(4) << 1, 0, 2, -1).finished());
  return ridge;
}

Ridge ridge_from(const std::string& bytes) { return Ridge::from_model_file(ModelFile(bytes, "test.model")); }

// The estimator's own bytes in a model file: what follows the header and the dagml version, type
// name and model version at the start of the body.
std::string payload_of(const std::string& file_bytes) {
  const ModelFile file(file_bytes, "test");
  const std::size_t offset = kHeaderSize + 8 + file.dagml_version().size() + 8 + file.type_name().size() + 4;
  return file_bytes.substr(offset);
}

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

// --- Doubles ----------------------------------------------------------------------------------------

TEST(ModelArchive, DoublesRoundTripBitwise) {
  const std::vector<std::uint64_t> patterns = {
      0x7ff8000000000000,  // the quiet NaN
      0x7ff8000000000123,  // a quiet NaN with a payload
      0xfff8000000000abc,  // a negative one
      0x7ff0000000000001,  // a signalling NaN
      0x8000000000000000,  // −0
      0x0000000000000001,  // the smallest denormal
      0x800fffffffffffff,  // the largest negative denormal
      0x0010000000000000,  // the smallest normal
      0x7ff0000000000000,  // +∞
      0xfff0000000000000,  // −∞
      0x7fefffffffffffff,  // the largest double
      0x3fb999999999999a,  // 0.1
  };
  const Index n = static_cast<Index>(patterns.size());
  Tensor matrix(3, n);
  Vector vector(n);
  std::vector<double> list;
  for (Index j = 0; j < n; ++j) {
    const double x = std::bit_cast<double>(patterns[static_cast<std::size_t>(j)]);
    matrix.col(j).setConstant(x);
    vector(j) = x;
    list.push_back(x);
  }
  std::string bytes;
  {
    ModelOutputArchive out(bytes);
    out(matrix, vector, list, list.back());
  }
  // Through a whole model file, read back by its payload archive.
  const ModelFile file(frame_model_file("doubles", 1, bytes), "memory");
  Tensor matrix2;
  Vector vector2;
  std::vector<double> list2;
  double last = 0;
  ModelInputArchive in = file.payload();
  in(matrix2, vector2, list2, last);
  EXPECT_EQ(in.remaining(), 0u);
  ASSERT_EQ(matrix2.rows(), 3);
  ASSERT_EQ(matrix2.cols(), n);
  ASSERT_EQ(vector2.size(), n);
  ASSERT_EQ(list2.size(), patterns.size());
  for (Index j = 0; j < n; ++j) {
    const std::uint64_t expected = patterns[static_cast<std::size_t>(j)];
    for (Index i = 0; i < 3; ++i) EXPECT_EQ(bits(matrix2(i, j)), expected) << "matrix entry " << i << ", " << j;
    EXPECT_EQ(bits(vector2(j)), expected) << "vector entry " << j;
    EXPECT_EQ(bits(list2[static_cast<std::size_t>(j)]), expected) << "list entry " << j;
  }
  EXPECT_EQ(bits(last), patterns.back());
}

TEST(ModelArchive, AFittedModelRoundTripsBitwise) {
  const Ridge ridge = small_ridge();
  const Ridge back = ridge_from(ridge.to_bytes());
  EXPECT_EQ(back.to_bytes(), ridge.to_bytes());
  for (Index j = 0; j < 2; ++j) EXPECT_EQ(bits(back.coef()(j)), bits(ridge.coef()(j)));
  EXPECT_EQ(bits(back.intercept()), bits(ridge.intercept()));
  const ModelFile file(ridge.to_bytes(), "memory");
  EXPECT_EQ(file.format_version(), kModelFormatVersion);
  EXPECT_EQ(file.type_name(), "ridge");
  EXPECT_EQ(file.model_version(), 1u);
  EXPECT_EQ(file.dagml_version(), dagml_version());
}

// --- Refused files ------------------------------------------------------------------------------------

TEST(ModelFile, FormatOneTextFileNamesBothFormats) {
  const std::string text = "dagml-model Ridge 1\nlambda 1 1\n1\ncoef 2 1\n0.5\n0.25\nintercept 1 1\n0\n";
  const auto message = AllOf(HasSubstr("format 1"), HasSubstr(fmt::format("format {}", kModelFormatVersion)),
                             HasSubstr("fit the model again"));
  EXPECT_THAT([&] { ModelFile(text, "old.model"); }, ThrowsMessage<ParseError>(message));
  const TempFolder folder;
  const std::string path = folder.file("old.model");
  std::ofstream(path) << text;
  EXPECT_THAT([&] { Ridge::load(path); }, ThrowsMessage<ParseError>(AllOf(message, HasSubstr("old.model"))));
}

TEST(ModelFile, NewerFormatVersionIsRefused) {
  std::string bytes = small_ridge().to_bytes();
  const std::uint32_t newer = kModelFormatVersion + 1;
  std::memcpy(bytes.data() + 8, &newer, sizeof newer);
  EXPECT_THAT([&] { ridge_from(bytes); },
              ThrowsMessage<ParseError>(AllOf(HasSubstr(fmt::format("format {} is newer", newer)),
                                              HasSubstr(fmt::format("(format {})", kModelFormatVersion)),
                                              HasSubstr("upgrade dagml"))));
  const std::uint32_t older = 1;
  std::memcpy(bytes.data() + 8, &older, sizeof older);
  EXPECT_THROW(ridge_from(bytes), ParseError);
}

TEST(ModelFile, NewerModelLayoutVersionIsRefused) {
  const std::string payload = payload_of(small_ridge().to_bytes());
  EXPECT_NO_THROW(ridge_from(frame_model_file("ridge", 1, payload)));
  EXPECT_THAT([&] { ridge_from(frame_model_file("ridge", 2, payload)); },
              ThrowsMessage<ParseError>(AllOf(HasSubstr("'ridge' model layout version 2"), HasSubstr("versions 1 to 1"))));
  EXPECT_THROW(ridge_from(frame_model_file("ridge", 0, payload)), ParseError);
}

TEST(ModelFile, WrongTypeNameIsRefused) {
  Lasso lasso({.lambda = 0.1});
  lasso.fit(Tensor::Identity(3, 2), (Vector(3) << 1, 2, 3).finished());
  EXPECT_THAT([&] { ridge_from(lasso.to_bytes()); },
              ThrowsMessage<ParseError>(HasSubstr("expected a 'ridge' model, found a 'lasso' model")));
  // Even when the payload would parse: the same bytes framed under another name.
  EXPECT_THROW(ridge_from(frame_model_file("linear_regression", 1, payload_of(small_ridge().to_bytes()))),
               ParseError);
  EXPECT_THAT([&] { ridge_from("not a model"); }, ThrowsMessage<ParseError>(HasSubstr("not a dagml model file")));
}

TEST(ModelFile, TruncationAtEveryByteIsAParseError) {
  const std::string bytes = small_ridge().to_bytes();
  ASSERT_LT(bytes.size(), 4096u);
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    EXPECT_THROW(ridge_from(bytes.substr(0, size)), ParseError) << "truncated to " << size << " bytes";
  }
  // Truncated payloads in files whose size and checksum are right: the archive itself must notice.
  const std::string payload = payload_of(bytes);
  for (std::size_t size = 0; size < payload.size(); ++size) {
    EXPECT_THROW(ridge_from(frame_model_file("ridge", 1, payload.substr(0, size))), ParseError)
        << "payload truncated to " << size << " bytes";
  }
  EXPECT_THAT([&] { ridge_from(frame_model_file("ridge", 1, payload + "x")); },
              ThrowsMessage<ParseError>(HasSubstr("1 bytes left over")));
}

TEST(ModelFile, EverySingleByteFlipIsAParseError) {
  const std::string bytes = small_ridge().to_bytes();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (const unsigned char mask : {0x01, 0x80, 0xff}) {
      std::string damaged = bytes;
      damaged[i] = static_cast<char>(static_cast<unsigned char>(damaged[i]) ^ mask);
      EXPECT_THROW(ridge_from(damaged), ParseError) << "byte " << i << " ^ " << int{mask};
    }
  }
  std::string damaged = bytes;
  damaged.back() = static_cast<char>(damaged.back() ^ 0x10);
  EXPECT_THAT([&] { ridge_from(damaged); }, ThrowsMessage<ParseError>(HasSubstr("checksum mismatch")));
}

// Sizes that the rest of the file cannot hold are refused before anything is allocated: a
// vector of 2⁶⁰ doubles would otherwise be a bad_alloc (or worse), not a ParseError.
TEST(ModelArchive, HugeDeclaredSizesAreParseErrorsBeforeAllocating) {
  const auto payload_with = [](auto&&... fields) {
    std::string bytes;
    ModelOutputArchive out(bytes);
    out(fields...);
    return bytes;
  };
  const auto read_back = [](const std::string& bytes, auto& value) {
    ModelInputArchive in(bytes, "crafted");
    in(value);
  };
  const std::uint64_t huge = std::uint64_t{1} << 60;
  std::vector<double> list;
  EXPECT_THAT([&] { read_back(payload_with(huge, 1.0, 2.0), list); },
              ThrowsMessage<ParseError>(HasSubstr("a container of 1152921504606846976 elements")));
  std::string text;
  EXPECT_THROW(read_back(payload_with(huge), text), ParseError);
  Tensor matrix;
  EXPECT_THROW(read_back(payload_with(std::int64_t{1} << 40, std::int64_t{1} << 40, 1.0), matrix), ParseError);
  EXPECT_THROW(read_back(payload_with(std::int64_t{1} << 62, std::int64_t{4}, 1.0), matrix), ParseError);
  EXPECT_THROW(read_back(payload_with(std::int64_t{-1}, std::int64_t{1}, 1.0), matrix), ParseError);
  Vector vector;
  EXPECT_THAT([&] { read_back(payload_with(std::int64_t{2}, std::int64_t{2}, 1.0, 2.0, 3.0, 4.0), vector); },
              ThrowsMessage<ParseError>(HasSubstr("one column")));
  // The same inside a ridge file with a valid checksum: coef declared with 2⁵⁰ rows.
  const std::string ridge = frame_model_file(
      "ridge", 1, payload_with(RidgeOptions{}, true, Index{2}, std::int64_t{1} << 50, std::int64_t{1}, 0.5, 0.25, 0.0));
  EXPECT_THAT([&] { ridge_from(ridge); }, ThrowsMessage<ParseError>(HasSubstr("bytes remain")));
}

TEST(ModelArchive, BoolsMustBeZeroOrOne) {
  for (const std::uint8_t byte : {0, 1, 2, 255}) {
    std::string payload;
    {
      ModelOutputArchive out(payload);
      out(byte, true, false, Index{0}, Vector(), Vector(), Vector());  // with_mean, with_std, then unfitted
    }
    const auto load = [&] {
      return StandardScaler::from_model_file(ModelFile(frame_model_file("standard_scaler", 1, payload), "crafted"));
    };
    if (byte <= 1) {
      EXPECT_EQ(load().options().with_mean, byte == 1);
    } else {
      EXPECT_THAT(load, ThrowsMessage<ParseError>(HasSubstr(fmt::format("expected a bool (0 or 1), found {}", byte))));
    }
  }
}

// A lasso file with its scaling enum written as `scaling`, the fields in LassoOptions' order.
std::string lasso_file(const std::string& scaling) {
  std::string payload;
  {
    ModelOutputArchive out(payload);
    out(0.5, scaling, true, Index{100}, 1e-9, std::string("cyclic"), std::uint64_t{0}, Vector());  // options
    out(true, Index{2}, (Vector(2) << 1, 0).finished(), 0.5, 2.0);  // fitted, d, coef, intercept, objective
  }
  return frame_model_file("lasso", 1, payload);
}

TEST(ModelArchive, UnknownEnumNamesAreParseErrors) {
  const Lasso ok = Lasso::from_model_file(ModelFile(lasso_file("scikit_learn"), "crafted"));
  EXPECT_EQ(ok.options().scaling, LassoScaling::ScikitLearn);
  EXPECT_EQ(ok.predict((Tensor(1, 2) << 2, 7).finished())(0), 2.5);
  EXPECT_THAT([] { Lasso::from_model_file(ModelFile(lasso_file("sklearn"), "crafted")); },
              ThrowsMessage<ParseError>(HasSubstr("expected one of notes|scikit_learn, found 'sklearn'")));
  EXPECT_THROW(Lasso::from_model_file(ModelFile(lasso_file(""), "crafted")), ParseError);
}

// --- Options as text ------------------------------------------------------------------------------------

TEST(OptionText, SetOptionParsesEveryFieldType) {
  RidgeOptions ridge;
  EXPECT_TRUE(set_option(ridge, "lambda", "0.25"));
  EXPECT_TRUE(set_option(ridge, "fit_intercept", "false"));
  EXPECT_TRUE(set_option(ridge, "target", "1,2,3"));
  EXPECT_TRUE(set_option(ridge, "form", "dual"));
  EXPECT_TRUE(set_option(ridge, "solver", "iterative"));
  EXPECT_TRUE(set_option(ridge, "iterative.max_iterations", "7"));
  EXPECT_TRUE(set_option(ridge, "iterative.method", "lbfgs"));
  EXPECT_FALSE(set_option(ridge, "alpha", "1"));
  EXPECT_FALSE(set_option(ridge, "iterative", "1"));  // a group, not a field
  EXPECT_EQ(ridge.lambda, 0.25);
  EXPECT_FALSE(ridge.fit_intercept);
  EXPECT_EQ(ridge.target, (Vector(3) << 1, 2, 3).finished());
  EXPECT_EQ(ridge.form, RidgeSolveOptions::Form::Dual);
  EXPECT_EQ(ridge.solver, LinearSolver::Iterative);
  EXPECT_EQ(ridge.iterative.max_iterations, 7);
  EXPECT_EQ(ridge.iterative.method, IterativeMethod::Lbfgs);
  EXPECT_TRUE(set_option(ridge, "fit_intercept", "1"));
  EXPECT_TRUE(ridge.fit_intercept);
  EXPECT_TRUE(set_option(ridge, "target", ""));
  EXPECT_EQ(ridge.target.size(), 0);

  BayesianLinearRegressionOptions blr;
  EXPECT_TRUE(set_option(blr, "prior_covariance", "1,0;0,1"));
  EXPECT_EQ(blr.prior_covariance, Tensor::Identity(2, 2));
  EXPECT_TRUE(set_option(blr, "prior_covariance", "2,0.5,1"));
  EXPECT_EQ(blr.prior_covariance, (Tensor(1, 3) << 2, 0.5, 1).finished());

  KMeansOptions kmeans;
  EXPECT_TRUE(set_option(kmeans, "seed", "18446744073709551615"));
  EXPECT_EQ(kmeans.seed, std::numeric_limits<std::uint64_t>::max());
  EXPECT_TRUE(set_option(kmeans, "init", "given"));
  EXPECT_EQ(kmeans.init, KMeansInit::Given);

  std::vector<Index> indices;
  parse_option("indices", "3,1,4", indices);
  EXPECT_EQ(indices, (std::vector<Index>{3, 1, 4}));
  EXPECT_EQ(format_option(indices), "3,1,4");
}

TEST(OptionText, BadTextNamesTheOptionAndWhatWasExpected) {
  RidgeOptions ridge;
  // `found`: the part of the text the message quotes (the whole text unless given).
  const auto bad = [&](const char* key, const char* text, const std::string& expected, const char* found = nullptr) {
    EXPECT_THAT([&] { set_option(ridge, key, text); },
                ThrowsMessage<ValueError>(AllOf(HasSubstr(fmt::format("option {}:", key)), HasSubstr(expected),
                                                HasSubstr(fmt::format("found '{}'", found ? found : text)))))
        << key << " = " << text;
  };
  bad("lambda", "abc", "expected a number");
  bad("lambda", "1.5x", "expected a number");
  bad("lambda", "", "expected a number");
  bad("fit_intercept", "yes", "expected true or false");
  bad("target", "1,,3", "expected a number", "");
  bad("target", "1,2,z", "expected a number", "z");
  bad("form", "sideways", "expected one of automatic|primal|dual");
  bad("iterative.max_iterations", "2.5", "expected an integer");
  bad("iterative.max_iterations", "99999999999999999999", "expected an integer");
  BayesianLinearRegressionOptions blr;
  EXPECT_THAT([&] { set_option(blr, "prior_covariance", "1,0;1"); },
              ThrowsMessage<ValueError>(AllOf(HasSubstr("option prior_covariance"),
                                              HasSubstr("expected 2 entries in every row"), HasSubstr("found '1'"))));
  KMeansOptions kmeans;
  EXPECT_THAT([&] { set_option(kmeans, "seed", "-1"); },
              ThrowsMessage<ValueError>(AllOf(HasSubstr("option seed"), HasSubstr("expected an integer"))));
}

TEST(OptionText, SchemaListsEveryFieldWithItsDefault) {
  const std::vector<OptionInfo> schema = option_schema<RidgeOptions>();
  std::vector<std::string> names;
  for (const auto& row : schema) names.push_back(row.name);
  EXPECT_EQ(names, (std::vector<std::string>{"lambda", "fit_intercept", "target", "form", "solver", "iterative.method",
                                             "iterative.max_iterations", "iterative.gradient_tolerance"}));
  const auto row = [&](const std::string& name) {
    for (const auto& r : schema)
      if (r.name == name) return r;
    throw std::logic_error("no row " + name);
  };
  EXPECT_EQ(row("lambda").type, "number");
  EXPECT_EQ(row("lambda").default_value, "1");
  EXPECT_EQ(row("fit_intercept").type, "bool");
  EXPECT_EQ(row("fit_intercept").default_value, "true");
  EXPECT_EQ(row("target").type, "numbers");
  EXPECT_EQ(row("target").default_value, "");
  EXPECT_EQ(row("form").type, "automatic|primal|dual");
  EXPECT_EQ(row("form").default_value, "automatic");
  EXPECT_EQ(row("iterative.max_iterations").type, "integer");
  EXPECT_EQ(row("iterative.max_iterations").default_value, "10000");
  for (const auto& r : schema) EXPECT_FALSE(r.doc.empty()) << r.name;
  const auto blr = option_schema<BayesianLinearRegressionOptions>();
  EXPECT_EQ(blr.back().name, "prior_covariance");
  EXPECT_EQ(blr.back().type, "matrix");

  // list_options gives the current values, in text that set_option reads back to the same bits.
  RidgeOptions ridge{.lambda = 0.1 + 0.2, .target = (Vector(2) << 1.0 / 3.0, -0.0).finished()};
  std::vector<OptionInfo> current;
  list_options(ridge, current);
  RidgeOptions again;
  for (const auto& r : current) ASSERT_TRUE(set_option(again, r.name, r.default_value)) << r.name;
  EXPECT_EQ(bits(again.lambda), bits(0.1 + 0.2));
  EXPECT_EQ(bits(again.target(0)), bits(1.0 / 3.0));
  EXPECT_EQ(bits(again.target(1)), bits(-0.0));
  BayesianLinearRegressionOptions covariance{.prior_covariance = (Tensor(2, 2) << 2, 0.1, 0.1, 3).finished()};
  current.clear();
  list_options(covariance, current);
  EXPECT_EQ(current.back().default_value, "2,0.1;0.1,3");
}

// --- Saving ---------------------------------------------------------------------------------------------

TEST(AtomicSave, AFailedWriteLeavesThePreviousFileAndNoTemporary) {
  const TempFolder folder;
  const std::string path = folder.file("model.dagml");
  const Ridge ridge = small_ridge();
  ridge.save(path);
  const std::string before = read_all(path);
  ASSERT_EQ(before, ridge.to_bytes());
  // A stream that fails after some bytes (disk full): badbit.
  EXPECT_THAT([&] {
    write_file_atomically(path, [](std::ostream& out) {
      out << "partial bytes";
      out.setstate(std::ios::badbit);
    });
  }, ThrowsMessage<IoError>(AllOf(HasSubstr("model.dagml"), HasSubstr("unchanged"))));
  EXPECT_EQ(read_all(path), before);
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"model.dagml"});
  // A writer that throws part-way.
  EXPECT_THAT([&] {
    write_file_atomically(path, [](std::ostream& out) {
      out << std::string(100000, 'x');
      throw std::runtime_error("serialiser failed");
    });
  }, ThrowsMessage<IoError>(HasSubstr("serialiser failed")));
  EXPECT_EQ(read_all(path), before);
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"model.dagml"});
  // A successful write replaces the file whole.
  write_file_atomically(path, [](std::ostream& out) { out << "new"; });
  EXPECT_EQ(read_all(path), "new");
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"model.dagml"});
}

TEST(AtomicSave, MissingFolderOrFileIsAnIoError) {
  const TempFolder folder;
  const std::string path = folder.file("missing/model.dagml");
  EXPECT_THAT([&] { small_ridge().save(path); }, ThrowsMessage<IoError>(HasSubstr("missing")));
  EXPECT_FALSE(std::filesystem::exists(folder.file("missing")));
  EXPECT_THAT([&] { Ridge::load(folder.file("absent.dagml")); }, ThrowsMessage<IoError>(HasSubstr("absent.dagml")));
}

}  // namespace
}  // namespace dagml
