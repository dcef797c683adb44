// Page layout decoders of 2.1+ files: one object per (column, page) that turns row ranges
// of the page into LeafData, reading only the bytes those rows need.
//
// A decoder never reads: it names byte ranges and is handed their bytes, so that the
// page-batch planner (read/page_batch_planner.h) can send the reads of many pages and
// columns as one scheduler request. A read of some rows runs in metadata rounds, then one
// data round:
//
//   auto meta = dec->metadata_ranges(rows);        // round 1: chunk metadata, dictionary,
//   while (!meta.empty()) {                        //   rep index… (skipped when empty)
//     dec->load_metadata(rows, io.read(meta, p));
//     meta = dec->more_metadata_ranges(rows);      // a further round (blob descriptors)
//   }
//   auto data = dec->data_ranges(rows);            // the chunks / values the rows need
//   LeafData out = dec->decode(rows, io.read(data, p));
//
// read::read_page_rows does exactly that, synchronously, for one range.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/read_stats.h"
#include "format/file_reader.h"
#include "io/coalesce.h"
#include "structural/leaf_data.h"

namespace lance::structural {

/// Rows [begin, end) relative to the first row of a page.
struct RowRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  uint64_t size() const { return end - begin; }
  bool operator==(const RowRange&) const = default;
};

/// Where rows [span.begin, span.end) of a page of `num_rows` rows probably lie in `buffer`,
/// assuming bytes spread evenly over rows: their proportional share, widened on each side by
/// half its length (at least 64 KiB, at most 1 MiB) and clipped to the buffer; the whole
/// buffer when it is at most 256 KiB. Empty for an empty buffer or page.
io::ByteRange likely_share(io::ByteRange buffer, uint64_t num_rows, RowRange span);
/// likely_share of the span of `rows` (sorted, non-empty ranges) as likely_data_ranges
/// returns it: one range, or none.
std::vector<io::ByteRange> likely_share_of_rows(io::ByteRange buffer, uint64_t num_rows,
                                                std::span<const RowRange> rows);

/// What a decode will append to a LeafData (PageDecoder::size_hint): bytes of values, and
/// repetition and definition levels. Exact or estimated; the room is reserved, not touched.
struct DecodeSizeHint {
  uint64_t value_bytes = 0;
  uint64_t rep_levels = 0;
  uint64_t def_levels = 0;
  DecodeSizeHint& operator+=(const DecodeSizeHint& o) {
    value_bytes += o.value_bytes;
    rep_levels += o.rep_levels;
    def_levels += o.def_levels;
    return *this;
  }
};

/// Decodes rows of one page. Not thread-safe.
class PageDecoder {
 public:
  virtual ~PageDecoder() = default;

  /// Byte ranges (absolute file offsets) that must be loaded before `data_ranges(rows)`;
  /// empty when nothing (more) is needed. `rows` are sorted and non-empty; a range may repeat
  /// the row the one before ends with (read::FileRowReader::row_ranges), decoded again.
  virtual std::vector<io::ByteRange> metadata_ranges(std::span<const RowRange> rows) = 0;
  /// Takes the bytes of the last `metadata_ranges(rows)` / `more_metadata_ranges(rows)`
  /// answer, in the same order.
  virtual void load_metadata(std::span<const RowRange> rows, std::vector<Bytes>&& parts) = 0;
  /// Asked after each `load_metadata`: byte ranges of a further metadata round that the
  /// loaded bytes point to (a blob page's descriptors after its inner page's metadata);
  /// empty (the default) when `data_ranges(rows)` can be answered.
  virtual std::vector<io::ByteRange> more_metadata_ranges(std::span<const RowRange> rows) { return {}; }
  /// Byte ranges holding the values and levels of `rows` (after metadata is loaded).
  virtual std::vector<io::ByteRange> data_ranges(std::span<const RowRange> rows) = 0;
  /// Byte ranges that probably hold `data_ranges(rows)`, known before any metadata is
  /// loaded: the exact ranges when no metadata is needed, a whole small buffer, or an
  /// estimate from the rows' share of the page (likely_share); empty (the default) when the
  /// layout cannot tell. A hint for stores where a round trip costs more than some extra
  /// bytes: read::MetadataRounds announces them with the first metadata round
  /// (io::RandomAccessFile::will_read), so the data is often on its way with the metadata.
  /// Never needed for a correct read. Does not change the decoder's state.
  virtual std::vector<io::ByteRange> likely_data_ranges(std::span<const RowRange> rows) { return {}; }
  /// Decodes `rows`, given the bytes of `data_ranges(rows)` in the same order. The
  /// result holds the rows of all ranges, in order.
  virtual LeafData decode(std::span<const RowRange> rows, std::vector<Bytes>&& parts) = 0;
  /// `decode`, appending the rows to `out` (a column's earlier pages, or empty). Layouts
  /// that can write their levels and values straight into `out` override it; the default
  /// decodes to a LeafData of its own and appends that (append_leaf).
  virtual void decode_into(std::span<const RowRange> rows, std::vector<Bytes>&& parts, LeafData& out) {
    append_leaf(out, decode(rows, std::move(parts)));
  }
  /// Whether `decode_into` writes into `out` itself (no LeafData of its own to append).
  virtual bool decodes_in_place() const { return false; }
  /// What `decode_into(rows, parts, ...)` will append to `out` (DecodeSizeHint), when the
  /// layout knows or can estimate it without decoding, else zeros: a column of several such
  /// pages reserves its room once instead of growing (and copying) page by page. `parts` as
  /// for decode_into.
  virtual DecodeSizeHint size_hint(std::span<const RowRange> rows, const std::vector<Bytes>& parts) const { return {}; }
  /// Whether `data_ranges` gives the first and the last piece a read shares with the reads of
  /// the rows before and after it as ranges of their own (mini-block chunks: read_pieces in
  /// miniblock.cpp), so that read::ColumnReader may pass such a range's bytes from one read to
  /// the next instead of reading them again.
  virtual bool edge_ranges_shared() const { return false; }
  /// Layout name for messages: "mini-block", "full-zip", "constant", ...
  virtual const char* layout_name() const = 0;
};

/// What a page decoder needs to know about the file and the page.
struct PageContext {
  const format::PageInfo* page = nullptr;
  format::FileVersion version;
  /// The leaf column's Arrow type (constant and all-null pages build values from it).
  TypePtr leaf_type;
  /// The data file's size (blob descriptors point into it).
  uint64_t file_size = 0;
  /// Counters (`chunks_decoded`); may be null.
  ReadStats* stats = nullptr;
  /// Full-zip pages keep their whole repetition index after the first partial read, so
  /// later takes need one I/O per row range (read::ReaderOptions::cache_rep_index).
  bool cache_rep_index = false;
  /// A dictionary-encoded mini-block page of a string or binary column without lists hands
  /// out its indices and dictionary (LeafData::dictionary) instead of looking them up
  /// (read::ReaderOptions::keep_dictionaries).
  bool keep_dictionary = false;
};

/// Chooses the decoder for the page's layout. Throws Error(unsupported) for layouts this
/// build does not read (the message names the layout).
std::unique_ptr<PageDecoder> make_page_decoder(const PageContext& ctx);

}  // namespace lance::structural
