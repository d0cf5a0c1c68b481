// dagml: fit, predict, evaluate and cross-validate any registered estimator from the command
// line (docs/cli.md).
//
// Exit codes: 0 success, 2 a usage error (bad arguments, an unknown model or option), 1 a data or
// model error (a malformed CSV, a model file of another type, a fit that fails); the message is
// one line on standard error saying what was expected and what was found.
#include <fmt/format.h>

#include <cstdio>
#include <exception>

#include "cli/command.h"
#include "graph/error.h"
#include "models/io/model_file.h"

int main(int argc, char** argv) {
  using namespace dagml::cli;
  CLI::App app{fmt::format("dagml {}: fit, predict, evaluate and cross-validate dagml's models", dagml::dagml_version()),
               "dagml"};
  app.set_version_flag("--version", dagml::dagml_version());
  app.require_subcommand(1);
  GlobalFlags flags;
  app.add_option("--threads", flags.threads, "worker threads (0: one per core)")->check(CLI::NonNegativeNumber);
  app.add_option("--seed", flags.seed, "the seed of every random choice the estimator makes");
  app.add_flag("-q,--quiet", flags.quiet, "no progress or summary on standard error");
  app.fallthrough();  // the global flags may also follow the command's name
  add_fit_command(app, flags);
  add_predict_commands(app, flags);
  add_evaluate_command(app, flags);
  add_cv_command(app, flags);
  add_info_commands(app, flags);
  add_plot_command(app, flags);
  add_split_command(app, flags);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    std::fputs(fmt::format("dagml: {}\nRun 'dagml --help' for usage.\n", e.what()).c_str(), stderr);
    return 2;
  } catch (const UsageError& e) {
    std::fputs(fmt::format("dagml: {}\n", e.what()).c_str(), stderr);
    return 2;
  } catch (const std::exception& e) {
    std::fputs(fmt::format("dagml: {}\n", e.what()).c_str(), stderr);
    return 1;
  }
  return 0;
}
