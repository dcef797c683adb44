// Writing record batches in the Arrow IPC format: the stream format (what `lance-cli ... -f
// arrow` prints) and, for tests and tools, the random-access file format.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "array/array.h"

namespace lance::arrow {

/// Record-batch body compression (Arrow's BodyCompression, method BUFFER).
enum class IpcCompression { none, lz4_frame, zstd };

struct IpcWriteOptions {
  /// Write the file format (magic, footer) instead of the stream format.
  bool file_format = false;
  /// Compress each body buffer on its own (a buffer that does not shrink is stored raw).
  IpcCompression compression = IpcCompression::none;
};

/// Writes an Arrow IPC stream (or file) batch by batch to a byte consumer.
///
/// Usage:
///   IpcWriter w([&](std::string_view bytes) { sink.write(bytes); });
///   w.begin(fields, schema_metadata);   // the Schema message
///   w.write(batch);                     // one RecordBatch message per call
///   w.finish();                         // end-of-stream marker (and footer for files)
///
/// Every type `ArrayData` can hold is written with its Arrow layout: large types with 64-bit
/// offsets, map with `keys_sorted = false`, float16 as FloatingPoint(HALF), field metadata as
/// the field's custom_metadata. A validity bitmap is written only when the array has nulls.
/// Dictionary columns get a DictionaryBatch (id by depth-first field order) before every
/// record batch, replacing the previous one (the stream format allows replacement; the file
/// format does not, so there a dictionary may only be written once). Messages, bodies and
/// buffers are aligned to 64 bytes. Body buffers are handed to `out` straight from the
/// arrays, without copying, when the body is not compressed.
///
/// `out` is called with consecutive pieces of output; exceptions from it propagate.
/// Throws std::logic_error when a batch does not match the fields or an array's buffers are
/// shorter than its length requires (a bug in the producer, not bad input).
class IpcWriter {
 public:
  using Output = std::function<void(std::string_view)>;

  explicit IpcWriter(Output out, IpcWriteOptions options = {});
  ~IpcWriter();
  IpcWriter(const IpcWriter&) = delete;
  IpcWriter& operator=(const IpcWriter&) = delete;

  void begin(const std::vector<FieldPtr>& fields, const std::map<std::string, std::string>& metadata = {});
  void write(const RecordBatch& batch);
  void finish();

  /// Bytes handed to `out` so far.
  uint64_t bytes_written() const { return position_; }

 private:
  struct Body;
  void emit(std::string_view bytes);
  void emit_padding(size_t n);
  /// Writes one message: prefix, `flatbuffer` padded so the body starts aligned, then the body.
  void write_message(std::string_view flatbuffer, const Body& body, bool record_block, bool dictionary_block);
  void write_dictionaries(const RecordBatch& batch);

  Output out_;
  IpcWriteOptions options_;
  uint64_t position_ = 0;
  std::vector<FieldPtr> fields_;
  std::map<std::string, std::string> metadata_;
  bool begun_ = false;
  bool finished_ = false;
  int64_t num_dictionaries_ = 0;             ///< dictionary fields in the schema (ids 0..n-1)
  std::vector<ArrayPtr> last_dictionaries_;  ///< by id: the dictionary written last (kept alive)
  struct Block {
    int64_t offset;
    int32_t metadata_length;
    int64_t body_length;
  };
  std::vector<Block> dictionary_blocks_;
  std::vector<Block> record_blocks_;
};

}  // namespace lance::arrow
