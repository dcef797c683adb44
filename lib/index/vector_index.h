// A vector index of a dataset: `_indices/<uuid>/index.idx` (the IVF centroids, and the HNSW
// graph of each partition) and `auxiliary.idx` (each partition's row addresses and codes),
// both Lance files, as Lance 0.2x–8.x write them ("V3" index files: upstream
// rust/lance/src/index/vector/ivf/v2.rs, rust/lance-index/src/vector/{ivf,pq,sq,flat,hnsw}).
// Kinds: IVF_FLAT, IVF_PQ (8 and 4 bits), IVF_SQ, IVF_HNSW_PQ, IVF_HNSW_SQ, IVF_HNSW_FLAT.
// The layout is in docs/format.md 8.7.2.
//
// search() runs Lance's approximate search: rank the partitions by centroid distance, keep
// `nprobes` (raised by Lance's early pruning), search each (a scan of its codes, or the
// HNSW graph), and merge: the k·refine nearest by the index's distance, which is approximate
// for PQ and SQ. The caller recomputes exact distances where Lance does (refine, unindexed
// fragments).
//
// Usage:
//   VectorIndex ix(location);
//   AnnQuery q{query, 10};
//   auto candidates = ix.search(q, [&](uint64_t address) { return !deleted(address); });
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "index/distance.h"
#include "index/index_file.h"
#include "index/top_k.h"

namespace lance::index {

enum class Quantizer { flat, pq, sq };

/// What an index is, from its files' metadata.
struct VectorIndexInfo {
  std::string type;  ///< "IVF_PQ", "IVF_HNSW_SQ", … (the `lance:index` type)
  Metric metric = Metric::l2;
  Quantizer quantizer = Quantizer::flat;
  bool hnsw = false;
  uint32_t dim = 0;
  std::vector<uint32_t> partition_rows;  ///< rows of each partition's storage
  uint32_t pq_sub_vectors = 0, pq_bits = 0;
  double sq_low = 0, sq_high = 0;  ///< SQ: the one value range of every dimension
};

/// One approximate search.
struct AnnQuery {
  std::span<const float> vector;  ///< dim values (float32, as LanceDB sends them)
  uint64_t k = 10;
  uint32_t refine_factor = 1;     ///< candidates kept: k × refine_factor
  uint32_t minimum_nprobes = 20;  ///< LanceDB's default: min = max = 20
  uint32_t maximum_nprobes = 20;
  std::optional<uint32_t> ef;  ///< HNSW beam width (default 1.5 × k × refine)
};

/// What a search read and looked at (`--stats`).
struct AnnCounters {
  uint32_t partitions_searched = 0;
  uint64_t codes_compared = 0;
};

/// Whether a row address may be returned (deleted rows and a prefilter say no); null: all.
using AdmitRow = std::function<bool(uint64_t address)>;

class VectorIndex {
 public:
  /// Opens the index's two files and reads their metadata, IVF buffers and PQ codebook.
  /// Throws Error(unsupported) for a kind or layout it does not read (IVF_RQ, the v1 format,
  /// 4-bit SQ), Error(corrupt) naming the index for damaged files.
  explicit VectorIndex(const IndexLocation& where);
  ~VectorIndex();

  const VectorIndexInfo& info() const { return info_; }

  /// The k × refine_factor nearest candidates by the index's distance, as row addresses
  /// (Neighbor::row), nearest first, ties by address. Partitions are read when first searched.
  std::vector<Neighbor> search(const AnnQuery& query, const AdmitRow& admit, AnnCounters& counters) const;

  struct Partition;

  /// The partitions a query probes, nearest centroid first (nprobes' maximum of them), and
  /// how many are always searched (the minimum after early pruning; the rest only while
  /// fewer than k candidates were found); `query` is the search's query (normalized for
  /// cosine). Throws Error(usage) for a query of another dimension.
  struct Probes {
    std::vector<uint32_t> order;
    uint32_t minimum = 0;
    std::vector<float> query;
  };
  Probes probes(const AnnQuery& query) const;

  /// Reads the given partitions (those not read yet) in one planned read of each file:
  /// search() reads the ones it probes first this way; a caller with several queries can read
  /// the union of theirs at once.
  void load(const std::vector<uint32_t>& partitions) const;

 private:
  const Partition& partition(uint32_t p) const;
  void fill_storage(Partition& part, const std::shared_ptr<const RecordBatch>& rows, uint64_t first, uint64_t n) const;
  void fill_graph(Partition& part, uint32_t p, const RecordBatch& graph, uint64_t first, uint64_t rows) const;
  std::vector<Neighbor> search_partition(const Partition& part, uint32_t p, std::span<const float> q, size_t k,
                                         uint32_t ef, const AdmitRow& admit, AnnCounters& counters) const;

  IndexLocation where_;
  VectorIndexInfo info_;
  std::unique_ptr<IndexFile> index_, storage_;
  std::vector<float> centroids_;           ///< partitions × dim
  std::vector<uint64_t> storage_offsets_;  ///< first storage row of each partition
  std::vector<uint64_t> graph_offsets_, graph_rows_;
  std::vector<std::vector<uint32_t>> level_offsets_;  ///< HNSW: per partition, lance:hnsw's
  std::vector<float> codebook_;                       ///< PQ: [sub-vector][code][dim / sub-vectors]
  mutable std::mutex mutex_;
  mutable std::map<uint32_t, std::unique_ptr<Partition>> partitions_;
};

}  // namespace lance::index
