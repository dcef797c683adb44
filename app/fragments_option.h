// `--fragments 0,3,5-9` of scan, take and count: read only those fragments of a dataset
// version (see dataset::Dataset::select_fragments).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "dataset/fragment_select.h"

namespace lance::app {

/// Adds `--fragments IDS` to `cmd`; `extra_help` is appended to the common help text.
void add_fragments_option(CLI::App* cmd, std::optional<std::string>& text, const std::string& extra_help = "");

/// The parsed ids when the option was given, else nullopt. Throws Error(usage) on bad text.
std::optional<std::vector<dataset::IdRange>> parse_fragments_option(const std::optional<std::string>& text);

}  // namespace lance::app
