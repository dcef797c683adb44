#include "index/index_file.h"

#include "common/error.h"
#include "common/finally.h"
#include "dataset/table_reader.h"
#include "format/file_reader.h"
#include "io/remote/uri.h"
#include "io/scheduler.h"
#include "read/row_reader.h"

namespace lance::index {

namespace {

/// An error met reading an index file: I/O stays I/O, anything else means the file is damaged.
[[noreturn]] void rethrow_as_damaged(const Error& e, const std::string& what) {
  Error out(e.kind() == ErrorKind::io ? ErrorKind::io : ErrorKind::corrupt, e.message());
  out.with_context(what);
  throw out;
}

}  // namespace

IndexFile::IndexFile(const IndexLocation& where, const std::string& name)
    : options_(where.options), what_(where.what + ": " + name) {
  const std::string path = io::join_path(where.dir, name);
  try {
    file_ = dataset::open_single_file(path, *where.store, options_, false);
  } catch (const Error& e) {
    rethrow_as_damaged(e, what_);
  }
}

IndexFile::~IndexFile() = default;

uint64_t IndexFile::num_rows() const { return file_->num_rows(); }

const format::Schema& IndexFile::schema() const { return file_->schema(); }

std::vector<size_t> IndexFile::fields_of(const std::vector<std::string>& columns) const {
  std::vector<size_t> out;
  const auto& fields = file_->schema().fields;
  for (const auto& c : columns) {
    size_t i = 0;
    while (i < fields.size() && fields[i].name != c) ++i;
    if (i == fields.size()) throw_corrupt("{}: no column '{}'", what_, c);
    out.push_back(i);
  }
  return out;
}

template <typename F>
RecordBatch IndexFile::guarded(F&& read) const {
  try {
    return read();
  } catch (const Error& e) {
    rethrow_as_damaged(e, what_);
  }
}

RecordBatch IndexFile::read(const std::vector<std::string>& columns, uint64_t begin, uint64_t end) const {
  const auto fields = fields_of(columns);
  if (begin > end || end > num_rows()) throw_corrupt("{}: rows {}..{} of {}", what_, begin, end, num_rows());
  return guarded([&] { return read::FileRowReader(file_, fields, options_).read_range(begin, end); });
}

RecordBatch IndexFile::take(const std::vector<std::string>& columns, std::span<const uint64_t> rows) const {
  const auto fields = fields_of(columns);
  for (const uint64_t r : rows)
    if (r >= num_rows()) throw_corrupt("{}: row {} of {}", what_, r, num_rows());
  return guarded([&] { return read::FileRowReader(file_, fields, options_).take(rows); });
}

RecordBatch IndexFile::take_runs(const std::vector<std::string>& columns,
                                 const std::vector<std::pair<uint64_t, uint64_t>>& runs) const {
  const auto fields = fields_of(columns);
  std::vector<structural::RowRange> ranges;
  for (const auto& [first, n] : runs) {
    if (n == 0) continue;
    if (first > num_rows() || n > num_rows() - first || (!ranges.empty() && first < ranges.back().end))
      throw_corrupt("{}: rows {}..{} of {}", what_, first, first + n, num_rows());
    if (!ranges.empty() && ranges.back().end == first)
      ranges.back().end = first + n;
    else
      ranges.push_back({first, first + n});
  }
  return guarded([&] { return read::FileRowReader(file_, fields, options_).take_ranges(std::move(ranges)); });
}

void IndexFile::prefetch_global_buffers(const std::vector<size_t>& ids) const {
  const auto& buffers = file_->global_buffers();
  std::vector<io::ByteRange> ranges;
  for (const size_t i : ids)
    if (i < buffers.size()) ranges.push_back(buffers[i]);
  if (ranges.empty()) return;
  io::IoScheduler& io = file_->io();
  io.begin_keeping(io::Keeping::only);
  Finally stop([&] { io.end_keeping(); });
  try {
    io.submit(std::move(ranges), 0).get();
  } catch (const Error& e) {
    rethrow_as_damaged(e, what_);
  }
}

void IndexFile::drop_prefetched() const { file_->io().drop_kept(); }

bool IndexFile::remote() const { return file_->io().options().remote; }

Bytes IndexFile::global_buffer(size_t i) const {
  const auto& buffers = file_->global_buffers();
  if (i >= buffers.size()) throw_corrupt("{}: no global buffer {} (the file has {})", what_, i, buffers.size());
  try {
    return file_->io().read_range(buffers[i]);
  } catch (const Error& e) {
    rethrow_as_damaged(e, what_);
  }
}

}  // namespace lance::index
