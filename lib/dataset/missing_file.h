// Files of a dataset version that are gone: a reader opened a version, then a cleanup of old
// versions (Lance `cleanup_old_versions`, LanceDB `optimize({cleanupOlderThan})`) removed the
// manifest or the data and deletion files that version lists. Lance never rewrites a file
// in place, so a file that is missing (rather than unreadable) means exactly that.
// Upstream: lance-format/lance rust/lance/src/dataset/cleanup.rs.
//
// Usage:
//   auto file = with_missing_file_hint(dir, path, store, version, "data file", [&] { return FileReader::open(...); });
//   ManifestLocation where; Manifest m = read_version_manifest(dir, store, version, where);
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/error.h"
#include "dataset/manifest.h"
#include "io/object_store.h"

namespace lance::dataset {

/// True when nothing exists at `path` of `store` any more (locally: not even a dangling link;
/// object stores: a HEAD finds no object).
bool file_is_gone(const std::string& path, const io::ObjectStore& store);

/// Error(io) for a file `what` ("data file", "deletion file") at `path` that version
/// `version` lists but that does not exist. When a newer version than `version` exists
/// (`latest`, or `latest` unknown): names cleanup as the likely cause and suggests reading
/// another version with --version. When `version` is still the latest: the dataset is
/// damaged (no other version to suggest), and `lance-cli verify` lists what is gone.
Error missing_file_error(const std::string& path, uint64_t version, const char* what,
                         std::optional<uint64_t> latest = std::nullopt);

/// The latest version of the dataset `dataset_dir` as listed now, or nullopt when it cannot
/// be listed (only for messages: never throws).
std::optional<uint64_t> latest_version_now(const std::string& dataset_dir, const io::ObjectStore& store);

/// Runs `open`; an Error(io) it throws while `path` does not exist becomes
/// missing_file_error(path, version, what, latest_version_now(dataset_dir, store)). Other
/// errors pass unchanged.
template <typename Fn>
auto with_missing_file_hint(const std::string& dataset_dir, const std::string& path, const io::ObjectStore& store,
                            uint64_t version, const char* what, Fn&& open) -> decltype(open()) {
  try {
    return open();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::io || !file_is_gone(path, store)) throw;
    throw missing_file_error(path, version, what, latest_version_now(dataset_dir, store));
  }
}

/// The manifest of `version` (latest when empty) of the dataset `dir`, its location in
/// `where`. When the latest manifest vanishes between listing `_versions/` and reading it
/// (a concurrent cleanup), the listing is retried (a few times); a named version whose
/// manifest vanishes is Error(io) saying it was removed. Other errors as find_manifest and
/// read_manifest throw them.
Manifest read_version_manifest(const std::string& dir, const io::ObjectStore& store, std::optional<uint64_t> version,
                               ManifestLocation& where);

}  // namespace lance::dataset
