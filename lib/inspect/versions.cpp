// inspect versions: the history of a dataset (description, JSON and text).
#include "inspect/versions.h"

#include <algorithm>
#include <ctime>
#include <exception>

#include <fmt/format.h>

#include "dataset/dataset.h"
#include "dataset/indices.h"
#include "dataset/manifest_file.h"
#include "dataset/transaction.h"
#include "inspect/text_table.h"
#include "io/object_store.h"
#include "io/remote/stores.h"

namespace lance::inspect {

std::string format_time_ns(int64_t ns) {
  const int64_t secs = ns >= 0 ? ns / 1000000000 : (ns - 999999999) / 1000000000;
  const int64_t frac = ns - secs * 1000000000;
  const std::time_t t = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec, frac / 1000);
}

VersionsReport inspect_versions(const std::string& dir, const read::ReaderOptions& options) {
  VersionsReport r;
  r.path = dir;
  const auto store = io::store_for(dir, options.storage, options.stats);
  const auto locations = dataset::list_manifests(dir, *store);
  if (locations.empty())
    throw_corrupt("{}: no manifest in {}/ (not a committed Lance dataset?)", dir, dataset::kVersionsDir);
  const auto tags = dataset::list_tags(dir, *store);
  std::exception_ptr first_error;  // rethrown when no version could be read at all
  for (const auto& loc : locations) {
    VersionEntry e;
    e.version = loc.version;
    for (const auto& t : tags)
      if (t.version == loc.version && t.branch.empty()) e.tags.push_back(t.name);
    try {
      const dataset::ManifestFile mf = dataset::read_manifest_file(loc.path, *store);
      if (mf.proto.has_timestamp())
        e.timestamp_ns = mf.proto.timestamp().seconds() * 1000000000 + mf.proto.timestamp().nanos();
      if (!mf.proto.writer_version().library().empty())
        e.writer = mf.proto.writer_version().library() + " " + mf.proto.writer_version().version();
      e.num_indices = dataset::parse_indices(mf).size();
      std::optional<dataset::TransactionInfo> t;
      try {
        t = dataset::read_transaction(dir, mf, *store);
      } catch (const Error& txn_err) {
        // A transaction file that cannot be read (old writers' _transactions/ are often
        // cleaned up) leaves the operation unknown; the version itself is still described.
        if (txn_err.kind() != ErrorKind::io) throw;
      }
      if (t) {
        e.operation = t->operation;
        e.detail = t->detail;
        e.read_version = t->read_version;
        e.transaction = t->source;
      }
      auto ds = dataset::Dataset::open(dir, loc.version, options);
      e.num_rows = ds->num_rows();
      e.num_fragments = ds->fragments().size();
      for (size_t i = 0; i < ds->fragments().size(); ++i) {
        e.num_data_files += ds->fragments()[i].files.size();
        e.num_deleted_rows += ds->fragments()[i].physical_rows - ds->live_rows()[i];
      }
    } catch (const Error& err) {
      e.error = err.what();
      if (!first_error) first_error = std::current_exception();
    }
    r.versions.push_back(std::move(e));
  }
  if (std::all_of(r.versions.begin(), r.versions.end(), [](const VersionEntry& v) { return v.error.has_value(); }))
    std::rethrow_exception(first_error);
  return r;
}

Json to_json(const VersionsReport& r) {
  Json j;
  j["kind"] = "dataset";
  j["path"] = r.path;
  j["versions"] = Json::array();
  for (const auto& e : r.versions) {
    Json v;
    v["version"] = e.version;
    v["timestamp"] = e.timestamp_ns ? Json(format_time_ns(*e.timestamp_ns)) : Json(nullptr);
    v["timestamp_ns"] = e.timestamp_ns ? Json(*e.timestamp_ns) : Json(nullptr);
    v["operation"] = e.operation.empty() ? Json(nullptr) : Json(e.operation);
    v["detail"] = e.detail;
    v["read_version"] = e.read_version ? Json(*e.read_version) : Json(nullptr);
    v["transaction"] = e.transaction.empty() ? Json(nullptr) : Json(e.transaction);
    v["num_rows"] = e.num_rows;
    v["num_deleted_rows"] = e.num_deleted_rows;
    v["num_fragments"] = e.num_fragments;
    v["num_data_files"] = e.num_data_files;
    v["num_indices"] = e.num_indices;
    v["tags"] = e.tags;
    v["writer"] = e.writer;
    if (e.error) v["error"] = *e.error;
    j["versions"].push_back(std::move(v));
  }
  return j;
}

std::string render_text(const VersionsReport& r, const TextOptions& o) {
  const Style style(o.color);
  std::string out = style.bold(r.path) +
                    fmt::format(" · dataset · {} version{}\n", r.versions.size(), r.versions.size() == 1 ? "" : "s");
  Table t({"version", "timestamp (UTC)", "operation", "rows", "deleted", "frags", "tags", "detail"},
          {true, false, false, true, true, true, false, false});
  for (const auto& e : r.versions) {
    std::string tags;
    for (const auto& s : e.tags) tags += (tags.empty() ? "" : ",") + s;
    std::string ts = e.timestamp_ns ? format_time_ns(*e.timestamp_ns).substr(0, 19) : "-";  // to the second
    if (ts.size() > 10) ts[10] = ' ';
    t.add({std::to_string(e.version), ts, e.operation.empty() ? "-" : e.operation, std::to_string(e.num_rows),
           std::to_string(e.num_deleted_rows), std::to_string(e.num_fragments), tags.empty() ? "-" : tags,
           e.error ? "error: " + *e.error : e.detail});
  }
  t.fit(7, o.width, 24);
  out += t.render(style, "  ");
  return out;
}

}  // namespace lance::inspect
