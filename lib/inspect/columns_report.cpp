// inspect columns, on disk: each data file's page descriptions (inspect_pages, no chunk
// metadata read; legacy v1: its page table) summed per column.
#include "inspect/columns_report.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "inspect/inspect.h"
#include "inspect/v1_report.h"

namespace lance::inspect {

namespace {

void add_distinct(std::vector<std::string>& list, const std::string& value) {
  if (!value.empty() && std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

/// The value encodings of one 2.1+ page layout (a blob's: those of its descriptions).
void add_encodings(std::vector<std::string>& out, const LayoutDesc& layout) {
  if (layout.mini_block) {
    add_distinct(out, layout.mini_block->value_compression);
    if (layout.mini_block->dictionary) add_distinct(out, "dictionary: " + layout.mini_block->dictionary->encoding);
  }
  if (layout.full_zip) add_distinct(out, layout.full_zip->value_compression);
  if (layout.sparse) add_distinct(out, layout.sparse->value_compression);
  if (layout.constant) add_distinct(out, layout.name);
  if (layout.array_encoding) add_distinct(out, *layout.array_encoding);
  if (layout.blob_inner) add_encodings(out, *layout.blob_inner);
}

/// Columns keyed by field id (or by path when no field maps to one), in first-seen order.
class Columns {
 public:
  ColumnUsage& at(int32_t field_id, const std::string& path) {
    const std::string key = field_id >= 0 ? "#" + std::to_string(field_id) : path;
    auto [it, fresh] = index_.emplace(key, columns_.size());
    if (fresh) {
      columns_.emplace_back();
      columns_.back().field_id = field_id;
      columns_.back().path = path;
    }
    return columns_[it->second];
  }
  std::vector<ColumnUsage> take() { return std::move(columns_); }

 private:
  std::map<std::string, size_t> index_;
  std::vector<ColumnUsage> columns_;
};

void add_v2_file(Columns& columns, const format::FileReader& file) {
  PageFilter filter;
  filter.read_chunk_metadata = false;
  const PagesReport pages = inspect_pages(file, filter);
  for (const auto& cp : pages.columns) {
    ColumnUsage& c = columns.at(cp.field_id, cp.path);
    if (c.arrow_type.empty()) c.arrow_type = cp.arrow_type;
    c.files += 1;
    c.pages += cp.num_pages;
    c.bytes += cp.bytes;
    for (const auto& p : cp.pages) {
      add_distinct(c.layouts, p.layout.name);
      add_encodings(c.encodings, p.layout);
    }
  }
}

/// Bits per value of a v1 "plain" page of `type` (fixed_size_list: the whole list), 0 when
/// the values have no fixed width.
uint64_t plain_bits(const TypePtr& type) {
  if (!type) return 0;
  if (type->id == TypeId::fixed_size_list && !type->children.empty())
    return plain_bits(type->children[0]->type) * static_cast<uint64_t>(type->list_size);
  if (type->id == TypeId::fixed_size_binary) return 8 * static_cast<uint64_t>(type->byte_width);
  return static_cast<uint64_t>(type->bit_width());
}

/// Legacy v1: a plain fixed-width page holds length × width bytes; other pages (and
/// dictionaries) are counted as their span up to the next page, dictionary or page table
/// (an upper bound: page statistics written between pages count too).
void add_v1_file(Columns& columns, const format::FileReader& file) {
  const V1Meta meta = inspect_v1_pages(file, PageFilter{});
  std::map<int32_t, const format::LanceField*> by_id;
  std::function<void(const format::LanceField&)> walk = [&](const format::LanceField& f) {
    by_id[f.id] = &f;
    for (const auto& c : f.children) walk(c);
  };
  for (const auto& f : file.schema().fields) walk(f);
  std::set<uint64_t> starts{meta.page_table_position};
  for (const auto& f : meta.fields) {
    if (f.encoding.rfind("none", 0) == 0) continue;  // a struct: its children have the pages
    for (const auto& p : f.pages) starts.insert(p.position);
    if (f.dictionary_offset) starts.insert(*f.dictionary_offset);
  }
  auto span = [&](uint64_t position) {
    auto next = starts.upper_bound(position);
    return next == starts.end() ? 0 : *next - position;
  };
  for (const auto& f : meta.fields) {
    if (f.encoding.rfind("none", 0) == 0) continue;
    ColumnUsage& c = columns.at(f.id, f.path);
    if (c.arrow_type.empty()) c.arrow_type = f.arrow_type;
    c.files += 1;
    c.pages += f.pages.size();
    const auto it = by_id.find(f.id);
    const uint64_t bits =
        f.encoding == "plain" && it != by_id.end() && it->second->arrow ? plain_bits(it->second->arrow->type) : 0;
    for (const auto& p : f.pages) c.bytes += bits ? (p.length * bits + 7) / 8 : span(p.position);
    if (f.dictionary_offset) c.bytes += span(*f.dictionary_offset);
    add_distinct(c.layouts, "v1 page");
    add_distinct(c.encodings, f.encoding);
  }
}

void add_file(Columns& columns, const format::FileReader& file) {
  if (file.v1())
    add_v1_file(columns, file);
  else
    add_v2_file(columns, file);
}

void finish_shares(ColumnsReport& report) {
  for (auto& c : report.columns)
    c.share = report.data_bytes ? static_cast<double>(c.bytes) / static_cast<double>(report.data_bytes) : 0;
}

}  // namespace

ColumnsReport inspect_columns(const format::FileReader& file) {
  ColumnsReport report;
  report.path = file.path();
  report.format_version = file.version().to_string();
  report.num_rows = file.num_rows();
  report.data_files = 1;
  report.data_bytes = file.file_size();
  Columns columns;
  add_file(columns, file);
  report.columns = columns.take();
  finish_shares(report);
  return report;
}

ColumnsReport inspect_columns(const dataset::Dataset& dataset) {
  ColumnsReport report;
  report.kind = "dataset";
  report.path = dataset.path();
  report.version = dataset.version();
  report.num_rows = dataset.num_rows();
  Columns columns;
  for (const auto& frag : dataset.fragments()) {
    for (const auto& ref : frag.files) {
      const auto file = dataset.open_data_file(ref);
      if (report.format_version.empty()) report.format_version = file->version().to_string();
      report.data_files += 1;
      report.data_bytes += file->file_size();
      add_file(columns, *file);
    }
  }
  if (report.format_version.empty()) report.format_version = dataset.manifest().data_storage_version;
  // Dataset names (renames apply) and schema order; columns of dropped fields go last.
  std::map<int32_t, std::pair<size_t, std::string>> order;
  std::function<void(const format::LanceField&, const std::string&)> walk = [&](const format::LanceField& f,
                                                                                const std::string& prefix) {
    const std::string path = prefix.empty() ? f.name : prefix + "." + f.name;
    order.emplace(f.id, std::make_pair(order.size(), path));
    for (const auto& child : f.children) walk(child, path);
  };
  for (const auto& f : dataset.schema().fields) walk(f, "");
  report.columns = columns.take();
  for (auto& c : report.columns)
    if (auto it = order.find(c.field_id); it != order.end()) c.path = it->second.second;
  std::stable_sort(report.columns.begin(), report.columns.end(), [&](const ColumnUsage& a, const ColumnUsage& b) {
    auto rank = [&](const ColumnUsage& c) {
      auto it = order.find(c.field_id);
      return it == order.end() ? order.size() : it->second.first;
    };
    return rank(a) < rank(b);
  });
  finish_shares(report);
  return report;
}

}  // namespace lance::inspect
