#include "cli/table_input.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <iterator>

#include "cli/command.h"
#include "graph/error.h"
#include "models/data/datasets.h"
#include "models/data/file_io.h"

namespace dagml::cli {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::vector<std::string> TableSource::header() const {
  if (bundled.empty()) return parse_csv_header(text, ',', name);
  const Dataset d = load_dataset(bundled);
  std::vector<std::string> names = d.feature_names;
  names.push_back(d.target_column);
  return names;
}

std::string TableSource::csv_text() const {
  if (bundled.empty()) return text;
  const std::vector<unsigned char> bytes = read_file_bytes(dataset_path(bundled));
  return std::string(bytes.begin(), bytes.end());
}

TableSource open_table(const std::string& argument) {
  TableSource source{argument, "", ""};
  if (argument == "-") {
    source.name = "<standard input>";
    source.text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return source;
  }
  if (std::filesystem::exists(argument)) {
    const std::vector<unsigned char> bytes = read_file_bytes(argument);
    source.text.assign(bytes.begin(), bytes.end());
    return source;
  }
  const std::vector<std::string> bundled = dataset_names();
  if (contains(bundled, argument)) {
    source.bundled = argument;
    return source;
  }
  throw IoError(fmt::format("{}: expected a CSV file, a bundled dataset ({}) or '-' for standard input, found no such file",
                            argument, fmt::join(bundled, ", ")));
}

Dataset read_table(const TableSource& source, const CsvOptions& options) {
  if (source.bundled.empty()) return parse_csv(source.text, options, source.name);
  Dataset data = load_dataset(source.bundled);
  if (!options.target.empty() && options.target != data.target_column) {
    throw UsageError(fmt::format("--target: the bundled dataset '{}' has the target column '{}', found '{}'",
                                 source.bundled, data.target_column, options.target));
  }
  return data;
}

CsvOptions training_table_options(const TableSource& source, const std::string& target,
                                  const std::vector<std::string>& categorical, bool with_target) {
  CsvOptions options;
  options.no_target = !with_target && target.empty();
  options.target = target;
  if (!target.empty() && !contains(source.header(), target)) {
    Index index = 0;
    const auto [end, ec] = std::from_chars(target.data(), target.data() + target.size(), index);
    if (ec == std::errc() && end == target.data() + target.size()) {
      options.target = "";
      options.target_index = index;
    }
  }
  for (const std::string& c : categorical) {
    if (c == "auto") {
      options.categorical_auto = true;
    } else {
      options.categorical.push_back(c);
    }
  }
  return options;
}

Dataset read_table_for(const TableSource& source, const TableModel& model, bool need_target) {
  const std::vector<std::string> header = source.header();
  CsvOptions options;
  if (model.columns.fitted()) {
    const std::string& target = model.columns.target_column();
    const bool has_target = !target.empty() && contains(header, target);
    if (need_target && !has_target) {
      throw ValueError(fmt::format("{}: expected the target column '{}', found the columns {}", source.name,
                                   target.empty() ? "(none at fit)" : target, fmt::join(header, ", ")));
    }
    options.no_target = !has_target;
    options.target = has_target ? target : "";
    options.categorical = model.columns.categorical_columns();
    if (has_target && !model.columns.class_names().empty()) options.categorical.push_back(target);
  } else {
    const auto d = static_cast<std::size_t>(model.estimator.num_features());
    if (header.size() != d && header.size() != d + 1) {
      throw ValueError(fmt::format("{}: expected {} feature columns (and the target as the last column), found {} columns",
                                   source.name, d, header.size()));
    }
    options.no_target = header.size() == d;
    if (need_target && options.no_target) {
      throw ValueError(fmt::format("{}: expected {} feature columns then the target, found {} columns", source.name, d,
                                   header.size()));
    }
  }
  Dataset data = read_table(source, options);
  if (!source.bundled.empty() && options.no_target) {
    data.target.resize(0);  // a model fitted on a table without this target
  }
  return data;
}

Tensor model_inputs(const TableModel& model, const Dataset& data) {
  return model.columns.fitted() ? model.columns.transform(data) : data.features;
}

Vector model_targets(const TableModel& model, const Dataset& data) {
  if (model.columns.fitted()) return model.columns.target(data);
  if (data.target.size() == 0) throw ValueError("expected a target column, found none");
  return data.target;
}

void write_output(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text << std::flush;
    return;
  }
  write_text_file(path, text);
}

}  // namespace dagml::cli
