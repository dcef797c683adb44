// inspect meta for a Lance dataset directory: the version read and its manifest, the
// fragments (rows, deleted rows, data files, deletion file), the schema's field ids and the
// indices (inspect/dataset_indices.h).
// Built from `dataset::Dataset` (docs/format.md §8); reads no data file.
//
// Usage:
//   auto ds = dataset::Dataset::open(dir);                 // or a version: open(dir, 3)
//   inspect::DatasetMeta meta = inspect::inspect_dataset_meta(*ds);
//   std::cout << inspect::render_text(meta, {}) << inspect::to_json(meta).dump(2);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dataset/dataset.h"
#include "inspect/dataset_indices.h"
#include "inspect/render.h"

namespace lance::inspect {

struct DatasetDataFile {
  std::string path;                     ///< relative to the dataset's data/ folder
  std::string format_version;           ///< as the manifest records it, e.g. "2.1"
  uint64_t size_bytes = 0;              ///< 0 = not recorded
  std::vector<int32_t> field_ids;       ///< fields stored in the file (-2 = dropped)
  std::vector<int32_t> column_indices;  ///< per field id: its column (-1 = none of its own)
};

struct DatasetDeletionFile {
  std::string kind;               ///< "arrow" (row offsets in an Arrow IPC file) or "bitmap" (roaring)
  std::string path;               ///< relative to the dataset directory
  uint64_t num_deleted_rows = 0;  ///< as the manifest records it; 0 = not recorded
};

struct DatasetFragment {
  uint64_t id = 0;
  uint64_t physical_rows = 0;
  uint64_t deleted_rows = 0;
  uint64_t num_rows = 0;  ///< visible rows
  std::vector<DatasetDataFile> data_files;
  std::optional<DatasetDeletionFile> deletion;
};

struct DatasetFieldId {
  int32_t id = 0;
  int32_t parent_id = -1;
  std::string path;
  std::string logical_type;
};

struct DatasetMeta {
  std::string path;
  uint64_t version = 0;
  std::string manifest;              ///< the manifest file read
  std::vector<uint64_t> versions;    ///< every committed version in _versions/
  std::string data_storage_version;  ///< e.g. "2.1" ("" when not recorded)
  std::string writer;                ///< e.g. "lance 8.0.0"
  uint64_t num_rows = 0;             ///< visible rows
  uint64_t num_deleted_rows = 0;
  std::vector<DatasetFragment> fragments;
  std::vector<DatasetFieldId> fields;        ///< the schema in pre-order
  std::vector<DatasetIndex> indices;         ///< Manifest.index_section (inspect/dataset_indices.h)
  std::optional<std::string> indices_error;  ///< why the index section could not be read
};

DatasetMeta inspect_dataset_meta(const dataset::Dataset& dataset);

Json to_json(const DatasetMeta& meta);
std::string render_text(const DatasetMeta& meta, const TextOptions& options = {});

}  // namespace lance::inspect
