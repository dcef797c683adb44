// A Lance dataset version: finding its manifest in `_versions/` and reading it
// (docs/format.md §8.2–8.4).
//
// Usage:
//   auto where = dataset::find_manifest("/data/t.lance", std::nullopt);   // latest
//   auto where1 = dataset::find_manifest("/data/t.lance", 1);             // time travel
//   dataset::Manifest m = dataset::read_manifest(where.path);
//   for (const auto& frag : m.fragments) ...
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "format/schema.h"
#include "io/object_store.h"
#include "table.pb.h"

namespace lance::dataset {

/// Folder of the manifests inside a dataset directory.
inline constexpr const char* kVersionsDir = "_versions";
/// Optional file in `_versions/` holding `{"version": N}`; a hint only.
inline constexpr const char* kLatestVersionHint = "latest_version_hint.json";

/// How a manifest file is named.
enum class ManifestNaming {
  v1,  ///< `{version}.manifest` (older datasets)
  v2,  ///< `{u64::MAX - version, 20 digits}.manifest` (Lance's default since 0.20ish, 8.0)
};

/// One manifest file of a dataset.
struct ManifestLocation {
  uint64_t version = 0;
  std::string path;  ///< the manifest file
  ManifestNaming naming = ManifestNaming::v2;
};

/// The version encoded in a manifest file name, or nullopt when `filename` is not a
/// committed manifest (temporary files, detached `d…` versions, the hint file).
std::optional<ManifestLocation> parse_manifest_name(const std::string& filename);

/// The file name of `version` in the given naming scheme.
std::string manifest_file_name(uint64_t version, ManifestNaming naming);

/// Every committed manifest in `dataset_dir/_versions`, by ascending version (one listing;
/// on S3 a ListObjectsV2 of the prefix). `store`: where the dataset lives (required).
/// Throws Error(io) when the directory cannot be listed (e.g. not a dataset).
std::vector<ManifestLocation> list_manifests(const std::string& dataset_dir, const io::ObjectStore& store);

/// The manifest of `version`, or of the latest version when `version` is empty.
/// `latest_version_hint.json` is consulted only as a hint: the listing decides.
/// Throws Error(usage) naming the version and the directory when it does not exist,
/// Error(corrupt) when the dataset has no manifest at all.
ManifestLocation find_manifest(const std::string& dataset_dir, std::optional<uint64_t> version,
                               const io::ObjectStore& store);

/// The deletion file of one fragment (`_deletions/{fragment}-{read_version}-{id}.{arrow|bin}`).
struct DeletionFileRef {
  enum class Kind { arrow_array, bitmap };
  Kind kind = Kind::arrow_array;
  uint64_t read_version = 0;
  uint64_t id = 0;
  /// Rows marked deleted as the manifest records it; 0 = unknown (older writers).
  uint64_t num_deleted_rows = 0;
  /// Path relative to the dataset directory.
  std::string relative_path(uint64_t fragment_id) const;
};

/// One data file of a fragment.
struct DataFileRef {
  std::string path;                     ///< relative to `data/`
  std::vector<int32_t> field_ids;       ///< fields stored in the file (-2 = tombstoned)
  std::vector<int32_t> column_indices;  ///< per field id: its column, -1 = no own column
  uint32_t major = 0, minor = 0;        ///< file format version as the manifest records it
  uint64_t size_bytes = 0;              ///< 0 = unknown

  bool holds_field(int32_t id) const;
};

/// A horizontal slice of the table: some rows, stored in one or more data files (one per
/// group of columns), minus the rows its deletion file marks.
struct Fragment {
  uint64_t id = 0;
  uint64_t physical_rows = 0;  ///< rows in the data files, deleted ones included (0 in a manifest: unknown)
  std::vector<DataFileRef> files;
  std::optional<DeletionFileRef> deletion;
};

/// What a reader needs from one manifest.
struct Manifest {
  uint64_t version = 0;
  format::Schema schema;            ///< table schema (names and ids as of this version)
  std::vector<Fragment> fragments;  ///< in manifest order = scan order
  uint64_t reader_feature_flags = 0;
  std::string data_storage_version;  ///< e.g. "2.1" (may be empty for old datasets)
  std::string writer;                ///< e.g. "lance 8.0.0"
  std::string path;                  ///< the manifest file read
  /// That file's bytes (read_manifest keeps them: the index section is parsed from them on
  /// demand, dataset::manifest_file_of); null when parsed from bytes the caller owns.
  std::shared_ptr<const Bytes> file_bytes;
};

/// Reader feature flags (Manifest.reader_feature_flags) this reader understands.
namespace feature {
inline constexpr uint64_t kDeletionFiles = 1;
inline constexpr uint64_t kStableRowIds = 2;  // row-id sequences: not needed to read rows
inline constexpr uint64_t kUseV2FormatDeprecated = 4;
inline constexpr uint64_t kTableConfig = 8;
inline constexpr uint64_t kBasePaths = 16;  // refused when a file actually uses a base path
inline constexpr uint64_t kDisableTransactionFile = 32;
inline constexpr uint64_t kUnderstood =
    kDeletionFiles | kStableRowIds | kUseV2FormatDeprecated | kTableConfig | kBasePaths | kDisableTransactionFile;
}  // namespace feature

/// Parses the bytes of a manifest file: a 16-byte tail `[i64 position][u16 0][u16 2]["LANC"]`
/// pointing at `[u32 length][Manifest protobuf]`. `name` is used in error messages.
/// Throws Error(corrupt) on any inconsistency, Error(unsupported) for reader feature flags
/// or layouts this reader does not know.
Manifest parse_manifest(ByteView bytes, const std::string& name);

/// Reads and parses a manifest file (one whole-object read through `store`).
Manifest read_manifest(const std::string& path, const io::ObjectStore& store);

}  // namespace lance::dataset
