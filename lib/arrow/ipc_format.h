// Constants of the Arrow IPC framing shared by the stream writer and the file reader
// (Arrow columnar format specification, "Serialization and Interprocess Communication").
//
// An encapsulated message is:
//   u32 0xFFFFFFFF (continuation marker) | i32 metadata size N | N bytes: `Message`
//   flatbuffer, zero-padded | body of `Message.body_length` bytes (the buffers)
// A stream is a Schema message, then dictionary and record batch messages, then the
// end-of-stream marker (0xFFFFFFFF followed by a zero size). A file is "ARROW1" + 2 zero
// bytes, a stream, the `Footer` flatbuffer, its size as i32, and "ARROW1".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace lance::arrow {

/// First word of every message since Arrow 0.15 (older streams start with the size).
inline constexpr uint32_t kContinuationMarker = 0xFFFFFFFFu;
/// Bytes before a message's flatbuffer: continuation marker and metadata size.
inline constexpr size_t kMessagePrefixBytes = 8;
/// Alignment we write at: every message start, every body and every buffer in a body lands
/// on a multiple of 64 bytes from the start of the output (Arrow requires 8 and recommends
/// 64, which is also what Arrow allocators use, so a reader can use buffers in place).
inline constexpr size_t kIpcAlignment = 64;
/// The file format's magic, at both ends of a file.
inline constexpr std::string_view kFileMagic{"ARROW1", 6};
/// The magic padded to 8 bytes at the start of a file.
inline constexpr size_t kFileHeaderBytes = 8;
/// Size of the i64 uncompressed-length prefix of a compressed body buffer.
inline constexpr size_t kCompressedLengthPrefixBytes = 8;

/// Bytes to add to `size` to reach a multiple of `alignment` (a power of two).
inline constexpr size_t padding_for(uint64_t size, size_t alignment) {
  return static_cast<size_t>((alignment - size % alignment) % alignment);
}

}  // namespace lance::arrow
