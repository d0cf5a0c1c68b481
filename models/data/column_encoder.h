// ColumnEncoder: the columns of a table (a Dataset read by read_csv) as a model sees them.
//
//   numeric column      x                         ↦  x
//   categorical column  colour ∈ {blue, green, red} ↦  colour=blue, colour=green, colour=red ∈ {0, 1}
//
// A categorical column (CsvOptions::categorical) is expanded into one indicator column per
// category seen at fit (one-hot, in the sorted order of the categories); a missing category (a
// NaN code) gives zeros in all of its indicator columns. A text target's classes (the
// target_names of a categorical target) are kept too, so that a later file is coded alike even
// when it holds only some of the classes, or holds them in another order.
//
// transform and target re-code a later Dataset by category text, not by code: read_csv codes
// the categories it finds in each file, and a test file may lack some of them.
#pragma once

#include <string>
#include <vector>

#include "graph/tensor.h"
#include "models/data/dataset.h"

namespace dagml {

class ColumnEncoder {
 public:
  // Learns the column names, the categories of the categorical columns and, for a text target,
  // the classes. Throws ValueError for a Dataset without rows or whose categories do not match
  // its columns.
  ColumnEncoder& fit(const Dataset& data);

  // n × (encoded columns). Throws ValueError unless `data` has the columns seen at fit (names and
  // order, each numeric or categorical as then), and for a category not seen at fit (naming the
  // column, the row and the known categories); NotFittedError before fit.
  Tensor transform(const Dataset& data) const;
  // The target of `data`: a text target as indices of the classes seen at fit (ValueError naming
  // the row of a class not seen then), a numeric target as read. ValueError when `data` has no
  // target or a text target where fit had a numeric one (or the reverse).
  Vector target(const Dataset& data) const;

  bool fitted() const { return fitted_; }
  // The columns of the table, without the target (NotFittedError before fit).
  const std::vector<std::string>& feature_names() const;
  // The names of the encoded columns: a numeric column's own, "column=category" for indicators.
  std::vector<std::string> encoded_feature_names() const;
  // The names of the categorical feature columns.
  std::vector<std::string> categorical_columns() const;
  // The target column's name at fit ("" when fit saw none) and its classes when it held text.
  const std::string& target_column() const { return target_column_; }
  const std::vector<std::string>& class_names() const { return class_names_; }
  // True when transform is the identity: no categorical feature.
  bool identity() const;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(fitted_, feature_names_, categories_, target_column_, class_names_);
    if constexpr (Archive::is_loading::value) {
      if (const std::string fault = loaded_fault(); !fault.empty()) ar.fail("ColumnEncoder: " + fault);
    }
  }

 private:
  void require_fitted() const;
  // What is inconsistent in a loaded state (a category list per column, each sorted), or "".
  std::string loaded_fault() const;
  std::vector<std::string> feature_names_;
  std::vector<std::vector<std::string>> categories_;  // per column; empty for a numeric one
  std::string target_column_;
  std::vector<std::string> class_names_;  // of a text target; empty otherwise
  bool fitted_ = false;
};

}  // namespace dagml
