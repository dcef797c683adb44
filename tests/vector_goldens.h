// The vector-search goldens of scripts/gen-vectors.mjs (data/vectors/goldens.json): LanceDB's
// answers per case, and the lance-cli arguments that ask the same question.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lance::testing {

/// data/vectors/goldens.json, parsed once.
const nlohmann::json& vector_goldens();

/// Whether the cases of `table` ("plain", "indexed", …) run: all, or only those
/// LANCE_TEST_VECTOR_TABLES lists (comma-separated; the sanitizer half of scripts/test.sh runs
/// "plain,indexed": the other tables repeat the same readers with other metrics).
bool vector_table_selected(const std::string& table);

/// `search TABLE …` arguments for golden case `c` (its table, column, query, k, metric,
/// filter, postfilter, select, with_row_id, distance range, nprobes, refine factor, ef,
/// bypass_index → --exact). With `ids_only`, -c id,_distance -f jsonl replaces the case's own
/// projection.
std::vector<std::string> search_args(const nlohmann::json& c, bool ids_only);

/// The ids and _distance values of jsonl `out` (lines with "id" and "_distance").
struct SearchRows {
  std::vector<int64_t> ids;
  std::vector<double> distances;
};
SearchRows parse_search_rows(const std::string& out);

/// Empty when `got` gives LanceDB's answer of case `c`: the same ids, in order except that
/// rows whose distances tie (within 1e-6 relative) may swap, and each distance within 1e-4
/// relative (1e-6 absolute near zero); else what differs.
std::string compare_with_lance(const nlohmann::json& c, const SearchRows& got);

}  // namespace lance::testing
