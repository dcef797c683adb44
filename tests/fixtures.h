// The committed fixtures and their goldens (data/fixtures/index.json, data/datasets/index.json,
// written by scripts/gen-fixtures.mjs and scripts/gen-datasets.mjs from Lance's own reading),
// and the text helpers the golden comparisons share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lance::testing {

/// One data-file fixture of data/fixtures/index.json (entries of kind "file").
struct FileFixture {
  std::string name;                  ///< e.g. "primitives-v2.1"
  std::string table;                 ///< the generator's table name, e.g. "primitives"
  std::string version;               ///< format version, e.g. "2.1"
  std::string file;                  ///< absolute path of the .lance file
  std::string golden;                ///< absolute path prefix of its goldens (+ ".jsonl", ".csv", ...)
  std::vector<std::string> columns;  ///< top-level column names
  uint64_t num_rows = 0;
  nlohmann::json entry;  ///< the whole index entry
};

/// data/fixtures/index.json, parsed once.
const nlohmann::json& fixture_index();

/// data/datasets/index.json, parsed once.
const nlohmann::json& dataset_index();

/// Every data-file fixture, in index order (parsed once).
const std::vector<FileFixture>& file_fixtures();

/// The data-file fixtures whose table name starts with `prefix`.
std::vector<FileFixture> file_fixtures_with_table_prefix(const std::string& prefix);

/// The golden of `fx` with extension `ext` ("jsonl", "csv", ...), read from disk each call:
/// call it inside the Catch section that uses it.
std::string golden_text(const FileFixture& fx, const std::string& ext);

/// `text` split at '\n' (no trailing empty line).
std::vector<std::string> lines(const std::string& text);

/// The first line where `got` and `want` differ, for a readable failure; "" when equal.
std::string first_difference(const std::string& got, const std::string& want);

}  // namespace lance::testing
