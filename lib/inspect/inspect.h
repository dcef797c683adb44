// `inspect`: plain descriptions of what a Lance data file contains — its container
// (meta), its schema, and every page of every column — built from an open
// `format::FileReader`. Rendering them as text or JSON is in `inspect/render.h`.
//
// Usage:
//   auto file = format::FileReader::open(path);
//   inspect::FileMeta meta = inspect::inspect_file_meta(*file);
//   inspect::SchemaInfo schema = inspect::inspect_schema(*file);
//   inspect::PagesReport pages = inspect::inspect_pages(*file, {.columns = {"s"}, .page = 0});
//
// Only `inspect_pages` reads bytes beyond the metadata: the small mini-block chunk
// metadata and repetition-index buffers (one request for all selected pages). Nothing is
// decoded, so pages whose encodings the decoders do not support are still described; a
// problem with one page's buffers is recorded in that page (`error`), not thrown.
//
// Dataset directories: `FileMeta`/`SchemaInfo` describe one data file. A dataset gets its
// own description (e.g. `inspect_dataset_meta`) built from the dataset layer; these
// structs are reused for its data files and schema.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/file_reader.h"

namespace lance::inspect {

// ------------------------------------------------------------------------------------
// Columns and the fields they store
// ------------------------------------------------------------------------------------

/// One column of the file and the schema field it stores: every leaf (2.1+), or every
/// schema node in pre-order (2.0: struct headers and list offsets have columns too).
/// Packed structs and blob fields are one column for their whole subtree.
struct ColumnField {
  uint32_t column = 0;
  std::string path;                           ///< field names from the top level joined by '.', e.g. "s.a", "l.item"
  std::string top_level;                      ///< the top-level field's name ("" when no field maps to the column)
  const format::LanceField* field = nullptr;  ///< null when the schema maps no field to the column
};

/// The column → field table of `file`, one entry per column in column order.
std::vector<ColumnField> map_columns(const format::FileReader& file);

// ------------------------------------------------------------------------------------
// meta
// ------------------------------------------------------------------------------------

/// Where the bytes of a file go. The parts add up to `total` (the file size).
struct ByteBreakdown {
  uint64_t page_buffers = 0;     ///< data: the buffers pages point to (unpadded sizes)
  uint64_t column_buffers = 0;   ///< column-level buffers
  uint64_t global_buffers = 0;   ///< incl. global buffer 0 (the schema / file descriptor)
  uint64_t column_metadata = 0;  ///< the ColumnMetadata protobuf messages
  uint64_t offset_tables = 0;    ///< column-metadata and global-buffer offset tables (16 B per entry)
  uint64_t footer = 0;           ///< the fixed 40-byte footer
  uint64_t other = 0;            ///< the rest: 64-byte alignment padding, blob bytes, unreferenced bytes
  uint64_t total = 0;            ///< the file size
};

struct GlobalBufferInfo {
  uint32_t index = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  std::string content;  ///< "file descriptor (schema)" for buffer 0, "user data" otherwise
};

/// One column in brief.
struct ColumnSummary {
  uint32_t column = 0;
  std::string path;
  std::string arrow_type;  ///< the Arrow type of the stored field ("" when unmapped)
  uint64_t num_pages = 0;
  uint64_t num_rows = 0;             ///< sum of the pages' row counts (2.0: entries of this column)
  uint64_t bytes = 0;                ///< page and column buffers
  std::vector<std::string> layouts;  ///< distinct page layouts in page order, e.g. {"mini-block"}
};

struct FileMeta {
  std::string path;
  std::string format_version;  ///< "2.0" … "2.3"
  uint16_t footer_major = 0, footer_minor = 0;
  uint64_t file_size = 0;
  uint64_t num_rows = 0;
  uint64_t num_fields = 0;  ///< top-level fields
  uint64_t num_columns = 0;
  uint64_t num_pages = 0;
  ByteBreakdown bytes;
  std::vector<GlobalBufferInfo> global_buffers;
  std::vector<ColumnSummary> columns;
};

FileMeta inspect_file_meta(const format::FileReader& file);

// ------------------------------------------------------------------------------------
// schema
// ------------------------------------------------------------------------------------

struct SchemaNode {
  int32_t id = 0;
  int32_t parent_id = -1;
  std::string name;
  std::string path;          ///< "s.a"
  std::string logical_type;  ///< as Lance stores it, e.g. "timestamp:us:UTC"
  std::string arrow_type;    ///< Arrow's name, e.g. "timestamp[us, tz=UTC]"
  bool nullable = true;
  std::map<std::string, std::string> metadata;  ///< incl. lance-encoding:* keys
  std::vector<uint32_t> columns;                ///< columns storing this node itself (leaf / 2.0 node)
  std::vector<SchemaNode> children;
};

struct SchemaInfo {
  std::string kind = "file";   ///< "file" or "dataset"
  std::string path;            ///< "" when not from a file
  std::string format_version;  ///< "" when not from a file
  std::vector<SchemaNode> fields;
  std::map<std::string, std::string> metadata;  ///< schema-level metadata
};

/// The schema of a data file, with each field's columns.
SchemaInfo inspect_schema(const format::FileReader& file);
/// Any schema (e.g. a dataset's); `columns` (optional) fills `SchemaNode::columns`.
SchemaInfo inspect_schema(const format::Schema& schema, const std::vector<ColumnField>* columns = nullptr);

// ------------------------------------------------------------------------------------
// pages
// ------------------------------------------------------------------------------------

/// One buffer of a page or column, with what it holds.
struct BufferDesc {
  uint32_t index = 0;
  std::string role;  ///< e.g. "chunk metadata", "chunks", "dictionary", "repetition index", "values"
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct Stats {
  uint64_t min = 0;
  uint64_t max = 0;
  double avg = 0;
};

/// Mini-block chunks, from the chunk metadata words.
struct ChunkStats {
  uint64_t count = 0;
  Stats bytes;   ///< chunk sizes incl. header and 8-byte padding
  Stats values;  ///< values per chunk
};

struct DictionaryDesc {
  uint64_t num_items = 0;
  std::string encoding;           ///< block encoding of the dictionary items, `encoding::describe`
  std::optional<uint64_t> bytes;  ///< size of the dictionary buffer
};

struct MiniBlockDesc {
  std::string value_compression;
  std::optional<std::string> rep_compression;  ///< none ⇒ no repetition levels
  std::optional<std::string> def_compression;  ///< none ⇒ no definition levels
  std::vector<std::string> layers;             ///< innermost first, e.g. "NULLABLE_ITEM"
  std::optional<DictionaryDesc> dictionary;
  uint64_t num_buffers = 0;
  uint64_t num_items = 0;
  uint32_t repetition_index_depth = 0;
  bool has_large_chunk = false;
  std::optional<ChunkStats> chunks;  ///< absent when the chunk metadata was not read or is invalid
};

struct FullZipDesc {
  uint32_t bits_rep = 0;
  uint32_t bits_def = 0;
  std::optional<uint32_t> bits_per_value;   ///< fixed-width values
  std::optional<uint32_t> bits_per_offset;  ///< variable-width values: width of each length prefix
  uint64_t num_items = 0;
  uint64_t num_visible_items = 0;
  std::string value_compression;
  std::vector<std::string> layers;
};

/// ConstantLayout: a scalar repeated for every value ("constant"), or no value ("all-null").
struct ConstantDesc {
  std::optional<uint64_t> inline_value_bytes;  ///< scalar stored in the page metadata
  std::optional<std::string> rep_compression;
  std::optional<std::string> def_compression;
  uint64_t num_rep_values = 0;
  uint64_t num_def_values = 0;
  std::vector<std::string> layers;
};

struct SparseDesc {
  std::string value_compression;
  uint64_t num_buffers = 0;
  uint64_t num_items = 0;
  uint64_t num_visible_items = 0;
  bool has_large_chunk = false;
};

/// A page layout. `name` is one of "mini-block", "full-zip", "constant", "all-null",
/// "blob", "sparse", "array-encoding" (2.0) or "unknown"; the member of that name is set.
struct LayoutDesc {
  std::string name;
  std::optional<MiniBlockDesc> mini_block;
  std::optional<FullZipDesc> full_zip;
  std::optional<ConstantDesc> constant;  ///< "constant" and "all-null"
  std::optional<SparseDesc> sparse;
  std::vector<std::string> blob_layers;       ///< "blob": the blob field's layers
  std::shared_ptr<LayoutDesc> blob_inner;     ///< "blob": layout of the blob descriptions
  std::optional<std::string> array_encoding;  ///< "array-encoding": the 2.0 tree
};

struct PageDesc {
  uint32_t column = 0;
  uint32_t page = 0;
  uint64_t first_row = 0;  ///< 2.1+: first top-level row; 2.0: first entry of this column
  uint64_t num_rows = 0;   ///< 2.1+: top-level rows; 2.0: entries of this column
  LayoutDesc layout;
  std::vector<BufferDesc> buffers;
  uint64_t bytes = 0;                       ///< sum of buffer sizes
  double share = 0;                         ///< bytes / file size
  std::optional<uint64_t> decoded_bytes;    ///< fixed-width leaves: value slots × width
  std::optional<double> compression_ratio;  ///< decoded_bytes / bytes
  std::optional<std::string> error;         ///< why part of the page could not be described
};

struct ColumnPages {
  uint32_t column = 0;
  std::string path;
  int32_t field_id = -1;
  std::string arrow_type;
  std::string column_encoding;  ///< "values", "zone_index", "blob" or "none"
  uint64_t num_pages = 0;       ///< pages of the column (also when `pages` is filtered)
  uint64_t bytes = 0;           ///< all pages and column buffers
  double share = 0;
  std::vector<BufferDesc> column_buffers;
  std::vector<PageDesc> pages;
};

struct PagesReport {
  std::string path;
  std::string format_version;
  uint64_t file_size = 0;
  uint64_t num_rows = 0;
  std::vector<ColumnPages> columns;
};

struct PageFilter {
  /// Top-level field names or field paths ("s", "s.a", "deep.inner"); empty = all columns.
  std::vector<std::string> columns;
  /// Only this page of each selected column (columns with fewer pages are left out).
  std::optional<uint64_t> page;
  /// Read mini-block chunk metadata to fill `MiniBlockDesc::chunks`.
  bool read_chunk_metadata = true;
};

/// Describes the selected pages. Throws Error(usage) for an unknown column name or a page
/// number no selected column has.
PagesReport inspect_pages(const format::FileReader& file, const PageFilter& filter = {});

/// Describes one 2.1+ page layout (no I/O). `num_page_buffers` is the page's buffer count:
/// it tells a constant page whose scalar lies in a buffer from an all-null page.
LayoutDesc describe_layout(const ::lance::encodings21::PageLayout& layout, size_t num_page_buffers);

/// A one-line rendering of a 2.0 array-encoding tree, e.g. "Nullable(some_nulls) › Flat(32)".
std::string describe_array_encoding(const ::lance::encodings::ArrayEncoding& enc);

/// "NULLABLE_ITEM", "NULL_AND_EMPTY_LIST", …
std::string layer_name(int layer);

}  // namespace lance::inspect
