// Reading Arrow IPC streams and files held in memory into record batches: used for Lance's
// deletion files (ipc_file_reader.h) and to check our own writer in tests.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "array/array.h"
#include "common/bytes.h"

namespace lance::arrow {

/// The schema and record batches of an Arrow IPC stream or file.
struct IpcContents {
  std::vector<FieldPtr> fields;                 ///< the selected top-level fields, in schema order
  std::map<std::string, std::string> metadata;  ///< the schema's custom_metadata
  std::vector<RecordBatch> batches;
};

struct IpcReadOptions {
  /// Top-level columns to decode (names); empty = all. Other columns are skipped without
  /// decompressing or copying their buffers; names not in the schema are ignored.
  std::vector<std::string> columns;
};

/// Reads a whole Arrow IPC stream: a Schema message, dictionary and record batch messages,
/// and an optional end-of-stream marker. Messages with or without the continuation marker
/// (pre-0.15 framing) are accepted.
///
/// Supports every type lance-cli's ArrayData holds (see ipc_writer.h), dictionary batches
/// (replacement and delta), and body compression (ZSTD, LZ4_FRAME). Buffers are copied out
/// of `bytes`. Every offset, length and count is validated: malformed input throws Error of
/// kind corrupt; types outside that set (interval, union, views, ...) throw unsupported.
IpcContents read_ipc_stream(ByteView bytes, const IpcReadOptions& options = {});

/// Reads a whole Arrow IPC file (magic "ARROW1", footer with the schema and the positions
/// of dictionary and record batch messages), with the same coverage and checks.
IpcContents read_ipc_file(ByteView bytes, const IpcReadOptions& options = {});

}  // namespace lance::arrow
