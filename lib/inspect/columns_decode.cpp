// inspect columns --decode: every row scanned once, ValueStats per field, joined to the
// report's columns (inspect/columns_report.h).
#include <map>
#include <set>

#include "inspect/columns_report.h"
#include "inspect/value_stats.h"
#include "output/value_text.h"

namespace lance::inspect {

namespace {

/// The csv text of a one-value array, cut to about 64 bytes (at a UTF-8 boundary, "…" added).
std::string value_text(const ArrayData& a) {
  std::string out;
  output::append_cell_text(out, a, 0);
  constexpr size_t kMax = 64;
  if (out.size() <= kMax) return out;
  size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
  return out.substr(0, cut) + "…";
}

}  // namespace

void add_value_stats(ColumnsReport& report, dataset::TableReader& table) {
  ValueStats stats;
  table.scan(0, table.num_rows(), read::kDefaultBatchSize, [&](RecordBatch batch) { stats.add(batch); });
  // Bytes of levels without a column go to the nearest level above that has one.
  std::map<std::string, uint64_t> bytes;
  std::set<std::string> is_column;
  for (const auto& c : report.columns) is_column.insert(ValueStats::key(c.field_id, c.path));
  for (const auto& [k, node] : stats.nodes()) {
    std::string owner = k;
    while (!owner.empty() && !is_column.count(owner)) {
      const NodeStats* up = stats.find(owner);
      owner = up ? up->parent : "";
    }
    if (!owner.empty()) bytes[owner] += node.own_bytes;
  }
  for (auto& c : report.columns) {
    const std::string k = ValueStats::key(c.field_id, c.path);
    const NodeStats* node = stats.find(k);
    if (!node) continue;
    c.values = node->values;
    c.null_count = node->nulls;
    c.decoded_bytes = bytes[k];
    if (c.bytes) c.compression_ratio = static_cast<double>(*c.decoded_bytes) / static_cast<double>(c.bytes);
    if (node->min) c.min = value_text(*node->min);
    if (node->max) c.max = value_text(*node->max);
  }
  report.decoded = true;
}

}  // namespace lance::inspect
