#include "read/row_reader.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <string_view>

#include "array/take.h"
#include "common/finally.h"
#include "io/remote/uri.h"
#include "read/decode_pool.h"
#include "read/field_reader.h"

namespace lance::read {

namespace {

/// Whether full-zip values of encoding `enc` are plain fixed-width words (Flat without block
/// compression, or a FixedSizeList of them): a take only moves or copies them.
bool plain_fixed_width(const encodings21::CompressiveEncoding& enc) {
  if (enc.has_flat()) return !enc.flat().has_data();
  if (enc.has_fixed_size_list()) return plain_fixed_width(enc.fixed_size_list().values());
  return false;
}

/// The file bytes per row of `fields`' pages that a take spends decoding work on: all of them
/// but full-zip pages of plain fixed-width values (a 2,048-row take of 384-float vectors is
/// 3 MB moved, not decoded, and starting the CPU pool for it cost more than it saved). 2.0 and
/// v1 files: the file's bytes per row.
double decode_bytes_per_row(const format::FileReader& file, const std::vector<size_t>& fields) {
  if (!file.version().is_structural() || file.num_rows() == 0) return file.bytes_per_row();
  double bytes = 0;
  for (const format::ColumnInfo* col : file.columns_of(fields))
    for (const auto& page : col->pages) {
      const auto* values = page.full_zip_values();
      if (!values || !plain_fixed_width(*values)) bytes += static_cast<double>(page.bytes());
    }
  return bytes / static_cast<double>(file.num_rows());
}

}  // namespace

FileRowReader::FileRowReader(std::shared_ptr<format::FileReader> file, std::vector<size_t> fields,
                             const ReaderOptions& options)
    : file_(std::move(file)),
      field_indices_(std::move(fields)),
      scan_decode_mode_(options.decode_mode.value_or(DecodeMode::pool)),
      take_decode_mode_(options.decode_mode.value_or(DecodeMode::inline_split_large)),
      take_mode_set_(options.decode_mode.has_value()) {
  for (size_t fi : field_indices_) {
    readers_.push_back(make_field_reader(file_, fi, options));
    fields_.push_back(readers_.back()->output_field());
  }
  decode_bytes_per_row_ = decode_bytes_per_row(*file_, field_indices_);
}

FileRowReader::FileRowReader(std::shared_ptr<format::FileReader> file, const std::vector<ColumnSelection>& columns,
                             const ReaderOptions& options)
    : file_(std::move(file)),
      scan_decode_mode_(options.decode_mode.value_or(DecodeMode::pool)),
      take_decode_mode_(options.decode_mode.value_or(DecodeMode::inline_split_large)),
      take_mode_set_(options.decode_mode.has_value()) {
  for (const auto& c : columns) {
    field_indices_.push_back(c.field);
    readers_.push_back(c.path.empty() ? make_field_reader(file_, c.field, options)
                                      : make_sub_field_reader(file_, c.field, c.path, c.name, options));
    fields_.push_back(readers_.back()->output_field());
  }
  decode_bytes_per_row_ = decode_bytes_per_row(*file_, field_indices_);
}

FileRowReader::~FileRowReader() = default;
FileRowReader::FileRowReader(FileRowReader&&) noexcept = default;

std::unique_ptr<FileRowReader::PendingBatch> FileRowReader::start(std::vector<structural::RowRange> ranges,
                                                                  std::optional<DecodeMode> mode) {
  auto p = std::make_unique<PendingBatch>();
  p->mode = mode.value_or(scan_decode_mode_);
  for (const auto& r : ranges) {
    check_corrupt(r.begin < r.end && r.end <= num_rows(), "rows [{}, {}) outside a file of {}", r.begin, r.end,
                  num_rows());
    p->num_rows += r.size();
  }
  StageTimer timer(file_->stats().plan_ns, file_->stats().plan_wall);
  // A scan of a remote file keeps the bytes of its metadata rounds until the data requests
  // are submitted: a round's reads merge neighbours across gaps (the store's coalescing gap),
  // and the data that falls inside them (v1 string values between their positions, say) is
  // then copied, not fetched again. Takes keep their own way (prefetch).
  io::IoScheduler& io = file_->io();
  const bool keep = io.options().remote && !taking_;
  Finally drop([&] {
    if (!keep) return;
    io.begin_keeping(io::Keeping::off);  // no wait: the rounds' reads are done, later batches' may run on
    io.drop_kept();
  });
  if (keep) io.begin_keeping(io::Keeping::also);
  p->fields = plan_fields(ranges);
  if (keep) io.begin_keeping(io::Keeping::off);
  submit_fields(p->fields);
  return p;
}

FileRowReader::PlannedFields FileRowReader::plan_fields(std::span<const structural::RowRange> ranges) {
  PlannedFields planned;
  MetadataRounds rounds;
  for (auto& f : readers_) planned.push_back(f->plan(ranges, rounds));
  // A take from a remote file: the data of a few row ranges is fetched with the metadata.
  const bool likely = taking_ && file_->io().options().remote;
  rounds.run(file_->io(), ranges.empty() ? 0 : ranges.front().begin, likely);
  return planned;
}

void FileRowReader::submit_fields(PlannedFields& planned) {
  for (size_t i = 0; i < readers_.size(); ++i) readers_[i]->submit(*planned[i]);
}

RecordBatch FileRowReader::finish(std::unique_ptr<PendingBatch> pending) {
  RecordBatch batch;
  batch.fields = fields_;
  batch.num_rows = static_cast<int64_t>(pending->num_rows);
  batch.columns.resize(readers_.size());
  // Each field decodes independently (its own column readers), so fields can run as tasks.
  run_decode_tasks(pending->num_rows == 0 ? DecodeMode::inline_run : pending->mode, readers_.size(), [&](size_t i) {
    if (pending->num_rows == 0)
      batch.columns[i] = make_null_array(fields_[i]->type, 0);
    else
      batch.columns[i] = readers_[i]->finish(std::move(pending->fields[i]));
  });
  return batch;
}

void order_take_rows(std::vector<uint64_t>& rows) {
  if (std::adjacent_find(rows.begin(), rows.end(), std::greater<>()) == rows.end()) return;
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
}

std::vector<structural::RowRange> FileRowReader::row_ranges(std::span<const uint64_t> rows,
                                                            std::vector<uint64_t>& sorted) const {
  for (uint64_t r : rows)
    if (r >= num_rows())
      throw_usage("row {} is out of range: {} has {} rows", r, io::display_location(file_->path()), num_rows());
  sorted.assign(rows.begin(), rows.end());
  order_take_rows(sorted);  // a repeated row becomes a range of its own
  std::vector<structural::RowRange> ranges;
  for (uint64_t r : sorted) {
    if (!ranges.empty() && ranges.back().end == r)
      ranges.back().end = r + 1;
    else
      ranges.push_back({r, r + 1});
  }
  return ranges;
}

void FileRowReader::prefetch(std::span<const uint64_t> rows) {
  std::vector<uint64_t> sorted;
  const std::vector<structural::RowRange> ranges = row_ranges(rows, sorted);
  if (ranges.empty()) return;
  // Metadata rounds (the row ranges' repetition-index entries of full-zip pages among them)
  // and data requests are all kept: the takes that follow ask for the same bytes again.
  io::IoScheduler& io = file_->io();
  io.begin_keeping(io::Keeping::also);  // the metadata rounds' bytes are needed now
  try {
    PlannedFields planned;
    {
      StageTimer timer(file_->stats().plan_ns, file_->stats().plan_wall);
      planned = plan_fields(ranges);
    }
    StageTimer timer(file_->stats().io_wait_ns, file_->stats().io_wait_wall);
    io.begin_keeping(io::Keeping::only);
    submit_fields(planned);
    io.end_keeping();  // the planned reads are never decoded: the takes find their bytes kept
  } catch (...) {
    io.end_keeping();
    throw;
  }
}

void FileRowReader::drop_prefetched() { file_->io().drop_kept(); }

RecordBatch FileRowReader::take_ranges(std::vector<structural::RowRange> ranges) {
  uint64_t rows = 0;
  for (const auto& r : ranges) rows += r.size();
  // A small take decodes little: inline, unless the options say otherwise. One of many bytes
  // (its rows at the file's average row size: large rows, or many of them) decodes its
  // columns on the pool, as a scan does: both cores, where a hand-off costs little.
  taking_ = true;
  Finally restore([&] { taking_ = false; });
  return ranges.empty() ? read_range(0, 0) : finish(start(std::move(ranges), few_rows_mode(rows)));
}

RecordBatch FileRowReader::take(std::span<const uint64_t> rows) {
  std::vector<uint64_t> sorted;
  RecordBatch read = take_ranges(row_ranges(rows, sorted));
  if (sorted.size() == rows.size() && std::equal(sorted.begin(), sorted.end(), rows.begin())) return read;
  // Position of each requested row within `read` (which holds `sorted` in order).
  std::vector<int64_t> index(rows.size());
  for (size_t i = 0; i < rows.size(); ++i)
    index[i] = std::lower_bound(sorted.begin(), sorted.end(), rows[i]) - sorted.begin();
  RecordBatch out;
  out.fields = read.fields;
  out.num_rows = static_cast<int64_t>(rows.size());
  for (const auto& c : read.columns) out.columns.push_back(take_array(c, index));
  return out;
}

DecodeMode FileRowReader::few_rows_mode(uint64_t rows) const {
  const double bytes = decode_bytes_per_row_ * static_cast<double>(rows);
  if (!take_mode_set_ && bytes >= static_cast<double>(kPoolTakeBytes)) return DecodeMode::pool;
  return take_decode_mode_;
}

RecordBatch FileRowReader::read_range(uint64_t begin, uint64_t end) {
  RecordBatch batch;
  batch.fields = fields_;
  batch.num_rows = static_cast<int64_t>(end - begin);
  if (begin == end) {
    for (auto& r : readers_) batch.columns.push_back(make_null_array(r->output_field()->type, 0));
    return batch;
  }
  // Like a take: a range of few bytes (an index page) decodes inline, without starting or
  // waking the CPU pool.
  return finish(start({{begin, end}}, few_rows_mode(end - begin)));
}

}  // namespace lance::read
