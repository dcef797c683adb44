// One column of a 2.0 file: its pages by row, and the buffers a page's ArrayEncoding tree
// names (docs/format.md §4.1). Used by the 2.0 field reader (v2_0_field_reader.cpp), which
// reads them through StagedReads (read/staged_reads.h).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "encoding/v2_0/array_decoder.h"
#include "format/file_reader.h"

namespace lance::read {

/// The bytes of one page: owns what was read and hands out the views a decoder needs.
/// Buffers the encoding does not name stay empty (they were not read).
struct LoadedPage {
  std::vector<Bytes> page_bytes;
  std::vector<ByteView> page;
  std::vector<ByteView> column;  ///< views into the column's kept buffers (see V2_0Column)
  std::vector<ByteView> file;

  encoding::v2_0::Buffers buffers() const { return {page, column, file}; }
};

/// A column or file buffer (pb::Buffer type and index) a page names.
struct SharedBufferRef {
  bool file = false;  ///< a file (global) buffer; else a column buffer
  uint32_t index = 0;
};

/// Pages of one 2.0 column. Rows here are the column's own entries (`Page.length`):
/// top-level rows for top-level fields, items for the children of lists.
class V2_0Column {
 public:
  V2_0Column(std::shared_ptr<format::FileReader> file, uint32_t column);

  uint32_t index() const { return column_; }
  uint64_t num_rows() const { return starts_.back(); }
  size_t num_pages() const { return starts_.size() - 1; }
  uint64_t page_start(size_t p) const { return starts_[p]; }
  uint64_t page_rows(size_t p) const { return starts_[p + 1] - starts_[p]; }
  /// The first row of each page, then num_rows() (split_rows_by_page's page_starts).
  std::span<const uint64_t> page_starts() const { return starts_; }
  const format::PageInfo& page(size_t p) const { return file_->columns()[column_].pages[p]; }
  /// The page's ArrayEncoding; throws corrupt when the page has none.
  const ::lance::encodings::ArrayEncoding& encoding(size_t p) const;
  /// The column-level encoding (blob columns are marked there).
  const ::lance::encodings::ColumnEncoding& column_encoding() const { return file_->columns()[column_].encoding; }

  /// The page buffers page `p`'s encoding names, each once, in the order `loaded` takes
  /// their bytes. Throws corrupt for a buffer the page does not have.
  std::vector<io::ByteRange> page_ranges(size_t p) const;
  /// The column and file buffers page `p` names that are not kept yet (Lance writes page
  /// buffers only, so this is rare); `refs` receives which they are, for keep_shared.
  std::vector<io::ByteRange> shared_ranges(size_t p, std::vector<SharedBufferRef>& refs) const;
  /// Keeps the bytes of shared_ranges (read once per column).
  void keep_shared(const std::vector<SharedBufferRef>& refs, std::vector<Bytes>&& bytes);
  /// Page `p`'s buffers, given the bytes of page_ranges(p) in order (and the kept shared
  /// buffers: a buffer not kept yet reads as empty).
  LoadedPage loaded(size_t p, std::vector<Bytes>&& page_bytes) const;

  /// "column N", for error context.
  std::string name() const;

 private:
  /// The buffers page `p`'s encoding names (unvalidated).
  std::vector<::lance::encodings::Buffer> references(size_t p) const;
  /// The page buffers among them, each once, in the order first named (page_ranges' order).
  std::vector<uint32_t> named_page_buffers(size_t p) const;

  std::shared_ptr<format::FileReader> file_;
  uint32_t column_;
  std::vector<uint64_t> starts_;  // first row of each page, then the end
  std::map<uint32_t, Bytes> column_buffers_;
  std::map<uint32_t, Bytes> file_buffers_;
};

}  // namespace lance::read
