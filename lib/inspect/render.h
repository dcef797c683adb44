// Rendering of the inspect descriptions (inspect/inspect.h): JSON documents built from the
// structs (field names documented in docs/inspect.md, numbers as numbers, keys in a fixed
// order), and aligned text meant for a terminal 100 columns wide.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "inspect/columns_report.h"
#include "inspect/inspect.h"

namespace lance::inspect {

using Json = nlohmann::ordered_json;

Json to_json(const FileMeta& meta);
Json to_json(const SchemaInfo& schema);
Json to_json(const PagesReport& pages);
Json to_json(const ColumnsReport& columns);

struct TextOptions {
  bool color = false;        ///< ANSI bold/dim (only when writing to a terminal)
  bool exact_bytes = false;  ///< sizes as exact byte counts instead of KiB/MiB
  size_t width = 100;        ///< wrap long encoding descriptions at this many columns
};

std::string render_text(const FileMeta& meta, const TextOptions& options = {});
std::string render_text(const SchemaInfo& schema, const TextOptions& options = {});
std::string render_text(const PagesReport& pages, const TextOptions& options = {});
std::string render_text(const ColumnsReport& columns, const TextOptions& options = {});

/// "812 B", "9.3 KiB", "1.5 MiB", "2.0 GiB"; with `exact`, "9523 B".
std::string format_bytes(uint64_t bytes, bool exact);

}  // namespace lance::inspect
