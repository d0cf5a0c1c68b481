// Reading the DATA argument of a command: a CSV file, a bundled dataset by name, or "-" for
// standard input; and writing results as CSV to a file or "-" (standard output).
#pragma once

#include <string>
#include <vector>

#include "graph/tensor.h"
#include "models/data/csv.h"
#include "models/io/table_model.h"

namespace dagml::cli {

// A table before it is parsed.
struct TableSource {
  std::string name;     // the argument, as errors name it
  std::string bundled;  // the bundled dataset's name when the argument names one (and no file does)
  std::string text;     // the CSV text otherwise
  // The column names (the bundled dataset's features then its target).
  std::vector<std::string> header() const;
  // The CSV text (a bundled dataset's file; its target then holds class indices, not names).
  std::string csv_text() const;
};

// An existing file first, then a bundled dataset's name, then "-". IoError when none of them.
TableSource open_table(const std::string& argument);

// The table with `options` (a bundled dataset is loaded whole, with its class names; a target
// option must then name its target column: UsageError otherwise).
Dataset read_table(const TableSource& source, const CsvOptions& options);

// The CsvOptions of a table to fit on: the target by name, or by index when `target` is an
// integer that names no column (−1: the last column, the default); with_target false and no
// `target`: every column is a feature. `categorical`: column names, or "auto" (every column
// whose first value is not a number).
CsvOptions training_table_options(const TableSource& source, const std::string& target,
                                  const std::vector<std::string>& categorical, bool with_target);

// The table as `model` reads it: the columns of a table model (the target when the file has it,
// the categorical columns); for a plain model file, the last column is the target when the file
// has one column more than the model's features. With need_target, a table without the target
// is a ValueError.
Dataset read_table_for(const TableSource& source, const TableModel& model, bool need_target);

// The model's inputs from a table read by read_table_for.
Tensor model_inputs(const TableModel& model, const Dataset& data);
// The model's targets (class indices or values) from such a table.
Vector model_targets(const TableModel& model, const Dataset& data);

// Writes CSV text to `path`, or to standard output for "-".
void write_output(const std::string& path, const std::string& text);

}  // namespace dagml::cli
