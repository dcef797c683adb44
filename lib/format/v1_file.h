// The legacy Lance v1 data file (footer version 0.1 / 0.2): what Lance 0.x wrote before the
// 2.0 format, and what `dataStorageVersion: "legacy"` still writes (lancedb 0.12 / Lance
// 0.19.1; the old `vectordb` SDK / Lance 0.10 writes nothing else).
//
// Layout (upstream lancedb/lance protos/file.proto `Metadata`, rust/lance-file/src/previous/):
//   [pages: one per (field, batch), plain bytes]  [dictionary values]  [page table]
//   [u32 len][lance.table.Manifest: the file's schema]  [u32 len][Metadata]
//   [i64 metadata position][u16 0][u16 1|2]["LANC"]
// Rows are stored in batches (`Metadata.batch_offsets`, 1024 rows each by default); every
// field of the schema (struct parents included) has one page per batch in the page table,
// indexed by (field id - smallest field id) * batches + batch, each page an (i64 position,
// i64 length) pair. A page's length counts its entries (rows, or list items of the parent).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "format/schema.h"

namespace lance::format::v1 {

/// Size of the v1 tail: i64 metadata position, u16 major, u16 minor, "LANC".
inline constexpr uint64_t kTailSize = 16;

/// One page table entry: where a field's page of one batch starts, and how many entries it
/// has (for strings: where its i64 positions start).
struct PageRef {
  uint64_t position = 0;
  uint64_t length = 0;
};

/// Where a dictionary field's values lie (`lance.file.Field.dictionary`).
struct DictionaryRef {
  uint64_t offset = 0;
  uint64_t length = 0;  ///< number of values
};

/// Everything a reader needs from the end of a v1 file.
struct FileMeta {
  uint16_t minor = 0;              ///< footer minor version (1 or 2)
  uint64_t metadata_position = 0;  ///< where `[u32 len][Metadata]` starts
  uint64_t metadata_length = 0;    ///< bytes of the Metadata message
  uint64_t manifest_position = 0;  ///< where the embedded schema manifest starts
  uint64_t manifest_length = 0;    ///< bytes of the embedded Manifest message
  uint64_t page_table_position = 0;
  std::vector<uint64_t> batch_starts;  ///< first row of each batch, then the row count
  int32_t min_field_id = 0;            ///< page table covers [min_field_id, max_field_id]
  int32_t max_field_id = -1;
  std::vector<PageRef> pages;                     ///< (field id - min) * batches + batch
  std::map<int32_t, DictionaryRef> dictionaries;  ///< by field id
  std::string writer;                             ///< "lance 0.19.1" (empty when the file does not say)

  size_t num_batches() const { return batch_starts.empty() ? 0 : batch_starts.size() - 1; }
  uint64_t num_rows() const { return batch_starts.empty() ? 0 : batch_starts.back(); }
  uint64_t batch_rows(size_t batch) const { return batch_starts[batch + 1] - batch_starts[batch]; }
  /// The page of `field_id` in `batch`. Throws Error(corrupt) when the id is outside the table.
  const PageRef& page(int32_t field_id, size_t batch) const;
};

/// True when the last 16 bytes of a file (`tail16`) are a v1 tail (version 0.1 / 0.2).
bool is_v1_tail(ByteView tail16);

/// Parses the metadata, embedded schema and page table of a v1 file. `read(offset, length)`
/// returns file bytes; `file_size` bounds every offset. Throws Error(corrupt) on anything
/// inconsistent, Error(unsupported) for a file that carries no schema of its own.
FileMeta load_file_meta(uint64_t file_size, const std::function<Bytes(uint64_t, uint64_t)>& read, Schema& schema);

}  // namespace lance::format::v1
