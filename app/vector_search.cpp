#include "app/vector_search.h"

#include <algorithm>
#include <cmath>
#include <span>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/closest_name.h"
#include "common/error.h"
#include "common/float16.h"
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
  } catch (const nlohmann::json::parse_error& e) {
    throw_usage("not a JSON array of numbers ({})", e.what());
  }
  if (!j.is_array()) throw_usage("not a JSON array of numbers");
  std::vector<double> out;
  out.reserve(j.size());
  for (const auto& v : j) {
    if (!v.is_number()) throw_usage("not a JSON array of numbers (element {} is {})", out.size(), v.dump());
    out.push_back(v.get<double>());
  }
  if (out.empty()) throw_usage("the query vector is empty");
  return out;
}

std::vector<std::vector<index::Neighbor>> exact_search(const ReopenTable& reopen, const VectorSearch& search,
                                                       SearchReport& report) {
  const VectorColumn& column = search.column;
  for (size_t q = 0; q < search.queries.size(); ++q)
    if (search.queries[q].size() != static_cast<size_t>(column.dim))
      throw_usage("query {} has {} values; column '{}' holds vectors of dimension {}", q, search.queries[q].size(),
                  column.name, column.dim);
  report.kernel = column.element == TypeId::float64 ? index::Kernel::portable : index::best_kernel();
  std::vector<QueryState> states;
  for (const auto& q : search.queries) states.emplace_back(search, q);
  auto vectors = reopen({column.name});
  std::vector<float> scratch;
  std::vector<uint64_t> rows;
  auto add = [&](const RecordBatch& batch) {
    VectorBatch vb = vector_batch(batch, column);
    for (auto& s : states) s.add(search.metric, vb.values, vb.f64, vb.rows, rows, vb.valid, scratch);
    report.rows_compared += vb.rows;
  };
  const bool prefilter = search.filter && !search.postfilter;
  if (prefilter) {
    FilteredRead fr;
    fr.expression = *search.filter;
    fr.use_indices = search.use_scalar_indices;
    report.filter = match_filtered(reopen, fr, [&](std::vector<uint64_t> matched) {
      size_t at = 0;
      vectors->take_batches(matched, read::kDefaultBatchSize, [&](RecordBatch batch) {
        const auto n = static_cast<size_t>(batch.num_rows);
        rows.assign(matched.begin() + static_cast<std::ptrdiff_t>(at),
                    matched.begin() + static_cast<std::ptrdiff_t>(at + n));
        at += n;
        add(batch);
      });
      return true;
    });
  } else {
    uint64_t base = 0;
    vectors->scan(0, vectors->num_rows(), read::kDefaultBatchSize, [&](RecordBatch batch) {
      const auto n = static_cast<uint64_t>(batch.num_rows);
      rows.resize(static_cast<size_t>(n));
      for (uint64_t i = 0; i < n; ++i) rows[static_cast<size_t>(i)] = base + i;
      base += n;
      add(batch);
    });
  }
  std::vector<std::vector<index::Neighbor>> out;
  for (const auto& s : states) out.push_back(s.result());
  if (search.filter && search.postfilter) {
    for (auto& result : out) {
      std::vector<uint64_t> candidate_rows;
      for (const auto& n : result) candidate_rows.push_back(n.row);
      const std::vector<bool> keep = rows_matching(reopen, *search.filter, candidate_rows);
      std::vector<index::Neighbor> kept;
      for (size_t i = 0; i < result.size(); ++i)
        if (keep[i]) kept.push_back(result[i]);
      result = std::move(kept);
    }
  }
  return out;
}

}  // namespace lance::app
