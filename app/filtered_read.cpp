#include "app/filtered_read.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "array/take.h"
#include "common/error.h"
#include "dataset/dataset.h"
#include "dataset/indices.h"
#include "dataset/manifest_file.h"
#include "expr/bind.h"
#include "expr/eval.h"
#include "inspect/columns_report.h"
#include "inspect/render.h"

namespace lance::app {

namespace {

struct StopScan {};

/// Rows found to match, and the values of the early columns (read alongside the filter's)
/// for them, when the filter pass read those rows.
struct Matches {
  std::vector<uint64_t> rows;  ///< table row numbers, ascending
  std::optional<RecordBatch> early;
};

/// Matching rows as they are found; returns false to stop.
using Matched = std::function<bool(Matches)>;

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

/// Appends row_of(i) for every set flag i of `mask` to `out`, eight flags at a time: eight
/// clear ones are skipped at once (a selective filter's mask is mostly zeros), and the set
/// ones of eight are found from a bit per flag, not by testing each.
template <typename RowOf, typename Row>
void append_matches(const std::vector<uint8_t>& mask, RowOf&& row_of, std::vector<Row>& out) {
  const size_t n = mask.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, mask.data() + i, 8);
    if (word == 0) continue;
    // Bit 0 of each byte := any bit of that byte (shifts by 4, 2, 1 fold a byte's bits down
    // before anything from the next byte reaches bit 0); then byte j's bit 0 → bit j.
    word |= word >> 4;
    word |= word >> 2;
    word |= word >> 1;
    word &= 0x0101010101010101ULL;
    auto bits = static_cast<unsigned>((word * 0x0102040810204080ULL) >> 56);
    for (; bits; bits &= bits - 1) out.push_back(row_of(i + static_cast<size_t>(std::countr_zero(bits))));
  }
  for (; i < n; ++i)
    if (mask[i]) out.push_back(row_of(i));
}

/// The index of column `name` in `batch`.
size_t column_index(const RecordBatch& batch, const std::string& name) {
  for (size_t c = 0; c < batch.fields.size(); ++c)
    if (batch.fields[c]->name == name) return c;
  throw Error(ErrorKind::internal, fmt::format("filtered read: no column '{}' in a batch", name));
}

/// Rows `at` (batch positions, ascending) of the columns `names` of `batch`, dictionary
/// arrays decoded to their values (the filter's reader keeps string dictionaries).
RecordBatch gather_columns(const RecordBatch& batch, const std::vector<std::string>& names,
                           const std::vector<int64_t>& at) {
  RecordBatch out;
  out.num_rows = static_cast<int64_t>(at.size());
  for (const auto& name : names) {
    const size_t c = column_index(batch, name);
    ArrayPtr a = take_array(batch.columns[c], at);
    if (a->type->id == TypeId::dictionary) a = dictionary_values(a);
    out.fields.push_back(batch.fields[c]);
    out.columns.push_back(std::move(a));
  }
  return out;
}

/// Finds the matching rows of one table: scans, or checks and takes the rows indices left.
/// The table's batches hold the filter's columns and the `early` ones, whose values for the
/// matching rows go with them (Matches::early).
class MatchFinder {
 public:
  MatchFinder(dataset::TableReader& table, const expr::Filter& filter, const std::vector<std::string>& early,
              FilterReport& report)
      : table_(table), filter_(filter), early_(early), report_(report) {}

  /// Every row of [begin, end) evaluated.
  void scan(uint64_t begin, uint64_t end, const Matched& matched) {
    uint64_t base = begin;
    table_.scan(begin, end, read::kDefaultBatchSize, [&](RecordBatch batch) {
      const auto n = static_cast<uint64_t>(batch.num_rows);
      report_.rows_evaluated += n;
      const auto mask = expr::evaluate_filter(filter_, batch);
      std::vector<int64_t> at;
      append_matches(
          mask, [&](size_t i) { return static_cast<int64_t>(i); }, at);
      hand_over(
          batch, at, [&](int64_t i) { return base + static_cast<uint64_t>(i); }, matched);
      base += n;
    });
  }

  /// The filter evaluated over `rows` (ascending) only.
  void check(const std::vector<uint64_t>& rows, const Matched& matched) {
    size_t done = 0;
    table_.take_batches(rows, read::kDefaultBatchSize, [&](RecordBatch batch) {
      const auto n = static_cast<size_t>(batch.num_rows);
      report_.rows_evaluated += n;
      const auto mask = expr::evaluate_filter(filter_, batch);
      std::vector<int64_t> at;
      append_matches(
          mask, [&](size_t i) { return static_cast<int64_t>(i); }, at);
      hand_over(
          batch, at, [&](int64_t i) { return rows[done + static_cast<size_t>(i)]; }, matched);
      done += n;
    });
  }

  /// `rows` (ascending) are the answer: no values were read for them.
  void accept(const std::vector<uint64_t>& rows, const Matched& matched) {
    for (size_t i = 0; i < rows.size(); i += read::kDefaultBatchSize) {
      const size_t j = std::min<size_t>(rows.size(), i + read::kDefaultBatchSize);
      Matches m;
      m.rows.assign(rows.begin() + static_cast<std::ptrdiff_t>(i), rows.begin() + static_cast<std::ptrdiff_t>(j));
      if (!matched(std::move(m))) throw StopScan{};
    }
  }

 private:
  /// The matches at batch positions `at` (row numbers by `row_of`), with their early values.
  template <typename RowOf>
  void hand_over(const RecordBatch& batch, const std::vector<int64_t>& at, RowOf&& row_of, const Matched& matched) {
    Matches m;
    m.rows.reserve(at.size());
    for (const int64_t i : at) m.rows.push_back(row_of(i));
    if (!early_.empty()) m.early = gather_columns(batch, early_, at);
    if (!matched(std::move(m))) throw StopScan{};
  }

  dataset::TableReader& table_;
  const expr::Filter& filter_;
  const std::vector<std::string>& early_;
  FilterReport& report_;
};

/// The plan of `filter` over the dataset `table` reads, through its version's indices
/// (no plan for a single data file, a version without indices, or --no-index).
std::optional<index::FilterPlan> plan_with_indices(dataset::TableReader& table, const expr::Filter& filter,
                                                   bool use_indices) {
  auto* dataset_reader = dynamic_cast<dataset::DatasetRowReader*>(&table);
  if (!use_indices || !dataset_reader) return std::nullopt;
  const dataset::Dataset& ds = dataset_reader->dataset();
  if (ds.manifest().reader_feature_flags & dataset::feature::kStableRowIds) {
    spdlog::debug("{}: stable row ids: the indices name row ids, not addresses; not used", ds.path());
    return std::nullopt;
  }
  const auto file = dataset::manifest_file_of(ds.manifest(), ds.store());
  const auto indices = dataset::parse_indices(file);
  if (indices.empty()) return std::nullopt;
  auto plan = index::plan_filter(filter, ds, indices);
  if (!plan.any_index()) return std::nullopt;
  return plan;
}

/// For each index use: its columns' bytes on disk in `ds` × the share of rows it skipped.
std::vector<uint64_t> bytes_skipped(const dataset::Dataset& ds, const std::vector<index::IndexUse>& uses) {
  const inspect::ColumnsReport columns = inspect::inspect_columns(ds);
  uint64_t physical = 0;
  for (const auto& f : ds.fragments()) physical += f.physical_rows;
  std::vector<uint64_t> out;
  for (const auto& u : uses) {
    uint64_t bytes = 0;
    for (const auto& c : columns.columns)
      for (const auto& name : u.columns)
        if (c.path == name || c.path.rfind(name + ".", 0) == 0) bytes += c.bytes;
    const double skipped = static_cast<double>(u.rows_covered - u.rows_matched);
    out.push_back(physical ? static_cast<uint64_t>(static_cast<double>(bytes) * skipped / static_cast<double>(physical))
                           : 0);
  }
  return out;
}

/// Reads `ds`'s fragments as `plan` says, handing the matching rows to `matched`.
void run_plan(const index::FilterPlan& plan, const dataset::Dataset& ds, MatchFinder& finder, const Matched& matched) {
  uint64_t start = 0;
  for (size_t i = 0; i < plan.fragments.size(); ++i) {
    const auto& fp = plan.fragments[i];
    const uint64_t live = ds.live_rows()[i];
    std::vector<uint64_t> rows;
    if (fp.mode != index::FragmentMode::scan) {
      rows.reserve(fp.rows.size());
      for (const uint64_t r : fp.rows) rows.push_back(start + r);
    }
    if (fp.mode == index::FragmentMode::exact)
      finder.accept(rows, matched);
    else if (fp.mode == index::FragmentMode::check && rows.size() * 2 <= live)
      finder.check(rows, matched);
    else if (live)
      finder.scan(start, start + live, matched);
    start += live;
  }
}

/// Hands every matching row of `table` to `matched`, in scan order, with the values of its
/// columns `early` where they were read.
void find_matches(dataset::TableReader& table, const expr::Filter& filter, const std::vector<std::string>& early,
                  const FilteredRead& read, FilterReport& report, const Matched& matched) {
  MatchFinder finder(table, filter, early, report);
  const auto plan = plan_with_indices(table, filter, read.use_indices);
  const auto* ds = plan ? &dynamic_cast<dataset::DatasetRowReader&>(table).dataset() : nullptr;
  try {
    if (plan) {
      report.uses = plan->uses;
      run_plan(*plan, *ds, finder, matched);
    } else {
      finder.scan(0, table.num_rows(), matched);
    }
  } catch (const StopScan&) {
  }
  if (plan && read.estimate_savings) report.bytes_skipped = bytes_skipped(*ds, report.uses);
}

/// The reader of the filter's columns (a table with none named reads its first column: a
/// filter such as `true` still needs the row count of each batch).
std::unique_ptr<dataset::TableReader> filter_reader(const ReopenTable& reopen, const expr::Filter& filter,
                                                    const dataset::TableReader& any) {
  std::vector<std::string> columns = filter.columns;
  if (columns.empty() && !any.schema().fields.empty()) columns.push_back(any.schema().fields[0].name);
  // Dictionary-encoded string pages stay dictionaries: `cat = 'gamma'` compares a page's
  // dozen values once, not a million rows' strings.
  return reopen(columns)->with_columns_keeping_dictionaries(columns);
}

/// The output columns read alongside the filter's rather than taken for the matching rows
/// afterwards: the filter's own, which the filter pass reads anyway. (Lance also reads its
/// narrow fixed-width columns early, `Scanner::is_early_field` in
/// rust/lance/src/dataset/scanner.rs; here they are taken: a 0.1 % range of a sorted column
/// then reads 2.7 MB instead of Lance's 19.6, and a filter matching rows in every chunk
/// reads the same bytes either way.)
std::vector<std::string> early_columns(const dataset::TableReader& output, const expr::Filter& filter) {
  std::vector<std::string> out;
  for (const auto& f : output.fields())
    if (std::find(filter.columns.begin(), filter.columns.end(), f->name) != filter.columns.end())
      out.push_back(f->name);
  return out;
}

/// Column `name` of `batch`.
const ArrayPtr& column_named(const RecordBatch& batch, const std::string& name) {
  return batch.columns[column_index(batch, name)];
}

/// Rows [from, to) of every column of `batch`.
RecordBatch slice_batch(const RecordBatch& batch, size_t from, size_t to) {
  if (from == 0 && to == static_cast<size_t>(batch.num_rows)) return batch;
  RecordBatch out;
  out.fields = batch.fields;
  out.num_rows = static_cast<int64_t>(to - from);
  for (const auto& a : batch.columns)
    out.columns.push_back(slice_array(a, static_cast<int64_t>(from), static_cast<int64_t>(to - from)));
  return out;
}

/// The matching rows waiting to be written: their row numbers, and the early columns'
/// values when the filter pass read them (every part alike: rows found with values and
/// rows an index answered, without, are never pending together).
struct PendingMatches {
  std::vector<uint64_t> rows;
  std::vector<RecordBatch> early;  ///< parts, in row order; empty: no values read
  bool empty() const { return rows.empty(); }
  void clear() {
    rows.clear();
    early.clear();
  }
};

}  // namespace

FilterReport read_filtered(dataset::TableReader& output, const ReopenTable& reopen, const FilteredRead& read,
                           const std::function<void(RecordBatch)>& sink) {
  if (read.batch_size == 0) throw Error(ErrorKind::usage, "batch size must be at least 1");
  const expr::Filter filter = compile(output, read.expression);
  const std::vector<std::string> early = early_columns(output, filter);
  auto filter_table = filter_reader(reopen, filter, output);
  std::vector<std::string> late;
  for (const auto& f : output.fields())
    if (std::find(early.begin(), early.end(), f->name) == early.end()) late.push_back(f->name);
  // The columns taken for the matching rows the filter pass read (the early ones are in hand).
  std::unique_ptr<dataset::TableReader> late_table;
  if (!late.empty() && !early.empty()) late_table = output.with_columns(late);
  FilterReport report;
  uint64_t skip = read.offset;
  const uint64_t want = read.limit.value_or(UINT64_MAX);
  if (want == 0) return report;
  // Matches are taken a batch at a time, not as each batch of the filter's columns finds
  // them: a sparse filter finds a few rows a batch, and one take of many rows merges their
  // reads (x < 1000 over 1 M rows: 122 takes of ~8 rows became one of 989).
  PendingMatches pending;
  constexpr unsigned kFlushEveryBatches = 16;
  unsigned batches_since_flush = 0;
  // Output batches of the pending rows: early values joined with the late columns taken.
  const auto write_with_early = [&] {
    const auto& fields = output.fields();
    RecordBatch values;  // the early columns of every pending row
    values.num_rows = static_cast<int64_t>(pending.rows.size());
    for (size_t c = 0; c < early.size(); ++c) {
      const auto& field =
          *std::find_if(fields.begin(), fields.end(), [&](const auto& f) { return f->name == early[c]; });
      std::vector<ArrayPtr> parts;
      for (const auto& b : pending.early) parts.push_back(b.columns[c]);
      values.fields.push_back(field);
      values.columns.push_back(parts.size() == 1 ? parts[0] : concat_arrays(field->type, parts));
    }
    size_t at = 0;
    const auto emit = [&](const RecordBatch* taken, size_t n) {
      const RecordBatch mine = slice_batch(values, at, at + n);
      RecordBatch out;
      out.fields = fields;
      out.num_rows = static_cast<int64_t>(n);
      for (const auto& f : fields) {
        const bool is_early = std::find(early.begin(), early.end(), f->name) != early.end();
        out.columns.push_back(is_early ? column_named(mine, f->name) : column_named(*taken, f->name));
      }
      at += n;
      sink(std::move(out));
    };
    if (late_table)
      late_table->take_batches(pending.rows, read.batch_size,
                               [&](RecordBatch taken) { emit(&taken, static_cast<size_t>(taken.num_rows)); });
    else
      while (at < pending.rows.size()) emit(nullptr, std::min<size_t>(read.batch_size, pending.rows.size() - at));
  };
  const auto flush = [&] {
    if (!pending.empty()) {
      if (pending.early.empty())
        output.take_batches(pending.rows, read.batch_size, sink);
      else
        write_with_early();
    }
    pending.clear();
    batches_since_flush = 0;
  };
  find_matches(*filter_table, filter, early, read, report, [&](Matches m) {
    size_t from = 0;
    if (skip) {
      from = static_cast<size_t>(std::min<uint64_t>(skip, m.rows.size()));
      skip -= from;
    }
    size_t to = m.rows.size();
    if (to - from > want - report.rows) to = from + static_cast<size_t>(want - report.rows);
    if (to > from) {
      if (!pending.empty() && pending.early.empty() == m.early.has_value()) flush();
      pending.rows.insert(pending.rows.end(), m.rows.begin() + static_cast<std::ptrdiff_t>(from),
                          m.rows.begin() + static_cast<std::ptrdiff_t>(to));
      if (m.early) pending.early.push_back(slice_batch(*m.early, from, to));
    }
    report.rows += to - from;
    // Also every few batches of the filter's columns: a take while the scan's next batches
    // are read and decoded on the pools overlaps with them.
    if (pending.rows.size() >= read.batch_size || report.rows >= want || ++batches_since_flush >= kFlushEveryBatches)
      flush();
    return report.rows < want;
  });
  flush();
  return report;
}

FilterReport match_filtered(const ReopenTable& reopen, const FilteredRead& read,
                            const std::function<bool(std::vector<uint64_t>)>& matched) {
  auto any = reopen({});
  const expr::Filter filter = compile(*any, read.expression);
  auto filter_table = filter_reader(reopen, filter, *any);
  FilterReport report;
  find_matches(*filter_table, filter, {}, read, report, [&](Matches m) {
    report.rows += m.rows.size();
    return matched(std::move(m.rows));
  });
  return report;
}

FilterReport count_filtered(const ReopenTable& reopen, const FilteredRead& read) {
  return match_filtered(reopen, read, [](const std::vector<uint64_t>&) { return true; });
}

std::vector<bool> rows_matching(const ReopenTable& reopen, const std::string& expression,
                                const std::vector<uint64_t>& rows) {
  auto any = reopen({});
  const expr::Filter filter = compile(*any, expression);
  auto filter_table = filter_reader(reopen, filter, *any);
  std::vector<bool> out;
  out.reserve(rows.size());
  filter_table->take_batches(rows, read::kDefaultBatchSize, [&](RecordBatch batch) {
    const auto mask = expr::evaluate_filter(filter, batch);
    out.insert(out.end(), mask.begin(), mask.end());
  });
  return out;
}

std::string render_filter_stats(const FilterReport& report, bool json) {
  const auto skipped = [&](size_t i) -> std::optional<uint64_t> {
    if (i < report.bytes_skipped.size()) return report.bytes_skipped[i];
    return std::nullopt;
  };
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (size_t i = 0; i < report.uses.size(); ++i) {
      const auto& u = report.uses[i];
      nlohmann::json j = {{"predicate", u.predicate},        {"indices", u.indices},
                          {"fragments", u.fragments},        {"rows_covered", u.rows_covered},
                          {"rows_matched", u.rows_matched},  {"rows_skipped", u.rows_covered - u.rows_matched},
                          {"index_bytes_read", u.bytes_read}};
      if (const auto b = skipped(i)) j["column_bytes_skipped_estimate"] = *b;
      out.push_back(std::move(j));
    }
    return nlohmann::json{{"index_uses", out}, {"rows_evaluated", report.rows_evaluated}}.dump();
  }
  std::string out;
  for (size_t i = 0; i < report.uses.size(); ++i) {
    const auto& u = report.uses[i];
    std::string names;
    for (const auto& n : u.indices) names += (names.empty() ? "" : ", ") + n;
    const auto b = skipped(i);
    const std::string bytes = b ? fmt::format(" and ~{} of their columns", inspect::format_bytes(*b, false)) : "";
    out +=
        fmt::format("index: {} answered {}: {} of {} rows in {} fragment{} ({} rows{} not scanned; {} of index read)\n",
                    names, u.predicate, u.rows_matched, u.rows_covered, u.fragments, u.fragments == 1 ? "" : "s",
                    u.rows_covered - u.rows_matched, bytes, inspect::format_bytes(u.bytes_read, false));
  }
  out += fmt::format("filter: evaluated over {} rows\n", report.rows_evaluated);
  return out;
}

}  // namespace lance::app
