#include "read/file_scanner.h"

#include <algorithm>
#include <string_view>

#include "array/take.h"
#include "read/decode_pool.h"
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

namespace {

/// All dotted paths below struct fields of `f` (for hints).
void nested_paths(const format::LanceField& f, const std::string& prefix, std::vector<std::string>& out) {
  if (f.arrow->type->id != TypeId::struct_) return;
  for (const auto& c : f.children) {
    out.push_back(prefix + "." + c.name);
    nested_paths(c, out.back(), out);
  }
}

/// Matches `rest` (a dotted path) against the children of struct `f`, appending child
/// indices to `path`. A child whose name itself holds dots is matched as a whole. When the
/// path runs into a list or map, `not_struct` names it.
bool match_path(const format::LanceField& f, std::string_view rest, std::vector<size_t>& path,
                std::string& not_struct) {
  if (f.arrow->type->id != TypeId::struct_) {
    not_struct = fmt::format("'{}' is of type {}", f.name, f.arrow->type->to_string());
    return false;
  }
  for (size_t i = 0; i < f.children.size(); ++i) {
    const auto& c = f.children[i];
    if (rest == c.name) {
      path.push_back(i);
      return true;
    }
    if (rest.size() > c.name.size() && rest.substr(0, c.name.size()) == c.name && rest[c.name.size()] == '.') {
      path.push_back(i);
      if (match_path(c, rest.substr(c.name.size() + 1), path, not_struct)) return true;
      path.pop_back();
    }
  }
  return false;
}

}  // namespace

std::vector<ColumnSelection> resolve_column_paths(const format::Schema& schema, const std::vector<std::string>& columns) {
  std::vector<ColumnSelection> out;
  if (columns.empty()) {
    for (size_t i = 0; i < schema.fields.size(); ++i) out.push_back({i, {}, schema.fields[i].name});
    return out;
  }
  const auto names = schema.names();
  for (const auto& c : columns) {
    auto it = std::find(names.begin(), names.end(), c);
    if (it != names.end()) {
      out.push_back({static_cast<size_t>(it - names.begin()), {}, c});
      continue;
    }
    bool found = false;
    std::string not_struct;
    for (size_t i = 0; i < schema.fields.size() && !found; ++i) {
      const auto& f = schema.fields[i];
      if (c.size() <= f.name.size() + 1 || c.compare(0, f.name.size(), f.name) != 0 || c[f.name.size()] != '.') continue;
      std::vector<size_t> path;
      if (match_path(f, std::string_view(c).substr(f.name.size() + 1), path, not_struct)) {
        out.push_back({i, std::move(path), c});
        found = true;
      }
    }
    if (found) continue;
    if (!not_struct.empty())
      throw_usage("no column '{}': {}, and a dotted path can only select fields of structs", c, not_struct);
    std::vector<std::string> candidates = names;
    if (c.find('.') != std::string::npos)
      for (const auto& f : schema.fields) nested_paths(f, f.name, candidates);
    std::string hint = closest_name(c, candidates);
    if (!hint.empty()) throw_usage("no column '{}'; did you mean '{}'?", c, hint);
    throw_usage("no column '{}'; columns are: {}", c, fmt::join(names, ", "));
  }
  return out;
}

std::vector<size_t> resolve_projection(const format::Schema& schema, const std::vector<std::string>& columns) {
  std::vector<size_t> out;
  for (const auto& sel : resolve_column_paths(schema, columns)) {
    if (!sel.path.empty())
      throw_usage("'{}' selects a field nested in a struct; that is only supported when reading a single data file",
                  sel.name);
    out.push_back(sel.field);
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

FileRowReader::FileRowReader(std::shared_ptr<format::FileReader> file, const std::vector<ColumnSelection>& columns)
    : file_(std::move(file)) {
  for (const auto& c : columns) {
    field_indices_.push_back(c.field);
    readers_.push_back(c.path.empty() ? make_field_reader(file_, c.field)
                                      : make_sub_field_reader(file_, c.field, c.path, c.name));
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
  batch.columns.resize(readers_.size());
  // Each field decodes independently (its own column readers), so fields can run as tasks.
  run_decode_tasks(pending->num_rows == 0 ? DecodeMode::inline_run : decode_mode_, readers_.size(), [&](size_t i) {
    if (pending->num_rows == 0) batch.columns[i] = make_null_array(fields_[i]->type, 0);
    else batch.columns[i] = readers_[i]->finish(std::move(pending->fields[i]));
  });
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
  // Random access decodes little: inline, unless the environment says otherwise.
  const DecodeMode saved = decode_mode_;
  decode_mode_ = decode_mode_from_env(DecodeMode::inline_run);
  RecordBatch read;
  try {
    read = ranges.empty() ? read_range(0, 0) : finish(start(ranges));
  } catch (...) {
    decode_mode_ = saved;
    throw;
  }
  decode_mode_ = saved;
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
