// `inspect meta` and `inspect pages` of a legacy v1 data file (footer 0.1 / 0.2, see
// format/v1_file.h): v1 files have no columns or page layouts, so they get their own
// description — the batches, the embedded schema and the page table as stored.
//
// Usage:
//   auto file = format::FileReader::open(path);
//   if (file->v1()) emit(render_text(inspect::inspect_v1_meta(*file)));
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "format/file_reader.h"
#include "inspect/inspect.h"
#include "inspect/render.h"

namespace lance::inspect {

/// One page table entry: a field's page in one batch (`length`: entries, not bytes).
struct V1PageEntry {
  size_t batch = 0;
  uint64_t first_row = 0;  ///< first row of the batch
  uint64_t batch_rows = 0;
  uint64_t position = 0;
  uint64_t length = 0;
};

/// One schema field (every node, pre-order) and its row of the page table.
struct V1FieldPages {
  int32_t id = 0;
  std::string path;          ///< "s.a"
  std::string logical_type;  ///< as stored
  std::string arrow_type;
  std::string encoding;  ///< "plain", "var_binary", "dictionary", "none" (struct: no page)
  std::optional<uint64_t> dictionary_offset;
  std::optional<uint64_t> dictionary_values;
  std::vector<V1PageEntry> pages;
};

/// What `inspect meta` shows for a v1 file.
struct V1Meta {
  std::string path;
  std::string format_version;  ///< "legacy v1 (0.2)"
  uint16_t footer_minor = 0;
  std::string writer;  ///< "lance 0.19.1" from the embedded manifest, "" if absent
  uint64_t file_size = 0;
  uint64_t num_rows = 0;
  std::vector<uint64_t> batch_rows;
  uint64_t num_fields = 0;  ///< top-level fields
  int32_t min_field_id = 0, max_field_id = -1;
  uint64_t page_table_position = 0, page_table_bytes = 0;
  uint64_t manifest_position = 0, manifest_bytes = 0;
  uint64_t metadata_position = 0, metadata_bytes = 0;
  std::vector<V1FieldPages> fields;  ///< without pages (meta) or with (pages)
};

/// `inspect meta` of a v1 file. Precondition: `file.v1()`.
V1Meta inspect_v1_meta(const format::FileReader& file);
/// `inspect pages` of a v1 file: the page table, per field (`filter.columns`: top-level
/// names or dotted paths, a node and everything below it; `filter.page`: that batch only).
/// Throws Error(usage) for an unknown column.
V1Meta inspect_v1_pages(const format::FileReader& file, const PageFilter& filter);

Json to_json(const V1Meta& meta);
std::string render_text(const V1Meta& meta, const TextOptions& options = {});

}  // namespace lance::inspect
