#include "app/filtered_read.h"

#include <spdlog/spdlog.h>

#include "common/error.h"
#include "expr/bind.h"
#include "expr/eval.h"

namespace lance::app {

namespace {

struct StopScan {};

std::vector<FieldPtr> table_fields(const dataset::TableReader& table) {
  std::vector<FieldPtr> out;
  for (const auto& f : table.schema().fields)
    if (f.arrow) out.push_back(f.arrow);
  return out;
}

expr::Filter compile(const dataset::TableReader& any, const std::string& expression) {
  expr::Filter f = expr::compile_filter(expression, table_fields(any));
  if (f.ignored_tail)
    spdlog::warn("filter: ignoring the text from position {} on ({}), as Lance does", f.ignored_tail,
                 expression.substr(f.ignored_tail - 1));
  return f;
}

/// Scans the filter's columns and hands each batch's matching rows (positions in the table)
/// to `matched`, which returns false to stop.
void scan_matches(dataset::TableReader& filter_table, const expr::Filter& filter,
                  const std::function<bool(std::vector<uint64_t>)>& matched) {
  uint64_t base = 0;
  try {
    filter_table.scan(0, filter_table.num_rows(), read::kDefaultBatchSize, [&](RecordBatch batch) {
      const auto mask = expr::evaluate_filter(filter, batch);
      std::vector<uint64_t> rows;
      for (size_t i = 0; i < mask.size(); ++i)
        if (mask[i]) rows.push_back(base + i);
      base += static_cast<uint64_t>(batch.num_rows);
      if (!matched(std::move(rows))) throw StopScan{};
    });
  } catch (const StopScan&) {
  }
}

/// The reader of the filter's columns (a table with none named reads its first column: a
/// filter such as `true` still needs the row count of each batch).
std::unique_ptr<dataset::TableReader> filter_reader(const ReopenTable& reopen, const expr::Filter& filter,
                                                    const dataset::TableReader& any) {
  std::vector<std::string> columns = filter.columns;
  if (columns.empty() && !any.schema().fields.empty()) columns.push_back(any.schema().fields[0].name);
  return reopen(columns);
}

}  // namespace

uint64_t read_filtered(dataset::TableReader& output, const ReopenTable& reopen, const FilteredRead& read,
                       const std::function<void(RecordBatch)>& sink) {
  const expr::Filter filter = compile(output, read.expression);
  auto filter_table = filter_reader(reopen, filter, output);
  uint64_t skip = read.offset, emitted = 0;
  const uint64_t want = read.limit.value_or(UINT64_MAX);
  scan_matches(*filter_table, filter, [&](std::vector<uint64_t> rows) {
    size_t from = 0;
    if (skip) {
      from = static_cast<size_t>(std::min<uint64_t>(skip, rows.size()));
      skip -= from;
    }
    size_t to = rows.size();
    if (to - from > want - emitted) to = from + static_cast<size_t>(want - emitted);
    if (to > from) {
      output.take_batches(std::span<const uint64_t>(rows).subspan(from, to - from), read.batch_size, sink);
      emitted += to - from;
    }
    return emitted < want;
  });
  return emitted;
}

uint64_t count_filtered(const ReopenTable& reopen, const std::string& expression) {
  auto any = reopen({});
  const expr::Filter filter = compile(*any, expression);
  auto filter_table = filter_reader(reopen, filter, *any);
  uint64_t n = 0;
  scan_matches(*filter_table, filter, [&](std::vector<uint64_t> rows) {
    n += rows.size();
    return true;
  });
  return n;
}

}  // namespace lance::app
