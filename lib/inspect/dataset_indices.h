// The indices part of `inspect meta` on a dataset: each index of the version read, with
// its type (from the details type URL), the fields it indexes by name, the fragments and
// rows it covers and misses, the version it was built at, and its files with sizes.
// Built from dataset::parse_indices (Manifest.index_section → IndexSection); besides the
// manifest it only lists `_indices/<uuid>/` (for existence and sizes).
//
// Usage:
//   std::vector<DatasetIndex> ix = describe_indices(*ds, dataset::parse_indices(mf));
//   json["indices"] = indices_json(ix);  text += render_indices_text(ix, options);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dataset/dataset.h"
#include "dataset/indices.h"
#include "inspect/render.h"

namespace lance::inspect {

struct DatasetIndexFile {
  std::string path;         ///< relative to the dataset directory (`_indices/<uuid>/<file>`)
  uint64_t size_bytes = 0;  ///< as recorded in the manifest, else as found on disk
  bool recorded = false;    ///< the manifest lists it (with its size)
  bool exists = false;      ///< found on disk
};

/// What a vector index's own files say (index.idx, auxiliary.idx): read for `inspect meta`.
struct VectorIndexLayout {
  std::string metric;  ///< "l2", "cosine", "dot"
  uint32_t dim = 0;
  uint32_t partitions = 0;
  uint64_t min_partition_rows = 0, max_partition_rows = 0;
  uint32_t pq_sub_vectors = 0, pq_bits = 0;  ///< PQ only
  std::string unreadable;                    ///< why the files could not be read (then the rest is empty)
};

struct DatasetIndex {
  std::string name;
  std::string uuid;
  std::string type;  ///< IVF_PQ, BTREE, ... (dataset::IndexInfo::type), or the type URL when unknown
  bool known_type = false;
  std::string type_url;
  std::string details;
  std::vector<std::string> fields;  ///< names (dotted paths); "#<id>" for an id not in the schema
  std::vector<int32_t> field_ids;
  uint64_t dataset_version = 0;
  std::optional<uint64_t> created_at_ms;
  std::optional<int32_t> index_version;
  std::vector<uint32_t> fragment_ids;         ///< covered, as recorded
  std::vector<uint64_t> unindexed_fragments;  ///< fragments of this version it does not cover
  uint64_t indexed_rows = 0;                  ///< visible rows of covered fragments
  uint64_t unindexed_rows = 0;                ///< visible rows of the others
  std::vector<DatasetIndexFile> files;
  uint64_t size_bytes = 0;                  ///< sum of the files' sizes
  std::optional<VectorIndexLayout> vector;  ///< vector indices
};

std::vector<DatasetIndex> describe_indices(const dataset::Dataset& ds, const std::vector<dataset::IndexInfo>& indices);

Json indices_json(const std::vector<DatasetIndex>& indices);
std::string render_indices_text(const std::vector<DatasetIndex>& indices, const TextOptions& options);

/// "2026-12-01T09:24:33.835Z" for milliseconds since the Unix epoch (UTC).
std::string format_time_ms(uint64_t ms);

}  // namespace lance::inspect
