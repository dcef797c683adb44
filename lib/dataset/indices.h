// The indices of a dataset version, as its manifest records them: Manifest.index_section
// points at an IndexSection (one IndexMetadata per index, or per segment of an index) in
// the manifest file. Each index names its type by the type URL of its details message.
// Upstream: lance-format/lance protos/table.proto `IndexMetadata`, `IndexSection`,
// `IndexFile`; protos/index.proto `VectorIndexDetails`.
//
// Usage:
//   ManifestFile mf = read_manifest_file(loc.path);
//   for (const IndexInfo& ix : parse_indices(mf)) ... ix.type ("IVF_PQ", "BTREE", ... or "")
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dataset/manifest_file.h"

namespace lance::dataset {

/// Folder of the index files inside a dataset directory: `_indices/<uuid>/<file>`.
inline constexpr const char* kIndicesDir = "_indices";

struct IndexFileInfo {
  std::string path;         ///< relative to `_indices/<uuid>/`
  uint64_t size_bytes = 0;  ///< as the manifest records it
};

struct IndexInfo {
  std::string name;
  std::string uuid;                    ///< 8-4-4-4-12 lowercase hex
  std::vector<int32_t> field_ids;      ///< the fields it indexes (first: the keyed one)
  uint64_t dataset_version = 0;        ///< the version it was built from
  std::vector<uint32_t> fragment_ids;  ///< fragments it covers, ascending
  std::string type_url;                ///< of the details message, e.g. "/lance.table.BTreeIndexDetails"
  /// LanceDB's name of the type: IVF_PQ, IVF_FLAT, IVF_SQ, IVF_RQ, IVF_HNSW_PQ, IVF_HNSW_SQ,
  /// IVF_HNSW_FLAT, BTREE, BITMAP, LABEL_LIST, FTS (inverted), NGRAM, ZONEMAP, BLOOMFILTER,
  /// RTREE, FM, JSON, ...; "" when the type URL is not one this reader knows.
  std::string type;
  std::string details;  ///< e.g. "metric L2, PQ 8 bits × 2 sub-vectors"; may be ""
  std::optional<int32_t> index_version;
  std::optional<uint64_t> created_at_ms;  ///< milliseconds since the Unix epoch
  std::vector<IndexFileInfo> files;       ///< empty: not recorded (older writers)
  bool has_base_id = false;               ///< its files live under another base path
};

/// The indices of the version `file` holds, in manifest order (empty when it has no index
/// section). Throws Error(corrupt) when the section or a fragment bitmap is malformed.
std::vector<IndexInfo> parse_indices(const ManifestFile& file);

/// The type name for a details message (see IndexInfo::type); `details` receives a short
/// description of the parameters when the message is one this reader decodes.
std::string index_type_name(const std::string& type_url, ByteView value, std::string* details = nullptr);

/// "0e8c…" 16 bytes → "0e8c1a2b-…"; other lengths as plain hex.
std::string format_uuid(ByteView bytes);

}  // namespace lance::dataset
