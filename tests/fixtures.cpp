#include "fixtures.h"

#include <algorithm>
#include <sstream>

#include "cli_runner.h"

namespace lance::testing {

const nlohmann::json& fixture_index() {
  static const nlohmann::json index = nlohmann::json::parse(read_text(source_path("data/fixtures/index.json")));
  return index;
}

const nlohmann::json& dataset_index() {
  static const nlohmann::json index = nlohmann::json::parse(read_text(source_path("data/datasets/index.json")));
  return index;
}

const std::vector<FileFixture>& file_fixtures() {
  static const std::vector<FileFixture> all = [] {
    std::vector<FileFixture> out;
    for (const auto& f : fixture_index()["fixtures"]) {
      if (f.value("kind", "file") != "file") continue;
      FileFixture x;
      x.name = f["name"];
      x.table = f.value("table", "");
      x.version = f.value("version", "");
      x.file = source_path("data/" + f["file"].get<std::string>());
      x.golden = source_path("data/" + f["golden_prefix"].get<std::string>());
      for (const auto& c : f["columns"]) x.columns.push_back(c["name"]);
      x.num_rows = f["num_rows"];
      x.entry = f;
      out.push_back(std::move(x));
    }
    return out;
  }();
  return all;
}

std::vector<FileFixture> file_fixtures_with_table_prefix(const std::string& prefix) {
  std::vector<FileFixture> out;
  for (const auto& fx : file_fixtures())
    if (fx.table.rfind(prefix, 0) == 0) out.push_back(fx);
  return out;
}

std::string golden_text(const FileFixture& fx, const std::string& ext) { return read_text(fx.golden + "." + ext); }

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::string first_difference(const std::string& got, const std::string& want) {
  const auto g = lines(got), w = lines(want);
  for (size_t i = 0; i < std::max(g.size(), w.size()); ++i) {
    const std::string a = i < g.size() ? g[i] : "<missing>", b = i < w.size() ? w[i] : "<missing>";
    if (a != b)
      return "line " + std::to_string(i + 1) + "\n  got:  " + a.substr(0, 400) + "\n  want: " + b.substr(0, 400);
  }
  return got == want ? "" : "(trailing bytes differ)";
}

}  // namespace lance::testing
