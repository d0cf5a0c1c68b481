// dagml split DATA -o PREFIX [--test-fraction F] [--stratify] [--target COLUMN]
//
// Writes PREFIX_train.csv and PREFIX_test.csv: the header and the records of DATA, each record
// exactly as written, dealt by train_test_indices (models/data/split.h; shuffled by --seed, 0 by
// default; with --stratify each class keeps its share) and kept in file order within each part.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "cli/command.h"
#include "cli/settings.h"
#include "cli/table_input.h"
#include "models/data/split.h"

namespace dagml::cli {
namespace {

struct SplitFlags {
  std::string data, prefix, target;
  double test_fraction = 0.25;
  bool stratify = false;
};

std::string records_text(const CsvRecords& records, std::vector<Index> rows) {
  std::sort(rows.begin(), rows.end());
  std::string out = records.header + "\n";
  for (const Index i : rows) out += records.rows[static_cast<std::size_t>(i)] + "\n";
  return out;
}

void run_split(const SplitFlags& flags, const GlobalFlags& global) {
  apply_global_flags(global);
  const TableSource source = open_table(flags.data);
  const std::string text = source.csv_text();
  const CsvRecords records = split_csv_records(text, ',', source.name);
  const auto n = static_cast<Index>(records.rows.size());
  const SplitOptions options{.test_fraction = flags.test_fraction, .seed = global.seed.value_or(0), .stratify = flags.stratify};
  SplitIndices parts;
  if (flags.stratify) {
    // Only the target matters here: text columns are read as categories.
    const Dataset data = parse_csv(text, training_table_options(source, flags.target, {"auto"}, true), source.name);
    parts = train_test_indices(n, options, &data.target);
  } else {
    parts = train_test_indices(n, options);
  }
  const std::string train = flags.prefix + "_train.csv", test = flags.prefix + "_test.csv";
  write_output(train, records_text(records, parts.train));
  write_output(test, records_text(records, parts.test));
  if (!global.quiet) {
    std::fputs(fmt::format("dagml: wrote {} ({} rows) and {} ({} rows)\n", train, parts.train.size(), test,
                           parts.test.size()).c_str(), stderr);
  }
}

}  // namespace

void add_split_command(CLI::App& app, const GlobalFlags& global) {
  auto flags = std::make_shared<SplitFlags>();
  CLI::App* command = app.add_subcommand("split", "split a table into training and test files (records kept as written)");
  command->add_option("data", flags->data, "a CSV file with a header, a bundled dataset's name, or - for standard input")
      ->required();
  command->add_option("-o,--output", flags->prefix, "PREFIX: writes PREFIX_train.csv and PREFIX_test.csv")->required();
  command->add_option("--test-fraction", flags->test_fraction, "the share of rows in the test file")
      ->check(CLI::Range(0.0, 1.0));
  command->add_flag("--stratify", flags->stratify, "keep each class's share of the target in both files");
  command->add_option("--target", flags->target, "the class column for --stratify (default: the last column)");
  command->callback([flags, &global] { run_split(*flags, global); });
}

}  // namespace dagml::cli
