#include "inspect/v1_report.h"

#include <functional>

namespace lance::inspect {

namespace {

std::string encoding_of(const format::LanceField& f) {
  const TypeId id = f.arrow->type->id;
  if (id == TypeId::struct_) return "none (struct: its children have the pages)";
  if (id == TypeId::dictionary) return "dictionary";
  if (f.arrow->type->is_binary_like()) return "var_binary";
  if (id == TypeId::list || id == TypeId::large_list) return "plain (list positions)";
  return "plain";
}

void walk(const format::LanceField& f, const std::string& prefix,
          const std::function<void(const format::LanceField&, const std::string&)>& fn) {
  const std::string path = prefix.empty() ? f.name : prefix + "." + f.name;
  fn(f, path);
  for (const auto& c : f.children) walk(c, path, fn);
}

V1Meta base(const format::FileReader& file) {
  const format::v1::FileMeta& v = *file.v1();
  V1Meta m;
  m.path = file.path();
  m.format_version = file.version().to_string();
  m.footer_minor = v.minor;
  m.writer = v.writer;
  m.file_size = file.file_size();
  m.num_rows = v.num_rows();
  for (size_t b = 0; b < v.num_batches(); ++b) m.batch_rows.push_back(v.batch_rows(b));
  m.num_fields = file.schema().fields.size();
  m.min_field_id = v.min_field_id;
  m.max_field_id = v.max_field_id;
  m.page_table_position = v.page_table_position;
  m.page_table_bytes = v.pages.size() * 16;
  m.manifest_position = v.manifest_position;
  m.manifest_bytes = v.manifest_length + 4;
  m.metadata_position = v.metadata_position;
  m.metadata_bytes = v.metadata_length + 4;
  return m;
}

V1FieldPages describe(const format::FileReader& file, const format::LanceField& f, const std::string& path) {
  const format::v1::FileMeta& v = *file.v1();
  V1FieldPages fp;
  fp.id = f.id;
  fp.path = path;
  fp.logical_type = f.logical_type;
  fp.arrow_type = f.arrow && f.arrow->type ? f.arrow->type->to_string() : "";
  fp.encoding = encoding_of(f);
  if (auto it = v.dictionaries.find(f.id); it != v.dictionaries.end()) {
    fp.dictionary_offset = it->second.offset;
    fp.dictionary_values = it->second.length;
  }
  return fp;
}

}  // namespace

V1Meta inspect_v1_meta(const format::FileReader& file) {
  V1Meta m = base(file);
  for (const auto& f : file.schema().fields)
    walk(f, "",
         [&](const format::LanceField& n, const std::string& path) { m.fields.push_back(describe(file, n, path)); });
  return m;
}

V1Meta inspect_v1_pages(const format::FileReader& file, const PageFilter& filter) {
  const format::v1::FileMeta& v = *file.v1();
  V1Meta m = base(file);
  std::vector<std::string> all;
  for (const auto& f : file.schema().fields)
    walk(f, "", [&](const format::LanceField&, const std::string& path) { all.push_back(path); });
  for (const auto& c : filter.columns)
    if (std::find(all.begin(), all.end(), c) == all.end()) throw_usage("no column '{}' in {}", c, file.path());
  auto selected = [&](const std::string& path) {
    if (filter.columns.empty()) return true;
    for (const auto& c : filter.columns)
      if (path == c || path.rfind(c + ".", 0) == 0) return true;
    return false;
  };
  for (const auto& f : file.schema().fields) {
    walk(f, "", [&](const format::LanceField& n, const std::string& path) {
      if (!selected(path)) return;
      V1FieldPages fp = describe(file, n, path);
      for (size_t b = 0; b < v.num_batches(); ++b) {
        if (filter.page && *filter.page != b) continue;
        const auto& p = v.page(n.id, b);
        fp.pages.push_back({b, v.batch_starts[b], v.batch_rows(b), p.position, p.length});
      }
      m.fields.push_back(std::move(fp));
    });
  }
  return m;
}

Json to_json(const V1Meta& m) {
  Json j;
  j["kind"] = "file";
  j["path"] = m.path;
  j["format_version"] = m.format_version;
  j["footer_major"] = 0;
  j["footer_minor"] = m.footer_minor;
  j["writer"] = m.writer.empty() ? Json() : Json(m.writer);
  j["file_size"] = m.file_size;
  j["num_rows"] = m.num_rows;
  j["batch_rows"] = m.batch_rows;
  j["num_fields"] = m.num_fields;
  j["field_ids"] = {m.min_field_id, m.max_field_id};
  j["page_table"] = {{"offset", m.page_table_position}, {"size", m.page_table_bytes}};
  j["schema_manifest"] = {{"offset", m.manifest_position}, {"size", m.manifest_bytes}};
  j["metadata"] = {{"offset", m.metadata_position}, {"size", m.metadata_bytes}};
  Json fields = Json::array();
  for (const auto& f : m.fields) {
    Json x;
    x["field_id"] = f.id;
    x["path"] = f.path;
    x["logical_type"] = f.logical_type;
    x["arrow_type"] = f.arrow_type;
    x["encoding"] = f.encoding;
    if (f.dictionary_offset) x["dictionary"] = {{"offset", *f.dictionary_offset}, {"values", *f.dictionary_values}};
    if (!f.pages.empty()) {
      Json pages = Json::array();
      for (const auto& p : f.pages)
        pages.push_back({{"batch", p.batch},
                         {"first_row", p.first_row},
                         {"num_rows", p.batch_rows},
                         {"position", p.position},
                         {"length", p.length}});
      x["pages"] = pages;
    }
    fields.push_back(x);
  }
  j["fields"] = fields;
  return j;
}

std::string render_text(const V1Meta& m, const TextOptions& o) {
  auto bytes = [&](uint64_t n) { return format_bytes(n, o.exact_bytes); };
  std::string out = m.path + "\n";
  auto line = [&](const char* label, const std::string& value) { out += fmt::format("  {:<13} {}\n", label, value); };
  line("format", m.format_version);
  if (!m.writer.empty()) line("writer", m.writer);
  line("rows", std::to_string(m.num_rows));
  std::string batches = std::to_string(m.batch_rows.size());
  if (!m.batch_rows.empty()) {
    batches += " (";
    for (size_t i = 0; i < m.batch_rows.size(); ++i) batches += (i ? ", " : "") + std::to_string(m.batch_rows[i]);
    batches += " rows)";
  }
  line("batches", batches);
  line("fields", fmt::format("{} top-level, ids {}-{}", m.num_fields, m.min_field_id, m.max_field_id));
  line("file size", bytes(m.file_size));
  line("page table", fmt::format("at {}, {}", m.page_table_position, bytes(m.page_table_bytes)));
  line("schema", fmt::format("at {}, {} (embedded manifest)", m.manifest_position, bytes(m.manifest_bytes)));
  line("metadata", fmt::format("at {}, {}", m.metadata_position, bytes(m.metadata_bytes)));
  const bool with_pages =
      std::any_of(m.fields.begin(), m.fields.end(), [](const V1FieldPages& f) { return !f.pages.empty(); });
  if (!with_pages) {
    out += "\nfields\n";
    out += fmt::format("  {:>3}  {:<20} {:<32} {}\n", "id", "path", "arrow type", "encoding");
    for (const auto& f : m.fields) {
      std::string enc = f.encoding;
      if (f.dictionary_offset) enc += fmt::format(" ({} values at {})", *f.dictionary_values, *f.dictionary_offset);
      out += fmt::format("  {:>3}  {:<20} {:<32} {}\n", f.id, f.path, f.arrow_type, enc);
    }
    return out;
  }
  for (const auto& f : m.fields) {
    out += fmt::format("\nfield {} · {} · {} · {}\n", f.id, f.path, f.arrow_type, f.encoding);
    if (f.dictionary_offset)
      out += fmt::format("  dictionary    {} values at {}\n", *f.dictionary_values, *f.dictionary_offset);
    out += fmt::format("  {:>5}  {:<15} {:>12}  {:>10}\n", "batch", "rows", "position", "length");
    for (const auto& p : f.pages)
      out += fmt::format("  {:>5}  {:<15} {:>12}  {:>10}\n", p.batch,
                         fmt::format("{}-{}", p.first_row, p.first_row + p.batch_rows - (p.batch_rows ? 1 : 0)),
                         p.position, p.length);
  }
  return out;
}

}  // namespace lance::inspect
