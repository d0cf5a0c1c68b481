#include "models/kernel/kernel_io.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "graph/error.h"
#include "models/io/archive.h"
#include "models/io/option_fields.h"

namespace dagml {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

[[noreturn]] void bad_kernel(std::string_view text, std::string_view reason) {
  throw ValueError(
      fmt::format("expected a kernel: linear, polynomial(degree=p, gamma=γ, coef0=c) with gamma and coef0 optional, or "
                  "rbf(gamma=γ); found '{}' ({})",
                  text, reason));
}

bool builtin(const Kernel& k) {
  return dynamic_cast<const LinearKernel*>(&k) || dynamic_cast<const PolynomialKernel*>(&k) ||
         dynamic_cast<const RbfKernel*>(&k);
}

// The "key=value" parameters inside the parentheses, each read once.
class Parameters {
 public:
  Parameters(std::string_view text, std::string_view args) : text_(text) {
    if (trim(args).empty()) return;
    for (std::string_view item : detail::split_list(args)) {
      const std::size_t eq = item.find('=');
      if (eq == std::string_view::npos) bad_kernel(text, fmt::format("parameter '{}' has no '='", trim(item)));
      const std::string_view key = trim(item.substr(0, eq)), value = trim(item.substr(eq + 1));
      double number = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
      if (ec != std::errc() || end != value.data() + value.size())
        bad_kernel(text, fmt::format("{} is not a number", key));
      for (const auto& [k, v] : entries_)
        if (k == key) bad_kernel(text, fmt::format("{} given twice", key));
      entries_.emplace_back(key, number);
    }
  }
  std::optional<double> take(std::string_view key) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first != key) continue;
      const double v = it->second;
      entries_.erase(it);
      return v;
    }
    return std::nullopt;
  }
  double required(std::string_view key) {
    const auto v = take(key);
    if (!v) bad_kernel(text_, fmt::format("{} is required", key));
    return *v;
  }
  // After every known parameter was taken: none may be left.
  void finish() const {
    if (!entries_.empty()) bad_kernel(text_, fmt::format("unknown parameter {}", entries_.front().first));
  }

 private:
  std::string_view text_;
  std::vector<std::pair<std::string_view, double>> entries_;
};

}  // namespace

KernelPtr parse_kernel(std::string_view text) {
  const std::string_view t = trim(text);
  std::string_view name = t, args;
  if (const std::size_t open = t.find('('); open != std::string_view::npos) {
    if (t.back() != ')') bad_kernel(text, "no closing parenthesis");
    name = trim(t.substr(0, open));
    args = t.substr(open + 1, t.size() - open - 2);
  }
  Parameters p(text, args);
  KernelPtr kernel;
  if (name == "linear") {
    kernel = std::make_shared<LinearKernel>();
  } else if (name == "polynomial") {
    const double degree = p.required("degree");
    if (!(degree == std::floor(degree)) || std::abs(degree) > std::numeric_limits<int>::max())
      bad_kernel(text, "the degree must be an integer");
    const double gamma = p.take("gamma").value_or(1), coef0 = p.take("coef0").value_or(1);
    kernel = std::make_shared<PolynomialKernel>(static_cast<int>(degree), gamma, coef0);
  } else if (name == "rbf") {
    kernel = std::make_shared<RbfKernel>(p.required("gamma"));
  } else {
    bad_kernel(text, fmt::format("unknown kernel '{}'", name));
  }
  p.finish();
  return kernel;
}

std::string format_option(const KernelPtr& kernel) { return kernel ? kernel->name() : std::string(); }

void parse_option(std::string_view key, std::string_view text, KernelPtr& kernel) {
  if (trim(text).empty()) {
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
  if (kernel && !builtin(*kernel)) {
    throw ValueError(
        fmt::format("kernel {} is user code and cannot be saved in a model file; expected linear, polynomial or rbf",
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
