#include "models/kernel/kernel_io.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "graph/error.h"
#include "models/io/archive.h"
#include "models/io/option_fields.h"
#include "models/kernel/kernel_algebra.h"
#include "models/kernel/stationary_kernels.h"

namespace dagml {
namespace {

[[noreturn]] void bad_kernel(std::string_view text, std::string_view reason) {
  throw ValueError(fmt::format(
      "expected a kernel (Note [Kernel text form]: linear, polynomial(degree=p), rbf(gamma=γ), rbf(length_scale=ℓ), "
      "matern(nu=ν, length_scale=ℓ), rational_quadratic(length_scale=ℓ, alpha=α), periodic(length_scale=ℓ, "
      "period=p), constant(value=c), white(noise=σ²), combined with + and *); found '{}' ({})",
      text, reason));
}

bool contains_user_code(const Kernel& k) {
  if (dynamic_cast<const CustomKernel*>(&k)) return true;
  if (const auto* composite = dynamic_cast<const CompositeKernel*>(&k))
    return contains_user_code(*composite->left()) || contains_user_code(*composite->right());
  return false;
}

// One parameter value: a number, a list [a, b, …], a pair (lower, upper) or the word fixed.
struct Value {
  std::vector<double> numbers;
  bool fixed = false;
};

// A recursive-descent parser of the grammar
//   sum := product ('+' product)*      product := factor ('*' factor)*
//   factor := '(' sum ')' | number | name ['(' key '=' value (',' key '=' value)* ')']
class KernelParser {
 public:
  explicit KernelParser(std::string_view text) : text_(text) {}

  KernelPtr parse() {
    KernelPtr k = sum();
    skip_spaces();
    if (at_ < text_.size()) fail(fmt::format("unexpected '{}' at offset {}", text_[at_], at_));
    return k;
  }

 private:
  using Parameters = std::vector<std::pair<std::string, Value>>;

  [[noreturn]] void fail(std::string_view reason) const { bad_kernel(text_, reason); }
  void skip_spaces() {
    while (at_ < text_.size() && text_[at_] == ' ') ++at_;
  }
  bool accept(char c) {
    skip_spaces();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(fmt::format("expected '{}' at offset {}", c, at_));
  }
  std::string_view word() {
    skip_spaces();
    const std::size_t begin = at_;
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
    return text_.substr(begin, at_ - begin);
  }
  double number() {
    skip_spaces();
    double v = 0;
    const auto [end, ec] = std::from_chars(text_.data() + at_, text_.data() + text_.size(), v);
    if (ec != std::errc()) fail(fmt::format("expected a number at offset {}", at_));
    at_ = static_cast<std::size_t>(end - text_.data());
    return v;
  }
  std::vector<double> numbers(char close) {
    std::vector<double> v{number()};
    while (accept(',')) v.push_back(number());
    expect(close);
    return v;
  }
  Value value() {
    if (accept('[')) return {numbers(']')};
    if (accept('(')) return {numbers(')')};
    skip_spaces();
    if (text_.substr(at_).starts_with("fixed")) {
      at_ += 5;
      return {{}, true};
    }
    return {{number()}};
  }

  KernelPtr sum() {
    KernelPtr k = product();
    while (accept('+')) k = k + product();
    return k;
  }
  KernelPtr product() {
    KernelPtr k = factor();
    while (accept('*')) k = k * factor();
    return k;
  }
  KernelPtr factor() {
    if (accept('(')) {
      KernelPtr k = sum();
      expect(')');
      return k;
    }
    skip_spaces();
    if (at_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[at_])) || text_[at_] == '.'))
      return std::make_shared<ConstantKernel>(number());
    const std::string name(word());
    if (name.empty()) fail(fmt::format("expected a kernel name at offset {}", at_));
    Parameters p;
    if (accept('(')) {
      if (!accept(')')) {
        do {
          const std::string key(word());
          if (key.empty()) fail(fmt::format("expected a parameter name at offset {}", at_));
          expect('=');
          for (const auto& [k, v] : p)
            if (k == key) fail(fmt::format("{} given twice", key));
          p.emplace_back(key, value());
        } while (accept(','));
        expect(')');
      }
    }
    return make(name, p);
  }

  // The parameter `key`, removed from p, or nothing.
  std::optional<Value> take(Parameters& p, std::string_view key) const {
    for (auto it = p.begin(); it != p.end(); ++it) {
      if (it->first != key) continue;
      Value v = std::move(it->second);
      p.erase(it);
      return v;
    }
    return std::nullopt;
  }
  double scalar(Parameters& p, std::string_view key, std::optional<double> fallback = std::nullopt) const {
    const std::optional<Value> v = take(p, key);
    if (!v) {
      if (!fallback) fail(fmt::format("{} is required", key));
      return *fallback;
    }
    if (v->fixed || v->numbers.size() != 1) fail(fmt::format("{} must be one number", key));
    return v->numbers[0];
  }
  // A hyperparameter block: its value(s) and optional key_bounds.
  KernelHyperparameter hyperparameter(Parameters& p, const std::string& key, std::optional<double> fallback,
                                      bool vector_allowed) const {
    KernelHyperparameter h = scalar_hyperparameter(key, 1);
    if (const std::optional<Value> v = take(p, key)) {
      if (v->fixed || v->numbers.empty() || (v->numbers.size() > 1 && !vector_allowed))
        fail(fmt::format("{} must be {}", key, vector_allowed ? "a number or a list [a, b, …]" : "one number"));
      h.value = Eigen::Map<const Vector>(v->numbers.data(), static_cast<Index>(v->numbers.size()));
    } else {
      if (!fallback) fail(fmt::format("{} is required", key));
      h.value = Vector::Constant(1, *fallback);
    }
    if (const std::optional<Value> bounds = take(p, key + "_bounds")) {
      if (bounds->fixed) {
        h.fixed = true;
      } else if (bounds->numbers.size() == 2) {
        h.lower = bounds->numbers[0];
        h.upper = bounds->numbers[1];
      } else {
        fail(fmt::format("{}_bounds must be fixed or (lower, upper)", key));
      }
    }
    return h;
  }

  KernelPtr make(const std::string& name, Parameters& p) const {
    KernelPtr k;
    if (name == "linear") {
      k = std::make_shared<LinearKernel>();
    } else if (name == "polynomial") {
      const double degree = scalar(p, "degree");
      if (!(degree == std::floor(degree)) || std::abs(degree) > std::numeric_limits<int>::max())
        fail("the degree must be an integer");
      const double gamma = scalar(p, "gamma", 1), coef0 = scalar(p, "coef0", 1);
      k = std::make_shared<PolynomialKernel>(static_cast<int>(degree), gamma, coef0);
    } else if (name == "rbf" && !take_peek(p, "length_scale")) {
      const KernelHyperparameter g = hyperparameter(p, "gamma", std::nullopt, false);
      k = std::make_shared<RbfKernel>(g.value[0], g.lower, g.upper, g.fixed);
    } else if (name == "rbf") {
      k = std::make_shared<SquaredExponentialKernel>(hyperparameter(p, "length_scale", std::nullopt, true));
    } else if (name == "matern") {
      const double nu = scalar(p, "nu", 1.5);
      k = std::make_shared<MaternKernel>(nu, hyperparameter(p, "length_scale", 1.0, true));
    } else if (name == "rational_quadratic") {
      k = std::make_shared<RationalQuadraticKernel>(hyperparameter(p, "length_scale", 1.0, false),
                                                    hyperparameter(p, "alpha", 1.0, false));
    } else if (name == "periodic") {
      k = std::make_shared<PeriodicKernel>(hyperparameter(p, "length_scale", 1.0, false),
                                           hyperparameter(p, "period", 1.0, false));
    } else if (name == "constant") {
      k = std::make_shared<ConstantKernel>(hyperparameter(p, "value", 1.0, false));
    } else if (name == "white") {
      k = std::make_shared<WhiteKernel>(hyperparameter(p, "noise", 1.0, false));
    } else {
      fail(fmt::format("unknown kernel '{}'", name));
    }
    if (!p.empty()) fail(fmt::format("unknown parameter {} of {}", p.front().first, name));
    return k;
  }
  static bool take_peek(const Parameters& p, std::string_view key) {
    for (const auto& [k, v] : p)
      if (k == key) return true;
    return false;
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

}  // namespace

KernelPtr parse_kernel(std::string_view text) {
  if (text.find_first_not_of(' ') == std::string_view::npos) bad_kernel(text, "it is empty");
  return KernelParser(text).parse();
}

std::string format_option(const KernelPtr& kernel) { return kernel ? kernel->name() : std::string(); }

void parse_option(std::string_view key, std::string_view text, KernelPtr& kernel) {
  if (text.find_first_not_of(' ') == std::string_view::npos) {
    kernel = nullptr;
    return;
  }
  try {
    kernel = parse_kernel(text);
  } catch (const ValueError& e) {
    throw ValueError(fmt::format("option {}: {}", key, e.what()));
  }
}

void CEREAL_SAVE_FUNCTION_NAME(ModelOutputArchive& ar, const KernelPtr& kernel) {
  if (kernel && contains_user_code(*kernel)) {
    throw ValueError(fmt::format(
        "kernel {} contains user code (a CustomKernel) and cannot be saved in a model file; expected built-in kernels",
        kernel->name()));
  }
  ar(format_option(kernel));
}

void CEREAL_LOAD_FUNCTION_NAME(ModelInputArchive& ar, KernelPtr& kernel) {
  std::string text;
  ar(text);
  try {
    kernel = text.empty() ? nullptr : parse_kernel(text);
  } catch (const ValueError& e) {
    ar.fail(e.what());
  }
}

}  // namespace dagml
