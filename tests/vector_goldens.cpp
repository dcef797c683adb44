#include "vector_goldens.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>

#include "cli_runner.h"

namespace lance::testing {

using Json = nlohmann::json;

const Json& vector_goldens() {
  static const Json g = Json::parse(read_text(source_path("data/vectors/goldens.json")));
  return g;
}

bool vector_table_selected(const std::string& table) {
  const char* listed = std::getenv("LANCE_TEST_VECTOR_TABLES");
  if (listed == nullptr || *listed == '\0') return true;
  const std::string all = std::string(",") + listed + ",";
  return all.find("," + table + ",") != std::string::npos;
}

namespace {

std::string number_text(const Json& v) { return v.is_number_integer() ? std::to_string(v.get<int64_t>()) : v.dump(); }

bool close(double a, double b, double rel) { return std::fabs(a - b) <= std::max(1e-6, rel * std::fabs(b)); }

}  // namespace

std::vector<std::string> search_args(const Json& c, bool ids_only) {
  const Json& g = vector_goldens();
  std::vector<std::string> a = {"search",
                                source_path("data/" + g.at("tables").at(c.at("table")).at("path").get<std::string>())};
  const std::string call = c.at("call");
  const bool names_column = call.find(".column(") != std::string::npos;
  if (names_column && c.at("column").is_string()) a.insert(a.end(), {"--column", c.at("column")});
  const Json& vector =
      c.contains("vector")
          ? c.at("vector")
          : g.at("queries").at(c.at("column").get<std::string>()).at(c.at("query").get<size_t>()).at("vector");
  std::string text = "[";
  for (const auto& v : vector) text += (text.size() > 1 ? "," : "") + number_text(v);
  a.insert(a.end(), {"--vector", text + "]"});
  if (c.contains("k")) a.insert(a.end(), {"-k", std::to_string(c.at("k").get<int64_t>())});
  if (c.contains("metric")) a.insert(a.end(), {"--metric", c.at("metric")});
  if (c.contains("filter")) a.insert(a.end(), {"--filter", c.at("filter")});
  if (c.value("postfilter", false)) a.push_back("--postfilter");
  if (c.value("bypass_index", false)) a.push_back("--exact");
  if (c.value("fast_search", false)) a.push_back("--fast-search");
  if (c.contains("nprobes")) a.insert(a.end(), {"--nprobes", std::to_string(c.at("nprobes").get<int64_t>())});
  if (c.contains("refine_factor"))
    a.insert(a.end(), {"--refine-factor", std::to_string(c.at("refine_factor").get<int64_t>())});
  if (c.contains("ef")) a.insert(a.end(), {"--ef", std::to_string(c.at("ef").get<int64_t>())});
  if (c.contains("distance_range")) {
    const Json& r = c.at("distance_range");
    if (!r.at(0).is_null()) a.insert(a.end(), {"--min-distance", number_text(r.at(0))});
    if (!r.at(1).is_null()) a.insert(a.end(), {"--max-distance", number_text(r.at(1))});
  }
  if (ids_only) {
    a.insert(a.end(), {"-c", "id,_distance", "-f", "jsonl"});
    return a;
  }
  if (c.value("with_row_id", false)) a.push_back("--with-row-id");
  if (c.contains("select")) {
    std::string cols;
    for (const auto& s : c.at("select")) cols += (cols.empty() ? "" : ",") + s.get<std::string>();
    a.insert(a.end(), {"-c", cols});
  }
  a.insert(a.end(), {"-f", "jsonl"});
  return a;
}

SearchRows parse_search_rows(const std::string& out) {
  SearchRows rows;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    const Json j = Json::parse(line);
    rows.ids.push_back(j.at("id").get<int64_t>());
    rows.distances.push_back(j.at("_distance").get<double>());
  }
  return rows;
}

std::string compare_with_lance(const Json& c, const SearchRows& got) {
  const auto want_ids = c.at("ids").get<std::vector<int64_t>>();
  const auto want_d = c.at("distances").get<std::vector<double>>();
  if (got.ids.size() != want_ids.size()) return fmt::format("{} rows, LanceDB {}", got.ids.size(), want_ids.size());
  for (size_t i = 0; i < want_ids.size(); ++i) {
    if (!close(got.distances[i], want_d[i], 1e-4))
      return fmt::format("row {}: _distance {} (id {}), LanceDB {} (id {})", i, got.distances[i], got.ids[i], want_d[i],
                         want_ids[i]);
    if (got.ids[i] == want_ids[i]) continue;
    // A swap among equal distances: the id must be LanceDB's at a position of the same distance.
    bool tie = false;
    for (size_t j = 0; j < want_ids.size(); ++j)
      if (want_ids[j] == got.ids[i] && close(want_d[j], want_d[i], 1e-6)) tie = true;
    if (!tie) return fmt::format("row {}: id {}, LanceDB id {} (distance {})", i, got.ids[i], want_ids[i], want_d[i]);
  }
  return "";
}

}  // namespace lance::testing
