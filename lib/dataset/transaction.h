// The history of a dataset: for each version, the transaction that made it and the tags
// that point at it.
//
// A version's transaction is named by its manifest: Manifest.transaction_file (a file
// `_transactions/<read_version>-<uuid>.txn` holding one Transaction message) or
// Manifest.transaction_section (the same message inside the manifest file). Tags are
// `_refs/tags/<name>.json` files holding `{"version": N, "branch": ...}`.
// Upstream: lance-format/lance protos/transaction.proto `Transaction`, protos/table.proto
// `Manifest.transaction_file`; rust/lance/src/dataset/refs.rs (tag files).
//
// Usage:
//   ManifestFile mf = read_manifest_file(loc.path);
//   std::optional<TransactionInfo> t = read_transaction(dir, mf);   // t->operation == "Append", ...
//   for (const Tag& tag : list_tags(dir)) ...
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dataset/manifest_file.h"

namespace lance::dataset {

inline constexpr const char* kTransactionsDir = "_transactions";
inline constexpr const char* kTagsDir = "_refs/tags";

struct TransactionInfo {
  /// Append, Delete, Overwrite, CreateIndex, Rewrite, Merge, Restore, ReserveFragments,
  /// Update, Project, UpdateConfig, DataReplacement, UpdateMemWalState, Clone, UpdateBases,
  /// DataOverlay, AppendFragmentReuseTransitions; "Unknown" for an operation this reader
  /// does not know (or none set).
  std::string operation;
  std::string detail;         ///< short: "+50 rows", a delete's predicate, "to v8", "4 → 1 fragments"; may be ""
  uint64_t read_version = 0;  ///< the version the writer started from
  std::string uuid;
  std::string source;  ///< the file it was read from (relative), or "manifest"
};

/// The transaction that made the version `manifest` holds; nullopt when the manifest names
/// none (writers may skip it). Throws Error(io) when the named file cannot be read,
/// Error(corrupt) when it does not decode.
/// A transaction file is read through `store` (the store of `dataset_dir`).
std::optional<TransactionInfo> read_transaction(const std::string& dataset_dir, const ManifestFile& manifest,
                                                const io::ObjectStore& store);

/// Decodes one Transaction message; `name` is used in error messages.
TransactionInfo parse_transaction(ByteView bytes, const std::string& name);

struct Tag {
  std::string name;
  uint64_t version = 0;
  std::string branch;  ///< "" = main
};

/// The tags of the dataset, by name; none when `_refs/tags` does not exist. Throws
/// Error(corrupt) for a tag file that is not `{"version": N, ...}`. Listed and read through
/// `store` (the store of `dataset_dir`).
std::vector<Tag> list_tags(const std::string& dataset_dir, const io::ObjectStore& store);

}  // namespace lance::dataset
