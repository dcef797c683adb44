#include "dataset/read_cost.h"

#include <algorithm>

#include "dataset/schema_adapt.h"

namespace lance::dataset {

uint64_t fixed_bits(const DataType& t) {
  if (const int b = t.bit_width()) return static_cast<uint64_t>(b);
  if (t.id == TypeId::fixed_size_list && t.children.size() == 1 && t.children[0] && t.list_size > 0)
    return static_cast<uint64_t>(t.list_size) * fixed_bits(*t.children[0]->type);
  if (t.id == TypeId::struct_ && !t.children.empty()) {
    uint64_t sum = 0;
    for (const auto& c : t.children) {
      const uint64_t b = c && c->type ? fixed_bits(*c->type) : 0;
      if (b == 0) return 0;
      sum += b;
    }
    return sum;
  }
  return 0;
}

uint64_t take_bytes(std::span<const uint64_t> rows, uint64_t n, uint64_t size, uint64_t gap) {
  if (n == 0 || rows.empty()) return 0;
  const double per_row = static_cast<double>(size) / static_cast<double>(n);
  double total = per_row;
  for (size_t i = 0; i + 1 < rows.size(); ++i) {
    if (rows[i + 1] <= rows[i]) continue;  // a repeat is fetched once
    total += per_row + std::min(per_row * static_cast<double>(rows[i + 1] - rows[i] - 1), static_cast<double>(gap));
  }
  return total >= static_cast<double>(size) ? size : static_cast<uint64_t>(total);
}

double projected_share(const format::Schema& schema, const std::vector<size_t>& projected, const DataFileRef& file) {
  uint64_t mine = 0, other = 0;  // bits per row
  bool all = true, other_variable = false;
  for (size_t i = 0; i < schema.fields.size(); ++i) {
    std::vector<int32_t> ids;
    collect_field_ids(schema.fields[i], ids);
    if (std::none_of(ids.begin(), ids.end(), [&](int32_t id) { return file.holds_field(id); })) continue;
    const auto& arrow = schema.fields[i].arrow;
    const uint64_t bits = arrow && arrow->type ? fixed_bits(*arrow->type) : 0;
    if (std::find(projected.begin(), projected.end(), i) != projected.end()) {
      mine += bits;
    } else {
      all = false;
      other += bits;
      other_variable = other_variable || bits == 0;
    }
  }
  if (all) return 1.0;
  if (other_variable || mine == 0) return 0.0;
  return static_cast<double>(mine) / static_cast<double>(mine + other);
}

size_t ascending_run(std::span<const uint64_t> rows, uint64_t end_row) {
  if (rows.empty() || rows[0] >= end_row) return 0;
  size_t k = 1;
  while (k < rows.size() && rows[k] >= rows[k - 1] && rows[k] < end_row) ++k;
  return k;
}

std::vector<size_t> take_groups(std::span<const uint64_t> run, double bytes_per_row, uint64_t budget_bytes) {
  if (run.empty()) return {};
  if (bytes_per_row <= 0 || budget_bytes == 0) return {run.size()};
  uint64_t distinct = 1;
  for (size_t k = 1; k < run.size(); ++k) distinct += run[k] != run[k - 1] ? 1 : 0;
  if (static_cast<double>(distinct) * bytes_per_row <= static_cast<double>(kWholeTakeBudgets * budget_bytes))
    return {run.size()};
  const auto per_group = static_cast<uint64_t>(std::max(1.0, static_cast<double>(budget_bytes) / bytes_per_row));
  std::vector<size_t> sizes;
  size_t start = 0;
  uint64_t in_group = 1;  // distinct rows in the current group
  for (size_t k = 1; k < run.size(); ++k) {
    if (run[k] == run[k - 1]) continue;
    if (in_group == per_group) {
      sizes.push_back(k - start);
      start = k;
      in_group = 0;
    }
    ++in_group;
  }
  sizes.push_back(run.size() - start);
  return sizes;
}

uint64_t scan_batch_rows(uint64_t batch_size, double bytes_per_row, uint64_t budget_bytes) {
  if (bytes_per_row <= 0 || budget_bytes == 0) return batch_size;
  const double rows = static_cast<double>(budget_bytes) / bytes_per_row;
  if (rows >= static_cast<double>(batch_size)) return batch_size;
  return std::max<uint64_t>(1, static_cast<uint64_t>(rows));
}

}  // namespace lance::dataset
