#include "models/data/nist_strd.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <numbers>
#include <optional>

#include "autodiff/elementwise.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "models/data/datasets.h"
#include "models/data/file_io.h"

namespace dagml {
namespace {

// One problem's model: its name, parameter count p, predictor count k and f(x; b), written with
// b_j = b[j − 1] as 1×1 nodes that broadcast over the n×1 predictor columns.
struct NistModel {
  std::string_view name;
  Index parameters;
  Index predictors;
  std::function<Var(const std::vector<Var>& b, const std::vector<Var>& x)> f;
};

// y = b1·(1 − exp(−b2·x))
Var saturating_exponential(const std::vector<Var>& b, const std::vector<Var>& x) {
  return b[0] * (1.0 - exp(-(b[1] * x[0])));
}
// y = exp(−b1·x) / (b2 + b3·x)
Var chwirut(const std::vector<Var>& b, const std::vector<Var>& x) {
  return exp(-(b[0] * x[0])) / (b[1] + b[2] * x[0]);
}
// y = b1·exp(−b2·x) + b3·exp(−b4·x) + b5·exp(−b6·x)
Var lanczos(const std::vector<Var>& b, const std::vector<Var>& x) {
  return b[0] * exp(-(b[1] * x[0])) + b[2] * exp(-(b[3] * x[0])) + b[4] * exp(-(b[5] * x[0]));
}
// y = b1·exp(−b2·x) + b3·exp(−(x − b4)²/b5²) + b6·exp(−(x − b7)²/b8²)
Var gauss(const std::vector<Var>& b, const std::vector<Var>& x) {
  return b[0] * exp(-(b[1] * x[0])) + b[2] * exp(-square((x[0] - b[3]) / b[4])) +
         b[5] * exp(-square((x[0] - b[6]) / b[7]));
}
// y = (b1 + b2·x + b3·x² + b4·x³) / (1 + b5·x + b6·x² + b7·x³)
Var rational_cubic(const std::vector<Var>& b, const std::vector<Var>& x) {
  const Var x2 = square(x[0]), x3 = x2 * x[0];
  return (b[0] + b[1] * x[0] + b[2] * x2 + b[3] * x3) / (1.0 + b[4] * x[0] + b[5] * x2 + b[6] * x3);
}

const std::vector<NistModel>& nist_models() {
  using V = const std::vector<Var>&;
  constexpr Scalar pi = std::numbers::pi;
  static const std::vector<NistModel> table = {
      // Lower difficulty
      {"Misra1a", 2, 1, saturating_exponential},
      {"Chwirut2", 3, 1, chwirut},
      {"Chwirut1", 3, 1, chwirut},
      {"Lanczos3", 6, 1, lanczos},
      {"Gauss1", 8, 1, gauss},
      {"Gauss2", 8, 1, gauss},
      // y = b1·x^b2
      {"DanWood", 2, 1, [](V b, V x) { return b[0] * pow(x[0], b[1]); }},
      // y = b1·(1 − (1 + b2·x/2)^−2)
      {"Misra1b", 2, 1, [](V b, V x) { return b[0] * (1.0 - pow(1.0 + b[1] * x[0] * 0.5, -2.0)); }},
      // Average difficulty
      // y = (b1 + b2·x + b3·x²) / (1 + b4·x + b5·x²)
      {"Kirby2", 5, 1,
       [](V b, V x) {
         const Var x2 = square(x[0]);
         return (b[0] + b[1] * x[0] + b[2] * x2) / (1.0 + b[3] * x[0] + b[4] * x2);
       }},
      {"Hahn1", 7, 1, rational_cubic},
      // log y = b1 − b2·x1·exp(−b3·x2)
      {"Nelson", 3, 2, [](V b, V x) { return b[0] - b[1] * x[0] * exp(-(b[2] * x[1])); }},
      // y = b1 + b2·exp(−x·b4) + b3·exp(−x·b5)
      {"MGH17", 5, 1, [](V b, V x) { return b[0] + b[1] * exp(-(x[0] * b[3])) + b[2] * exp(-(x[0] * b[4])); }},
      {"Lanczos1", 6, 1, lanczos},
      {"Lanczos2", 6, 1, lanczos},
      {"Gauss3", 8, 1, gauss},
      // y = b1·(1 − (1 + 2·b2·x)^−½)
      {"Misra1c", 2, 1, [](V b, V x) { return b[0] * (1.0 - pow(1.0 + 2.0 * (b[1] * x[0]), -0.5)); }},
      // y = b1·b2·x / (1 + b2·x)
      {"Misra1d", 2, 1, [](V b, V x) { return b[0] * b[1] * x[0] / (1.0 + b[1] * x[0]); }},
      // y = b1 − b2·x − atan2(b3, x − b4)/π  (Note [NIST evaluation])
      {"Roszman1", 4, 1, [](V b, V x) { return b[0] - b[1] * x[0] - atan2(b[2], x[0] - b[3]) / pi; }},
      // y = b1 + b2·cos(2πx/12) + b3·sin(2πx/12) + b5·cos(2πx/b4) + b6·sin(2πx/b4)
      //        + b8·cos(2πx/b7) + b9·sin(2πx/b7)
      {"ENSO", 9, 1,
       [](V b, V x) {
         const Var annual = x[0] * (2 * pi / 12), w4 = x[0] * (2 * pi) / b[3], w7 = x[0] * (2 * pi) / b[6];
         return b[0] + b[1] * cos(annual) + b[2] * sin(annual) + b[4] * cos(w4) + b[5] * sin(w4) +
                b[7] * cos(w7) + b[8] * sin(w7);
       }},
      // Higher difficulty
      // y = b1·(x² + x·b2) / (x² + x·b3 + b4)
      {"MGH09", 4, 1,
       [](V b, V x) {
         const Var x2 = square(x[0]);
         return b[0] * (x2 + x[0] * b[1]) / (x2 + x[0] * b[2] + b[3]);
       }},
      {"Thurber", 7, 1, rational_cubic},
      {"BoxBOD", 2, 1, saturating_exponential},
      // y = b1 / (1 + exp(b2 − b3·x))
      {"Rat42", 3, 1, [](V b, V x) { return b[0] / (1.0 + exp(b[1] - b[2] * x[0])); }},
      // y = b1·exp(b2 / (x + b3))
      {"MGH10", 3, 1, [](V b, V x) { return b[0] * exp(b[1] / (x[0] + b[2])); }},
      // y = (b1/b2)·exp(−½((x − b3)/b2)²)
      {"Eckerle4", 3, 1,
       [](V b, V x) { return b[0] / b[1] * exp(-0.5 * square((x[0] - b[2]) / b[1])); }},
      // y = b1 / (1 + exp(b2 − b3·x))^(1/b4)
      {"Rat43", 4, 1, [](V b, V x) { return b[0] / pow(1.0 + exp(b[1] - b[2] * x[0]), 1.0 / b[3]); }},
      // y = b1·(b2 + x)^(−1/b3)
      {"Bennett5", 3, 1, [](V b, V x) { return b[0] * pow(b[1] + x[0], -1.0 / b[2]); }},
  };
  return table;
}

const NistModel& find_model(std::string_view name) {
  for (const NistModel& m : nist_models())
    if (m.name == name) return m;
  throw ValueError(fmt::format("unknown NIST problem '{}': expected one of {}", name,
                               fmt::join(nist_problem_names(), ", ")));
}

// Splits a line on blanks (NIST's files use spaces and CRLF line ends).
std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::optional<Scalar> to_number(std::string_view s) {
  Scalar v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Reads the lines of one file and reports faults at their place.
class NistReader {
 public:
  NistReader(std::string source, std::vector<std::string> lines) : source_(std::move(source)), lines_(std::move(lines)) {}

  NistProblem read() {
    NistProblem p;
    std::vector<std::array<Scalar, 4>> params;
    Index observations = -1;
    bool have_rss = false;
    for (line_ = 0; line_ < static_cast<Index>(lines_.size()); ++line_) {
      const std::string_view line = lines_[line_];
      const auto t = tokens(line);
      if (t.empty()) continue;
      if (starts_with(line, "Dataset Name:")) {
        if (t.size() < 3) fail(line.size(), "expected the dataset name after 'Dataset Name:'");
        p.name = std::string(t[2]);
      } else if (line.find("Level of Difficulty") != std::string_view::npos && p.level.empty()) {
        p.level = std::string(t[0]);
      } else if (t.size() >= 2 && t[0].size() >= 2 && t[0][0] == 'b' && t[1] == "=" && is_index(t[0].substr(1))) {
        const Index j = std::stol(std::string(t[0].substr(1)));
        if (j != static_cast<Index>(params.size()) + 1)
          fail(column(t[0]), fmt::format("expected parameter b{}, found {}", params.size() + 1, t[0]));
        if (t.size() != 6)
          fail(line.size(), fmt::format("expected 4 numbers after '{} =' (start 1, start 2, certified value, "
                                        "standard deviation), found {}", t[0], t.size() - 2));
        std::array<Scalar, 4> v{};
        for (int c = 0; c < 4; ++c) v[c] = number(t[2 + c]);
        params.push_back(v);
      } else if (starts_with(line, "Residual Sum of Squares:")) {
        p.certified_rss = number(t.back());
        have_rss = true;
      } else if (starts_with(line, "Number of Observations:")) {
        const Scalar n = number(t.back());
        if (n < 1 || n != std::floor(n) || n > 1e6) fail(column(t.back()), fmt::format("expected an observation count ≥ 1, found {}", t.back()));
        observations = static_cast<Index>(n);
      } else if (t.size() >= 3 && t[0] == "Data:" && t[1] == "y") {
        if (observations < 0) fail(0, "the data header comes before 'Number of Observations:'");
        read_data(p, observations, static_cast<Index>(t.size()) - 2);
        break;
      }
    }
    line_ = static_cast<Index>(lines_.size());
    if (p.name.empty()) fail(0, "expected a 'Dataset Name:' line, found none");
    if (params.empty()) fail(0, "expected the parameter lines 'b1 = …', found none");
    if (!have_rss) fail(0, "expected a 'Residual Sum of Squares:' line, found none");
    if (p.y.size() == 0) fail(0, "expected a data header 'Data: y x…' followed by the observations, found none");
    const NistModel& model = find_model(p.name);
    if (static_cast<Index>(params.size()) != model.parameters || p.x.cols() != model.predictors)
      fail(0, fmt::format("{} has {} parameters and {} predictors; the file gives {} and {}", p.name,
                          model.parameters, model.predictors, params.size(), p.x.cols()));
    const Index np = static_cast<Index>(params.size());
    p.starts = {Vector(np), Vector(np)};
    p.certified.resize(np);
    p.certified_deviation.resize(np);
    for (Index j = 0; j < np; ++j) {
      p.starts[0][j] = params[j][0];
      p.starts[1][j] = params[j][1];
      p.certified[j] = params[j][2];
      p.certified_deviation[j] = params[j][3];
    }
    if (p.name == "Nelson") {
      if ((p.y.array() <= 0).any()) fail(0, "Nelson's model is fitted to log y: every y must be > 0");
      p.y = p.y.array().log().matrix();
    }
    return p;
  }

 private:
  void read_data(NistProblem& p, Index n, Index k) {
    p.x.resize(n, k);
    p.y.resize(n);
    Index i = 0;
    for (++line_; line_ < static_cast<Index>(lines_.size()) && i < n; ++line_) {
      const auto t = tokens(lines_[line_]);
      if (t.empty()) continue;
      if (static_cast<Index>(t.size()) != 1 + k)
        fail(lines_[line_].size(), fmt::format("expected {} numbers (y and {} predictor{}), found {}", 1 + k, k,
                                               k == 1 ? "" : "s", t.size()));
      p.y[i] = number(t[0]);
      for (Index c = 0; c < k; ++c) p.x(i, c) = number(t[1 + c]);
      ++i;
    }
    if (i < n) fail(0, fmt::format("expected {} observations, found {} (the file is truncated)", n, i));
  }

  static bool starts_with(std::string_view line, std::string_view prefix) { return line.starts_with(prefix); }
  static bool is_index(std::string_view s) {
    return !s.empty() && s.size() < 4 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  }
  long column(std::string_view token) const { return static_cast<long>(token.data() - lines_[line_].data()) + 1; }
  Scalar number(std::string_view token) const {
    if (const auto v = to_number(token)) return *v;
    fail(column(token), fmt::format("expected a finite number, found '{}'", token));
  }
  [[noreturn]] void fail(std::size_t column, const std::string& what) const {
    throw ParseError(source_, static_cast<long>(line_) + 1, static_cast<long>(column), what);
  }

  std::string source_;
  std::vector<std::string> lines_;
  Index line_ = 0;
};

}  // namespace

const std::vector<std::string>& nist_problem_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const NistModel& m : nist_models()) out.emplace_back(m.name);
    return out;
  }();
  return names;
}

NistProblem parse_nist_problem(std::string_view text, const std::string& source) {
  std::vector<std::string> lines;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    begin = end + 1;
  }
  return NistReader(source, std::move(lines)).read();
}

NistProblem read_nist_problem(const std::filesystem::path& path) {
  const std::vector<unsigned char> bytes = read_file_bytes(path);  // IoError, LimitError
  return parse_nist_problem(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path.string());
}

NistProblem load_nist_problem(std::string_view name) {
  find_model(name);
  return read_nist_problem(data_file_path(fmt::format("NIST problem '{}'", name), fmt::format("nist/{}.dat", name)));
}

Var nist_model(std::string_view name, Var b, Var x) {
  const NistModel& model = find_model(name);
  if (b.rows() != model.parameters || b.cols() != 1)
    throw ShapeError(fmt::format("nist_model({}): expected b of shape {}×1, found {}×{}", name, model.parameters,
                                 b.rows(), b.cols()));
  if (x.cols() != model.predictors)
    throw ShapeError(fmt::format("nist_model({}): expected x with {} column{}, found {}", name, model.predictors,
                                 model.predictors == 1 ? "" : "s", x.cols()));
  std::vector<Var> bs, xs;
  for (Index j = 0; j < model.parameters; ++j) bs.push_back(slice_rows(b, j, 1));
  for (Index c = 0; c < model.predictors; ++c) xs.push_back(model.predictors == 1 ? x : slice_cols(x, c, 1));
  return model.f(bs, xs);
}

Scalar log_relative_error(const Vector& b, const Vector& certified) {
  if (b.size() != certified.size())
    throw ShapeError(fmt::format("log_relative_error: expected {} parameters, found {}", certified.size(), b.size()));
  Scalar lre = 11;
  for (Index j = 0; j < b.size(); ++j) {
    const Scalar digits = -std::log10(std::abs(b[j] - certified[j]) / std::abs(certified[j]));
    lre = std::min(lre, std::isnan(digits) ? 0 : std::clamp(digits, Scalar(0), Scalar(11)));
  }
  return lre;
}

}  // namespace dagml
