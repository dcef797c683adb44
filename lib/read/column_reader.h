// Reads row ranges of one leaf column across its pages.
#pragma once

#include <memory>
#include <vector>

#include "format/file_reader.h"
#include "structural/page_decoder.h"

namespace lance::read {

/// Rows of one 2.1+ leaf column, page by page. Keeps the decoder of the page it last
/// used, so a scan that moves forward reads each page's metadata once.
class ColumnReader {
 public:
  ColumnReader(std::shared_ptr<format::FileReader> file, uint32_t column, TypePtr leaf_type, std::string field_name);

  /// Rows [begin, end) of the file (begin < end ≤ the column's rows), as one LeafData.
  /// Pages outside the range are not touched. Errors carry the column and page.
  structural::LeafData read(uint64_t begin, uint64_t end);

 private:
  structural::PageDecoder& decoder_for(size_t page);

  std::shared_ptr<format::FileReader> file_;
  uint32_t column_;
  TypePtr leaf_type_;
  std::string field_name_;
  std::vector<uint64_t> page_starts_;  // first row of each page, plus the end
  size_t current_page_ = SIZE_MAX;
  std::unique_ptr<structural::PageDecoder> current_;
};

}  // namespace lance::read
