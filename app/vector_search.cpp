#include "app/vector_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <span>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <set>

#include <spdlog/spdlog.h>

#include "common/closest_name.h"
#include "common/cpu_pool.h"
#include "common/error.h"
#include "common/float16.h"
#include "dataset/indices.h"
#include "dataset/manifest_file.h"
#include "dataset/read_cost.h"
#include "index/row_addresses.h"
#include "io/remote/uri.h"
#include "read/reader_options.h"

namespace lance::app {

namespace {

bool is_vector_type(const DataType& t) {
  if (t.id != TypeId::fixed_size_list || t.children.empty() || !t.children[0]->type) return false;
  const TypeId e = t.children[0]->type->id;
  return e == TypeId::float16 || e == TypeId::float32 || e == TypeId::float64;
}

std::string candidates_text(const std::vector<VectorColumn>& columns) {
  std::string out;
  for (const auto& c : columns) out += (out.empty() ? "" : ", ") + c.name;
  return out;
}

/// The k nearest rows of one query, fed batch by batch.
class QueryState {
 public:
  QueryState(const VectorSearch& search, const std::vector<double>& query)
      : best_(static_cast<size_t>(std::min<uint64_t>(search.k, SIZE_MAX))),
        dim_(static_cast<size_t>(search.column.dim)),
        min_(search.min_distance.value_or(-INFINITY)),
        max_(search.max_distance.value_or(NAN)) {
    const VectorColumn& column = search.column;
    // As LanceDB: the query travels as float32, then takes the column's element type.
    for (double v : query) {
      const auto f = static_cast<float>(v);
      if (column.element == TypeId::float64)
        q64_.push_back(f);
      else
        q32_.push_back(column.element == TypeId::float16 ? half_to_float(double_to_half(f)) : f);
    }
  }

  /// `n` vectors (float32, or float64 when `f64`), rows[i] their row numbers; `valid[i]`
  /// false skips a null vector.
  void add(index::Metric m, const void* vectors, bool f64, size_t n, const std::vector<uint64_t>& rows,
           const std::vector<uint8_t>& valid, std::vector<float>& scratch) {
    scratch.resize(n);
    if (f64)
      index::distances(m, q64_.data(), static_cast<const double*>(vectors), n, dim_, scratch.data());
    else
      index::distances(m, q32_.data(), static_cast<const float*>(vectors), n, dim_, scratch.data());
    for (size_t i = 0; i < n; ++i)  // a NaN distance (cosine of a zero vector) is no neighbour
      if (valid[i] && scratch[i] >= min_ && !(scratch[i] >= max_)) best_.push(scratch[i], rows[i]);
  }

  std::vector<index::Neighbor> result() const { return best_.sorted(); }
  /// The nearest so far, in no particular order.
  const std::vector<index::Neighbor>& candidates() const { return best_.candidates(); }

 private:
  index::TopK best_;
  size_t dim_;
  float min_, max_;  ///< the distance range: min ≤ d < max (no max: NaN); a NaN distance is in none
  std::vector<float> q32_;
  std::vector<double> q64_;
};

/// One batch of the vector column: its values as float32 (float16 widened) or float64.
struct VectorBatch {
  const void* values = nullptr;
  bool f64 = false;
  size_t rows = 0;
  std::vector<uint8_t> valid;
  std::vector<float> widened;  ///< float16 values as float32
};

VectorBatch vector_batch(const RecordBatch& batch, const VectorColumn& column) {
  VectorBatch out;
  const ArrayData& list = *batch.columns.at(0);
  out.rows = static_cast<size_t>(list.length);
  out.valid.resize(out.rows);
  for (size_t i = 0; i < out.rows; ++i) out.valid[i] = list.is_valid(static_cast<int64_t>(i));
  const ArrayData& items = *list.children.at(0);
  const size_t values = out.rows * static_cast<size_t>(column.dim);
  if (items.length < static_cast<int64_t>(values))
    throw_corrupt("{}: {} vector values for {} rows of dimension {}", column.name, items.length, out.rows, column.dim);
  if (column.element == TypeId::float16) {
    const auto* h = items.values<uint16_t>();
    out.widened.resize(values);
    for (size_t i = 0; i < values; ++i) out.widened[i] = half_to_float(h[i]);
    out.values = out.widened.data();
  } else {
    out.values = items.buffers.at(0)->data();
    out.f64 = column.element == TypeId::float64;
  }
  return out;
}

}  // namespace

std::vector<VectorColumn> vector_columns(const format::Schema& schema) {
  std::vector<VectorColumn> out;
  for (const auto& f : schema.fields)
    if (f.arrow && f.arrow->type && is_vector_type(*f.arrow->type))
      out.push_back({f.name, f.arrow->type->children[0]->type->id, f.arrow->type->list_size});
  return out;
}

VectorColumn choose_vector_column(const format::Schema& schema, const std::optional<std::string>& name,
                                  std::optional<size_t> query_dim) {
  const auto columns = vector_columns(schema);
  if (name) {
    for (const auto& c : columns)
      if (c.name == *name) return c;
    if (!schema.find(*name)) {
      const std::string hint = closest_name(*name, schema.names());
      throw_usage("--column: no column '{}'{}", *name, hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint));
    }
    throw_usage("--column: '{}' is not a vector column (fixed_size_list of float16/32/64){}", *name,
                columns.empty() ? "" : "; vector columns: " + candidates_text(columns));
  }
  if (columns.empty()) throw_usage("the table has no vector column (fixed_size_list of float16/32/64)");
  if (columns.size() == 1) return columns[0];
  std::vector<VectorColumn> fitting;
  for (const auto& c : columns)
    if (query_dim && static_cast<size_t>(c.dim) == *query_dim) fitting.push_back(c);
  if (fitting.size() == 1) return fitting[0];
  throw_usage("the table has several vector columns{} ({}): choose one with --column",
              fitting.empty() ? "" : fmt::format(" of dimension {}", *query_dim),
              candidates_text(fitting.empty() ? columns : fitting));
}

std::vector<double> parse_query_vector(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // syntax, or a number out of range
    throw_usage("not a JSON array of numbers ({})", e.what());
  }
  if (!j.is_array()) throw_usage("not a JSON array of numbers");
  std::vector<double> out;
  out.reserve(j.size());
  for (const auto& v : j) {
    if (!v.is_number()) throw_usage("not a JSON array of numbers (element {} is {})", out.size(), v.dump());
    const double d = v.get<double>();
    if (std::isfinite(d) && std::fabs(d) > std::numeric_limits<float>::max())
      throw_usage("element {} ({}) is outside float32's range (query vectors travel as float32)", out.size(), v.dump());
    out.push_back(d);
  }
  if (out.empty()) throw_usage("the query vector is empty");
  return out;
}

namespace {

/// Exact distances of every query over chosen rows of the vector column.
class ExactPass {
 public:
  /// `keep_columns` (not empty): scan() also reads these columns and keeps the result rows'
  /// values (kept()).
  ExactPass(const ReopenTable& reopen, const VectorSearch& search, index::Metric metric, SearchReport& report,
            const std::vector<std::string>& keep_columns = {})
      : search_(search), metric_(metric), report_(report), keep_columns_(keep_columns) {
    std::vector<std::string> columns = {search.column.name};  // the vectors first (vector_batch)
    for (const auto& c : keep_columns)
      if (c != search.column.name) columns.push_back(c);
    vectors_ = reopen(columns);
    for (const auto& c : keep_columns) {
      const auto& fields = vectors_->fields();
      const auto it = std::find_if(fields.begin(), fields.end(), [&](const FieldPtr& f) { return f->name == c; });
      check_internal(it != fields.end(), "search: column '{}' not read", c);
      keep_index_.push_back(static_cast<size_t>(it - fields.begin()));
    }
    for (const auto& q : search.queries) states_.emplace_back(search, q);
  }

  /// Rows [begin, end) for every query.
  void scan(uint64_t begin, uint64_t end) {
    uint64_t base = begin;
    vectors_->scan(begin, end, read::kDefaultBatchSize, [&](RecordBatch batch) {
      const auto n = static_cast<uint64_t>(batch.num_rows);
      rows_.resize(static_cast<size_t>(n));
      for (uint64_t i = 0; i < n; ++i) rows_[static_cast<size_t>(i)] = base + i;
      add(batch, nullptr);
      if (!keep_columns_.empty()) keep_from(batch, base);
      base += n;
    });
  }

  /// The result rows with the kept columns (after scan() with keep columns); null when a
  /// result row was not kept.
  std::optional<KeptRows> kept(const std::vector<std::vector<index::Neighbor>>& results) const {
    if (keep_columns_.empty()) return std::nullopt;
    std::set<uint64_t> rows;
    for (const auto& r : results)
      for (const auto& n : r) rows.insert(n.row);
    KeptRows out;
    std::vector<std::vector<ArrayPtr>> parts(keep_columns_.size());
    for (uint64_t row : rows) {
      const auto it = kept_.find(row);
      if (it == kept_.end()) return std::nullopt;
      out.rows.push_back(row);
      for (size_t c = 0; c < parts.size(); ++c) parts[c].push_back(it->second[c]);
    }
    out.batch.num_rows = static_cast<int64_t>(out.rows.size());
    for (size_t c = 0; c < parts.size(); ++c) {
      const FieldPtr& field = vectors_->fields()[keep_index_[c]];
      out.batch.fields.push_back(field);
      out.batch.columns.push_back(concat_arrays(field->type, parts[c]));
    }
    return out;
  }

  /// `rows` (any order) for every query.
  void take(const std::vector<uint64_t>& rows) {
    size_t at = 0;
    vectors_->take_batches(rows, read::kDefaultBatchSize, [&](RecordBatch batch) {
      const auto n = static_cast<size_t>(batch.num_rows);
      rows_.assign(rows.begin() + static_cast<std::ptrdiff_t>(at), rows.begin() + static_cast<std::ptrdiff_t>(at + n));
      at += n;
      add(batch, nullptr);
    });
  }

  /// Each query's own rows (`per_query[q]`, ascending), read in one take of them all.
  void take_each(const std::vector<std::vector<uint64_t>>& per_query) {
    std::vector<uint64_t> all;
    for (const auto& rows : per_query) all.insert(all.end(), rows.begin(), rows.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    size_t at = 0;
    vectors_->take_batches(all, read::kDefaultBatchSize, [&](RecordBatch batch) {
      const auto n = static_cast<size_t>(batch.num_rows);
      rows_.assign(all.begin() + static_cast<std::ptrdiff_t>(at), all.begin() + static_cast<std::ptrdiff_t>(at + n));
      at += n;
      add(batch, &per_query);
    });
  }

  std::vector<std::vector<index::Neighbor>> results() const {
    std::vector<std::vector<index::Neighbor>> out;
    for (const auto& s : states_) out.push_back(s.result());
    return out;
  }

 private:
  /// A batch of rows_ for every query, or for each query only its rows of `per_query`.
  void add(const RecordBatch& batch, const std::vector<std::vector<uint64_t>>* per_query) {
    VectorBatch vb = vector_batch(batch, search_.column);
    if (!per_query && states_.size() > 1) {  // several queries: one per core
      parallel_for(states_.size(), [&](size_t q) {
        std::vector<float> scratch;
        states_[q].add(metric_, vb.values, vb.f64, vb.rows, rows_, vb.valid, scratch);
      });
      report_.rows_compared += vb.rows * states_.size();
      return;
    }
    for (size_t q = 0; q < states_.size(); ++q) {
      if (!per_query) {
        states_[q].add(metric_, vb.values, vb.f64, vb.rows, rows_, vb.valid, scratch_);
        report_.rows_compared += vb.rows;
        continue;
      }
      const auto& own = (*per_query)[q];
      std::vector<uint8_t> valid = vb.valid;
      size_t mine = 0;
      for (size_t i = 0; i < valid.size(); ++i) {
        valid[i] = valid[i] && std::binary_search(own.begin(), own.end(), rows_[i]);
        mine += valid[i];
      }
      if (!mine) continue;
      states_[q].add(metric_, vb.values, vb.f64, vb.rows, rows_, valid, scratch_);
      report_.rows_compared += mine;
    }
  }

  /// Keeps the values of this batch's rows (table rows base, base + 1, …) that are now among
  /// some query's nearest; forgets rows no query holds any more once they are many.
  void keep_from(const RecordBatch& batch, uint64_t base) {
    const auto n = static_cast<uint64_t>(batch.num_rows);
    size_t held = 0;
    for (const auto& s : states_) {
      held += s.candidates().size();
      for (const auto& c : s.candidates()) {
        if (c.row < base || c.row >= base + n || kept_.count(c.row)) continue;
        std::vector<ArrayPtr> values;
        for (size_t k : keep_index_)
          values.push_back(slice_array(batch.columns[k], static_cast<int64_t>(c.row - base), 1));
        kept_.emplace(c.row, std::move(values));
      }
    }
    if (kept_.size() <= 2 * held + 64) return;  // each kept row holds a copy of its values
    std::set<uint64_t> live;
    for (const auto& s : states_)
      for (const auto& c : s.candidates()) live.insert(c.row);
    for (auto it = kept_.begin(); it != kept_.end();) it = live.count(it->first) ? std::next(it) : kept_.erase(it);
  }

  const VectorSearch& search_;
  index::Metric metric_;
  SearchReport& report_;
  std::vector<std::string> keep_columns_;
  std::vector<size_t> keep_index_;                  ///< per keep column, its index in vectors_' batches
  std::map<uint64_t, std::vector<ArrayPtr>> kept_;  ///< table row → its keep columns' values (one row each)
  std::unique_ptr<dataset::TableReader> vectors_;
  std::vector<QueryState> states_;
  std::vector<float> scratch_;
  std::vector<uint64_t> rows_;
};

/// The rows matching the prefilter, ascending.
std::vector<uint64_t> prefilter_rows(const ReopenTable& reopen, const VectorSearch& search, SearchReport& report) {
  FilteredRead fr;
  fr.expression = *search.filter;
  fr.use_indices = search.use_scalar_indices;
  std::vector<uint64_t> rows;
  report.filter = match_filtered(reopen, fr, [&](std::vector<uint64_t> matched) {
    rows.insert(rows.end(), matched.begin(), matched.end());
    return true;
  });
  return rows;
}

/// Keeps the results whose rows match the postfilter.
void apply_postfilter(const ReopenTable& reopen, const std::string& filter,
                      std::vector<std::vector<index::Neighbor>>& results) {
  for (auto& result : results) {
    std::vector<uint64_t> rows;
    for (const auto& n : result) rows.push_back(n.row);
    const std::vector<bool> keep = rows_matching(reopen, filter, rows);
    std::vector<index::Neighbor> kept;
    for (size_t i = 0; i < result.size(); ++i)
      if (keep[i]) kept.push_back(result[i]);
    result = std::move(kept);
  }
}

void check_query_dims(const VectorSearch& search) {
  for (size_t q = 0; q < search.queries.size(); ++q)
    if (search.queries[q].size() != static_cast<size_t>(search.column.dim))
      throw_usage("query {} has {} values; column '{}' holds vectors of dimension {}", q, search.queries[q].size(),
                  search.column.name, search.column.dim);
}

}  // namespace

namespace {

/// Whether an exact scan should also read `keep.columns` (exact_search with KeepForOutput).
bool worth_keeping(const ReopenTable& reopen, const VectorSearch& search, const KeepForOutput& keep) {
  if (keep.columns.empty() || (search.filter && !search.postfilter)) return false;
  if (search.k == 0 || search.k > kMaxKeptRows / std::max<size_t>(1, search.queries.size())) return false;
  auto vectors = reopen({search.column.name});
  const uint64_t vector_bits = dataset::fixed_bits(*vectors->fields().at(0)->type);
  uint64_t other_bits = 0;
  for (const auto& c : keep.columns) {
    if (c == search.column.name) continue;
    const auto field = reopen({c})->fields().at(0);
    const uint64_t bits = dataset::fixed_bits(*field->type);
    if (bits == 0) return false;  // variable width: its bytes are not known up front
    other_bits += bits;
  }
  return vector_bits > 0 && other_bits <= vector_bits / 8;
}

std::vector<std::vector<index::Neighbor>> run_exact(const ReopenTable& reopen, const VectorSearch& search,
                                                    SearchReport& report, KeepForOutput* keep) {
  check_query_dims(search);
  const index::Metric metric = search.metric.value_or(index::Metric::l2);
  report.method = "exact";
  report.metric = metric;
  report.kernel = search.column.element == TypeId::float64 ? index::Kernel::portable : index::best_kernel();
  const bool keeping = keep && worth_keeping(reopen, search, *keep);
  ExactPass pass(reopen, search, metric, report, keeping ? keep->columns : std::vector<std::string>{});
  const bool prefilter = search.filter && !search.postfilter;
  if (prefilter) {
    pass.take(prefilter_rows(reopen, search, report));
  } else {
    auto any = reopen({search.column.name});
    pass.scan(0, any->num_rows());
  }
  auto out = pass.results();
  if (search.filter && search.postfilter) apply_postfilter(reopen, *search.filter, out);
  if (keeping) keep->kept = pass.kept(out);
  report.rows_from_scan = keep && keep->kept.has_value();
  return out;
}

}  // namespace

std::vector<std::vector<index::Neighbor>> exact_search(const ReopenTable& reopen, const VectorSearch& search,
                                                       SearchReport& report) {
  return run_exact(reopen, search, report, nullptr);
}

std::vector<std::vector<index::Neighbor>> exact_search(const ReopenTable& reopen, const VectorSearch& search,
                                                       SearchReport& report, KeepForOutput& keep) {
  return run_exact(reopen, search, report, &keep);
}

std::vector<std::vector<index::Neighbor>> indexed_search(const ReopenTable& reopen, const dataset::Dataset& ds,
                                                         const ColumnIndex& column_index, const VectorSearch& search,
                                                         SearchReport& report) {
  check_query_dims(search);
  const index::VectorIndex& ix = *column_index.index;
  const index::Metric metric = ix.info().metric;
  report.method = fmt::format("{} index '{}'", ix.info().type, column_index.name);
  report.metric = metric;
  report.kernel = index::best_kernel();
  const index::RowAddresses addresses(ds);
  const bool prefilter = search.filter && !search.postfilter;
  std::vector<uint64_t> matched;
  if (prefilter) matched = prefilter_rows(reopen, search, report);
  // Rows the index may return: not deleted (nor in a fragment gone since), and matching.
  bool any_deleted = false;
  for (size_t i = 0; i < ds.fragments().size(); ++i)
    if (ds.fragments()[i].deletion && column_index.fragments.count(static_cast<uint32_t>(ds.fragments()[i].id)))
      any_deleted = true;
  index::AdmitRow admit;
  if (prefilter || any_deleted || column_index.fragments_gone)
    admit = [&](uint64_t address) {
      const auto row = addresses.row(address);
      return row && (!prefilter || std::binary_search(matched.begin(), matched.end(), *row));
    };
  // Fragments the index does not cover are searched exactly, and then every candidate's
  // distance is recomputed (as Lance does); so are the candidates of a refine.
  std::vector<std::pair<uint64_t, uint64_t>> unindexed;
  for (size_t i = 0; i < ds.fragments().size() && !search.fast_search; ++i)
    if (!column_index.fragments.count(static_cast<uint32_t>(ds.fragments()[i].id)) && ds.live_rows()[i])
      unindexed.emplace_back(addresses.first_row(i), addresses.first_row(i) + ds.live_rows()[i]);
  const bool recompute = search.refine_factor || !unindexed.empty();
  std::vector<std::vector<float>> q32(search.queries.size());
  std::vector<index::AnnQuery> queries(search.queries.size());
  std::vector<uint32_t> probed;  // every query's partitions, read in one go
  for (size_t i = 0; i < queries.size(); ++i) {
    for (const double v : search.queries[i]) q32[i].push_back(static_cast<float>(v));
    index::AnnQuery& aq = queries[i];
    aq.vector = q32[i];
    aq.k = search.k;
    aq.refine_factor = search.refine_factor.value_or(1);
    if (search.nprobes) aq.minimum_nprobes = aq.maximum_nprobes = *search.nprobes;
    aq.ef = search.ef;
    const auto p = ix.probes(aq);
    probed.insert(probed.end(), p.order.begin(), p.order.begin() + p.minimum);
  }
  ix.load(probed);
  // The queries' searches, one per core (the index and the address map are thread-safe).
  std::vector<std::vector<index::Neighbor>> candidates(queries.size());
  std::vector<index::AnnCounters> counters(queries.size());
  parallel_for(queries.size(), [&](size_t q) {
    for (auto n : ix.search(queries[q], admit, counters[q]))  // addresses → row numbers (admitted ones are visible)
      if (const auto row = addresses.row(n.row)) candidates[q].push_back({n.distance, *row});
  });
  for (const auto& c : counters) {
    report.ann.partitions_searched += c.partitions_searched;
    report.ann.codes_compared += c.codes_compared;
  }
  std::vector<std::vector<index::Neighbor>> out;
  if (!recompute) {
    for (auto& c : candidates) {
      if (c.size() > search.k) c.resize(static_cast<size_t>(search.k));
      out.push_back(std::move(c));
    }
  } else {
    ExactPass pass(reopen, search, metric, report);
    for (const auto& [begin, end] : unindexed) {
      if (!prefilter) {
        pass.scan(begin, end);
        continue;
      }
      const auto lo = std::lower_bound(matched.begin(), matched.end(), begin);
      const auto hi = std::lower_bound(matched.begin(), matched.end(), end);
      pass.take(std::vector<uint64_t>(lo, hi));
    }
    std::vector<std::vector<uint64_t>> per_query;
    for (const auto& c : candidates) {
      std::vector<uint64_t> rows;
      for (const auto& n : c) rows.push_back(n.row);
      std::sort(rows.begin(), rows.end());
      per_query.push_back(std::move(rows));
    }
    pass.take_each(per_query);
    out = pass.results();
  }
  if (search.filter && search.postfilter) apply_postfilter(reopen, *search.filter, out);
  return out;
}

std::optional<ColumnIndex> find_vector_index(const dataset::Dataset& ds, const VectorColumn& column) {
  if (ds.manifest().reader_feature_flags & dataset::feature::kStableRowIds) {
    spdlog::debug("{}: stable row ids: the vector index names row ids, not addresses; not used", ds.path());
    return std::nullopt;
  }
  const format::LanceField* field = ds.schema().find(column.name);
  if (!field) return std::nullopt;
  const auto file = dataset::manifest_file_of(ds.manifest(), ds.store());
  for (const auto& info : dataset::parse_indices(file)) {
    if (info.type_url != "/lance.index.pb.VectorIndexDetails" || info.field_ids.empty() ||
        info.field_ids[0] != field->id)
      continue;
    ColumnIndex out;
    out.name = info.name;
    out.type = info.type;
    // The metric as the manifest records it ("metric L2, …"), known even for a kind not read.
    if (const size_t at = info.details.find("metric "); at != std::string::npos)
      out.metric = index::parse_metric(info.details.substr(at + 7, info.details.find(',', at) - at - 7));
    for (const uint32_t id : info.fragment_ids) out.fragments.insert(id);
    std::set<uint32_t> present;
    for (const auto& f : ds.fragments()) present.insert(static_cast<uint32_t>(f.id));
    for (const uint32_t id : out.fragments)
      if (!present.count(id)) out.fragments_gone = true;
    index::IndexLocation where;
    where.dir = io::join_path(io::join_path(ds.path(), dataset::kIndicesDir), info.uuid);
    where.what = fmt::format("index '{}' ({} on {})", info.name, info.type, column.name);
    where.store = &ds.store();
    where.options = ds.reader_options();
    try {
      out.index = std::make_shared<index::VectorIndex>(where);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::unsupported) throw;
      out.unreadable = e.message();
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace lance::app
