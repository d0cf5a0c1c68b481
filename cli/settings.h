// The estimator options of a command line: `--config FILE` (`key = value` lines, as LightGBM's
// command line reads them; `[section]` headers prefix their keys with "section."), then each
// `--set key=value`, later ones replacing earlier ones, then `--seed`.
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "models/io/registry.h"

namespace dagml::cli {

struct SettingsFlags {
  std::string config;             // --config FILE
  std::vector<std::string> sets;  // --set key=value, in order
};

// Adds --config and --set to a command.
void add_settings_flags(CLI::App& command, SettingsFlags& flags);

// The settings for estimator `info`; UsageError for a --set without '=', CLI::FileError for a
// config file that cannot be read. With a seed, every option named "seed" (or "….seed") is set
// to it unless the settings name it; a note on standard error says so when the estimator has none.
OptionSettings collect_settings(const EstimatorInfo& info, const SettingsFlags& flags, const GlobalFlags& global);

// The estimator named `name` (UsageError listing the known ones for an unknown name).
const EstimatorInfo& find_estimator(const std::string& name);
// make_estimator, with its ValueError (an unknown option, a bad value) as a UsageError.
AnyEstimator make_configured(const EstimatorInfo& info, const OptionSettings& settings);

// Applies --threads; every command calls it first.
void apply_global_flags(const GlobalFlags& global);

}  // namespace dagml::cli
