// A small reader of Arrow IPC *files* (the random-access format: magic "ARROW1", messages,
// footer), enough for Lance's deletion files (docs/format.md §8.4: one non-null UInt32 column
// `row_id`, record-batch bodies compressed with ZSTD).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/bytes.h"

namespace lance::arrow {

/// All values of the top-level integer column `column_name` (int8..int64 or uint8..uint64;
/// signed values must be non-negative) of the Arrow IPC file `file_bytes`, in file order
/// (record batches in footer order), widened to uint64. Note that Lance writes deletion
/// files unsorted (hash-set order): sort the result if order matters.
///
/// Supports record-batch body compression (ZSTD and LZ4_FRAME, each buffer prefixed by its
/// i64 uncompressed length, -1 = stored uncompressed). Dictionary batches are not supported.
/// Throws Error: corrupt when the bytes are not a well-formed Arrow IPC file, the column is
/// missing, or it holds nulls or negative values; unsupported for a non-integer column or an
/// unknown compression codec.
std::vector<uint64_t> read_arrow_file_integer_column(ByteView file_bytes, std::string_view column_name);

}  // namespace lance::arrow

namespace lance {
using arrow::read_arrow_file_integer_column;  // also reachable as lance::read_arrow_file_integer_column
}  // namespace lance
