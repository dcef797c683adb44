#include "read/column_reader.h"

#include <algorithm>

namespace lance::read {

ColumnReader::ColumnReader(std::shared_ptr<format::FileReader> file, uint32_t column, TypePtr leaf_type,
                           std::string field_name)
    : file_(std::move(file)), column_(column), leaf_type_(std::move(leaf_type)), field_name_(std::move(field_name)) {
  const auto& pages = file_->columns().at(column_).pages;
  uint64_t row = 0;
  for (const auto& p : pages) {
    page_starts_.push_back(row);
    row += p.num_rows;
  }
  page_starts_.push_back(row);
}

structural::PageDecoder& ColumnReader::decoder_for(size_t page) {
  if (page != current_page_) {
    structural::PageContext ctx;
    ctx.page = &file_->columns()[column_].pages[page];
    ctx.io = &file_->io();
    ctx.version = file_->version();
    ctx.leaf_type = leaf_type_;
    current_.reset();
    current_page_ = SIZE_MAX;
    current_ = structural::make_page_decoder(ctx);
    current_page_ = page;
  }
  return *current_;
}

structural::LeafData ColumnReader::read(uint64_t begin, uint64_t end) {
  return with_context(fmt::format("{}: column {} (field '{}')", file_->path(), column_, field_name_), [&] {
    check_corrupt(end <= page_starts_.back(), "rows [{}, {}) but the column has {} rows", begin, end, page_starts_.back());
    structural::LeafData out;
    size_t page = static_cast<size_t>(std::upper_bound(page_starts_.begin(), page_starts_.end(), begin) -
                                      page_starts_.begin()) - 1;
    uint64_t row = begin;
    while (row < end) {
      check_corrupt(page + 1 < page_starts_.size(), "row {} lies past the last page", row);
      const uint64_t ps = page_starts_[page], pe = page_starts_[page + 1];
      if (pe > ps) {
        const uint64_t take_end = std::min(end, pe);
        structural::LeafData part = with_context(fmt::format("page {}", page), [&] {
          auto& dec = decoder_for(page);
          return with_context(dec.layout_name(), [&] { return dec.read_rows(row - ps, take_end - ps); });
        });
        structural::append_leaf(out, std::move(part));
        row = take_end;
      }
      ++page;
    }
    return out;
  });
}

}  // namespace lance::read
