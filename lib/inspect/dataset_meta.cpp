// inspect meta of a dataset directory: description, JSON and text.
#include "inspect/dataset_meta.h"

#include <filesystem>
#include <functional>

#include <fmt/format.h>

#include "dataset/manifest_file.h"
#include "inspect/text_table.h"

namespace lance::inspect {

DatasetMeta inspect_dataset_meta(const dataset::Dataset& ds) {
  const dataset::Manifest& m = ds.manifest();
  DatasetMeta out;
  out.path = ds.path();
  out.version = ds.version();
  out.manifest = m.path;
  for (const auto& loc : dataset::list_manifests(ds.path(), ds.store())) out.versions.push_back(loc.version);
  out.data_storage_version = m.data_storage_version;
  out.writer = m.writer;
  out.num_rows = ds.num_rows();
  for (size_t i = 0; i < m.fragments.size(); ++i) {
    const dataset::Fragment& f = m.fragments[i];
    DatasetFragment d;
    d.id = f.id;
    d.physical_rows = f.physical_rows;
    d.num_rows = i < ds.live_rows().size() ? ds.live_rows()[i] : f.physical_rows;
    d.deleted_rows = f.physical_rows >= d.num_rows ? f.physical_rows - d.num_rows : 0;
    for (const auto& file : f.files)
      d.data_files.push_back({file.path, fmt::format("{}.{}", file.major, file.minor), file.size_bytes, file.field_ids,
                              file.column_indices});
    if (f.deletion)
      d.deletion = DatasetDeletionFile{f.deletion->kind == dataset::DeletionFileRef::Kind::bitmap ? "bitmap" : "arrow",
                                       f.deletion->relative_path(f.id), f.deletion->num_deleted_rows};
    out.num_deleted_rows += d.deleted_rows;
    out.fragments.push_back(std::move(d));
  }
  std::function<void(const format::LanceField&, const std::string&)> walk = [&](const format::LanceField& f,
                                                                                const std::string& prefix) {
    std::string p = prefix.empty() ? f.name : prefix + "." + f.name;
    out.fields.push_back({f.id, f.parent_id, p, f.logical_type});
    for (const auto& c : f.children) walk(c, p);
  };
  for (const auto& f : ds.schema().fields) walk(f, "");
  try {
    out.indices = describe_indices(ds, dataset::parse_indices(dataset::manifest_file_of(m, ds.store())));
  } catch (const Error& e) {
    out.indices_error = e.what();
  }
  return out;
}

Json to_json(const DatasetMeta& m) {
  Json j;
  j["kind"] = "dataset";
  j["path"] = m.path;
  j["version"] = m.version;
  j["manifest"] = m.manifest;
  j["versions"] = m.versions;
  j["data_storage_version"] = m.data_storage_version;
  j["writer"] = m.writer;
  j["num_rows"] = m.num_rows;
  j["num_deleted_rows"] = m.num_deleted_rows;
  j["num_fragments"] = m.fragments.size();
  j["fragments"] = Json::array();
  for (const auto& f : m.fragments) {
    Json fj;
    fj["id"] = f.id;
    fj["physical_rows"] = f.physical_rows;
    fj["deleted_rows"] = f.deleted_rows;
    fj["num_rows"] = f.num_rows;
    fj["data_files"] = Json::array();
    for (const auto& d : f.data_files)
      fj["data_files"].push_back(Json{{"path", d.path},
                                      {"format_version", d.format_version},
                                      {"size_bytes", d.size_bytes},
                                      {"field_ids", d.field_ids},
                                      {"column_indices", d.column_indices}});
    if (f.deletion)
      fj["deletion_file"] = Json{
          {"kind", f.deletion->kind}, {"path", f.deletion->path}, {"num_deleted_rows", f.deletion->num_deleted_rows}};
    else
      fj["deletion_file"] = nullptr;
    j["fragments"].push_back(std::move(fj));
  }
  j["fields"] = Json::array();
  for (const auto& f : m.fields)
    j["fields"].push_back(
        Json{{"id", f.id}, {"parent_id", f.parent_id}, {"path", f.path}, {"logical_type", f.logical_type}});
  j["indices"] = indices_json(m.indices);
  if (m.indices_error) j["indices_error"] = *m.indices_error;
  return j;
}

namespace {

std::string join_ints(const std::vector<int32_t>& v) {
  std::string s;
  for (int32_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

}  // namespace

std::string render_text(const DatasetMeta& m, const TextOptions& o) {
  const Style style(o.color);
  auto line = [&](const std::string& label, const std::string& value) {
    return "  " + style.dim(label + std::string(label.size() < 12 ? 12 - label.size() : 0, ' ')) + "  " + value + "\n";
  };
  std::string versions;
  for (uint64_t v : m.versions) versions += (versions.empty() ? "" : ", ") + std::to_string(v);
  std::string out = style.bold(m.path) + " · dataset\n";
  out += line("version", fmt::format("{} (versions: {})", m.version, versions));
  out += line("manifest", std::filesystem::path(m.manifest).lexically_relative(m.path).string());
  out += line("storage", m.data_storage_version.empty() ? "(not recorded)" : m.data_storage_version);
  if (!m.writer.empty()) out += line("writer", m.writer);
  out += line("rows", fmt::format("{} ({} deleted)", m.num_rows, m.num_deleted_rows));
  out += line("fragments", std::to_string(m.fragments.size()));

  if (!m.fragments.empty()) {
    out += "\n" + style.bold("fragments") + "\n";
    Table frags({"id", "rows", "deleted", "physical", "files", "deletion file"}, {true, true, true, true, true, false});
    for (const auto& f : m.fragments)
      frags.add({std::to_string(f.id), std::to_string(f.num_rows), std::to_string(f.deleted_rows),
                 std::to_string(f.physical_rows), std::to_string(f.data_files.size()),
                 f.deletion ? f.deletion->kind + " " + f.deletion->path : "-"});
    out += frags.render(style, "  ");

    out += "\n" + style.bold("data files") + "\n";
    Table files({"fragment", "file", "format", "size", "field ids"}, {true, false, false, true, false});
    for (const auto& f : m.fragments)
      for (const auto& d : f.data_files)
        files.add({std::to_string(f.id), d.path, d.format_version,
                   d.size_bytes ? format_bytes(d.size_bytes, o.exact_bytes) : "?", join_ints(d.field_ids)});
    out += files.render(style, "  ");
  }

  out += "\n" + style.bold("fields") + "\n";
  Table fields({"id", "parent", "path", "lance type"}, {true, true, false, false});
  for (const auto& f : m.fields)
    fields.add({std::to_string(f.id), std::to_string(f.parent_id), f.path, f.logical_type});
  out += fields.render(style, "  ");
  out += render_indices_text(m.indices, o);
  if (m.indices_error) out += "  " + style.dim("index section unreadable: ") + *m.indices_error + "\n";
  return out;
}

}  // namespace lance::inspect
