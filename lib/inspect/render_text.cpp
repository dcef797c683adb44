// Text forms of inspect meta / schema / pages: aligned tables and indented key/value
// blocks, readable at 100 columns. Colour (bold headings, dim labels) only when asked.
#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "inspect/render.h"
#include "inspect/text_table.h"

namespace lance::inspect {

namespace {

std::string percent(double share) { return fmt::format("{:.1f}%", share * 100.0); }

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

/// Key/value lines: "<indent><label padded>  <value>", the value wrapped to `width` at
/// " › " and ", " boundaries, continuation lines aligned under the value.
class Block {
 public:
  Block(const Style& style, std::string indent, size_t label_width, size_t width)
      : style_(style), indent_(std::move(indent)), label_width_(label_width), width_(width) {}

  void add(const std::string& label, const std::string& value) {
    const size_t lead = display_width(indent_) + label_width_ + 2;
    const size_t avail = width_ > lead + 20 ? width_ - lead : 20;
    std::vector<std::string> lines = wrap(value, avail);
    std::string pad(label_width_ > display_width(label) ? label_width_ - display_width(label) : 0, ' ');
    out_ += indent_ + style_.dim(label) + pad + "  " + lines[0] + "\n";
    for (size_t i = 1; i < lines.size(); ++i) out_ += std::string(lead, ' ') + lines[i] + "\n";
  }
  void raw(const std::string& text) { out_ += text; }
  const Style& style() const { return style_; }
  const std::string& indent() const { return indent_; }
  const std::string& str() const { return out_; }

 private:
  static std::vector<std::string> wrap(const std::string& s, size_t avail) {
    std::vector<std::string> lines;
    std::string rest = s;
    while (display_width(rest) > avail) {
      // the last break point (after "› " or ", ") that keeps the line within `avail`
      size_t best = std::string::npos;
      for (size_t i = 0; i + 1 < rest.size(); ++i) {
        bool brk = (rest.compare(i, 2, ", ") == 0) || (rest.compare(i, 4, " \xe2\x80\xba ") == 0);
        if (!brk) continue;
        size_t cut = rest[i] == ',' ? i + 2 : i + 1;
        if (display_width(rest.substr(0, cut)) > avail) break;
        best = cut;
      }
      if (best == std::string::npos || best == 0) break;
      std::string head = rest.substr(0, best);
      while (!head.empty() && head.back() == ' ') head.pop_back();
      lines.push_back(head);
      rest = rest.substr(best);
    }
    lines.push_back(rest);
    return lines;
  }

  const Style& style_;
  std::string indent_;
  size_t label_width_;
  size_t width_;
  std::string out_;
};

constexpr size_t kLabelWidth = 12;

std::string yes_no(bool b) { return b ? "yes" : "no"; }

/// "976..1024 (avg 1000)", or "1024" when all are equal.
std::string stats_text(const Stats& s, const std::function<std::string(uint64_t)>& f) {
  if (s.min == s.max) return f(s.min);
  return fmt::format("{}..{} (avg {})", f(s.min), f(s.max), f(static_cast<uint64_t>(s.avg + 0.5)));
}

void layout_lines(Block& b, const LayoutDesc& l, const TextOptions& o) {
  auto bytes = [&](uint64_t n) { return format_bytes(n, o.exact_bytes); };
  auto number = [](uint64_t n) { return std::to_string(n); };
  if (l.mini_block) {
    const MiniBlockDesc& m = *l.mini_block;
    b.add("values", m.value_compression);
    if (m.rep_compression) b.add("repetition", *m.rep_compression);
    if (m.def_compression) b.add("definition", *m.def_compression);
    b.add("layers", join(m.layers, ", "));
    if (m.dictionary)
      b.add("dictionary",
            fmt::format("{} items{} · {}", m.dictionary->num_items,
                        m.dictionary->bytes ? ", " + bytes(*m.dictionary->bytes) : "", m.dictionary->encoding));
    b.add("items", fmt::format("{} · {} buffer{} per chunk · repetition index depth {} · large chunks {}", m.num_items,
                               m.num_buffers, m.num_buffers == 1 ? "" : "s", m.repetition_index_depth,
                               yes_no(m.has_large_chunk)));
    if (m.chunks)
      b.add("chunks", fmt::format("{} · {} · {} values", m.chunks->count, stats_text(m.chunks->bytes, bytes),
                                  stats_text(m.chunks->values, number)));
  }
  if (l.full_zip) {
    const FullZipDesc& f = *l.full_zip;
    b.add("values", f.value_compression);
    b.add("layers", join(f.layers, ", "));
    std::string width = f.bits_per_value    ? fmt::format("{} bits per value", *f.bits_per_value)
                        : f.bits_per_offset ? fmt::format("{}-bit length prefix", *f.bits_per_offset)
                                            : "no value width";
    b.add("items", fmt::format("{} ({} visible) · {} · control word: {} rep + {} def bits", f.num_items,
                               f.num_visible_items, width, f.bits_rep, f.bits_def));
  }
  if (l.constant) {
    const ConstantDesc& c = *l.constant;
    if (l.name == "constant")
      b.add("scalar", c.inline_value_bytes ? fmt::format("inline, {} bytes", *c.inline_value_bytes) : "in buffer 0");
    if (c.rep_compression) b.add("repetition", *c.rep_compression);
    if (c.def_compression) b.add("definition", *c.def_compression);
    b.add("layers", join(c.layers, ", "));
    if (c.num_rep_values || c.num_def_values)
      b.add("levels", fmt::format("{} repetition, {} definition", c.num_rep_values, c.num_def_values));
  }
  if (l.sparse) {
    const SparseDesc& s = *l.sparse;
    b.add("values", s.value_compression);
    b.add("items", fmt::format("{} ({} visible) · {} buffers per chunk · large chunks {}", s.num_items,
                               s.num_visible_items, s.num_buffers, yes_no(s.has_large_chunk)));
  }
  if (l.name == "blob") {
    b.add("layers", join(l.blob_layers, ", "));
    b.add("descriptions", l.blob_inner ? l.blob_inner->name + " layout:" : "(no layout)");
    if (l.blob_inner) {
      Block inner(b.style(), b.indent() + "  ", kLabelWidth - 2, o.width);
      layout_lines(inner, *l.blob_inner, o);
      b.raw(inner.str());
    }
  }
  if (l.array_encoding) b.add("encoding", *l.array_encoding);
}

}  // namespace

std::string format_bytes(uint64_t bytes, bool exact) {
  if (exact || bytes < 1024) return fmt::format("{} B", bytes);
  static const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes) / 1024.0;
  size_t u = 0;
  while (v >= 1024.0 && u + 1 < std::size(units)) v /= 1024.0, ++u;
  return fmt::format("{:.1f} {}", v, units[u]);
}

std::string render_text(const FileMeta& m, const TextOptions& o) {
  const Style style(o.color);
  auto bytes = [&](uint64_t n) { return format_bytes(n, o.exact_bytes); };
  const double size = static_cast<double>(m.file_size ? m.file_size : 1);
  std::string out = style.bold(m.path) + "\n";
  Block info(style, "  ", kLabelWidth, o.width);
  info.add("format", fmt::format("{} (footer {}.{})", m.format_version, m.footer_major, m.footer_minor));
  info.add("rows", std::to_string(m.num_rows));
  info.add("fields", std::to_string(m.num_fields));
  info.add("columns", std::to_string(m.num_columns));
  info.add("pages", std::to_string(m.num_pages));
  info.add("file size", bytes(m.file_size));
  out += info.str();

  out += "\n" + style.bold("bytes") + "\n";
  Table t({"part", "size", "share"}, {false, true, true});
  const ByteBreakdown& b = m.bytes;
  const std::pair<const char*, uint64_t> parts[] = {{"page buffers", b.page_buffers},
                                                    {"column buffers", b.column_buffers},
                                                    {"global buffers", b.global_buffers},
                                                    {"column metadata", b.column_metadata},
                                                    {"offset tables", b.offset_tables},
                                                    {"footer", b.footer},
                                                    {"other", b.other},
                                                    {"total", b.total}};
  for (const auto& [name, n] : parts) t.add({name, bytes(n), percent(static_cast<double>(n) / size)});
  out += t.render(style, "  ");

  out += "\n" + style.bold("global buffers") + "\n";
  Table g({"#", "offset", "size", "content"}, {true, true, true, false});
  for (const auto& gb : m.global_buffers)
    g.add({std::to_string(gb.index), std::to_string(gb.offset), bytes(gb.size), gb.content});
  out += g.render(style, "  ");

  out += "\n" + style.bold("columns") + "\n";
  Table c({"#", "path", "arrow type", "pages", "rows", "bytes", "share", "layouts"},
          {true, false, false, true, true, true, true, false});
  c.fit(2, o.width, 12);
  for (const auto& col : m.columns)
    c.add({std::to_string(col.column), elide(col.path, 28), elide(col.arrow_type, 32), std::to_string(col.num_pages),
           std::to_string(col.num_rows), bytes(col.bytes), percent(static_cast<double>(col.bytes) / size),
           join(col.layouts, ", ")});
  out += c.render(style, "  ");
  return out;
}

std::string render_text(const SchemaInfo& s, const TextOptions& o) {
  const Style style(o.color);
  std::string out;
  if (!s.path.empty())
    out += style.bold(s.path) + (s.kind == "dataset" ? " · dataset" : "") +
           (s.format_version.empty() ? "" : " · format " + s.format_version) + "\n";
  Table t({"field", "id", "parent", "lance type", "arrow type", "nullable", "columns"},
          {false, true, true, false, false, false, false});
  // metadata lines go right after their field's row; remember where
  std::vector<std::pair<size_t, std::string>> notes;  // row index, text
  size_t row = 0;
  std::function<void(const SchemaNode&, const std::string&, const std::string&)> walk =
      [&](const SchemaNode& n, const std::string& lead, const std::string& child_lead) {
        std::vector<std::string> cols;
        for (uint32_t c : n.columns) cols.push_back(std::to_string(c));
        t.add({lead + n.name, std::to_string(n.id), std::to_string(n.parent_id), elide(n.logical_type, 24),
               elide(n.arrow_type, 36), yes_no(n.nullable), join(cols, ",")});
        for (const auto& [k, v] : n.metadata) notes.emplace_back(row, child_lead + "  · " + k + " = " + v);
        ++row;
        for (size_t i = 0; i < n.children.size(); ++i) {
          const bool last = i + 1 == n.children.size();
          walk(n.children[i], child_lead + (last ? "└─ " : "├─ "), child_lead + (last ? "   " : "│  "));
        }
      };
  for (const auto& f : s.fields) walk(f, "", "");
  t.fit(4, o.width, 12);  // long Arrow types give way first
  std::string table = t.render(style, "");
  // splice the metadata lines in after their rows (line 0 is the header)
  std::vector<std::string> lines;
  for (size_t pos = 0; pos < table.size();) {
    size_t nl = table.find('\n', pos);
    lines.push_back(table.substr(pos, nl - pos + 1));
    pos = nl + 1;
  }
  size_t k = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    out += lines[i];
    while (i > 0 && k < notes.size() && notes[k].first == i - 1) out += style.dim(notes[k++].second) + "\n";
  }
  if (!s.metadata.empty()) {
    out += "\n" + style.bold("schema metadata") + "\n";
    for (const auto& [key, v] : s.metadata) out += "  " + key + " = " + v + "\n";
  }
  return out;
}

std::string render_text(const PagesReport& r, const TextOptions& o) {
  const Style style(o.color);
  auto bytes = [&](uint64_t n) { return format_bytes(n, o.exact_bytes); };
  std::string out = style.bold(r.path) +
                    fmt::format(" · format {} · {} rows · {}\n", r.format_version, r.num_rows, bytes(r.file_size));
  for (const auto& c : r.columns) {
    const std::string head = fmt::format("column {} · {}", c.column, c.path);
    const std::string tail = fmt::format(" · {} page{} · {} ({})", c.num_pages, c.num_pages == 1 ? "" : "s",
                                         bytes(c.bytes), percent(c.share)) +
                             (c.column_encoding == "values" ? "" : " · column encoding " + c.column_encoding);
    // the Arrow type gives way when the line would not fit
    const size_t used = display_width(head) + display_width(tail) + 3;
    const size_t room = o.width > used + 12 ? o.width - used : 12;
    out += "\n" + style.bold(head) + " · " + elide(c.arrow_type.empty() ? "?" : c.arrow_type, room) + tail + "\n";
    if (!c.column_buffers.empty()) {
      Table cb({"#", "role", "offset", "size"}, {true, false, true, true});
      for (const auto& b : c.column_buffers)
        cb.add({std::to_string(b.index), b.role, std::to_string(b.offset), bytes(b.size)});
      out += cb.render(style, "  ");
    }
    for (const auto& p : c.pages) {
      // 2.0 pages count entries of their own column (list items, for an item column)
      const char* unit = r.format_version == "2.0" ? "entries" : "rows";
      std::string rows =
          p.num_rows == 0 ? fmt::format("no {}", unit)
                          : fmt::format("{} {}-{} ({})", unit, p.first_row, p.first_row + p.num_rows - 1, p.num_rows);
      out += "  " + style.bold(fmt::format("page {}", p.page)) +
             fmt::format(" · {} · {} · {} ({})", rows, p.layout.name, bytes(p.bytes), percent(p.share));
      if (p.compression_ratio) out += fmt::format(" · ratio {:.2f}", *p.compression_ratio);
      out += "\n";
      Block b(style, "    ", kLabelWidth, o.width);
      layout_lines(b, p.layout, o);
      if (p.error) b.add("error", *p.error);
      out += b.str();
      if (!p.buffers.empty()) {
        Table bt({"#", "role", "offset", "size"}, {true, false, true, true});
        for (const auto& buf : p.buffers)
          bt.add({std::to_string(buf.index), buf.role, std::to_string(buf.offset), bytes(buf.size)});
        out += bt.render(style, "    ");
      }
    }
  }
  return out;
}

}  // namespace lance::inspect
