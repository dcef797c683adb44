#include "read/legacy_column.h"

#include <algorithm>

namespace lance::read {

namespace pb = ::lance::encodings;

LegacyColumn::LegacyColumn(std::shared_ptr<format::FileReader> file, uint32_t column)
    : file_(std::move(file)), column_(column) {
  check_corrupt(column_ < file_->columns().size(), "column {} does not exist (the file has {})", column_,
                file_->columns().size());
  uint64_t row = 0;
  for (const auto& p : file_->columns()[column_].pages) {
    starts_.push_back(row);
    check_corrupt(p.num_rows <= UINT64_MAX - row, "page lengths overflow");
    row += p.num_rows;
  }
  starts_.push_back(row);
}

size_t LegacyColumn::page_of(uint64_t row) const {
  check_corrupt(row < num_rows(), "row {} lies past the column's {} rows", row, num_rows());
  return static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), row) - starts_.begin()) - 1;
}

const pb::ArrayEncoding& LegacyColumn::encoding(size_t p) const {
  const auto& enc = page(p).array_encoding;
  check_corrupt(enc != nullptr, "page {} has no 2.0 array encoding", p);
  return *enc;
}

std::string LegacyColumn::name() const { return fmt::format("column {}", column_); }

LoadedPage LegacyColumn::load(size_t p) {
  const format::PageInfo& info = page(p);
  std::vector<pb::Buffer> refs;
  encoding::v2_0::referenced_buffers(encoding(p), refs);
  const auto& col = file_->columns()[column_];
  const auto& globals = file_->global_buffers();

  // Page buffers: one request for all the named ones.
  std::vector<uint32_t> wanted;
  std::vector<io::ByteRange> ranges;
  for (const auto& r : refs) {
    if (r.buffer_type() != pb::Buffer::page) continue;
    check_corrupt(r.buffer_index() < info.buffers.size(), "page buffer {} named, the page has {}", r.buffer_index(),
                  info.buffers.size());
    if (std::find(wanted.begin(), wanted.end(), r.buffer_index()) != wanted.end()) continue;
    wanted.push_back(r.buffer_index());
    ranges.push_back(info.buffers[r.buffer_index()]);
  }
  LoadedPage out;
  out.page.resize(info.buffers.size());
  if (!ranges.empty()) out.page_bytes = file_->io().read(std::move(ranges), starts_[p]);
  for (size_t i = 0; i < wanted.size(); ++i) out.page[wanted[i]] = ByteView(out.page_bytes[i]);

  // Column and file buffers: rare (Lance writes page buffers only); read once, keep.
  for (const auto& r : refs) {
    const uint32_t i = r.buffer_index();
    if (r.buffer_type() == pb::Buffer::column && !column_buffers_.count(i)) {
      check_corrupt(i < col.buffers.size(), "column buffer {} named, the column has {}", i, col.buffers.size());
      column_buffers_[i] = file_->io().read_range(col.buffers[i], starts_[p]);
    } else if (r.buffer_type() == pb::Buffer::file && !file_buffers_.count(i)) {
      check_corrupt(i < globals.size(), "file buffer {} named, the file has {}", i, globals.size());
      file_buffers_[i] = file_->io().read_range(globals[i], starts_[p]);
    }
  }
  out.column.resize(col.buffers.size());
  for (const auto& [i, b] : column_buffers_) out.column[i] = ByteView(b);
  out.file.resize(globals.size());
  for (const auto& [i, b] : file_buffers_) out.file[i] = ByteView(b);
  return out;
}

}  // namespace lance::read
