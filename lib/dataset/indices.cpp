#include "dataset/indices.h"

#include <algorithm>
#include <cctype>
#include <memory>

#include <fmt/format.h>

#include "dataset/roaring_portable.h"
#include "index_details.pb.h"

namespace lance::dataset {

namespace {

/// More fragments than any real dataset holds: a bitmap claiming more is corrupt (and would
/// need an unbounded allocation).
constexpr uint64_t kMaxFragmentIds = uint64_t{1} << 24;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// The fragment ids of IndexMetadata.fragment_bitmap (32-bit roaring, portable serialization).
std::vector<uint32_t> parse_fragment_bitmap(const std::string& bytes) {
  if (bytes.empty()) return {};
  // Our own strict decoder: libroaring's accepts self-contradicting containers, whose
  // iteration then crashed (fuzz finding, data/fuzz-regressions/fuzz_manifest/).
  return decode_roaring_portable(ByteView(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
                                 kMaxFragmentIds)
      .values;
}

const char* metric_name(int m) {
  switch (m) {
    case 0:
      return "L2";
    case 1:
      return "cosine";
    case 2:
      return "dot";
    case 3:
      return "hamming";
    default:
      return "?";
  }
}

std::string vector_type(ByteView value, std::string* details) {
  ::lance::index::pb::VectorIndexDetails d;
  if (!d.ParseFromArray(value.data(), static_cast<int>(value.size()))) return "VECTOR";
  using D = ::lance::index::pb::VectorIndexDetails;
  std::string quant, desc = fmt::format("metric {}", metric_name(d.metric_type()));
  switch (d.compression_case()) {
    case D::kPq:
      quant = "PQ";
      desc += fmt::format(", PQ {} bits × {} sub-vectors", d.pq().num_bits(), d.pq().num_sub_vectors());
      break;
    case D::kSq:
      quant = "SQ";
      desc += fmt::format(", SQ {} bits", d.sq().num_bits());
      break;
    case D::kRq:
      quant = "RQ";
      desc += fmt::format(", RaBitQ {} bits", d.rq().num_bits());
      break;
    default:
      quant = "FLAT";
      break;  // flat, or (as Lance writes IVF_FLAT) nothing set
  }
  if (d.has_hnsw_index_config())
    desc += fmt::format(", HNSW M={} ef_construction={}", d.hnsw_index_config().max_connections(),
                        d.hnsw_index_config().construction_ef());
  if (d.has_target_num_partitions()) desc += fmt::format(", {} partitions", d.target_num_partitions());
  if (details) *details = desc;
  return (d.has_hnsw_index_config() ? "IVF_HNSW_" : "IVF_") + quant;
}

}  // namespace

std::string format_uuid(ByteView b) {
  std::string s;
  for (size_t i = 0; i < b.size(); ++i) {
    if (b.size() == 16 && (i == 4 || i == 6 || i == 8 || i == 10)) s += '-';
    s += fmt::format("{:02x}", b[i]);
  }
  return s;
}

std::string index_type_name(const std::string& type_url, ByteView value, std::string* details) {
  // The message name after the last '/' (type URLs compare case-insensitively in Lance).
  const std::string url = lower(type_url);
  const std::string msg = url.substr(url.find_last_of('/') == std::string::npos ? 0 : url.find_last_of('/') + 1);
  if (msg == "lance.index.pb.vectorindexdetails") return vector_type(value, details);
  struct Known {
    const char* message;
    const char* type;
  };
  static const Known known[] = {
      {"lance.table.btreeindexdetails", "BTREE"},
      {"lance.table.bitmapindexdetails", "BITMAP"},
      {"lance.table.labellistindexdetails", "LABEL_LIST"},
      {"lance.table.invertedindexdetails", "FTS"},
      {"lance.table.ngramindexdetails", "NGRAM"},
      {"lance.table.zonemapindexdetails", "ZONEMAP"},
      {"lance.table.bloomfilterindexdetails", "BLOOMFILTER"},
      {"lance.index.pb.bloomfilterindexdetails", "BLOOMFILTER"},
      {"lance.index.pb.rtreeindexdetails", "RTREE"},
      {"lance.index.pb.fmindexdetails", "FM"},
      {"lance.table.fmindexdetails", "FM"},
      {"lance.index.pb.jsonindexdetails", "JSON"},
      {"lance.table.jsonindexdetails", "JSON"},
      {"lance.index.pb.minhashlshindexdetails", "MINHASH_LSH"},
      {"lance.table.fragmentreuseindexdetails", "FRAGMENT_REUSE"},
      {"lance.index.mem_wal.memwalindexdetails", "MEM_WAL"},
      {"lance.table.memwalindexdetails", "MEM_WAL"},
  };
  for (const auto& k : known)
    if (msg == k.message) return k.type;
  return "";
}

std::vector<IndexInfo> parse_indices(const ManifestFile& file) {
  if (!file.proto.has_index_section()) return {};
  const ByteView bytes = manifest_section(file, file.proto.index_section(), "index section");
  ::lance::table::IndexSection section;
  if (!section.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw_corrupt("{}: cannot decode the index section ({} bytes of protobuf)", file.path, bytes.size());
  std::vector<IndexInfo> out;
  for (const auto& pi : section.indices()) {
    IndexInfo ix;
    ix.name = pi.name();
    ix.uuid = format_uuid(ByteView(reinterpret_cast<const uint8_t*>(pi.uuid().uuid().data()), pi.uuid().uuid().size()));
    ix.field_ids.assign(pi.fields().begin(), pi.fields().end());
    ix.dataset_version = pi.dataset_version();
    ix.fragment_ids = with_context(fmt::format("{}: index '{}'", file.path, ix.name),
                                   [&] { return parse_fragment_bitmap(pi.fragment_bitmap()); });
    ix.type_url = pi.index_details().type_url();
    const std::string& v = pi.index_details().value();
    ix.type = index_type_name(ix.type_url, ByteView(reinterpret_cast<const uint8_t*>(v.data()), v.size()), &ix.details);
    if (pi.has_index_version()) ix.index_version = pi.index_version();
    if (pi.has_created_at()) ix.created_at_ms = pi.created_at();
    for (const auto& f : pi.files()) {
      check_corrupt(!f.path().empty() && f.path().find("..") == std::string::npos && f.path()[0] != '/',
                    "{}: index '{}' lists the file path '{}'", file.path, ix.name, f.path());
      ix.files.push_back({f.path(), f.size_bytes()});
    }
    ix.has_base_id = pi.has_base_id();
    out.push_back(std::move(ix));
  }
  return out;
}

}  // namespace lance::dataset
