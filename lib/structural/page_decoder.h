// Page layout decoders of 2.1+ files: one object per (column, page) that turns row ranges
// of the page into LeafData, reading only the bytes those rows need.
//
// Reading happens in up to two I/O rounds, so that a caller can batch the reads of many
// pages (and columns) into one scheduler request:
//
//   auto meta = dec->metadata_ranges(rows);      // 1. chunk metadata, dictionary, rep index…
//   dec->load_metadata(rows, io.read(meta, p));  //    (skipped when `meta` is empty)
//   auto data = dec->data_ranges(rows);          // 2. the chunks / values the rows need
//   LeafData out = dec->decode(rows, io.read(data, p));
//
// `read_rows` does exactly that, synchronously, for one range.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "format/file_reader.h"
#include "io/scheduler.h"
#include "structural/leaf_data.h"

namespace lance::structural {

/// Rows [begin, end) relative to the first row of a page.
struct RowRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  uint64_t size() const { return end - begin; }
};

/// Decodes rows of one page. Not thread-safe.
class PageDecoder {
 public:
  virtual ~PageDecoder() = default;

  /// Byte ranges (absolute file offsets) that must be loaded before `data_ranges(rows)`;
  /// empty when nothing (more) is needed. `rows` are sorted, non-overlapping, non-empty.
  virtual std::vector<io::ByteRange> metadata_ranges(std::span<const RowRange> rows) = 0;
  /// Takes the bytes of `metadata_ranges(rows)`, in the same order.
  virtual void load_metadata(std::span<const RowRange> rows, std::vector<Bytes>&& parts) = 0;
  /// Byte ranges holding the values and levels of `rows` (after metadata is loaded).
  virtual std::vector<io::ByteRange> data_ranges(std::span<const RowRange> rows) = 0;
  /// Decodes `rows`, given the bytes of `data_ranges(rows)` in the same order. The
  /// result holds the rows of all ranges, in order.
  virtual LeafData decode(std::span<const RowRange> rows, std::vector<Bytes>&& parts) = 0;
  /// Layout name for messages: "mini-block", "full-zip", "constant", ...
  virtual const char* layout_name() const = 0;

  /// Rows [begin, end) of the page, read synchronously through `io`.
  LeafData read_rows(uint64_t begin, uint64_t end);

 protected:
  explicit PageDecoder(io::IoScheduler* io, uint64_t priority) : io_(io), priority_(priority) {}
  io::IoScheduler* io_;
  uint64_t priority_;
};

/// What a page decoder needs to know about the file and the page.
struct PageContext {
  const format::PageInfo* page = nullptr;
  io::IoScheduler* io = nullptr;
  format::FileVersion version;
  /// The leaf column's Arrow type (constant and all-null pages build values from it).
  TypePtr leaf_type;
  /// The data file's size (blob descriptors point into it).
  uint64_t file_size = 0;
};

/// Process-wide count of mini-block chunks decompressed (for `--stats`).
std::atomic<uint64_t>& chunks_decoded_counter();

/// Chooses the decoder for the page's layout. Throws Error(unsupported) for layouts this
/// build does not read (the message names the layout).
std::unique_ptr<PageDecoder> make_page_decoder(const PageContext& ctx);

}  // namespace lance::structural
