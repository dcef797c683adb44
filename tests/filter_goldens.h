// The filter goldens of scripts/gen-filters.mjs (data/filters/goldens.json), for the
// filter tests: Lance's answers, and Lance's rows of each table as jsonl lines.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lance::testing {

/// data/filters/goldens.json, parsed once.
const nlohmann::json& filter_goldens();

/// Lance's rows of table `version` ("2_1"), by id, as jsonl lines (with their newline).
std::map<int64_t, std::string> filter_rows_by_id(const std::string& version);

/// The answer to expression `e` for table `version` ("2_1"): its by_version entry, if any.
const nlohmann::json& filter_answer(const nlohmann::json& e, const std::string& version);

/// The storage versions of the filter tables, as their folders name them: "2_0", "2_1" and
/// "2_2", or only those LANCE_TEST_FILTER_VERSIONS lists (comma-separated; the sanitizer half of
/// scripts/test.sh runs the golden loops on one version, as the decoders under them are tested
/// on every version elsewhere).
std::vector<std::string> filter_versions();

}  // namespace lance::testing
