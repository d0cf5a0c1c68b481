// The dagml command-line tool, end to end: each test runs the built executable (DAGML_CLI_PATH)
// in a scratch folder and compares what it writes with the library's own results.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "models/data/csv.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/io/registry.h"
#include "models/io/table_model.h"
#include "models/linear/ridge.h"
#include "models/metrics/classification_metrics.h"
#include "models/metrics/regression_metrics.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/plots.h"
#include "models/select/cross_validation.h"

namespace dagml {
namespace {

namespace fs = std::filesystem;

struct CliRun {
  int exit_code = -1;
  std::string out, err;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("dagml_cli_{}_{}", ::testing::UnitTest::GetInstance()->current_test_info()->name(), getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path path(const std::string& name) const { return dir_ / name; }

  // Runs `dagml ARGS` in the scratch folder (with `input` on standard input when given).
  CliRun dagml(const std::string& args, const std::string& input = "") const {
    return dagml_shell(fmt::format("'{}' {}", DAGML_CLI_PATH, args), input);
  }

  // Runs a shell command line in the scratch folder.
  CliRun dagml_shell(const std::string& command_line, const std::string& input = "") const {
    const fs::path in = path("stdin.txt"), out = path("stdout.txt"), err = path("stderr.txt");
    write_text(in, input);
    const std::string command = fmt::format("cd '{}' && {} < '{}' > '{}' 2> '{}'", dir_.string(), command_line,
                                            in.string(), out.string(), err.string());
    const int status = std::system(command.c_str());
    CliRun run;
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = read_text(out);
    run.err = read_text(err);
    return run;
  }

  fs::path dir_;
};

#define EXPECT_RUNS(run) EXPECT_EQ((run).exit_code, 0) << (run).err

// fit → predict → evaluate on bundled data equals the library's own fit of the same estimator.
TEST_F(Cli, RidgeOnDiabetesEqualsTheLibrary) {
  EXPECT_RUNS(dagml("fit ridge diabetes --set lambda=0.5 -o ridge.dagml --quiet"));
  EXPECT_RUNS(dagml("predict ridge.dagml diabetes -o predicted.csv"));
  const Dataset data = load_dataset("diabetes");
  Ridge ridge({.lambda = 0.5});
  ridge.fit(data.features, data.target);
  const Vector expected = ridge.predict(data.features);
  const Dataset written = read_csv(path("predicted.csv"), {.no_target = true});
  ASSERT_EQ(written.feature_names, std::vector<std::string>{"prediction"});
  // CSV holds the shortest text that reads back to each double: equal bit for bit.
  EXPECT_EQ(Vector(written.features.col(0)), expected);

  const CliRun evaluated = dagml("evaluate ridge.dagml diabetes --json");
  EXPECT_RUNS(evaluated);
  const auto scores = nlohmann::json::parse(evaluated.out);
  EXPECT_EQ(scores["r2"].get<double>(), r2_score(data.target, expected));
  EXPECT_EQ(scores["mean_squared_error"].get<double>(), mean_squared_error(data.target, expected));
  EXPECT_EQ(scores["rows"].get<int>(), 442);
  // The file is a table model: the estimator inside is the library's Ridge.
  const TableModel model = load_table_model(path("ridge.dagml").string());
  EXPECT_EQ(model.estimator.name(), "ridge");
  EXPECT_EQ(model.columns.feature_names(), data.feature_names);
}

// One estimator per family through fit and predict/transform, against the registry's own fit.
TEST_F(Cli, EveryFamilyEqualsTheRegistrysFit) {
  struct Case {
    std::string name, dataset, settings, command;
  };
  const std::vector<Case> cases = {
      {"logistic_regression", "iris", "--set C=10", "predict --proba"},
      {"gaussian_nb", "wine", "", "predict"},
      {"decision_tree_classifier", "breast_cancer", "--set growth.max_depth=3", "predict"},
      {"k_means", "iris", "--set num_clusters=3 --set seed=4", "predict"},
      {"pca", "digits", "--set num_components=2", "transform"},
      {"gradient_boosting_regressor", "diabetes", "--set boosting.max_iterations=20", "predict"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const CliRun fit = dagml(fmt::format("fit {} {} {} -o m.dagml --quiet", c.name, c.dataset, c.settings));
    EXPECT_RUNS(fit);
    const CliRun used = dagml(fmt::format("{} m.dagml {} -o out.csv", c.command, c.dataset));
    EXPECT_RUNS(used);
    if (fit.exit_code != 0 || used.exit_code != 0) continue;
    const Dataset data = load_dataset(c.dataset);
    OptionSettings settings;
    std::istringstream words(c.settings);
    for (std::string word; words >> word;) {
      if (word == "--set") continue;
      const auto eq = word.find('=');
      settings.emplace_back(word.substr(0, eq), word.substr(eq + 1));
    }
    AnyEstimator expected = make_estimator(c.name, settings);
    const Task task = expected.info().task;
    if (task == Task::Regression || task == Task::Classification) {
      expected.fit(data.features, data.target);
    } else {
      expected.fit(data.features);
    }
    const Tensor want = c.command == "transform"          ? expected.transform(data.features)
                        : c.command == "predict --proba" ? expected.predict_proba(data.features)
                                                          : expected.predict(data.features);
    if (task == Task::Classification && c.command == "predict") {
      // Labels come back as the dataset's class names.
      const std::vector<std::string> lines = [&] {
        std::vector<std::string> l;
        std::istringstream in(read_text(path("out.csv")));
        for (std::string line; std::getline(in, line);) l.push_back(line);
        return l;
      }();
      ASSERT_EQ(static_cast<Index>(lines.size()), want.rows() + 1);
      EXPECT_EQ(lines[0], "prediction");
      for (Index i = 0; i < want.rows(); ++i) {
        ASSERT_EQ(lines[static_cast<std::size_t>(i) + 1], data.target_names[static_cast<std::size_t>(want(i, 0))]) << "row " << i;
      }
    } else {
      const Dataset written = read_csv(path("out.csv"), {.no_target = true});
      EXPECT_EQ(written.features, want);
    }
  }
}

TEST_F(Cli, CategoricalColumnsAreOneHotEncodedAndRemembered) {
  // Colour decides the class; size is noise. The test file lists the categories in another order
  // and lacks one of them.
  write_text(path("train.csv"),
             "colour,size,label\nred,1,hot\nblue,2,cold\ngreen,3,mild\nred,2,hot\nblue,1,cold\ngreen,1,mild\n"
             "red,3,hot\nblue,3,cold\ngreen,2,mild\n");
  write_text(path("test.csv"), "colour,size,label\nblue,5,cold\nred,0,hot\n");
  EXPECT_RUNS(dagml("fit decision_tree_classifier train.csv --categorical auto -o tree.dagml --quiet"));
  const CliRun predicted = dagml("predict tree.dagml test.csv");
  EXPECT_RUNS(predicted);
  EXPECT_EQ(predicted.out, "prediction\ncold\nhot\n");
  const CliRun info = dagml("info tree.dagml");
  EXPECT_RUNS(info);
  EXPECT_NE(info.out.find("categorical colour\n"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("classes     cold, hot, mild"), std::string::npos) << info.out;
  const TableModel model = load_table_model(path("tree.dagml").string());
  EXPECT_EQ(model.columns.encoded_feature_names(),
            (std::vector<std::string>{"colour=blue", "colour=green", "colour=red", "size"}));
  // Evaluation codes the test file's classes by name: two rows, both right.
  const CliRun evaluated = dagml("evaluate tree.dagml test.csv --json");
  EXPECT_RUNS(evaluated);
  EXPECT_EQ(nlohmann::json::parse(evaluated.out)["accuracy"].get<double>(), 1.0) << evaluated.out;

  write_text(path("unseen.csv"), "colour,size\npurple,1\n");
  const CliRun unseen = dagml("predict tree.dagml unseen.csv");
  EXPECT_EQ(unseen.exit_code, 1);
  EXPECT_NE(unseen.err.find("column 'colour', data row 1: expected one of the categories seen at fit (blue, green, red), "
                            "found 'purple'"),
            std::string::npos)
      << unseen.err;
}

TEST_F(Cli, StandardInputAndOutput) {
  const std::string csv = "x,y\n0,1\n1,3\n2,5\n3,7\n";
  EXPECT_RUNS(dagml("fit linear_regression - -o line.dagml --quiet", csv));
  const CliRun predicted = dagml("predict line.dagml - -o -", "x\n10\n");
  EXPECT_RUNS(predicted);
  EXPECT_EQ(predicted.out, "prediction\n21\n");
}

// split deals the records as written (text and quotes kept) by train_test_indices, in file order.
TEST_F(Cli, SplitKeepsRecordsAsWrittenAndFollowsTrainTestIndices) {
  std::string csv = "name,x,label\n";
  std::vector<std::string> rows;
  for (int i = 0; i < 20; ++i) rows.push_back(fmt::format("\"item, {}\",{},{}", i, i * 0.5, i % 2 ? "odd" : "even"));
  for (const std::string& row : rows) csv += row + "\n";
  write_text(path("items.csv"), csv);
  EXPECT_RUNS(dagml("split items.csv -o items --test-fraction 0.25 --stratify --seed 3 --quiet"));
  const Dataset data = parse_csv(csv, {.categorical = {"name"}});
  const SplitIndices parts = train_test_indices(20, {.test_fraction = 0.25, .seed = 3, .stratify = true}, &data.target);
  for (const auto& [file, indices] : {std::pair{"items_train.csv", parts.train}, std::pair{"items_test.csv", parts.test}}) {
    std::vector<Index> sorted = indices;
    std::sort(sorted.begin(), sorted.end());
    std::string expected = "name,x,label\n";
    for (const Index i : sorted) expected += rows[static_cast<std::size_t>(i)] + "\n";
    EXPECT_EQ(read_text(path(file)), expected) << file;
  }
  // The parts then fit and evaluate like any table.
  EXPECT_RUNS(dagml("split iris -o iris --seed 1 --stratify --quiet"));
  EXPECT_RUNS(dagml("fit gaussian_nb iris_train.csv -o nb.dagml --quiet"));
  const CliRun evaluated = dagml("evaluate nb.dagml iris_test.csv --json");
  EXPECT_RUNS(evaluated);
  EXPECT_GT(nlohmann::json::parse(evaluated.out)["accuracy"].get<double>(), 0.85);
}

// On a terminal (here util-linux's `script`, which runs the command on a pseudo-terminal) fit
// draws the iteration bar of its training loop; into a pipe or file it draws nothing.
TEST_F(Cli, ProgressBarOnATerminalOnly) {
  if (std::system("command -v script > /dev/null") != 0) GTEST_SKIP() << "util-linux's script is not installed";
  const std::string fit = fmt::format("{} fit mlp_classifier digits --set training.num_epochs=300 -o m.dagml", DAGML_CLI_PATH);
  const CliRun on_terminal = dagml_shell(fmt::format("script -qfc '{}' /dev/null", fit));
  EXPECT_RUNS(on_terminal);
  EXPECT_NE(on_terminal.out.find("/300  "), std::string::npos) << on_terminal.out;
  EXPECT_NE(on_terminal.out.find("[#"), std::string::npos) << on_terminal.out;
  const CliRun piped = dagml("fit mlp_classifier digits --set training.num_epochs=300 -o m.dagml");
  EXPECT_RUNS(piped);
  EXPECT_EQ(piped.err.find("/300"), std::string::npos) << piped.err;
  EXPECT_NE(piped.err.find("fitted mlp_classifier"), std::string::npos) << piped.err;
}

TEST_F(Cli, ConfigFileAndSetOverrideIt) {
  write_text(path("ridge.conf"), "# ridge settings\nlambda = 3\nfit_intercept = false\n");
  EXPECT_RUNS(dagml("fit ridge diabetes --config ridge.conf --set lambda=7 -o r.dagml --quiet"));
  const CliRun info = dagml("info r.dagml");
  EXPECT_NE(info.out.find("lambda = 7"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("fit_intercept = false"), std::string::npos) << info.out;
}

TEST_F(Cli, CrossValidationOverAGridEqualsTheLibrary) {
  const CliRun cv = dagml("cv ridge diabetes --folds 4 --grid lambda=0.01,1,100 --json");
  EXPECT_RUNS(cv);
  const Dataset data = load_dataset("diabetes");
  const auto results = nlohmann::json::parse(cv.out)["results"];
  ASSERT_EQ(results.size(), 3u) << cv.out;
  const char* lambdas[] = {"0.01", "1", "100"};
  for (std::size_t c = 0; c < 3; ++c) {
    const Vector scores = cross_val_score(make_estimator("ridge", {{"lambda", lambdas[c]}}), data.features, data.target,
                                          KFold(data.num_samples(), {.k = 4}));
    EXPECT_EQ(results[c]["settings"]["lambda"].get<std::string>(), lambdas[c]);
    const auto folds = results[c]["fold_scores"].get<std::vector<double>>();
    EXPECT_EQ(Vector::Map(folds.data(), 4), scores);  // the same fits, bit for bit
    EXPECT_DOUBLE_EQ(results[c]["mean"].get<double>(), scores.mean());
  }
}

TEST_F(Cli, UsageErrorsExitWithTwo) {
  for (const char* args : {"", "fit", "fit ridge", "fit no_such_model iris -o m.dagml", "fit ridge diabetes -o m.dagml --set lambda",
                           "fit ridge diabetes -o m.dagml --set no_such_option=1", "fit ridge diabetes -o m.dagml --set lambda=abc",
                           "predict", "cv ridge diabetes --folds 1", "frobnicate"}) {
    const CliRun run = dagml(args);
    EXPECT_EQ(run.exit_code, 2) << "dagml " << args << "\n" << run.err;
    EXPECT_NE(run.err.find("dagml: "), std::string::npos) << args;
  }
  const CliRun unknown = dagml("fit no_such_model iris -o m.dagml");
  EXPECT_NE(unknown.err.find("no estimator named 'no_such_model'"), std::string::npos) << unknown.err;
}

TEST_F(Cli, DataAndModelErrorsExitWithOneAndSayWhere) {
  write_text(path("bad.csv"), "a,b,y\n1,2,3\n4,oops,6\n");
  const CliRun malformed = dagml("fit ridge bad.csv -o m.dagml");
  EXPECT_EQ(malformed.exit_code, 1);
  EXPECT_NE(malformed.err.find("bad.csv:3:3"), std::string::npos) << malformed.err;
  EXPECT_NE(malformed.err.find("expected a number, found 'oops'"), std::string::npos) << malformed.err;

  const CliRun missing = dagml("fit ridge no_such_file.csv -o m.dagml");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("expected a CSV file, a bundled dataset"), std::string::npos) << missing.err;

  EXPECT_RUNS(dagml("fit ridge diabetes -o m.dagml --quiet"));
  const std::string bytes = read_text(path("m.dagml"));
  write_text(path("truncated.dagml"), bytes.substr(0, bytes.size() / 2));
  const CliRun truncated = dagml("predict truncated.dagml diabetes");
  EXPECT_EQ(truncated.exit_code, 1);
  EXPECT_NE(truncated.err.find("truncated.dagml"), std::string::npos) << truncated.err;

  write_text(path("wide.csv"), "a,b,c,d,e,f,g,h,i,j,k,l,y\n" + std::string("1,1,1,1,1,1,1,1,1,1,1,1,1\n"));
  const CliRun wrong_columns = dagml("predict m.dagml wide.csv");
  EXPECT_EQ(wrong_columns.exit_code, 1);
  EXPECT_NE(wrong_columns.err.find("expected the columns"), std::string::npos) << wrong_columns.err;

  // A model of another kind than the command needs, and a file that is no model at all.
  EXPECT_RUNS(dagml("fit pca diabetes -o pca.dagml --quiet"));
  const CliRun no_predict = dagml("predict pca.dagml diabetes");
  EXPECT_EQ(no_predict.exit_code, 1);
  EXPECT_NE(no_predict.err.find("pca"), std::string::npos) << no_predict.err;
  const CliRun not_a_model = dagml("info bad.csv");
  EXPECT_EQ(not_a_model.exit_code, 1);
  EXPECT_NE(not_a_model.err.find("bad.csv"), std::string::npos) << not_a_model.err;

  const CliRun transform = dagml("transform m.dagml diabetes");
  EXPECT_EQ(transform.exit_code, 1);
  EXPECT_NE(transform.err.find("transform"), std::string::npos) << transform.err;
}

// Iris recoded for the input domains that take other values than reals (written by the test:
// the bundled datasets are real-valued), with virginica against the rest as a binary target.
std::string iris_in_domain(InputDomain domain, bool with_target) {
  const Dataset iris = load_dataset("iris");
  Tensor X = iris.features;
  const Tensor low = X.colwise().minCoeff(), high = X.colwise().maxCoeff();
  for (Index j = 0; j < X.cols(); ++j) {
    const Scalar mean = X.col(j).mean();
    for (Index i = 0; i < X.rows(); ++i) {
      const Scalar unit = (X(i, j) - low(j)) / (high(j) - low(j));
      switch (domain) {
        case InputDomain::Binary: X(i, j) = X(i, j) > mean ? 1 : 0; break;
        case InputDomain::Categorical: X(i, j) = std::min<Scalar>(2, std::floor(3 * unit)); break;
        case InputDomain::UnitInterval: X(i, j) = unit; break;
        case InputDomain::Real:
        case InputDomain::NonNegative: break;  // iris is positive
      }
    }
  }
  std::vector<std::string> names = iris.feature_names;
  if (with_target) {
    X.conservativeResize(Eigen::NoChange, X.cols() + 1);
    X.col(X.cols() - 1) = (iris.target.array() == 2).cast<Scalar>();
    names.push_back(iris.target_column);
  }
  return format_csv(X, names);
}

// Every registered estimator fits through the command line with its default options, and
// predicts or transforms: diabetes for regressors, breast cancer for classifiers (binary: some
// classifiers take two classes only), iris for the rest; iris recoded for other input domains.
// Three cannot, and say why: the random projections' default dimension (Johnson–Lindenstrauss
// for eps = 0.1) exceeds the width of every bundled dataset, and the CNN's default input is a
// 28×28 image (Fashion-MNIST, not bundled as CSV).
TEST_F(Cli, EveryRegisteredEstimatorFitsWithItsDefaults) {
  const std::map<std::string, std::string> cannot = {
      {"gaussian_random_projection", "give num_components, or a larger eps"},
      {"sparse_random_projection", "give num_components, or a larger eps"},
      {"cnn_classifier", "expected 784 columns"}};
  for (const EstimatorInfo& info : registered_estimators()) {
    const bool supervised = info.task == Task::Regression || info.task == Task::Classification;
    std::string data = info.task == Task::Regression ? "diabetes" : info.task == Task::Classification ? "breast_cancer" : "iris";
    if (info.input != InputDomain::Real && info.input != InputDomain::NonNegative) {
      data = "in_domain.csv";
      write_text(path(data), iris_in_domain(info.input, true));
    }
    const std::string target = supervised ? "" : " --target species";
    const CliRun fit = dagml(fmt::format("fit {} {}{} -o m.dagml --quiet", info.name, data, target));
    if (cannot.contains(info.name)) {
      EXPECT_EQ(fit.exit_code, 1) << info.name;
      EXPECT_NE(fit.err.find(cannot.at(info.name)), std::string::npos) << fit.err;
      continue;
    }
    EXPECT_EQ(fit.exit_code, 0) << info.name << ": " << fit.err;
    if (fit.exit_code != 0) continue;
    const char* method = info.capabilities.predict ? "predict" : "transform";
    const CliRun used = dagml(fmt::format("{} m.dagml {} -o out.csv", method, data));
    EXPECT_EQ(used.exit_code, 0) << info.name << " " << method << ": " << used.err;
  }
}

// `dagml plot` writes the library's own figure of the model (its gnuplot data verbatim), and the
// pictures when gnuplot is installed.
TEST_F(Cli, PlotsAreTheLibrarysFigures) {
  EXPECT_RUNS(dagml("fit logistic_regression breast_cancer --set max_iterations=500 -o cancer.dagml --quiet"));
  EXPECT_RUNS(dagml("plot roc cancer.dagml breast_cancer -o roc --quiet"));
  const Dataset data = load_dataset("breast_cancer");
  AnyEstimator model = make_estimator("logistic_regression", {{"max_iterations", "500"}});
  model.fit(data.features, data.target);
  const plot::Figure roc =
      plot::roc_curves(data.target, {{"logistic_regression", model.predict_proba(data.features).col(1)}});
  EXPECT_EQ(read_text(path("roc.dat")), plot::gnuplot_text(roc, "roc").data);
  EXPECT_EQ(read_text(path("roc.gp")), plot::gnuplot_text(roc, "roc").script);
  if (plot::gnuplot_available()) {
    EXPECT_GT(fs::file_size(path("roc.png")), 1000u);
    EXPECT_TRUE(fs::exists(path("roc.svg")));
  }

  write_text(path("history.csv"), "train,validation\n1,1.5\n0.5,0.9\n0.25,0.8\n");
  EXPECT_RUNS(dagml("plot history history.csv -o history --log --quiet"));
  const plot::Figure history = plot::learning_curves({{"train", {1, 0.5, 0.25}}, {"validation", {1.5, 0.9, 0.8}}}, true);
  EXPECT_EQ(read_text(path("history.dat")), plot::gnuplot_text(history, "history").data);

  EXPECT_RUNS(dagml("fit pca iris --set num_components=2 -o pca.dagml --quiet"));
  EXPECT_RUNS(dagml("plot embedding pca.dagml iris -o embedding --quiet"));
  EXPECT_TRUE(fs::exists(path("embedding.dat")));
  EXPECT_RUNS(dagml("plot importances cancer.dagml breast_cancer -o importances --quiet"));
  EXPECT_RUNS(dagml("plot confusion cancer.dagml breast_cancer -o confusion --quiet"));

  const CliRun unknown = dagml("plot frobnicate cancer.dagml breast_cancer -o x");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("expected a kind among roc, pr"), std::string::npos) << unknown.err;
  const CliRun wrong_task = dagml("plot embedding cancer.dagml breast_cancer -o x");
  EXPECT_EQ(wrong_task.exit_code, 2);
  EXPECT_NE(wrong_task.err.find("expected a transformation model, found logistic_regression"), std::string::npos)
      << wrong_task.err;
  const CliRun wide = dagml("plot regions cancer.dagml breast_cancer -o x");
  EXPECT_EQ(wide.exit_code, 1) << wide.err;
}

TEST_F(Cli, ModelsAndDatasetsAreListedFromTheRegistry) {
  const CliRun models = dagml("models");
  EXPECT_RUNS(models);
  for (const EstimatorInfo& info : registered_estimators()) EXPECT_NE(models.out.find(info.name), std::string::npos) << info.name;
  const CliRun ridge = dagml("models ridge");
  EXPECT_RUNS(ridge);
  EXPECT_NE(ridge.out.find("lambda"), std::string::npos) << ridge.out;
  const CliRun datasets = dagml("datasets");
  EXPECT_RUNS(datasets);
  for (const std::string& name : dataset_names()) EXPECT_NE(datasets.out.find(name), std::string::npos) << name;
}

}  // namespace
}  // namespace dagml
