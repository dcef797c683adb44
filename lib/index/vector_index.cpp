#include "index/vector_index.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/float16.h"
#include "format/proto_split.h"
#include "index_details.pb.h"
#include "io/remote/uri.h"

namespace lance::index {

namespace {

using Json = nlohmann::json;

/// One partition's rows, decoded: storage row j is HNSW node j.
}  // namespace

struct VectorIndex::Partition {
  /// The decoded storage rows of the load that read this partition (shared by the partitions
  /// it read); the spans below point into it, or into row_codes.
  std::shared_ptr<const RecordBatch> storage;
  std::span<const uint64_t> addresses;  ///< `_rowid` of each row
  std::span<const float> vectors;       ///< flat: rows × dim (as stored: normalized for cosine)
  /// pq: the code bytes; in a graph's partition (HNSW, read by node) per row, rows × code
  /// bytes (row_codes); otherwise as stored, transposed (byte b of row j at b × rows + j), so
  /// a scan of the partition adds one sub-vector's table entries for every row at a time.
  /// sq: rows × dim.
  std::span<const uint8_t> codes;
  std::vector<uint8_t> row_codes;
  /// HNSW: the neighbours of each node, level 0 first (level 0 indexed by node; upper levels
  /// keyed by node).
  std::vector<std::vector<uint32_t>> level0;
  std::vector<std::unordered_map<uint32_t, std::vector<uint32_t>>> upper;
  uint32_t entry_point = 0;
};

namespace {

std::string meta(const format::Schema& s, const std::string& key, const std::string& what) {
  const auto it = s.metadata.find(key);
  if (it == s.metadata.end()) throw_corrupt("{}: no '{}' in the schema metadata", what, key);
  return it->second;
}

Json parse_json(const std::string& text, const std::string& what) {
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {
    throw_corrupt("{}: not JSON ({})", what, e.what());
  }
}

/// A Tensor message read without copying its data: the header fields parsed, the data a view
/// into the bytes the message was read from (which must outlive it).
struct TensorView {
  pb::Tensor header;  ///< data_type and shape; data left empty
  ByteView data;
};

TensorView parse_tensor(ByteView message, const std::string& what) {
  TensorView out;
  std::string rest;
  out.data = split_field(message, 3, rest, what);  // Tensor.data
  if (!out.header.ParseFromString(rest)) throw_corrupt("{}: not a Tensor message", what);
  return out;
}

/// Decodes the floats of a tensor (float16/32/64 elements), checked against `count`, into
/// `out` (resized to `count`).
void tensor_floats(const TensorView& t, size_t count, const std::string& what, std::vector<float>& out) {
  const ByteView d = t.data;
  const auto need = [&](size_t width) {
    if (d.size() != count * width) throw_corrupt("{}: tensor of {} bytes, expected {} values", what, d.size(), count);
  };
  out.resize(count);
  switch (t.header.data_type()) {
    case pb::Tensor::FLOAT32:
      need(4);
      if (count) std::memcpy(out.data(), d.data(), count * 4);
      break;
    case pb::Tensor::FLOAT16:
      need(2);
      for (size_t i = 0; i < count; ++i) out[i] = half_to_float(d.read<uint16_t>(i * 2));
      break;
    case pb::Tensor::FLOAT64:
      need(8);
      for (size_t i = 0; i < count; ++i) out[i] = static_cast<float>(d.read<double>(i * 8));
      break;
    default:
      throw_unsupported("{}: tensor element type {}", what, static_cast<int>(t.header.data_type()));
  }
}

/// An IVF message with its centroids tensor as a view into the global buffer it came from.
struct IvfView {
  Bytes buffer;
  pb::Ivf ivf;  ///< every field but centroids_tensor
  TensorView centroids;
};

/// The global buffer holding a file's IVF message (schema metadata `lance:ivf`).
size_t ivf_buffer(const IndexFile& f) {
  const std::string at = meta(f.schema(), "lance:ivf", f.what());
  try {
    return std::stoul(at);
  } catch (const std::exception&) {
    throw_corrupt("{}: lance:ivf is '{}', not a buffer number", f.what(), at);
  }
}

IvfView read_ivf(const IndexFile& f) {
  const size_t buffer = ivf_buffer(f);
  IvfView out;
  out.buffer = f.global_buffer(buffer);
  const std::string what = fmt::format("{}: global buffer {}", f.what(), buffer);
  std::string rest;
  const ByteView tensor = split_field(out.buffer, 4, rest, what);  // IVF.centroids_tensor
  if (!out.ivf.ParseFromString(rest)) throw_corrupt("{} is not an IVF message", what);
  out.centroids = parse_tensor(tensor, what + ": centroids");
  return out;
}

/// Each partition's first row: `offsets`, or the running sums of `lengths`; checked to fit in
/// `rows`.
std::vector<uint64_t> partition_offsets(const pb::Ivf& ivf, uint64_t rows, const std::string& what) {
  std::vector<uint64_t> out;
  uint64_t at = 0;
  for (int p = 0; p < ivf.lengths_size(); ++p) {
    const uint64_t first = ivf.offsets_size() ? ivf.offsets(p) : at;
    if (first > rows || ivf.lengths(p) > rows - first)
      throw_corrupt("{}: partition {} (rows {}..+{}) is past the file's {} rows", what, p, first, ivf.lengths(p), rows);
    out.push_back(first);
    at = first + ivf.lengths(p);
  }
  if (ivf.offsets_size() && ivf.offsets_size() != ivf.lengths_size())
    throw_corrupt("{}: {} partition offsets for {} lengths", what, ivf.offsets_size(), ivf.lengths_size());
  return out;
}

Quantizer quantizer_of(const std::string& type, const std::string& what) {
  if (type == "IVF_FLAT" || type == "IVF_HNSW_FLAT") return Quantizer::flat;
  if (type == "IVF_PQ" || type == "IVF_HNSW_PQ") return Quantizer::pq;
  if (type == "IVF_SQ" || type == "IVF_HNSW_SQ") return Quantizer::sq;
  throw_unsupported(
      "{}: vector index type {} is not read by lance-cli (IVF_FLAT, IVF_PQ, IVF_SQ, IVF_HNSW_PQ, "
      "IVF_HNSW_SQ are); --exact searches without it",
      what, type);
}

/// Values of a uint64 / uint32 column of `batch`.
template <typename T>
const T* column_values(const RecordBatch& batch, size_t i, TypeId id, const std::string& what) {
  const ArrayData& a = *batch.columns.at(i);
  if (!a.type || a.type->id != id || a.buffers.empty())
    throw_corrupt("{}: column '{}' is {}, expected {}", what, batch.fields.at(i)->name,
                  a.type ? a.type->to_string() : "?", make_type(id)->to_string());
  return a.values<T>();
}

/// The fixed_size_list<item, width> column `i` of `batch`: its item bytes (rows × width items).
const ArrayData& fixed_list_items(const RecordBatch& batch, size_t i, TypeId item, int32_t width,
                                  const std::string& what) {
  const ArrayData& a = *batch.columns.at(i);
  if (!a.type || a.type->id != TypeId::fixed_size_list || a.type->list_size != width || a.children.empty() ||
      a.children[0]->type->id != item || a.children[0]->length < a.length * width)
    throw_corrupt("{}: column '{}' is {}, expected fixed_size_list<{}, {}>", what, batch.fields.at(i)->name,
                  a.type ? a.type->to_string() : "?", make_type(item)->to_string(), width);
  return *a.children[0];
}

float dot_product(const float* a, const float* b, size_t n) {
  float s = 0;
  for (size_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

VectorIndex::VectorIndex(const IndexLocation& where) : where_(where) {
  // Remote stores fetch both files' tails in one round trip (a no-op locally).
  where.store->prefetch({{io::join_path(where.dir, "index.idx")}, {io::join_path(where.dir, "auxiliary.idx")}}, {});
  index_ = std::make_unique<IndexFile>(where, "index.idx");
  storage_ = std::make_unique<IndexFile>(where, "auxiliary.idx");
  const std::string& what = index_->what();
  const Json kind = parse_json(meta(index_->schema(), "lance:index", what), what + ": lance:index");
  info_.type = kind.value("type", "");
  const auto metric = parse_metric(kind.value("distance_type", ""));
  if (!metric) throw_unsupported("{}: distance type '{}'", what, kind.value("distance_type", ""));
  info_.metric = *metric;
  info_.quantizer = quantizer_of(info_.type, where.what);
  info_.hnsw = info_.type.find("HNSW") != std::string::npos;

  const Json storage_meta_list =
      parse_json(meta(storage_->schema(), "storage_metadata", storage_->what()), storage_->what());
  if (!storage_meta_list.is_array() || storage_meta_list.empty() || !storage_meta_list[0].is_string())
    throw_corrupt("{}: storage_metadata is not a list of JSON strings", storage_->what());
  const Json sm = parse_json(storage_meta_list[0].get<std::string>(), storage_->what() + ": storage_metadata");
  // A remote storage file's IVF message and PQ codebook are fetched together: one round trip
  // where reading one, then the other, waits two (both buffers' places are in the footer, the
  // codebook's number in the storage metadata).
  if (storage_->remote()) {
    std::vector<size_t> buffers{ivf_buffer(*storage_)};
    if (const auto it = sm.find("codebook_position"); it != sm.end() && it->is_number_unsigned())
      buffers.push_back(it->get<size_t>());
    storage_->prefetch_global_buffers(buffers);
  }
  // The centroids and the PQ codebook are the large parts: each is read into one buffer and
  // decoded from it straight into its final array, the buffer freed before the next is read
  // (every fresh page costs a fault).
  IvfView index_ivf = read_ivf(*index_);
  const pb::Ivf& ivf = index_ivf.ivf;
  const auto& shape = index_ivf.centroids.header.shape();
  if (shape.size() != 2 || shape[0] == 0 || shape[1] == 0 || shape[1] > 65536)
    throw_corrupt("{}: IVF centroids of shape {}", what, fmt::join(shape, "×"));
  const uint32_t partitions = shape[0];
  info_.dim = shape[1];
  tensor_floats(index_ivf.centroids, size_t{partitions} * info_.dim, what + ": centroids", centroids_);
  index_ivf.buffer = Bytes();
  const pb::Ivf storage_ivf = read_ivf(*storage_).ivf;
  if (static_cast<uint32_t>(storage_ivf.lengths_size()) != partitions)
    throw_corrupt("{}: {} storage partitions for {} centroids", storage_->what(), storage_ivf.lengths_size(),
                  partitions);
  storage_offsets_ = partition_offsets(storage_ivf, storage_->num_rows(), storage_->what());
  info_.partition_rows.assign(storage_ivf.lengths().begin(), storage_ivf.lengths().end());

  try {
    if (info_.quantizer == Quantizer::pq) {
      info_.pq_sub_vectors = sm.at("num_sub_vectors").get<uint32_t>();
      info_.pq_bits = sm.at("nbits").get<uint32_t>();
      if (sm.value("dimension", info_.dim) != info_.dim) throw_corrupt("{}: PQ dimension differs", storage_->what());
      if (info_.pq_sub_vectors == 0 || info_.dim % info_.pq_sub_vectors || (info_.pq_bits != 8 && info_.pq_bits != 4))
        throw_unsupported("{}: PQ with {} sub-vectors of {} bits over dimension {}", storage_->what(),
                          info_.pq_sub_vectors, info_.pq_bits, info_.dim);
      if (info_.pq_bits == 4 && info_.pq_sub_vectors % 2)
        throw_corrupt("{}: 4-bit PQ with an odd number of sub-vectors", storage_->what());
      if (!sm.value("transposed", true)) throw_unsupported("{}: PQ codes not transposed", storage_->what());
      std::vector<float> cb;
      {
        const Bytes buffer = storage_->global_buffer(sm.at("codebook_position").get<size_t>());
        const TensorView codebook = parse_tensor(buffer, storage_->what() + ": the PQ codebook");
        tensor_floats(codebook, (size_t{1} << info_.pq_bits) * info_.dim, storage_->what() + ": codebook", cb);
      }
      // Stored [sub-vector][code][element]; kept as [sub-vector][element][code].
      const size_t codes = size_t{1} << info_.pq_bits, width = info_.dim / info_.pq_sub_vectors;
      codebook_.resize(cb.size());
      for (size_t sv = 0; sv < info_.pq_sub_vectors; ++sv)
        for (size_t k = 0; k < codes; ++k)
          for (size_t i = 0; i < width; ++i) codebook_[(sv * width + i) * codes + k] = cb[(sv * codes + k) * width + i];
    } else if (info_.quantizer == Quantizer::sq) {
      if (sm.value("num_bits", 8) != 8) throw_unsupported("{}: {}-bit SQ", storage_->what(), sm.value("num_bits", 8));
      info_.sq_low = sm.at("bounds").at("start").get<double>();
      info_.sq_high = sm.at("bounds").at("end").get<double>();
    }
  } catch (const Json::exception& e) {
    throw_corrupt("{}: storage_metadata: {}", storage_->what(), e.what());
  }
  storage_->drop_prefetched();
  if (info_.hnsw) {
    if (ivf.lengths_size() != static_cast<int>(partitions))
      throw_corrupt("{}: {} graph partitions for {} centroids", what, ivf.lengths_size(), partitions);
    graph_offsets_ = partition_offsets(ivf, index_->num_rows(), what);
    graph_rows_.assign(ivf.lengths().begin(), ivf.lengths().end());
    const Json graphs = parse_json(meta(index_->schema(), "lance:hnsw", what), what + ": lance:hnsw");
    if (!graphs.is_array() || graphs.size() != partitions)
      throw_corrupt("{}: lance:hnsw does not describe {} partitions", what, partitions);
    for (const auto& g : graphs) {
      const Json one = parse_json(g.is_string() ? g.get<std::string>() : "", what + ": lance:hnsw");
      try {
        level_offsets_.push_back(one.at("level_offsets").get<std::vector<uint32_t>>());
      } catch (const Json::exception& e) {
        throw_corrupt("{}: lance:hnsw: {}", what, e.what());
      }
    }
  }
}

VectorIndex::~VectorIndex() = default;

void VectorIndex::load(const std::vector<uint32_t>& wanted) const {
  std::vector<uint32_t> missing;
  {
    std::lock_guard lock(mutex_);
    for (const uint32_t p : wanted)
      if (!partitions_.count(p) && std::find(missing.begin(), missing.end(), p) == missing.end()) missing.push_back(p);
  }
  if (missing.empty()) return;
  std::sort(missing.begin(), missing.end());
  // One planned read of every missing partition's storage rows (and graph rows).
  std::vector<std::pair<uint64_t, uint64_t>> storage, graph;
  for (const uint32_t p : missing) {
    storage.emplace_back(storage_offsets_.at(p), info_.partition_rows.at(p));
    if (info_.hnsw) graph.emplace_back(graph_offsets_.at(p), graph_rows_.at(p));
  }
  const char* code_column = info_.quantizer == Quantizer::flat ? "flat"
                            : info_.quantizer == Quantizer::pq ? "__pq_code"
                                                               : "__sq_code";
  const auto rows = std::make_shared<const RecordBatch>(storage_->take_runs({"_rowid", code_column}, storage));
  RecordBatch graph_rows;
  if (info_.hnsw) graph_rows = index_->take_runs({"__vector_id", "__neighbors"}, graph);
  uint64_t at = 0, graph_at = 0;
  for (size_t i = 0; i < missing.size(); ++i) {
    auto part = std::make_unique<Partition>();
    fill_storage(*part, rows, at, storage[i].second);
    if (info_.hnsw) fill_graph(*part, missing[i], graph_rows, graph_at, graph[i].second);
    at += storage[i].second;
    if (info_.hnsw) graph_at += graph[i].second;
    std::lock_guard lock(mutex_);
    partitions_[missing[i]] = std::move(part);
  }
}

const VectorIndex::Partition& VectorIndex::partition(uint32_t p) const {
  load({p});
  std::lock_guard lock(mutex_);
  return *partitions_.at(p);
}

void VectorIndex::fill_storage(Partition& part, const std::shared_ptr<const RecordBatch>& rows, uint64_t first,
                               uint64_t n) const {
  const std::string& what = storage_->what();
  part.storage = rows;
  part.addresses = {column_values<uint64_t>(*rows, 0, TypeId::uint64, what) + first, n};
  const auto dim = static_cast<int32_t>(info_.dim);
  if (info_.quantizer == Quantizer::flat) {
    part.vectors = {fixed_list_items(*rows, 1, TypeId::float32, dim, what).values<float>() + first * info_.dim,
                    n * info_.dim};
  } else if (info_.quantizer == Quantizer::sq) {
    part.codes = {fixed_list_items(*rows, 1, TypeId::uint8, dim, what).values<uint8_t>() + first * info_.dim,
                  n * info_.dim};
  } else {
    const uint32_t width = info_.pq_bits == 8 ? info_.pq_sub_vectors : info_.pq_sub_vectors / 2;
    const ArrayData& items = fixed_list_items(*rows, 1, TypeId::uint8, static_cast<int32_t>(width), what);
    const uint8_t* flat = items.values<uint8_t>() + first * width;
    if (!info_.hnsw) {
      part.codes = {flat, n * width};
      return;
    }
    part.row_codes.resize(n * width);
    for (uint64_t j = 0; j < n; ++j)
      for (uint32_t b = 0; b < width; ++b) part.row_codes[j * width + b] = flat[b * n + j];
    part.codes = part.row_codes;
  }
}

void VectorIndex::fill_graph(Partition& part, uint32_t p, const RecordBatch& graph, uint64_t first, uint64_t gn) const {
  const std::string& what = index_->what();
  const uint64_t n = part.addresses.size();
  const auto* node = column_values<uint32_t>(graph, 0, TypeId::uint32, what) + first;
  const ArrayData& lists = *graph.columns.at(1);
  if (!lists.type || lists.type->id != TypeId::list || lists.children.empty() ||
      lists.children[0]->type->id != TypeId::uint32)
    throw_corrupt("{}: __neighbors is not list<uint32>", what);
  const auto* offsets = lists.values<int32_t>() + first;
  const auto* neighbours = lists.children[0]->values<uint32_t>();
  // Levels as Lance 8.0 cuts them: rows [level_offsets[l], level_offsets[l + 1]).
  const auto& lo = level_offsets_.at(p);
  part.level0.resize(n);
  part.upper.resize(lo.size() > 1 ? lo.size() - 2 : 0);
  for (size_t l = 0; l + 1 < lo.size(); ++l) {
    if (lo[l] > lo[l + 1] || lo[l + 1] > gn)
      throw_corrupt("{}: partition {}: level offsets {}..{} of {} graph rows", what, p, lo[l], lo[l + 1], gn);
    for (uint32_t r = lo[l]; r < lo[l + 1]; ++r) {
      if (node[r] >= n || offsets[r] < 0 || offsets[r] > offsets[r + 1] || offsets[r + 1] > lists.children[0]->length)
        throw_corrupt("{}: partition {}: graph row {} (node {} of {})", what, p, r, node[r], n);
      std::vector<uint32_t> list(neighbours + offsets[r], neighbours + offsets[r + 1]);
      for (const uint32_t u : list)
        if (u >= n) throw_corrupt("{}: partition {}: neighbour {} of {} nodes", what, p, u, n);
      if (l == 0)
        part.level0[node[r]] = std::move(list);
      else
        part.upper[l - 1][node[r]] = std::move(list);
    }
  }
}

namespace {

/// The distance from the query to storage row j of one partition, by the index's quantizer.
class PartitionDistance {
 public:
  PartitionDistance(const VectorIndexInfo& info, const VectorIndex::Partition& part, std::span<const float> q,
                    const float* centroid, const std::vector<float>& codebook)
      : info_(info), part_(part), q_(q) {
    if (info.quantizer == Quantizer::pq) build_pq_table(centroid, codebook);
    if (info.quantizer == Quantizer::sq) {
      const double range = info.sq_high - info.sq_low;
      scale_ = static_cast<float>(range * range / (255.0 * 255.0));
      for (const float v : q) query_code_.push_back(sq_code(v));
    }
  }

  /// The distances of all `out.size()` rows of the partition, as operator() gives them.
  void all(std::span<float> out) const {
    if (info_.quantizer != Quantizer::pq || info_.hnsw) {
      for (size_t j = 0; j < out.size(); ++j) out[j] = (*this)(j);
      return;
    }
    // Transposed codes: one sub-vector at a time over every row, each row's sum in the order
    // pq_distance adds it (the same floats).
    const size_t n = out.size(), m = info_.pq_sub_vectors, codes = size_t{1} << info_.pq_bits;
    std::fill(out.begin(), out.end(), 0.0f);
    if (info_.pq_bits == 8) {
      for (size_t s = 0; s < m; ++s) {
        const float* t = table_.data() + s * codes;
        const uint8_t* c = part_.codes.data() + s * n;
        for (size_t j = 0; j < n; ++j) out[j] += t[c[j]];
      }
    } else {
      for (size_t b = 0; b < m / 2; ++b) {
        const float* lo = table_.data() + 2 * b * codes;
        const float* hi = lo + codes;
        const uint8_t* c = part_.codes.data() + b * n;
        for (size_t j = 0; j < n; ++j) out[j] = out[j] + lo[c[j] & 0xf] + hi[c[j] >> 4];
      }
    }
    if (info_.metric == Metric::dot)
      for (float& d : out) d -= static_cast<float>(m - 1);
  }

  float operator()(size_t j) const {
    const size_t dim = info_.dim;
    switch (info_.quantizer) {
      case Quantizer::flat: {
        float d;
        // Cosine vectors are stored normalized (and the query is): 1 - q·x.
        distances(info_.metric == Metric::l2 ? Metric::l2 : Metric::dot, q_.data(), part_.vectors.data() + j * dim, 1,
                  dim, &d);
        return d;
      }
      case Quantizer::pq:
        return pq_distance(j);
      case Quantizer::sq: {
        const uint8_t* c = part_.codes.data() + j * dim;
        int64_t sum = 0;
        for (size_t i = 0; i < dim; ++i) {
          const int64_t a = query_code_[i], b = c[i];
          sum += info_.metric == Metric::dot ? a * b : (a - b) * (a - b);
        }
        const auto s = static_cast<float>(info_.metric == Metric::dot ? 1 - sum : sum);
        return s * scale_;
      }
    }
    return 0;
  }

 private:
  uint8_t sq_code(float v) const {
    const double x = std::floor((v - info_.sq_low) * 255.0 / (info_.sq_high - info_.sq_low));
    return static_cast<uint8_t>(std::isnan(x) ? 0 : std::clamp(x, 0.0, 255.0));
  }

  /// The table T[s][k]: ‖r_s − C_sk‖² (l2, cosine), 1 − r_s·C_sk (dot), for the residual (or
  /// the query) r, from the codebook stored transposed ([s][i][k]: one element of every code
  /// after another, so each step runs over all codes at once).
  void build_pq_table(const float* centroid, const std::vector<float>& codebook_t) {
    const size_t m = info_.pq_sub_vectors, width = info_.dim / m, codes = size_t{1} << info_.pq_bits;
    std::vector<float> r(q_.begin(), q_.end());
    const bool dot = info_.metric == Metric::dot;
    if (!dot)  // l2 and cosine encode the residual to the centroid
      for (size_t i = 0; i < r.size(); ++i) r[i] -= centroid[i];
    table_.assign(m * codes, 0.0f);
    const Kernel kernel = best_kernel();
    for (size_t s = 0; s < m; ++s) {
      float* t = table_.data() + s * codes;
      for (size_t i = 0; i < width; ++i)
        add_pq_column(dot, r[s * width + i], codebook_t.data() + (s * width + i) * codes, codes, t, kernel);
      if (dot)
        for (size_t k = 0; k < codes; ++k) t[k] = 1.0f - t[k];
    }
  }

  /// Row j's distance from per-row codes (a graph's partition; the others use all()).
  float pq_distance(size_t j) const {
    const size_t m = info_.pq_sub_vectors, codes = size_t{1} << info_.pq_bits;
    float d = 0;
    if (info_.pq_bits == 8) {
      const uint8_t* c = part_.codes.data() + j * m;
      for (size_t s = 0; s < m; ++s) d += table_[s * codes + c[s]];
    } else {
      const uint8_t* c = part_.codes.data() + j * (m / 2);
      for (size_t b = 0; b < m / 2; ++b) {
        d += table_[(2 * b) * codes + (c[b] & 0xf)];
        d += table_[(2 * b + 1) * codes + (c[b] >> 4)];
      }
    }
    return info_.metric == Metric::dot ? d - static_cast<float>(m - 1) : d;
  }

  const VectorIndexInfo& info_;
  const VectorIndex::Partition& part_;
  std::span<const float> q_;
  std::vector<float> table_;  ///< PQ: [sub-vector][code]
  std::vector<uint8_t> query_code_;
  float scale_ = 1;
};

/// A max-heap of (distance, node) under distance only, replaced only by strictly nearer ones.
struct NodeHeap {
  size_t capacity;
  std::vector<std::pair<float, uint32_t>> items;
  float furthest() const { return items.empty() ? INFINITY : items.front().first; }
  bool full() const { return items.size() >= capacity; }
  void offer(float d, uint32_t node) {
    const auto less = [](const auto& a, const auto& b) { return a.first < b.first; };
    if (items.size() < capacity) {
      items.emplace_back(d, node);
      std::push_heap(items.begin(), items.end(), less);
    } else if (d < items.front().first) {
      std::pop_heap(items.begin(), items.end(), less);
      items.back() = {d, node};
      std::push_heap(items.begin(), items.end(), less);
    }
  }
};

/// HNSW search of one partition: greedy descent through every level (level 0 included, as
/// Lance 8.0), then a beam of width `ef` on level 0; nodes the filter rejects are traversed
/// but not kept. Returns (distance, node), nearest first, at most k.
std::vector<std::pair<float, uint32_t>> hnsw_search(const VectorIndex::Partition& part, const PartitionDistance& dist,
                                                    size_t k, size_t ef, const std::vector<uint8_t>* admitted,
                                                    uint64_t& compared) {
  uint32_t current = part.entry_point;
  float current_d = dist(current);
  ++compared;
  const auto descend = [&](const std::vector<uint32_t>& neighbours, bool& moved) {
    for (const uint32_t u : neighbours) {
      const float d = dist(u);
      ++compared;
      if (d < current_d) {
        current_d = d;
        current = u;
        moved = true;
      }
    }
  };
  for (size_t l = part.upper.size() + 1; l-- > 0;) {
    for (bool moved = true; moved;) {
      moved = false;
      const uint32_t from = current;
      if (l == 0) {
        descend(part.level0[from], moved);
      } else if (auto it = part.upper[l - 1].find(from); it != part.upper[l - 1].end()) {
        descend(it->second, moved);
      }
    }
  }
  std::vector<uint8_t> visited(part.level0.size(), 0);
  using Item = std::pair<float, uint32_t>;
  std::vector<Item> candidates{{current_d, current}};  // min-heap
  const auto greater = [](const Item& a, const Item& b) { return a.first > b.first; };
  NodeHeap results{ef, {}};
  visited[current] = 1;
  if (!admitted || (*admitted)[current]) results.offer(current_d, current);
  while (!candidates.empty()) {
    std::pop_heap(candidates.begin(), candidates.end(), greater);
    const Item c = candidates.back();
    candidates.pop_back();
    if (c.first > results.furthest() && results.full()) break;
    const float furthest = results.furthest();
    for (const uint32_t u : part.level0[c.second]) {
      if (visited[u]) continue;
      visited[u] = 1;
      const float d = dist(u);
      ++compared;
      if (d <= furthest || !results.full()) {
        if (!admitted || (*admitted)[u]) results.offer(d, u);
        candidates.emplace_back(d, u);
        std::push_heap(candidates.begin(), candidates.end(), greater);
      }
    }
  }
  std::vector<Item> out = results.items;
  std::sort(out.begin(), out.end(), [](const Item& a, const Item& b) { return a.first < b.first; });
  if (out.size() > k) out.resize(k);
  return out;
}

}  // namespace

std::vector<Neighbor> VectorIndex::search_partition(const Partition& part, uint32_t p, std::span<const float> q,
                                                    size_t k, uint32_t ef, const AdmitRow& admit,
                                                    AnnCounters& counters) const {
  const PartitionDistance dist(info_, part, q, centroids_.data() + size_t{p} * info_.dim, codebook_);
  const size_t n = part.addresses.size();
  std::vector<Neighbor> out;
  std::vector<uint8_t> admitted;
  size_t admitted_count = n;
  if (admit) {
    admitted.resize(n);
    admitted_count = 0;
    for (size_t j = 0; j < n; ++j) admitted_count += admitted[j] = admit(part.addresses[j]) ? 1 : 0;
  }
  // Lance scans the admitted rows when a filter leaves fewer than a tenth of a graph's nodes.
  const bool scan = !info_.hnsw || (admit && admitted_count < n * 10 / 100);
  if (scan) {
    NodeHeap best{k, {}};
    std::vector<float> d(n);
    dist.all(d);
    for (size_t j = 0; j < n; ++j) {
      if (admit && !admitted[j]) continue;
      best.offer(d[j], static_cast<uint32_t>(j));
    }
    counters.codes_compared += admitted_count;
    for (const auto& [d, j] : best.items) out.push_back({d, part.addresses[j]});
    return out;
  }
  if (n == 0) return out;
  std::unordered_set<uint64_t> seen;
  for (const auto& [d, j] :
       hnsw_search(part, dist, k, std::max<size_t>(ef, k), admit ? &admitted : nullptr, counters.codes_compared))
    if (seen.insert(part.addresses[j]).second) out.push_back({d, part.addresses[j]});
  return out;
}

VectorIndex::Probes VectorIndex::probes(const AnnQuery& query) const {
  if (query.vector.size() != info_.dim)
    throw_usage("query has {} values; the index holds vectors of dimension {}", query.vector.size(), info_.dim);
  Probes out;
  out.query.assign(query.vector.begin(), query.vector.end());
  std::vector<float>& q = out.query;
  if (info_.metric == Metric::cosine) {  // the index holds normalized vectors
    const float norm = std::sqrt(dot_product(q.data(), q.data(), q.size()));
    for (auto& v : q) v /= norm;
  }
  const auto partitions = static_cast<uint32_t>(info_.partition_rows.size());
  std::vector<float> centroid_d(partitions);
  distances(info_.metric == Metric::dot ? Metric::dot : Metric::l2, q.data(), centroids_.data(), partitions, info_.dim,
            centroid_d.data());
  std::vector<uint32_t>& order = out.order;
  order.resize(partitions);
  for (uint32_t p = 0; p < partitions; ++p) order[p] = p;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return centroid_d[a] < centroid_d[b]; });
  const uint32_t maximum = std::min(query.maximum_nprobes, partitions);
  order.resize(maximum);
  // Lance's early pruning: partitions whose centroid is within a factor of the nearest raise
  // the minimum (the factor grows with k).
  out.minimum = std::min(query.minimum_nprobes, maximum);
  if (!order.empty()) {
    const float d0 = centroid_d[order[0]];
    const float factor = query.k <= 1 ? 0.6f : query.k <= 10 ? 7.0f : 81.0f;
    uint32_t pruned = 0;
    for (const uint32_t p : order) pruned += centroid_d[p] <= d0 * factor ? 1 : 0;
    out.minimum = std::max<uint32_t>(std::min(std::max(out.minimum, pruned), maximum), 1);
  }
  out.minimum = std::min<uint32_t>(out.minimum, static_cast<uint32_t>(order.size()));
  return out;
}

std::vector<Neighbor> VectorIndex::search(const AnnQuery& query, const AdmitRow& admit, AnnCounters& counters) const {
  const size_t keep_all = static_cast<size_t>(query.k) * std::max<uint32_t>(query.refine_factor, 1);
  if (info_.hnsw && query.ef && *query.ef < keep_all)
    throw_usage("--ef {} is below k × refine factor ({}): Lance needs ef ≥ k", *query.ef, keep_all);
  const Probes probe = probes(query);
  // A query cosine cannot normalize (all zeros, or too small) has no neighbours, as in Lance.
  for (const float v : probe.query)
    if (!std::isfinite(v)) return {};
  const auto& order = probe.order;
  load(std::vector<uint32_t>(order.begin(), order.begin() + probe.minimum));
  const size_t keep = static_cast<size_t>(query.k) * std::max<uint32_t>(query.refine_factor, 1);
  const uint32_t ef = query.ef.value_or(static_cast<uint32_t>(keep + keep / 2));
  std::vector<Neighbor> all;
  for (uint32_t i = 0; i < order.size(); ++i) {
    if (i >= probe.minimum && all.size() >= query.k) break;  // the late search stops at k
    const auto found = search_partition(partition(order[i]), order[i], probe.query, keep, ef, admit, counters);
    all.insert(all.end(), found.begin(), found.end());
    ++counters.partitions_searched;
  }
  std::sort(all.begin(), all.end(), nearer);
  if (all.size() > keep) all.resize(keep);
  return all;
}

}  // namespace lance::index
