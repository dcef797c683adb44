// The raw protobuf of a manifest file and the sections it points into: the index section
// (Manifest.index_section) and the inline transaction (Manifest.transaction_section), each
// stored in the same file as `[u32 length][message]` at the recorded position.
// Upstream: lance-format/lance protos/table.proto `Manifest`, rust/lance-table/src/io/manifest.rs.
//
// Usage:
//   ManifestFile mf = read_manifest_file(loc.path);
//   if (mf.proto.has_index_section()) ByteView s = manifest_section(mf, mf.proto.index_section(), "index section");
#pragma once

#include <cstdint>
#include <string>

#include "common/bytes.h"
#include "dataset/manifest.h"
#include "io/object_store.h"
#include "table.pb.h"

namespace lance::dataset {

struct ManifestFile {
  std::string path;
  Bytes bytes;                     ///< the whole file
  ::lance::table::Manifest proto;  ///< the manifest message at the tail
};

/// Reads a manifest file (one whole-object read through `store`, where `path` lives) and decodes its manifest message.
/// Throws Error(io) when the file cannot be read, Error(corrupt) when its tail or protobuf is malformed (the same
/// checks as parse_manifest; reader feature flags are not checked here).
ManifestFile read_manifest_file(const std::string& path, const io::ObjectStore& store);

/// The same, from the file's bytes already read (`path` names it in messages).
ManifestFile manifest_file_from_bytes(std::string path, Bytes bytes);

/// The manifest file of a version already opened: from the bytes the Manifest kept when it
/// has them (no I/O), else read through `store`.
ManifestFile manifest_file_of(const Manifest& m, const io::ObjectStore& store);

/// The message bytes of the `[u32 length][message]` section at `position` of the file.
/// Throws Error(corrupt) naming `what` when it does not lie inside the file.
ByteView manifest_section(const ManifestFile& file, uint64_t position, const char* what);

}  // namespace lance::dataset
