#include "read/v2_0_column.h"

#include <algorithm>

namespace lance::read {

namespace pb = ::lance::encodings;

V2_0Column::V2_0Column(std::shared_ptr<format::FileReader> file, uint32_t column)
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

const pb::ArrayEncoding& V2_0Column::encoding(size_t p) const {
  const auto& enc = page(p).array_encoding;
  check_corrupt(enc != nullptr, "page {} has no 2.0 array encoding", p);
  return *enc;
}

std::string V2_0Column::name() const { return fmt::format("column {}", column_); }

std::vector<pb::Buffer> V2_0Column::references(size_t p) const {
  std::vector<pb::Buffer> refs;
  encoding::v2_0::referenced_buffers(encoding(p), refs);
  return refs;
}

std::vector<uint32_t> V2_0Column::named_page_buffers(size_t p) const {
  std::vector<uint32_t> named;
  for (const auto& r : references(p))
    if (r.buffer_type() == pb::Buffer::page && std::find(named.begin(), named.end(), r.buffer_index()) == named.end())
      named.push_back(r.buffer_index());
  return named;
}

std::vector<io::ByteRange> V2_0Column::page_ranges(size_t p) const {
  const format::PageInfo& info = page(p);
  std::vector<io::ByteRange> ranges;
  for (uint32_t i : named_page_buffers(p)) {
    check_corrupt(i < info.buffers.size(), "page buffer {} named, the page has {}", i, info.buffers.size());
    ranges.push_back(info.buffers[i]);
  }
  return ranges;
}

std::vector<io::ByteRange> V2_0Column::shared_ranges(size_t p, std::vector<SharedBufferRef>& refs) const {
  const auto& col = file_->columns()[column_];
  const auto& globals = file_->global_buffers();
  std::vector<io::ByteRange> ranges;
  auto add = [&](bool file, uint32_t i, io::ByteRange r) {
    for (const auto& x : refs)
      if (x.file == file && x.index == i) return;
    refs.push_back({file, i});
    ranges.push_back(r);
  };
  for (const auto& r : references(p)) {
    const uint32_t i = r.buffer_index();
    if (r.buffer_type() == pb::Buffer::column && !column_buffers_.count(i)) {
      check_corrupt(i < col.buffers.size(), "column buffer {} named, the column has {}", i, col.buffers.size());
      add(false, i, col.buffers[i]);
    } else if (r.buffer_type() == pb::Buffer::file && !file_buffers_.count(i)) {
      check_corrupt(i < globals.size(), "file buffer {} named, the file has {}", i, globals.size());
      add(true, i, globals[i]);
    }
  }
  return ranges;
}

void V2_0Column::keep_shared(const std::vector<SharedBufferRef>& refs, std::vector<Bytes>&& bytes) {
  check_internal(refs.size() == bytes.size(), "{} shared buffers, {} answered", refs.size(), bytes.size());
  for (size_t i = 0; i < refs.size(); ++i)
    (refs[i].file ? file_buffers_ : column_buffers_)[refs[i].index] = std::move(bytes[i]);
}

LoadedPage V2_0Column::loaded(size_t p, std::vector<Bytes>&& page_bytes) const {
  const format::PageInfo& info = page(p);
  LoadedPage out;
  out.page.resize(info.buffers.size());
  out.page_bytes = std::move(page_bytes);
  const std::vector<uint32_t> named = named_page_buffers(p);
  check_internal(named.size() == out.page_bytes.size(), "page {}: {} buffers named, {} read", p, named.size(),
                 out.page_bytes.size());
  for (size_t i = 0; i < named.size(); ++i) out.page[named[i]] = ByteView(out.page_bytes[i]);
  out.column.resize(file_->columns()[column_].buffers.size());
  for (const auto& [i, b] : column_buffers_) out.column[i] = ByteView(b);
  out.file.resize(file_->global_buffers().size());
  for (const auto& [i, b] : file_buffers_) out.file[i] = ByteView(b);
  return out;
}

}  // namespace lance::read
