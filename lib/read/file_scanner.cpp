#include "read/file_scanner.h"

#include <algorithm>

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
