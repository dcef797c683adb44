// General-purpose buffer decompression (docs/format.md §6.11, 6.12).
//
// zstd: `[u64 LE uncompressed length][zstd frame]`; legacy writers stored a bare zstd
// frame, recognised (as Lance does) by the zstd magic 0xFD2FB528 in the first four bytes
// together with a clear bit 0x10 in the frame header descriptor (byte 4).
// lz4: `[u32 LE uncompressed length][raw LZ4 block]` (the LZ4 block API, not LZ4 frames).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "common/bytes.h"
#include "encoding/registry.h"

namespace lance::encoding {

enum class GeneralScheme { lz4, zstd };

const char* general_scheme_name(GeneralScheme scheme);

/// Decompresses a length-prefixed (or bare legacy) zstd buffer. An empty input yields an
/// empty output. Throws corrupt on a malformed frame, a size other than the declared one,
/// or a declared size above `kMaxDecodedBufferBytes`.
Bytes zstd_decompress(ByteView input);

/// Decompresses a `[u32 length][LZ4 block]` buffer; throws corrupt like `zstd_decompress`.
Bytes lz4_decompress(ByteView input);

Bytes general_decompress(GeneralScheme scheme, ByteView input);

/// The decompressed size of `input` from its length prefix, after the checks above; nullopt
/// for a bare legacy zstd frame (whose size is known only by decompressing it).
std::optional<uint64_t> general_decompressed_size(GeneralScheme scheme, ByteView input);

/// Decompresses `input` into `out`, which must be exactly its decompressed size (else
/// corrupt). Lets per-value decoders write every value straight into one output buffer.
void general_decompress_into(GeneralScheme scheme, ByteView input, std::span<uint8_t> out);

// General's row of the encoding registry (registry.h): buffers compressed with lz4 or zstd
// around a `values` encoding.
/// Only the first buffer of a chunk is compressed; the others pass through.
DataBlock general_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers, uint64_t num_values);
DataBlock general_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values);
/// Every value is its own frame; a large page splits across the CPU pool.
DataBlock general_variable_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped);
/// Full-zip variable-width values (a FullZipLayout's per-value General compression, Lance's
/// rust/lance-encoding/src/encodings/physical/general.rs), appended: `values` are the
/// values' frames one by one (an empty view is an empty value, a null slot), decompressed
/// straight onto the end of `out` (variable-width, 32- or 64-bit offsets; an empty block
/// becomes one with 64-bit offsets), which grows once where every frame states its size.
/// Throws corrupt on a bad frame or a size that disagrees, and when `out` is fixed-width.
void general_variable_per_value_append(const pb::CompressiveEncoding& enc, std::span<const ByteView> values,
                                       DataBlock& out);
/// The bytes `values` decompress to (as general_variable_per_value_append takes them), from
/// the sizes their frames state; nullopt when a frame states none (a bare legacy zstd frame).
/// Throws corrupt as decompression would on a bad length prefix.
std::optional<uint64_t> general_variable_per_value_bytes(const pb::CompressiveEncoding& enc,
                                                         std::span<const ByteView> values);

/// Compressed bytes below which per-value compressed values are not worth splitting across
/// threads: a run of 256 KiB of zstd text is ~1-2 ms of work, a hand-off to the pool tens of
/// microseconds. general_variable_per_value splits the values it is given, where fan-out is
/// allowed (common/cpu_pool.h), into runs of at least this many bytes: from twice as many on.
inline constexpr uint64_t kFanOutMinBytes = 256 << 10;
/// The count of the `values` encoding when it records one (Rle, General), after decompressing.
std::optional<uint64_t> general_block_num_values(const pb::CompressiveEncoding& enc, ByteView buffer);
/// The count the decompressed buffer holds by its size (`count_by_size` of `values`).
std::optional<uint64_t> general_count_by_size(const pb::CompressiveEncoding& enc, ByteView buffer);
std::string describe_general(const pb::CompressiveEncoding& enc);

}  // namespace lance::encoding
