// JSON documents of inspect meta / schema / pages, built from the description structs.
// Absent optional encodings are null; sizes that are not known (decoded_bytes,
// compression_ratio, chunks) are left out.
#include "inspect/render.h"

namespace lance::inspect {

namespace {

Json opt(const std::optional<std::string>& s) { return s ? Json(*s) : Json(nullptr); }

Json stats_json(const Stats& s) { return Json{{"min", s.min}, {"avg", s.avg}, {"max", s.max}}; }

Json buffers_json(const std::vector<BufferDesc>& buffers) {
  Json out = Json::array();
  for (const auto& b : buffers)
    out.push_back(Json{{"index", b.index}, {"role", b.role}, {"offset", b.offset}, {"size", b.size}});
  return out;
}

Json mini_block_json(const MiniBlockDesc& m) {
  Json j;
  j["value_compression"] = m.value_compression;
  j["rep_compression"] = opt(m.rep_compression);
  j["def_compression"] = opt(m.def_compression);
  j["layers"] = m.layers;
  if (m.dictionary) {
    Json d{{"num_items", m.dictionary->num_items}, {"encoding", m.dictionary->encoding}};
    d["bytes"] = m.dictionary->bytes ? Json(*m.dictionary->bytes) : Json(nullptr);
    j["dictionary"] = std::move(d);
  } else {
    j["dictionary"] = nullptr;
  }
  j["num_buffers"] = m.num_buffers;
  j["num_items"] = m.num_items;
  j["repetition_index_depth"] = m.repetition_index_depth;
  j["has_large_chunk"] = m.has_large_chunk;
  if (m.chunks)
    j["chunks"] = Json{
        {"count", m.chunks->count}, {"bytes", stats_json(m.chunks->bytes)}, {"values", stats_json(m.chunks->values)}};
  return j;
}

Json full_zip_json(const FullZipDesc& f) {
  Json j;
  j["bits_rep"] = f.bits_rep;
  j["bits_def"] = f.bits_def;
  j["bits_per_value"] = f.bits_per_value ? Json(*f.bits_per_value) : Json(nullptr);
  j["bits_per_offset"] = f.bits_per_offset ? Json(*f.bits_per_offset) : Json(nullptr);
  j["num_items"] = f.num_items;
  j["num_visible_items"] = f.num_visible_items;
  j["value_compression"] = f.value_compression;
  j["layers"] = f.layers;
  return j;
}

Json constant_json(const ConstantDesc& c) {
  Json j;
  j["inline_value_bytes"] = c.inline_value_bytes ? Json(*c.inline_value_bytes) : Json(nullptr);
  j["rep_compression"] = opt(c.rep_compression);
  j["def_compression"] = opt(c.def_compression);
  j["num_rep_values"] = c.num_rep_values;
  j["num_def_values"] = c.num_def_values;
  j["layers"] = c.layers;
  return j;
}

Json sparse_json(const SparseDesc& s) {
  return Json{{"value_compression", s.value_compression},
              {"num_buffers", s.num_buffers},
              {"num_items", s.num_items},
              {"num_visible_items", s.num_visible_items},
              {"has_large_chunk", s.has_large_chunk}};
}

/// Adds "layout" and the object of that layout to `j`.
void add_layout(Json& j, const LayoutDesc& l) {
  j["layout"] = l.name;
  if (l.mini_block) j["mini_block"] = mini_block_json(*l.mini_block);
  if (l.full_zip) j["full_zip"] = full_zip_json(*l.full_zip);
  if (l.constant) j["constant"] = constant_json(*l.constant);
  if (l.sparse) j["sparse"] = sparse_json(*l.sparse);
  if (l.name == "blob") {
    Json b;
    b["layers"] = l.blob_layers;
    if (l.blob_inner) {
      Json inner;
      add_layout(inner, *l.blob_inner);
      b["inner"] = std::move(inner);
    } else {
      b["inner"] = nullptr;
    }
    j["blob"] = std::move(b);
  }
  if (l.array_encoding) j["array_encoding"] = *l.array_encoding;
}

Json schema_node_json(const SchemaNode& n) {
  Json j;
  j["id"] = n.id;
  j["parent_id"] = n.parent_id;
  j["name"] = n.name;
  j["path"] = n.path;
  j["logical_type"] = n.logical_type;
  j["arrow_type"] = n.arrow_type;
  j["nullable"] = n.nullable;
  j["metadata"] = Json::object();
  for (const auto& [k, v] : n.metadata) j["metadata"][k] = v;
  j["columns"] = n.columns;
  j["children"] = Json::array();
  for (const auto& c : n.children) j["children"].push_back(schema_node_json(c));
  return j;
}

}  // namespace

Json to_json(const FileMeta& m) {
  Json j;
  j["kind"] = "file";
  j["path"] = m.path;
  j["format_version"] = m.format_version;
  j["footer_version"] = Json{{"major", m.footer_major}, {"minor", m.footer_minor}};
  j["file_size"] = m.file_size;
  j["num_rows"] = m.num_rows;
  j["num_fields"] = m.num_fields;
  j["num_columns"] = m.num_columns;
  j["num_pages"] = m.num_pages;
  const ByteBreakdown& b = m.bytes;
  j["bytes"] = Json{{"page_buffers", b.page_buffers},
                    {"column_buffers", b.column_buffers},
                    {"global_buffers", b.global_buffers},
                    {"column_metadata", b.column_metadata},
                    {"offset_tables", b.offset_tables},
                    {"footer", b.footer},
                    {"other", b.other},
                    {"total", b.total}};
  j["global_buffers"] = Json::array();
  for (const auto& g : m.global_buffers)
    j["global_buffers"].push_back(
        Json{{"index", g.index}, {"offset", g.offset}, {"size", g.size}, {"content", g.content}});
  j["columns"] = Json::array();
  const double size = static_cast<double>(m.file_size ? m.file_size : 1);
  for (const auto& c : m.columns) {
    j["columns"].push_back(Json{{"column", c.column},
                                {"path", c.path},
                                {"arrow_type", c.arrow_type},
                                {"num_pages", c.num_pages},
                                {"num_rows", c.num_rows},
                                {"bytes", c.bytes},
                                {"share", static_cast<double>(c.bytes) / size},
                                {"layouts", c.layouts}});
  }
  return j;
}

Json to_json(const SchemaInfo& s) {
  Json j;
  j["kind"] = s.kind;
  j["path"] = s.path;
  j["format_version"] = s.format_version;
  j["fields"] = Json::array();
  for (const auto& f : s.fields) j["fields"].push_back(schema_node_json(f));
  j["metadata"] = Json::object();
  for (const auto& [k, v] : s.metadata) j["metadata"][k] = v;
  return j;
}

Json to_json(const PagesReport& r) {
  Json j;
  j["kind"] = "file";
  j["path"] = r.path;
  j["format_version"] = r.format_version;
  j["file_size"] = r.file_size;
  j["num_rows"] = r.num_rows;
  j["columns"] = Json::array();
  for (const auto& c : r.columns) {
    Json cj;
    cj["column"] = c.column;
    cj["path"] = c.path;
    cj["field_id"] = c.field_id;
    cj["arrow_type"] = c.arrow_type;
    cj["column_encoding"] = c.column_encoding;
    cj["num_pages"] = c.num_pages;
    cj["bytes"] = c.bytes;
    cj["share"] = c.share;
    cj["column_buffers"] = buffers_json(c.column_buffers);
    cj["pages"] = Json::array();
    for (const auto& p : c.pages) {
      Json pj;
      pj["column"] = p.column;
      pj["page"] = p.page;
      pj["first_row"] = p.first_row;
      pj["num_rows"] = p.num_rows;
      add_layout(pj, p.layout);
      pj["buffers"] = buffers_json(p.buffers);
      pj["bytes"] = p.bytes;
      pj["share"] = p.share;
      if (p.decoded_bytes) pj["decoded_bytes"] = *p.decoded_bytes;
      if (p.compression_ratio) pj["compression_ratio"] = *p.compression_ratio;
      if (p.error) pj["error"] = *p.error;
      cj["pages"].push_back(std::move(pj));
    }
    j["columns"].push_back(std::move(cj));
  }
  return j;
}

}  // namespace lance::inspect
