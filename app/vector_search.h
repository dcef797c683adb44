// Nearest-neighbour search over a table's vector column (`lance-cli search`): exact search
// (every visible row's distance, as LanceDB's `vectorSearch(v).bypassVectorIndex()`), with a
// prefilter (LanceDB's default: the k nearest of the rows that match) or a postfilter (the k
// nearest rows, then those that match). Semantics: upstream rust/lance/src/dataset/scanner.rs
// (`nearest`, `prefilter`), the flat KNN of rust/lance-index/src/vector/flat.rs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/filtered_read.h"
#include "array/types.h"
#include "dataset/dataset.h"
#include "format/schema.h"
#include "index/distance.h"
#include "index/top_k.h"
#include "index/vector_index.h"

namespace lance::app {

/// A column search can read: a top-level fixed_size_list of float16, float32 or float64.
struct VectorColumn {
  std::string name;
  TypeId element = TypeId::float32;
  int32_t dim = 0;
};

/// The vector columns of `schema`, in schema order.
std::vector<VectorColumn> vector_columns(const format::Schema& schema);

/// The column `name`; with none named, the schema's only vector column, or the only one whose
/// dimension is `query_dim` (as LanceDB picks). Throws Error(usage) naming the candidates
/// when that leaves none or several, or when `name` is not a vector column (with the closest
/// name when it is not a column at all).
VectorColumn choose_vector_column(const format::Schema& schema, const std::optional<std::string>& name,
                                  std::optional<size_t> query_dim);

/// One query vector from JSON text ("[0.1, 0.2]"); throws Error(usage) "…: <why>" for text
/// that is not a flat array of numbers.
std::vector<double> parse_query_vector(const std::string& text);

struct VectorSearch {
  VectorColumn column;
  std::vector<std::vector<double>> queries;  ///< each column.dim values
  uint64_t k = 10;
  std::optional<index::Metric> metric;  ///< empty: the index's, or l2 without one
  std::optional<std::string> filter;    ///< Lance filter expression
  bool postfilter = false;              ///< filter the k nearest instead of searching the matching rows
  bool use_scalar_indices = true;       ///< the prefilter may use the table's scalar indices
  /// Only distances d with min ≤ d < max (LanceDB's `distanceRange`).
  std::optional<float> min_distance, max_distance;
  std::optional<uint32_t> nprobes;        ///< partitions to search (LanceDB's default: 20)
  std::optional<uint32_t> refine_factor;  ///< k × this candidates, re-ranked by exact distance
  std::optional<uint32_t> ef;             ///< HNSW beam width
  bool fast_search = false;               ///< indexed: skip the fragments the index does not cover
};

/// What a search did besides its answer.
struct SearchReport {
  std::string method;  ///< "exact", or "IVF_PQ index 'v_idx'"
  index::Metric metric = index::Metric::l2;
  uint64_t rows_compared = 0;  ///< vectors whose exact distance was computed (all queries)
  index::AnnCounters ann;      ///< the index's partitions and codes (all queries)
  std::optional<FilterReport> filter;
  index::Kernel kernel = index::Kernel::portable;
  double search_ms = 0;  ///< wall time of the search (reading included), before the output
  /// The result rows' output columns were read in the exact scan (KeepForOutput): no read
  /// of them afterwards.
  bool rows_from_scan = false;
};

/// For each query, its k nearest rows (table row numbers: visible rows in scan order) with
/// their distances, nearest first (equal distances in row order). As LanceDB: the query is
/// rounded to float32, then to the column's element type; float16 vectors are compared in
/// float32; null vectors, and rows whose distance is NaN (cosine with a zero vector), are
/// never returned. Throws Error(usage) for
/// a query of the wrong length.
std::vector<std::vector<index::Neighbor>> exact_search(const ReopenTable& reopen, const VectorSearch& search,
                                                       SearchReport& report);

/// Result rows an exact search kept from its own scan, with the output's columns: the output
/// then needs no second read of them (over an object store, a request per row).
struct KeptRows {
  std::vector<uint64_t> rows;  ///< ascending, distinct
  RecordBatch batch;           ///< row i holds table row rows[i]; `columns`' columns in that order
};

/// The output columns exact_search may read along with the vectors, and what it kept.
struct KeepForOutput {
  std::vector<std::string> columns;  ///< top-level output columns of the table, in output order
  std::optional<KeptRows> kept;      ///< set when the search kept every result row
};

/// exact_search, reading `keep.columns` in the same scan and keeping the result rows' values
/// (keep.kept) when that costs little: no prefilter (its rows are taken, not scanned), at
/// most kMaxKeptRows results in all, and the other output columns fixed-width and together at
/// most an eighth of a vector's bytes (LanceDB also reads them in its scan).
std::vector<std::vector<index::Neighbor>> exact_search(const ReopenTable& reopen, const VectorSearch& search,
                                                       SearchReport& report, KeepForOutput& keep);

/// Most result rows (queries × k) an exact search keeps from its scan.
inline constexpr uint64_t kMaxKeptRows = 4096;

/// The vector index of a column, opened.
struct ColumnIndex {
  std::string name, type;
  std::set<uint32_t> fragments;               ///< the fragments it covers
  bool fragments_gone = false;                ///< it covers fragments this version no longer has
  std::optional<index::Metric> metric;        ///< as the manifest records it
  std::shared_ptr<index::VectorIndex> index;  ///< null when its kind is not read (then `unreadable` says why)
  std::string unreadable;
};

/// The vector index of `column` in `ds`'s version, opened; nothing when it has none (or rows
/// are named by stable row ids). A kind not read comes back without `index`.
std::optional<ColumnIndex> find_vector_index(const dataset::Dataset& ds, const VectorColumn& column);

/// Lance's search through `index` (LanceDB's `vectorSearch(v)` with the index's metric): the
/// index's candidates for the fragments it covers (deleted rows and the prefilter's misses
/// never admitted), exact search over the fragments it does not cover, and exact distances
/// for all candidates when there are such fragments or a refine factor; else the index's
/// approximate distances. Results as exact_search's.
std::vector<std::vector<index::Neighbor>> indexed_search(const ReopenTable& reopen, const dataset::Dataset& ds,
                                                         const ColumnIndex& index, const VectorSearch& search,
                                                         SearchReport& report);

}  // namespace lance::app
