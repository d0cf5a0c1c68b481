#include "models/ensemble/bagging.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <random>

#include "graph/error.h"
#include "graph/random.h"
#include "models/ensemble/forest.h"

namespace dagml::bagging {

namespace {

Index bagging_count(Scalar fraction, Index total) {
  return std::max<Index>(1, static_cast<Index>(std::floor(fraction * static_cast<Scalar>(total))));
}

// True when `text` starts (after spaces) with an option key followed by '='.
bool bagging_starts_with_key(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && text[i] == ' ') ++i;
  const std::size_t start = i;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' || text[i] == '.')) ++i;
  const std::size_t end = i;
  while (i < text.size() && text[i] == ' ') ++i;
  return end > start && i < text.size() && text[i] == '=';
}

std::string_view bagging_trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

MemberSample draw_member(Index n, Index d, const BaggingOptions& o, Index member) {
  MemberSample s;
  const Index m = bagging_count(o.max_samples, n), k = bagging_count(o.max_features, d);
  const auto b = static_cast<std::uint64_t>(member);
  if (o.bootstrap) {
    const std::vector<Index> counts = forest::bootstrap_counts(n, o.seed, member, m);
    s.rows.reserve(static_cast<std::size_t>(m));
    for (Index i = 0; i < n; ++i) s.rows.insert(s.rows.end(), static_cast<std::size_t>(counts[static_cast<std::size_t>(i)]), i);
  } else {
    s.rows = random_permutation(n, derive_seed(o.seed, 2 * b));
    s.rows.resize(static_cast<std::size_t>(m));
    std::sort(s.rows.begin(), s.rows.end());
  }
  if (k == d && !o.bootstrap_features) {
    s.features = iota_indices(d);
  } else if (o.bootstrap_features) {
    std::mt19937_64 rng(derive_seed(o.seed, 2 * b + 1));
    for (Index j = 0; j < k; ++j) s.features.push_back(static_cast<Index>(uniform_below(rng, static_cast<std::uint64_t>(d))));
    std::sort(s.features.begin(), s.features.end());
  } else {
    s.features = random_permutation(d, derive_seed(o.seed, 2 * b + 1));
    s.features.resize(static_cast<std::size_t>(k));
    std::sort(s.features.begin(), s.features.end());
  }
  return s;
}

std::vector<Index> out_of_bag_rows(const std::vector<Index>& rows, Index n) {
  std::vector<bool> drawn(static_cast<std::size_t>(n), false);
  for (Index i : rows) drawn[static_cast<std::size_t>(i)] = true;
  std::vector<Index> out;
  for (Index i = 0; i < n; ++i)
    if (!drawn[static_cast<std::size_t>(i)]) out.push_back(i);
  return out;
}

OptionSettings parse_estimator_options(std::string_view text, const char* who) {
  OptionSettings settings;
  if (bagging_trim(text).empty()) return settings;
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && !(text[i] == ';' && bagging_starts_with_key(text.substr(i + 1)))) continue;
    const std::string_view entry = bagging_trim(text.substr(begin, i - begin));
    const std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos || bagging_trim(entry.substr(0, eq)).empty())
      throw ValueError(fmt::format("{}: expected estimator_options as key=value;key=value, found '{}'", who, entry));
    settings.emplace_back(std::string(bagging_trim(entry.substr(0, eq))), std::string(bagging_trim(entry.substr(eq + 1))));
    begin = i + 1;
  }
  return settings;
}

BaggingOptions with_prototype(BaggingOptions options, const AnyEstimator& prototype) {
  options.estimator = prototype.name();
  options.estimator_options.clear();
  const std::vector<OptionInfo>& defaults = prototype.info().options;
  for (const OptionInfo& o : prototype.options()) {
    const auto d = std::find_if(defaults.begin(), defaults.end(), [&](const OptionInfo& x) { return x.name == o.name; });
    if (d != defaults.end() && d->default_value == o.default_value) continue;
    if (!options.estimator_options.empty()) options.estimator_options += ';';
    options.estimator_options += o.name + '=' + o.default_value;
  }
  return options;
}

std::string member_name(const BaggingOptions& o, const char* default_name) {
  return o.estimator.empty() ? std::string(default_name) : o.estimator;
}

bool members_allow_missing(const BaggingOptions& o, const char* default_name) {
  const AnyEstimator member =
      make_estimator(member_name(o, default_name), parse_estimator_options(o.estimator_options, "bagging"));
  for (const OptionInfo& option : member.options())
    if ((option.name == "allow_missing" || option.name.ends_with(".allow_missing")) && option.default_value == "true")
      return true;
  return false;
}

void validate_options(const BaggingOptions& o, Task task, const char* default_name, const char* who) {
  if (o.num_estimators < 1) throw ValueError(fmt::format("{}: expected num_estimators ≥ 1, found {}", who, o.num_estimators));
  if (!(o.max_samples > 0 && o.max_samples <= 1))
    throw ValueError(fmt::format("{}: expected max_samples in (0, 1], found {}", who, o.max_samples));
  if (!(o.max_features > 0 && o.max_features <= 1))
    throw ValueError(fmt::format("{}: expected max_features in (0, 1], found {}", who, o.max_features));
  if (o.oob_score && !o.bootstrap)
    throw ValueError(fmt::format("{}: expected bootstrap = true for oob_score, found bootstrap = false", who));
  const std::string name = member_name(o, default_name);
  const EstimatorInfo& info = estimator_info(name);  // ValueError listing the registered names
  if (info.task != task) {
    throw ValueError(fmt::format("{}: expected a {} estimator as the members, found '{}', a {} estimator", who,
                                 enum_name(task), name, enum_name(info.task)));
  }
  (void)make_estimator(name, parse_estimator_options(o.estimator_options, who));  // the members' option checks
}

Tensor take(const Tensor& X, const std::vector<Index>& rows, const std::vector<Index>& features) {
  return X(rows, features);
}

Tensor take_columns(const Tensor& X, const std::vector<Index>& features) { return X(Eigen::all, features); }

std::vector<std::string> member_bytes(const std::vector<std::optional<AnyEstimator>>& members) {
  std::vector<std::string> out;
  out.reserve(members.size());
  for (const auto& m : members) out.push_back(m ? m->to_bytes() : std::string());
  return out;
}

std::string check_loaded_features(const std::vector<std::vector<Index>>& features, Index count, Index d) {
  if (static_cast<Index>(features.size()) != count)
    return fmt::format("expected the features of {} members, found {}", count, features.size());
  for (std::size_t b = 0; b < features.size(); ++b) {
    if (features[b].empty()) return fmt::format("member {}: expected at least one feature, found none", b);
    for (Index j : features[b])
      if (j < 0 || j >= d) return fmt::format("member {}: expected features in 0..{}, found {}", b, d - 1, j);
  }
  return "";
}

}  // namespace dagml::bagging
