// The pieces every `dagml` command shares: the global flags, the usage error (exit code 2), and
// one `add_*_command` per command, each in its own file.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace dagml::cli {

// An error in the command line itself (exit code 2); data and model errors are dagml's own
// exceptions (exit code 1).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The flags every command takes.
struct GlobalFlags {
  int threads = 0;                     // 0: all cores
  std::optional<std::uint64_t> seed;   // sets every `seed` option of the estimator
  bool quiet = false;                  // no progress or summary on standard error
};

void add_fit_command(CLI::App& app, const GlobalFlags& flags);
void add_predict_commands(CLI::App& app, const GlobalFlags& flags);  // predict and transform
void add_evaluate_command(CLI::App& app, const GlobalFlags& flags);
void add_cv_command(CLI::App& app, const GlobalFlags& flags);
void add_info_commands(CLI::App& app, const GlobalFlags& flags);     // info, models, datasets
void add_plot_command(CLI::App& app, const GlobalFlags& flags);
void add_split_command(CLI::App& app, const GlobalFlags& flags);

}  // namespace dagml::cli
