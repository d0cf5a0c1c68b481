#include "models/data/column_encoder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "graph/error.h"

namespace dagml {
namespace {

// read_csv's convention: a numeric target's one target name is its column's name; a text target
// (or a bundled dataset's classes) lists the class names instead.
bool has_class_names(const Dataset& data) {
  return !data.target_names.empty() && !(data.target_names.size() == 1 && data.target_names[0] == data.target_column);
}

const std::vector<std::string>& column_categories(const Dataset& data, std::size_t j) {
  static const std::vector<std::string> numeric;
  return data.categories.empty() ? numeric : data.categories[j];
}

// Position of `text` in the sorted `known`, or −1.
Index index_of(const std::vector<std::string>& known, const std::string& text) {
  const auto it = std::lower_bound(known.begin(), known.end(), text);
  return it != known.end() && *it == text ? static_cast<Index>(it - known.begin()) : -1;
}

// The fit-time index of the category `code` of a later file's column, by its text.
Index recode(Scalar code, const std::vector<std::string>& file_categories, const std::vector<std::string>& known,
             const std::string& column, Index row) {
  const std::string& text = file_categories.at(static_cast<std::size_t>(code));
  const Index k = index_of(known, text);
  if (k < 0) {
    throw ValueError(fmt::format("column '{}', data row {}: expected one of the categories seen at fit ({}), found '{}'",
                                 column, row + 1, fmt::join(known, ", "), text));
  }
  return k;
}

}  // namespace

ColumnEncoder& ColumnEncoder::fit(const Dataset& data) {
  if (data.num_samples() == 0) throw ValueError("ColumnEncoder::fit: expected at least one row, found none");
  const auto d = static_cast<std::size_t>(data.num_features());
  if (data.feature_names.size() != d || !(data.categories.empty() || data.categories.size() == d)) {
    throw ValueError(fmt::format("ColumnEncoder::fit: expected {} feature names and no or {} category lists, found {} and {}",
                                 d, d, data.feature_names.size(), data.categories.size()));
  }
  feature_names_ = data.feature_names;
  categories_.assign(d, {});
  for (std::size_t j = 0; j < d; ++j) {
    categories_[j] = column_categories(data, j);
    if (!std::is_sorted(categories_[j].begin(), categories_[j].end())) {
      throw ValueError(fmt::format("ColumnEncoder::fit: expected the categories of column '{}' sorted, as read_csv gives them",
                                   feature_names_[j]));
    }
  }
  target_column_ = data.target_column;
  // In label order: sorted for a text target, the bundled datasets' own order for theirs.
  class_names_ = has_class_names(data) ? data.target_names : std::vector<std::string>{};
  fitted_ = true;
  return *this;
}

std::string ColumnEncoder::loaded_fault() const {
  if (categories_.size() != feature_names_.size()) {
    return fmt::format("expected one category list per column ({}), found {}", feature_names_.size(), categories_.size());
  }
  for (std::size_t j = 0; j < categories_.size(); ++j) {
    if (!std::is_sorted(categories_[j].begin(), categories_[j].end())) {
      return fmt::format("expected the categories of column '{}' sorted", feature_names_[j]);
    }
  }
  return {};
}

void ColumnEncoder::require_fitted() const {
  if (!fitted_) throw NotFittedError("ColumnEncoder: called before fit");
}

const std::vector<std::string>& ColumnEncoder::feature_names() const {
  require_fitted();
  return feature_names_;
}

bool ColumnEncoder::identity() const {
  require_fitted();
  return std::all_of(categories_.begin(), categories_.end(), [](const auto& c) { return c.empty(); });
}

std::vector<std::string> ColumnEncoder::encoded_feature_names() const {
  require_fitted();
  std::vector<std::string> names;
  for (std::size_t j = 0; j < feature_names_.size(); ++j) {
    if (categories_[j].empty()) {
      names.push_back(feature_names_[j]);
      continue;
    }
    for (const std::string& c : categories_[j]) names.push_back(feature_names_[j] + "=" + c);
  }
  return names;
}

std::vector<std::string> ColumnEncoder::categorical_columns() const {
  require_fitted();
  std::vector<std::string> names;
  for (std::size_t j = 0; j < feature_names_.size(); ++j) {
    if (!categories_[j].empty()) names.push_back(feature_names_[j]);
  }
  return names;
}

Tensor ColumnEncoder::transform(const Dataset& data) const {
  require_fitted();
  if (data.feature_names != feature_names_) {
    throw ValueError(fmt::format("expected the columns {} (as at fit), found {}", fmt::join(feature_names_, ", "),
                                 fmt::join(data.feature_names, ", ")));
  }
  Index width = 0;
  for (std::size_t j = 0; j < feature_names_.size(); ++j) {
    // A file's categorical column whose values are all missing has no categories.
    const bool file_categorical = !column_categories(data, j).empty();
    const bool all_missing = data.features.col(static_cast<Index>(j)).array().isNaN().all();
    if (categories_[j].empty() ? file_categorical : !(file_categorical || all_missing)) {
      throw ValueError(fmt::format("column '{}': expected {} values (as at fit), found {}", feature_names_[j],
                                   categories_[j].empty() ? "numeric" : "categorical",
                                   categories_[j].empty() ? "categories" : "numbers"));
    }
    width += categories_[j].empty() ? 1 : static_cast<Index>(categories_[j].size());
  }
  const Index n = data.num_samples();
  Tensor X = Tensor::Zero(n, width);
  Index out = 0;
  for (std::size_t j = 0; j < feature_names_.size(); ++j) {
    const auto col = static_cast<Index>(j);
    if (categories_[j].empty()) {
      X.col(out++) = data.features.col(col);
      continue;
    }
    for (Index i = 0; i < n; ++i) {
      const Scalar code = data.features(i, col);
      if (std::isnan(code)) continue;  // a missing category: no indicator set
      X(i, out + recode(code, data.categories[j], categories_[j], feature_names_[j], i)) = 1;
    }
    out += static_cast<Index>(categories_[j].size());
  }
  return X;
}

Vector ColumnEncoder::target(const Dataset& data) const {
  require_fitted();
  if (data.target.size() == 0) {
    throw ValueError(fmt::format("expected a target column '{}', found none", target_column_));
  }
  const bool text = has_class_names(data);
  if (text != !class_names_.empty()) {
    throw ValueError(fmt::format("target '{}': expected {} values (as at fit), found {}", target_column_,
                                 class_names_.empty() ? "numeric" : "class-name", text ? "class names" : "numbers"));
  }
  if (!text) return data.target;
  Vector y(data.target.size());
  for (Index i = 0; i < y.size(); ++i) {
    const std::string& name = data.target_names.at(static_cast<std::size_t>(data.target(i)));
    const auto it = std::find(class_names_.begin(), class_names_.end(), name);
    if (it == class_names_.end()) {
      throw ValueError(fmt::format("target '{}', data row {}: expected one of the classes seen at fit ({}), found '{}'",
                                   target_column_, i + 1, fmt::join(class_names_, ", "), name));
    }
    y(i) = static_cast<Scalar>(it - class_names_.begin());
  }
  return y;
}

}  // namespace dagml
