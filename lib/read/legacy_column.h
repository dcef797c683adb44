// One column of a 2.0 file: its pages by row, and the loading of the buffers a page's
// ArrayEncoding tree names (docs/format.md §4.1). Used by the legacy field readers.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
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
  std::vector<ByteView> column;  ///< views into the column's cache (see LegacyColumn)
  std::vector<ByteView> file;

  encoding::v2_0::Buffers buffers() const { return {page, column, file}; }
};

/// Pages of one 2.0 column. Rows here are the column's own entries (`Page.length`):
/// top-level rows for top-level fields, items for the children of lists.
class LegacyColumn {
 public:
  LegacyColumn(std::shared_ptr<format::FileReader> file, uint32_t column);

  uint32_t index() const { return column_; }
  uint64_t num_rows() const { return starts_.back(); }
  size_t num_pages() const { return starts_.size() - 1; }
  uint64_t page_start(size_t p) const { return starts_[p]; }
  uint64_t page_rows(size_t p) const { return starts_[p + 1] - starts_[p]; }
  /// The page holding `row` (row < num_rows()); skips empty pages.
  size_t page_of(uint64_t row) const;
  const format::PageInfo& page(size_t p) const { return file_->columns()[column_].pages[p]; }
  /// The page's ArrayEncoding; throws corrupt when the page has none.
  const ::lance::encodings::ArrayEncoding& encoding(size_t p) const;
  /// The column-level encoding (blob columns are marked there).
  const ::lance::encodings::ColumnEncoding& column_encoding() const { return file_->columns()[column_].encoding; }

  /// Reads the buffers page `p`'s encoding names (one I/O request). Column and file
  /// buffers are read once and kept.
  LoadedPage load(size_t p);

  /// "column N", for error context.
  std::string name() const;

 private:
  std::shared_ptr<format::FileReader> file_;
  uint32_t column_;
  std::vector<uint64_t> starts_;  // first row of each page, then the end
  std::map<uint32_t, Bytes> column_buffers_;
  std::map<uint32_t, Bytes> file_buffers_;
};

}  // namespace lance::read
