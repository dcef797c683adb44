#include "read/file_scanner.h"

#include <algorithm>

#include "array/take.h"
#include "read/field_reader.h"

namespace lance::read {

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  auto distance = [](const std::string& a, const std::string& b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      cur[0] = i;
      for (size_t j = 1; j <= b.size(); ++j)
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      std::swap(prev, cur);
    }
    return prev[b.size()];
  };
  std::string best;
  size_t best_d = SIZE_MAX;
  for (const auto& c : candidates) {
    size_t d = distance(name, c);
    if (d < best_d) best_d = d, best = c;
  }
  if (best_d <= std::max<size_t>(2, name.size() / 3)) return best;
  return "";
}

std::vector<size_t> resolve_projection(const format::Schema& schema, const std::vector<std::string>& columns) {
  std::vector<size_t> out;
  if (columns.empty()) {
    for (size_t i = 0; i < schema.fields.size(); ++i) out.push_back(i);
    return out;
  }
  const auto names = schema.names();
  for (const auto& c : columns) {
    auto it = std::find(names.begin(), names.end(), c);
    if (it == names.end()) {
      std::string hint = closest_name(c, names);
      if (!hint.empty()) throw_usage("no column '{}'; did you mean '{}'?", c, hint);
      throw_usage("no column '{}'; columns are: {}", c, fmt::join(names, ", "));
    }
    out.push_back(static_cast<size_t>(it - names.begin()));
  }
  return out;
}

FileRowReader::FileRowReader(std::shared_ptr<format::FileReader> file, std::vector<size_t> fields)
    : file_(std::move(file)), field_indices_(std::move(fields)) {
  for (size_t fi : field_indices_) {
    readers_.push_back(make_field_reader(file_, fi));
    fields_.push_back(readers_.back()->output_field());
  }
}

FileRowReader::~FileRowReader() = default;
FileRowReader::FileRowReader(FileRowReader&&) noexcept = default;

std::unique_ptr<FileRowReader::PendingBatch> FileRowReader::start(std::vector<structural::RowRange> ranges) {
  auto p = std::make_unique<PendingBatch>();
  for (const auto& r : ranges) {
    check_corrupt(r.begin < r.end && r.end <= num_rows(), "rows [{}, {}) outside a file of {}", r.begin, r.end,
                  num_rows());
    p->num_rows += r.size();
  }
  for (auto& f : readers_) p->fields.push_back(f->start(ranges));
  return p;
}

RecordBatch FileRowReader::finish(std::unique_ptr<PendingBatch> pending) {
  RecordBatch batch;
  batch.fields = fields_;
  batch.num_rows = static_cast<int64_t>(pending->num_rows);
  for (size_t i = 0; i < readers_.size(); ++i) {
    if (pending->num_rows == 0) batch.columns.push_back(make_null_array(fields_[i]->type, 0));
    else batch.columns.push_back(readers_[i]->finish(std::move(pending->fields[i])));
  }
  return batch;
}

RecordBatch FileRowReader::take(std::span<const uint64_t> rows) {
  for (uint64_t r : rows)
    if (r >= num_rows()) throw_usage("row {} is out of range: {} has {} rows", r, file_->path(), num_rows());
  std::vector<uint64_t> sorted(rows.begin(), rows.end());
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<structural::RowRange> ranges;
  for (uint64_t r : sorted) {
    if (!ranges.empty() && ranges.back().end == r) ranges.back().end = r + 1;
    else ranges.push_back({r, r + 1});
  }
  RecordBatch read = ranges.empty() ? read_range(0, 0) : finish(start(ranges));
  // Position of each requested row within `read` (which holds `sorted` in order).
  std::vector<int64_t> index(rows.size());
  for (size_t i = 0; i < rows.size(); ++i)
    index[i] = std::lower_bound(sorted.begin(), sorted.end(), rows[i]) - sorted.begin();
  bool identity = sorted.size() == rows.size() && std::equal(sorted.begin(), sorted.end(), rows.begin());
  if (identity) return read;
  RecordBatch out;
  out.fields = read.fields;
  out.num_rows = static_cast<int64_t>(rows.size());
  for (const auto& c : read.columns) out.columns.push_back(take_array(c, index));
  return out;
}

RecordBatch FileRowReader::read_range(uint64_t begin, uint64_t end) {
  RecordBatch batch;
  batch.fields = fields_;
  batch.num_rows = static_cast<int64_t>(end - begin);
  for (auto& r : readers_) {
    if (begin == end) batch.columns.push_back(make_null_array(r->output_field()->type, 0));
    else batch.columns.push_back(r->read(begin, end));
  }
  return batch;
}

}  // namespace lance::read
