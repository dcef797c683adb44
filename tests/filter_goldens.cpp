#include "filter_goldens.h"

#include "cli_runner.h"
#include "fixtures.h"

#include <cstdlib>
#include <string_view>

namespace lance::testing {

const nlohmann::json& filter_goldens() {
  static const nlohmann::json g = nlohmann::json::parse(read_text(source_path("data/filters/goldens.json")));
  return g;
}

std::map<int64_t, std::string> filter_rows_by_id(const std::string& version) {
  std::map<int64_t, std::string> out;
  for (const auto& line : lines(read_text(source_path("data/filters/rows-" + version + ".jsonl"))))
    out[nlohmann::json::parse(line).at("id").get<int64_t>()] = line + "\n";
  return out;
}

const nlohmann::json& filter_answer(const nlohmann::json& e, const std::string& version) {
  if (!e.contains("by_version")) return e;
  std::string dotted = version;
  dotted[1] = '.';
  return e.at("by_version").at(dotted);
}

std::vector<std::string> filter_versions() {
  const char* listed = std::getenv("LANCE_TEST_FILTER_VERSIONS");
  if (listed == nullptr || *listed == '\0') return {"2_0", "2_1", "2_2"};
  std::vector<std::string> out;
  std::string_view rest(listed);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    out.emplace_back(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return out;
}

}  // namespace lance::testing
