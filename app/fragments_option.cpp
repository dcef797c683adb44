#include "app/fragments_option.h"

namespace lance::app {

void add_fragments_option(CLI::App* cmd, std::optional<std::string>& text, const std::string& extra_help) {
  std::string help =
      "Only these fragment ids of the dataset version, e.g. 0,3,5-9 (see `lance-cli plan`), in manifest order";
  if (!extra_help.empty()) help += "; " + extra_help;
  cmd->add_option("--fragments", text, help)->type_name("IDS");
}

std::optional<std::vector<dataset::IdRange>> parse_fragments_option(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return dataset::parse_id_ranges(*text, "--fragments");
}

}  // namespace lance::app
