#include "cli/settings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "graph/error.h"
#include "graph/threads.h"

namespace dagml::cli {

void add_settings_flags(CLI::App& command, SettingsFlags& flags) {
  command.add_option("--config", flags.config, "a file of 'option = value' lines")->check(CLI::ExistingFile);
  command.add_option("--set", flags.sets, "an estimator option, key=value (repeatable; 'dagml models NAME' lists them)");
}

OptionSettings collect_settings(const EstimatorInfo& info, const SettingsFlags& flags, const GlobalFlags& global) {
  OptionSettings settings;
  if (!flags.config.empty()) {
    for (const CLI::ConfigItem& item : CLI::ConfigINI().from_file(flags.config)) {
      std::string key;
      for (const std::string& parent : item.parents) key += parent + ".";
      key += item.name;
      std::string value;
      for (const std::string& part : item.inputs) value += (value.empty() ? "" : ",") + part;
      set_option(settings, key, value);
    }
  }
  for (const std::string& set : flags.sets) {
    const auto eq = set.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw UsageError(fmt::format("--set: expected key=value, found '{}'", set));
    }
    set_option(settings, set.substr(0, eq), set.substr(eq + 1));
  }
  if (global.seed) {
    bool has_seed = false;
    for (const OptionInfo& option : info.options) {
      if (option.name != "seed" && !option.name.ends_with(".seed")) continue;
      has_seed = true;
      const bool given = std::any_of(settings.begin(), settings.end(), [&](const auto& kv) { return kv.first == option.name; });
      if (!given) settings.emplace_back(option.name, std::to_string(*global.seed));
    }
    if (!has_seed && !global.quiet) {
      std::fputs(fmt::format("dagml: note: {} makes no random choice (it has no seed option); --seed changes nothing\n",
                             info.name).c_str(), stderr);
    }
  }
  return settings;
}

const EstimatorInfo& find_estimator(const std::string& name) {
  try {
    return estimator_info(name);
  } catch (const ValueError& e) {
    throw UsageError(e.what());
  }
}

AnyEstimator make_configured(const EstimatorInfo& info, const OptionSettings& settings) {
  try {
    return info.make(info, settings);
  } catch (const ValueError& e) {
    throw UsageError(e.what());
  }
}

void apply_global_flags(const GlobalFlags& global) {
  if (global.threads > 0) set_num_threads(global.threads);
}

}  // namespace dagml::cli
