// inspect meta of a dataset: its indices (description, JSON and text).
#include "inspect/dataset_indices.h"

#include <algorithm>
#include <ctime>
#include <functional>

#include <fmt/format.h>

#include "index/vector_index.h"
#include "inspect/text_table.h"
#include "io/remote/uri.h"

namespace lance::inspect {

namespace {

/// The dotted path of field `id` in the schema, or "#id".
std::string field_path(const format::Schema& schema, int32_t id) {
  std::function<std::optional<std::string>(const format::LanceField&, const std::string&)> find =
      [&](const format::LanceField& f, const std::string& prefix) -> std::optional<std::string> {
    const std::string p = prefix.empty() ? f.name : prefix + "." + f.name;
    if (f.id == id) return p;
    for (const auto& c : f.children)
      if (auto r = find(c, p)) return r;
    return std::nullopt;
  };
  for (const auto& f : schema.fields)
    if (auto r = find(f, "")) return *r;
  return "#" + std::to_string(id);
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

/// "0-3, 5, 7-9"
template <typename T>
std::string ranges(const std::vector<T>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + (i == j ? std::to_string(ids[i]) : fmt::format("{}-{}", ids[i], ids[j]));
    i = j + 1;
  }
  return out.empty() ? "none" : out;
}

}  // namespace

std::string format_time_ms(uint64_t ms) {
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec, ms % 1000);
}

namespace {

VectorIndexLayout vector_layout(const dataset::Dataset& ds, const dataset::IndexInfo& ix, const std::string& dir) {
  VectorIndexLayout out;
  index::IndexLocation where;
  where.dir = dir;
  where.what = fmt::format("index '{}' ({})", ix.name, ix.type);
  where.store = &ds.store();
  where.options = ds.reader_options();
  try {
    const index::VectorIndex vi(where);
    const auto& info = vi.info();
    out.metric = index::metric_name(info.metric);
    out.dim = info.dim;
    out.partitions = static_cast<uint32_t>(info.partition_rows.size());
    if (!info.partition_rows.empty()) {
      out.min_partition_rows = *std::min_element(info.partition_rows.begin(), info.partition_rows.end());
      out.max_partition_rows = *std::max_element(info.partition_rows.begin(), info.partition_rows.end());
    }
    out.pq_sub_vectors = info.pq_sub_vectors;
    out.pq_bits = info.pq_bits;
  } catch (const Error& e) {
    out.unreadable = e.message();
  }
  return out;
}

}  // namespace

std::vector<DatasetIndex> describe_indices(const dataset::Dataset& ds, const std::vector<dataset::IndexInfo>& indices) {
  std::vector<DatasetIndex> out;
  const auto& frags = ds.fragments();
  for (const auto& ix : indices) {
    DatasetIndex d;
    d.name = ix.name;
    d.uuid = ix.uuid;
    d.known_type = !ix.type.empty();
    d.type = d.known_type ? ix.type : ix.type_url;
    d.type_url = ix.type_url;
    d.details = ix.details;
    d.field_ids = ix.field_ids;
    for (int32_t id : ix.field_ids) d.fields.push_back(field_path(ds.schema(), id));
    d.dataset_version = ix.dataset_version;
    d.created_at_ms = ix.created_at_ms;
    d.index_version = ix.index_version;
    d.fragment_ids = ix.fragment_ids;
    for (size_t i = 0; i < frags.size(); ++i) {
      const bool covered =
          frags[i].id <= UINT32_MAX &&
          std::binary_search(ix.fragment_ids.begin(), ix.fragment_ids.end(), static_cast<uint32_t>(frags[i].id));
      const uint64_t rows = i < ds.live_rows().size() ? ds.live_rows()[i] : 0;
      if (covered) {
        d.indexed_rows += rows;
      } else {
        d.unindexed_rows += rows;
        d.unindexed_fragments.push_back(frags[i].id);
      }
    }
    const std::string rel = io::join_path(std::string(dataset::kIndicesDir), ix.uuid);
    const std::string dir = io::join_path(ds.path(), rel);
    // One listing of the index directory tells which files exist (and their sizes).
    std::vector<io::ListEntry> listed;
    try {
      listed = ds.store().list(dir);
    } catch (const Error&) {  // a missing directory: every recorded file is missing
    }
    auto exists = [&](const std::string& name) {
      return std::any_of(listed.begin(), listed.end(),
                         [&](const io::ListEntry& e) { return !e.is_dir && e.name == name; });
    };
    for (const auto& f : ix.files) d.files.push_back({io::join_path(rel, f.path), f.size_bytes, true, exists(f.path)});
    if (ix.files.empty()) {  // older writers record no file list: show what is there
      std::vector<DatasetIndexFile> found;
      for (const auto& e : listed)
        if (!e.is_dir) found.push_back({io::join_path(rel, e.name), e.size, false, true});
      std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
      d.files = std::move(found);
    }
    for (const auto& f : d.files) d.size_bytes += f.size_bytes;
    if (ix.type_url == "/lance.index.pb.VectorIndexDetails") d.vector = vector_layout(ds, ix, dir);
    out.push_back(std::move(d));
  }
  return out;
}

Json indices_json(const std::vector<DatasetIndex>& indices) {
  Json arr = Json::array();
  for (const auto& d : indices) {
    Json j;
    j["name"] = d.name;
    j["uuid"] = d.uuid;
    j["type"] = d.type;
    j["type_url"] = d.type_url;
    j["known_type"] = d.known_type;
    j["details"] = d.details;
    j["fields"] = d.fields;
    j["field_ids"] = d.field_ids;
    j["dataset_version"] = d.dataset_version;
    j["created_at"] = d.created_at_ms ? Json(format_time_ms(*d.created_at_ms)) : Json(nullptr);
    j["index_version"] = d.index_version ? Json(*d.index_version) : Json(nullptr);
    j["fragment_ids"] = d.fragment_ids;
    j["unindexed_fragments"] = d.unindexed_fragments;
    j["indexed_rows"] = d.indexed_rows;
    j["unindexed_rows"] = d.unindexed_rows;
    j["size_bytes"] = d.size_bytes;
    if (d.vector) {
      const auto& v = *d.vector;
      j["vector"] = v.unreadable.empty() ? Json{{"metric", v.metric},
                                                {"dim", v.dim},
                                                {"partitions", v.partitions},
                                                {"min_partition_rows", v.min_partition_rows},
                                                {"max_partition_rows", v.max_partition_rows},
                                                {"pq_sub_vectors", v.pq_sub_vectors},
                                                {"pq_bits", v.pq_bits}}
                                         : Json{{"unreadable", v.unreadable}};
    }
    j["files"] = Json::array();
    for (const auto& f : d.files)
      j["files"].push_back(
          Json{{"path", f.path}, {"size_bytes", f.size_bytes}, {"recorded", f.recorded}, {"exists", f.exists}});
    arr.push_back(std::move(j));
  }
  return arr;
}

std::string render_indices_text(const std::vector<DatasetIndex>& indices, const TextOptions& o) {
  const Style style(o.color);
  std::string out = "\n" + style.bold("indices") + "\n";
  if (indices.empty()) return out + "  (none)\n";
  Table t({"name", "type", "fields", "built at", "fragments", "unindexed rows", "size"},
          {false, false, false, true, false, true, true});
  for (const auto& d : indices)
    t.add({d.name, d.type, join(d.fields, ","), "v" + std::to_string(d.dataset_version), ranges(d.fragment_ids),
           d.unindexed_rows ? fmt::format("{} (fragments {})", d.unindexed_rows, ranges(d.unindexed_fragments)) : "0",
           format_bytes(d.size_bytes, o.exact_bytes)});
  out += t.render(style, "  ");
  for (const auto& d : indices) {
    out += "\n  " + style.bold(d.name) + " · " + d.uuid + (d.known_type ? "" : " · unknown type") + "\n";
    std::string info = d.type_url;
    if (!d.details.empty()) info += " · " + d.details;
    if (d.created_at_ms) info += " · created " + format_time_ms(*d.created_at_ms);
    out += "    " + style.dim(info) + "\n";
    if (d.vector && d.vector->unreadable.empty()) {
      const auto& v = *d.vector;
      out += fmt::format("    {} distance, dimension {}, {} partitions of {}–{} rows", v.metric, v.dim, v.partitions,
                         v.min_partition_rows, v.max_partition_rows);
      if (v.pq_sub_vectors) out += fmt::format(", PQ {} sub-vectors × {} bits", v.pq_sub_vectors, v.pq_bits);
      out += d.unindexed_rows ? fmt::format("; {} rows not covered\n", d.unindexed_rows) : "\n";
    } else if (d.vector) {
      out += "    " + style.dim("files not read: " + d.vector->unreadable) + "\n";
    }
    for (const auto& f : d.files)
      out += fmt::format("    {}  {}{}\n", f.path, format_bytes(f.size_bytes, o.exact_bytes),
                         f.exists ? "" : "  (missing)");
  }
  return out;
}

}  // namespace lance::inspect
