// Text and JSON of inspect columns (inspect/columns_report.h); JSON field names in
// docs/inspect.md.
#include <fmt/format.h>

#include "inspect/render.h"
#include "inspect/text_table.h"

namespace lance::inspect {

namespace {

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

template <typename T>
Json opt_json(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

std::string header(const ColumnsReport& r, const TextOptions& o, const Style& style) {
  std::string out = style.bold(r.path) + fmt::format(" · {} · format {}", r.kind, r.format_version);
  if (r.version) out += fmt::format(" · version {}", *r.version);
  out += fmt::format(" · {} rows · {} data file{} · {}\n\n", r.num_rows, r.data_files, r.data_files == 1 ? "" : "s",
                     format_bytes(r.data_bytes, o.exact_bytes));
  return out;
}

}  // namespace

Json to_json(const ColumnsReport& r) {
  Json j;
  j["kind"] = r.kind;
  j["path"] = r.path;
  j["format_version"] = r.format_version;
  j["version"] = opt_json(r.version);
  j["num_rows"] = r.num_rows;
  j["data_files"] = r.data_files;
  j["data_bytes"] = r.data_bytes;
  j["decoded"] = r.decoded;
  j["columns"] = Json::array();
  for (const auto& c : r.columns) {
    Json cj{{"path", c.path},   {"field_id", c.field_id}, {"arrow_type", c.arrow_type},
            {"files", c.files}, {"pages", c.pages},       {"bytes", c.bytes},
            {"share", c.share}, {"layouts", c.layouts},   {"encodings", c.encodings}};
    if (r.decoded) {
      cj["values"] = opt_json(c.values);
      cj["null_count"] = opt_json(c.null_count);
      cj["decoded_bytes"] = opt_json(c.decoded_bytes);
      cj["compression_ratio"] = opt_json(c.compression_ratio);
      cj["min"] = opt_json(c.min);
      cj["max"] = opt_json(c.max);
    }
    j["columns"].push_back(std::move(cj));
  }
  return j;
}

std::string render_text(const ColumnsReport& r, const TextOptions& o) {
  const Style style(o.color);
  auto bytes = [&](uint64_t n) { return format_bytes(n, o.exact_bytes); };
  std::vector<std::string> heads{"column", "type", "pages", "bytes", "share"};
  std::vector<bool> right{false, false, true, true, true};
  if (r.decoded) {
    heads.insert(heads.end(), {"decoded", "ratio", "nulls", "min", "max"});
    right.insert(right.end(), {true, true, true, false, false});
  }
  heads.insert(heads.end(), {"layouts", "encodings"});
  right.insert(right.end(), {false, false});
  Table t(heads, right);
  for (const auto& c : r.columns) {
    std::vector<std::string> row{c.path, c.arrow_type, std::to_string(c.pages), bytes(c.bytes),
                                 fmt::format("{:.1f}%", c.share * 100.0)};
    if (r.decoded) {
      row.push_back(c.decoded_bytes ? bytes(*c.decoded_bytes) : "");
      row.push_back(c.compression_ratio ? fmt::format("{:.2f}", *c.compression_ratio) : "");
      row.push_back(c.null_count ? std::to_string(*c.null_count) : "");
      row.push_back(elide(c.min.value_or(""), 24));
      row.push_back(elide(c.max.value_or(""), 24));
    }
    row.push_back(join(c.layouts));
    row.push_back(join(c.encodings));
    t.add(std::move(row));
  }
  t.fit(heads.size() - 1, o.width, 16);  // long encoding descriptions give way first
  return header(r, o, style) + t.render(style, "");
}

}  // namespace lance::inspect
