// inspect meta: the container of a data file (docs/format.md §2) — version, counts,
// where the bytes go, global buffers — and one line per column.
#include <algorithm>

#include "inspect/inspect.h"

namespace lance::inspect {

namespace {

std::string page_layout_name(const format::PageInfo& page) {
  if (page.array_encoding) return "array-encoding";
  if (!page.layout) return "unknown";
  return describe_layout(*page.layout, page.buffers.size()).name;
}

}  // namespace

FileMeta inspect_file_meta(const format::FileReader& file) {
  const format::Footer& footer = file.footer();
  FileMeta m;
  m.path = file.path();
  m.format_version = file.version().to_string();
  m.footer_major = footer.version.major;
  m.footer_minor = footer.version.minor;
  m.file_size = file.file_size();
  m.num_rows = file.num_rows();
  m.num_fields = file.schema().fields.size();
  m.num_columns = file.columns().size();

  ByteBreakdown& b = m.bytes;
  const auto columns = map_columns(file);
  for (const auto& col : file.columns()) {
    ColumnSummary s;
    s.column = col.index;
    if (col.index < columns.size()) {
      const ColumnField& cf = columns[col.index];
      s.path = cf.path;
      if (cf.field && cf.field->arrow && cf.field->arrow->type) s.arrow_type = cf.field->arrow->type->to_string();
    }
    s.num_pages = col.pages.size();
    for (const auto& r : col.buffers) b.column_buffers += r.length, s.bytes += r.length;
    for (const auto& page : col.pages) {
      s.num_rows += page.num_rows;
      for (const auto& r : page.buffers) b.page_buffers += r.length, s.bytes += r.length;
      std::string layout = page_layout_name(page);
      if (std::find(s.layouts.begin(), s.layouts.end(), layout) == s.layouts.end()) s.layouts.push_back(layout);
    }
    m.num_pages += col.pages.size();
    b.column_metadata += col.metadata_range.length;
    m.columns.push_back(std::move(s));
  }
  for (size_t i = 0; i < file.global_buffers().size(); ++i) {
    const auto& r = file.global_buffers()[i];
    m.global_buffers.push_back(
        {static_cast<uint32_t>(i), r.offset, r.length, i == 0 ? "file descriptor (schema, row count)" : "user data"});
    b.global_buffers += r.length;
  }
  b.offset_tables = (uint64_t{footer.num_columns} + footer.num_global_buffers) * format::kOffsetEntrySize;
  b.footer = std::min<uint64_t>(format::kFooterSize, m.file_size);
  b.total = m.file_size;
  const uint64_t accounted =
      b.page_buffers + b.column_buffers + b.global_buffers + b.column_metadata + b.offset_tables + b.footer;
  // Buffers may overlap in a hand-made file; then nothing is left over.
  b.other = accounted <= b.total ? b.total - accounted : 0;
  return m;
}

}  // namespace lance::inspect
