// search: the nearest rows to query vectors (app/vector_search.h), with their distances.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/fragments_option.h"
#include "app/output_options.h"
#include "app/stats.h"
#include "app/stdin_input.h"
#include "app/storage_config.h"
#include "app/vector_search.h"
#include "array/take.h"
#include "common/cancel.h"
#include "dataset/dataset.h"
#include "index/row_addresses.h"

namespace lance::app {

namespace {

struct SearchArgs {
  std::vector<std::string> vectors;  ///< --vector, one query each
  std::string vector_file;
  std::string vector_format = "json";
  std::optional<std::string> column;
  uint64_t k = 10;
  std::optional<std::string> metric;
  std::optional<std::string> filter;
  bool postfilter = false;
  bool exact = false;
  bool no_index = false;
  bool with_row_id = false;
  std::optional<float> min_distance, max_distance;
  std::optional<uint32_t> nprobes, refine_factor, ef;
  bool fast_search = false;
  bool recall = false;
};

/// The whole of FILE (- = standard input).
std::string read_query_file(const std::string& path) {
  std::ostringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
  } else {
    if (std::filesystem::is_directory(path)) throw_io("--vector-file {}: is a directory", path);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw_io("--vector-file {}: {}", path, std::strerror(errno));
    text << in.rdbuf();
  }
  return text.str();
}

/// The query vectors: --vector values, then --vector-file's (JSON lines, or raw float32).
std::vector<std::vector<double>> query_vectors(const SearchArgs& a, int32_t dim) {
  std::vector<std::vector<double>> out;
  for (const auto& v : a.vectors) {
    try {
      out.push_back(parse_query_vector(v));
    } catch (const Error& e) {
      throw_usage("--vector: {}", e.message());
    }
  }
  if (a.vector_file.empty()) return out;
  const std::string text = read_query_file(a.vector_file);
  if (a.vector_format == "f32") {
    const size_t bytes = static_cast<size_t>(dim) * 4;
    if (text.size() % bytes)
      throw_usage("--vector-file {}: {} bytes is not a whole number of {}-value float32 vectors ({} bytes each)",
                  a.vector_file, text.size(), dim, bytes);
    for (size_t at = 0; at < text.size(); at += bytes) {
      std::vector<double> q(static_cast<size_t>(dim));
      for (size_t i = 0; i < q.size(); ++i) {
        float f;
        std::memcpy(&f, text.data() + at + i * 4, 4);
        q[i] = f;
      }
      out.push_back(std::move(q));
    }
    return out;
  }
  std::istringstream lines(text);
  std::string line;
  for (size_t n = 1; std::getline(lines, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      out.push_back(parse_query_vector(line));
    } catch (const Error& e) {
      throw_usage("--vector-file {}: line {}: {}", a.vector_file, n, e.message());
    }
  }
  return out;
}

/// A primitive array of `values` (T = the C type of `id`), without nulls.
template <typename T>
ArrayPtr primitive_array(TypeId id, const std::vector<T>& values) {
  auto a = std::make_shared<ArrayData>();
  a->type = make_type(id);
  a->length = static_cast<int64_t>(values.size());
  auto bytes = std::make_shared<Bytes>(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes->data(), values.data(), bytes->size());
  a->buffers.push_back(std::move(bytes));
  return a;
}

FieldPtr make_field(std::string name, TypeId id, bool nullable) {
  auto f = std::make_shared<Field>();
  f->name = std::move(name);
  f->type = make_type(id);
  f->nullable = nullable;
  return f;
}

/// Where each output column comes from: the taken table columns (their index), _distance or
/// _rowid. -c may name _distance and _rowid among the table's columns (at their place);
/// otherwise _distance comes after the table's columns, then _rowid with --with-row-id.
struct ResultLayout {
  static constexpr int kDistance = -1, kRowId = -2;
  std::vector<std::string> table_columns;  ///< for the output table (empty: all)
  bool no_table_column = false;            ///< -c named only _distance/_rowid
  std::vector<int> order;                  ///< filled by `complete`
  bool with_row_id = false;

  ResultLayout(const std::vector<std::string>& requested, bool row_id) : with_row_id(row_id) {
    for (const auto& c : requested)
      if (c == "_rowid")
        with_row_id = true;
      else if (c != "_distance")
        table_columns.push_back(c);
    no_table_column = !requested.empty() && table_columns.empty();
    requested_ = requested;
  }

  /// The order, once the output table's `fields` are known.
  void complete(size_t fields) {
    int next = 0;
    bool distance = false, row_id = false;
    if (requested_.empty())
      for (size_t i = 0; i < fields; ++i) order.push_back(next++);
    for (const auto& c : requested_) {
      if (c == "_distance") distance = true;
      if (c == "_rowid") row_id = true;
      order.push_back(c == "_distance" ? kDistance : c == "_rowid" ? kRowId : next++);
    }
    if (!distance) order.push_back(kDistance);
    if (with_row_id && !row_id) order.push_back(kRowId);
  }

 private:
  std::vector<std::string> requested_;
};

/// The output fields: query_index (several queries), then the layout's columns.
std::vector<FieldPtr> result_fields(const std::vector<FieldPtr>& table, const ResultLayout& layout, bool several) {
  std::vector<FieldPtr> out;
  if (several) out.push_back(make_field("query_index", TypeId::int32, false));
  for (const int at : layout.order)
    out.push_back(at == ResultLayout::kDistance ? make_field("_distance", TypeId::float32, true)
                  : at == ResultLayout::kRowId  ? make_field("_rowid", TypeId::uint64, true)
                                                : table.at(static_cast<size_t>(at)));
  return out;
}

std::string search_stats(const VectorSearch& s, const SearchReport& r, bool json) {
  if (json)
    return nlohmann::json{{"method", r.method},
                          {"metric", index::metric_name(r.metric)},
                          {"queries", s.queries.size()},
                          {"partitions_searched", r.ann.partitions_searched},
                          {"codes_compared", r.ann.codes_compared},
                          {"rows_compared", r.rows_compared},
                          {"search_ms", r.search_ms},
                          {"kernel", index::kernel_name(r.kernel)},
                          {"rows_from_scan", r.rows_from_scan}}
        .dump();
  std::string index_part;
  if (r.method != "exact")
    index_part =
        fmt::format(", {} partitions searched, {} codes compared", r.ann.partitions_searched, r.ann.codes_compared);
  return fmt::format("search: {}, {} distance, {} queries{}; exact distances of {} rows ({} kernel){}; {:.3f} ms\n",
                     r.method, index::metric_name(r.metric), s.queries.size(), index_part, r.rows_compared,
                     index::kernel_name(r.kernel), r.rows_from_scan ? "; result rows kept from the scan" : "",
                     r.search_ms);
}

void add_search_options(CLI::App* cmd, SearchArgs& a) {
  cmd->add_option("--vector", a.vectors, "A query vector as a JSON array, e.g. '[0.1, 0.2, 0.3]' (repeat for several)")
      ->allow_extra_args(false);
  cmd->add_option(
         "--vector-file", a.vector_file,
         "Query vectors from FILE (- = stdin): one JSON array per line, or raw float32 with --vector-format f32")
      ->type_name("FILE");
  cmd->add_option("--vector-format", a.vector_format, "Format of --vector-file: json (one array per line) or f32")
      ->check(CLI::IsMember({"json", "f32"}))
      ->capture_default_str();
  cmd->add_option("--column", a.column, "The vector column to search (default: the table's only vector column)");
  cmd->add_option("-k,--limit", a.k, "Nearest rows to return per query")
      ->capture_default_str()
      ->transform(decimal_number())
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 31));
  cmd->add_option("--metric,--distance-type", a.metric, "Distance: l2 (squared), cosine or dot (default: l2)")
      ->check(CLI::IsMember({"l2", "cosine", "dot", "L2", "Cosine", "Dot", "euclidean"}));
  cmd->add_option("--filter,--where", a.filter,
                  "Only rows matching this Lance filter: the k nearest of the matching rows (a prefilter, "
                  "LanceDB's default)");
  cmd->add_flag("--postfilter", a.postfilter, "Apply --filter to the k nearest rows instead (may return fewer than k)");
  cmd->add_option("--min-distance", a.min_distance, "Only rows at this distance or farther (LanceDB's distanceRange)");
  cmd->add_option("--max-distance", a.max_distance, "Only rows nearer than this distance (LanceDB's distanceRange)");
  cmd->add_flag("--exact", a.exact,
                "Compute every row's distance, without the column's vector index "
                "(LanceDB's bypassVectorIndex)");
  cmd->add_flag("--recall", a.recall,
                "Also search exactly and report the indexed search's recall@k on stderr (with --stats=json: "
                "in its JSON line)");
  cmd->add_flag("--fast-search", a.fast_search,
                "Search only the fragments the vector index covers (LanceDB's fastSearch: rows added since "
                "are not searched)");
  cmd->add_option("--nprobes", a.nprobes, "IVF partitions to search (default: 20, as LanceDB)")
      ->transform(decimal_number())
      ->check(CLI::Range(uint32_t{1}, uint32_t{1} << 24));
  cmd->add_option("--refine-factor", a.refine_factor,
                  "Take k × this candidates from the index and re-rank them by exact distance")
      ->transform(decimal_number())
      ->check(CLI::Range(uint32_t{1}, uint32_t{1} << 16));
  cmd->add_option("--ef", a.ef, "HNSW search width (default: 1.5 × k × refine factor)")
      ->transform(decimal_number())
      ->check(CLI::Range(uint32_t{1}, uint32_t{1} << 24));
  cmd->add_flag("--with-row-id", a.with_row_id,
                "Add a _rowid column: each row's Lance row address (fragment id << 32 | offset)");
  cmd->add_flag("--no-index", a.no_index, "Evaluate --filter without the dataset's scalar indices (the same rows)");
}

struct Recall {
  double mean = 1, lowest = 1;
};

/// recall@k of `found` against `exact`, per query: the share of the exact answer's rows found
/// (1 when the exact answer is empty).
Recall measure_recall(const std::vector<std::vector<index::Neighbor>>& found,
                      const std::vector<std::vector<index::Neighbor>>& exact) {
  Recall r;
  double sum = 0;
  for (size_t q = 0; q < exact.size(); ++q) {
    std::set<uint64_t> want;
    for (const auto& n : exact[q]) want.insert(n.row);
    size_t hit = 0;
    for (const auto& n : found.at(q)) hit += want.count(n.row);
    const double one = want.empty() ? 1.0 : static_cast<double>(hit) / static_cast<double>(want.size());
    sum += one;
    r.lowest = std::min(r.lowest, one);
  }
  r.mean = exact.empty() ? 1.0 : sum / static_cast<double>(exact.size());
  return r;
}

/// The search the arguments ask for, on a table of `schema`.
VectorSearch make_search(const SearchArgs& a, const format::Schema& schema) {
  VectorSearch s;
  // The dimension of raw float32 queries is the column's: choose it first.
  std::optional<size_t> dim;
  std::vector<std::vector<double>> queries;
  if (a.vector_format != "f32") {
    queries = query_vectors(a, 0);
    if (!queries.empty()) dim = queries[0].size();
  }
  s.column = choose_vector_column(schema, a.column, dim);
  s.queries = a.vector_format == "f32" ? query_vectors(a, s.column.dim) : std::move(queries);
  if (s.queries.empty()) throw_usage("--vector-file {}: no query vector in it", a.vector_file);
  s.k = a.k;
  if (a.metric) s.metric = index::parse_metric(*a.metric);
  s.nprobes = a.nprobes;
  s.refine_factor = a.refine_factor;
  s.ef = a.ef;
  s.fast_search = a.fast_search;
  s.filter = a.filter;
  s.postfilter = a.postfilter;
  s.use_scalar_indices = !a.no_index;
  s.min_distance = a.min_distance;
  s.max_distance = a.max_distance;
  return s;
}

/// Writes every query's rows (one take of them all, repeats allowed) with query_index,
/// _distance and _rowid as `layout` places them; returns the rows written.
uint64_t write_results(const std::vector<std::vector<index::Neighbor>>& results, dataset::TableReader& output_table,
                       ResultLayout& layout, const OutputArgs& args, const std::optional<KeptRows>& kept) {
  const bool several = results.size() > 1;
  Output out(args, output_table.schema().metadata, output_table.path());
  std::vector<FieldPtr> table_fields = layout.no_table_column ? std::vector<FieldPtr>{} : output_table.fields();
  layout.complete(table_fields.size());
  const std::vector<FieldPtr> fields = result_fields(table_fields, layout, several);
  std::optional<index::RowAddresses> addresses;
  if (auto* ds = dynamic_cast<dataset::DatasetRowReader*>(&output_table); ds && layout.with_row_id)
    addresses.emplace(ds->dataset());
  out.writer->begin(fields);
  // Every query's rows in one take (repeats allowed), written batch by batch.
  std::vector<uint64_t> rows;
  std::vector<int32_t> query_of;
  std::vector<float> distance;
  for (size_t q = 0; q < results.size(); ++q)
    for (const auto& n : results[q]) {
      rows.push_back(n.row);
      query_of.push_back(static_cast<int32_t>(q));
      distance.push_back(n.distance);
    }
  size_t at = 0;
  const auto write = [&](const RecordBatch& taken, size_t n) {
    check_cancelled();
    const auto part = [&](const auto& v) {
      using T = typename std::decay_t<decltype(v)>::value_type;
      return std::vector<T>(v.begin() + static_cast<std::ptrdiff_t>(at),
                            v.begin() + static_cast<std::ptrdiff_t>(at + n));
    };
    RecordBatch batch;
    batch.fields = fields;
    batch.num_rows = static_cast<int64_t>(n);
    if (several) batch.columns.push_back(primitive_array(TypeId::int32, part(query_of)));
    for (const int column : layout.order) {
      if (column == ResultLayout::kDistance) {
        batch.columns.push_back(primitive_array(TypeId::float32, part(distance)));
      } else if (column == ResultLayout::kRowId) {
        std::vector<uint64_t> ids = part(rows);
        for (auto& r : ids) r = addresses ? addresses->address(r) : r;
        batch.columns.push_back(primitive_array(TypeId::uint64, ids));
      } else {
        batch.columns.push_back(taken.columns.at(static_cast<size_t>(column)));
      }
    }
    timed_output([&] { out.writer->write(batch); });
    at += n;
  };
  if (layout.no_table_column) {
    for (size_t i = 0; i < rows.size(); i += args.batch_size)
      write(RecordBatch{}, std::min<size_t>(args.batch_size, rows.size() - i));
  } else if (kept) {  // the search kept these rows from its scan: no second read
    for (size_t i = 0; i < rows.size(); i += args.batch_size) {
      const size_t n = std::min<size_t>(args.batch_size, rows.size() - i);
      std::vector<int64_t> index(n);
      for (size_t j = 0; j < n; ++j) {
        const auto it = std::lower_bound(kept->rows.begin(), kept->rows.end(), rows[i + j]);
        check_internal(it != kept->rows.end() && *it == rows[i + j], "search: result row {} was not kept", rows[i + j]);
        index[j] = it - kept->rows.begin();
      }
      RecordBatch taken;
      taken.fields = output_table.fields();
      taken.num_rows = static_cast<int64_t>(n);
      for (const auto& c : kept->batch.columns) taken.columns.push_back(take_array(c, index));
      write(taken, n);
    }
  } else {
    output_table.take_batches(rows, args.batch_size,
                              [&](RecordBatch taken) { write(taken, static_cast<size_t>(taken.num_rows)); });
  }
  const uint64_t rows_out = rows.size();
  timed_output([&] { out.finish(); });
  return rows_out;
}

/// Through the column's vector index when the dataset has one (and --exact is not given,
/// and no other metric is asked for: LanceDB then searches exactly), else exact.
/// `keep`: the output's columns, which an exact search may read in its scan (KeepForOutput).
std::vector<std::vector<index::Neighbor>> run_search(const ReopenTable& reopen, dataset::TableReader& table,
                                                     const VectorSearch& s, bool exact, SearchReport& report,
                                                     KeepForOutput& keep) {
  auto* ds = dynamic_cast<dataset::DatasetRowReader*>(&table);
  if (!exact && ds) {
    if (const auto ix = find_vector_index(ds->dataset(), s.column)) {
      const auto metric = ix->index ? std::optional(ix->index->info().metric) : ix->metric;
      if (!s.metric || !metric || *s.metric == *metric) {
        if (!ix->index) throw Error(ErrorKind::unsupported, ix->unreadable);
        return indexed_search(reopen, ds->dataset(), *ix, s, report);
      }
      spdlog::warn("search: index '{}' measures {} distance, not {}: searching every row instead, as LanceDB does",
                   ix->name, index::metric_name(*metric), index::metric_name(*s.metric));
    }
  }
  if (s.fast_search && !exact) {  // LanceDB's fastSearch without an index searches nothing
    report.method = "fast search without a vector index: no rows";
    return std::vector<std::vector<index::Neighbor>>(s.queries.size());
  }
  return exact_search(reopen, s, report, keep);
}

}  // namespace

void register_search(CLI::App& app, CommandRunner& run) {
  auto* cmd = app.add_subcommand("search", "Find the rows nearest to query vectors (nearest-neighbour search)");
  auto path = std::make_shared<std::string>();
  auto args = std::make_shared<OutputArgs>();
  auto search = std::make_shared<SearchArgs>();
  auto version = std::make_shared<int64_t>(-1);
  cmd->add_option("path", *path, "A .lance data file or a Lance dataset directory")
      ->transform(path_argument())
      ->required();
  add_search_options(cmd, *search);
  add_output_options(cmd, *args);
  cmd->add_option("--version", *version, "Dataset version to search (time travel; default: the latest)")
      ->transform(version_number());
  add_storage_option(cmd);
  cmd->footer(
      "Output: the selected columns (default: all) and _distance, nearest first; with several queries a\n"
      "query_index column comes first.\n\n"
      "Examples:\n  lance-cli search my_db/items.lance --vector '[0.1, 0.2, 0.3]' -k 5 -c id,name\n"
      "  lance-cli search my_db/items.lance --vector-file queries.jsonl --metric cosine --filter \"cat = 'red'\"");
  cmd->callback([&run, path, args, search, version] {
    check_distinct_columns(args->columns);
    if (search->vectors.empty() && search->vector_file.empty()) throw CLI::RequiredError("--vector or --vector-file");
    run.command = [path, args, search, version] {
      StatsReport stats(args->stats);
      const std::string in = input_path(*path);
      ResultLayout layout(args->columns, search->with_row_id);
      auto output_table = open_table(in, *version, layout.table_columns, std::nullopt);
      const ReopenTable reopen = [&](const std::vector<std::string>& cols) { return output_table->with_columns(cols); };
      const VectorSearch s = make_search(*search, output_table->schema());
      SearchReport report;
      const auto started = std::chrono::steady_clock::now();
      KeepForOutput keep;
      if (!layout.no_table_column)
        for (const auto& f : output_table->fields()) keep.columns.push_back(f->name);
      const auto results = run_search(reopen, *output_table, s, search->exact, report, keep);
      report.search_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
      std::optional<Recall> recall;
      if (search->recall) {
        VectorSearch exact = s;
        exact.metric = report.metric;
        SearchReport exact_report;
        recall = measure_recall(results, exact_search(reopen, exact, exact_report));
      }
      const uint64_t rows_out = write_results(results, *output_table, layout, *args, keep.kept);
      if (report.filter)
        stats.set_filter(render_filter_stats(*report.filter, true), render_filter_stats(*report.filter, false));
      stats.add_section("search", search_stats(s, report, true), search_stats(s, report, false));
      if (recall) {
        const std::string text = fmt::format("recall@{}: {:.4f} (mean over {} queries; lowest {:.4f}; {})\n", s.k,
                                             recall->mean, s.queries.size(), recall->lowest, report.method);
        if (stats.enabled())
          stats.add_section(
              "recall", nlohmann::json{{"k", s.k}, {"mean", recall->mean}, {"lowest", recall->lowest}}.dump(), text);
        else
          std::fputs(text.c_str(), stderr);
      }
      stats.report(rows_out);
    };
  });
}

}  // namespace lance::app
