// TableModel: an estimator together with the columns of the table it was fitted on, in one
// model file. This is what `dagml fit` writes: the file remembers the column names, which
// columns held categories (and which categories), and the target's class names, so that
// `dagml predict` reads a later file the same way and writes class names back.
//
// File layout (Note [Model file format]): type name "table_model", then the ColumnEncoder, then
// the estimator's own model file, whole, as one byte string.
#pragma once

#include <string>

#include "models/data/column_encoder.h"
#include "models/io/registry.h"

namespace dagml {

struct TableModel {
  static constexpr const char* kTypeName = "table_model";
  ColumnEncoder columns;  // not fitted for a plain estimator file (columns unknown)
  AnyEstimator estimator;
};

// Writes `model` atomically; IoError when it cannot.
void save_table_model(const TableModel& model, const std::string& path);
// Reads a table model, or any estimator's model file (then `columns` is not fitted). IoError,
// ParseError as load_model.
TableModel load_table_model(const std::string& path);

}  // namespace dagml
