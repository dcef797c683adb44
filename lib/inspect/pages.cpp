// inspect pages: each page's layout, encodings, buffers and sizes (docs/format.md sections
// 4 and 5). Reads only mini-block chunk metadata and repetition indexes; decodes nothing.
#include <algorithm>
#include <limits>

#include "common/closest_name.h"
#include "encoding/decompress.h"
#include "inspect/internal.h"
#include "read/row_reader.h"
#include "structural/miniblock.h"

namespace lance::inspect {

namespace {

namespace pb = ::lance::encodings21;

std::optional<std::string> describe_if(bool present, const pb::CompressiveEncoding& enc) {
  if (!present) return std::nullopt;
  return encoding::describe(enc);
}

template <typename Layers>
std::vector<std::string> layer_names(const Layers& layers) {
  std::vector<std::string> out;
  for (int l : layers) out.push_back(layer_name(l));
  return out;
}

bool is_list_layer(const std::string& name) { return name.find("_LIST") != std::string::npos; }

/// Bits of one value of a fixed-width type (fixed-size lists of fixed-width items
/// included); 0 when values vary in size.
uint64_t fixed_value_bits(const DataType& type) {
  if (type.id == TypeId::fixed_size_list) {
    if (type.children.empty() || !type.children[0]->type || type.list_size <= 0) return 0;
    return static_cast<uint64_t>(type.list_size) * fixed_value_bits(*type.children[0]->type);
  }
  const int bits = type.bit_width();
  return bits > 0 ? static_cast<uint64_t>(bits) : 0;
}

/// Value slots of a page whose count the layout states without decoding levels.
std::optional<uint64_t> value_slots(const LayoutDesc& layout, uint64_t num_rows, bool structural) {
  if (!structural) return layout.name == "array-encoding" ? std::optional<uint64_t>(num_rows) : std::nullopt;
  if (layout.mini_block) return layout.mini_block->num_items;
  if (layout.full_zip) return layout.full_zip->num_visible_items;
  if (layout.sparse) return layout.sparse->num_visible_items;
  if (layout.constant) {
    const auto& layers = layout.constant->layers;
    if (std::none_of(layers.begin(), layers.end(), is_list_layer)) return num_rows;
  }
  return std::nullopt;
}

Stats stats_of(const std::vector<uint64_t>& v) {
  Stats s;
  if (v.empty()) return s;
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  double sum = 0;
  for (uint64_t x : v) sum += static_cast<double>(x);
  s.avg = sum / static_cast<double>(v.size());
  return s;
}

std::string column_encoding_name(const ::lance::encodings::ColumnEncoding& enc) {
  switch (enc.column_encoding_case()) {
    case ::lance::encodings::ColumnEncoding::kValues:
      return "values";
    case ::lance::encodings::ColumnEncoding::kZoneIndex:
      return "zone_index";
    case ::lance::encodings::ColumnEncoding::kBlob:
      return "blob";
    default:
      return "none";
  }
}

/// The mini-block layout whose chunks describe the page (the page's own, or a blob's inner).
MiniBlockDesc* mini_block_of(LayoutDesc& layout) {
  if (layout.mini_block) return &*layout.mini_block;
  if (layout.blob_inner) return mini_block_of(*layout.blob_inner);
  return nullptr;
}

bool path_selected(const ColumnField& cf, const std::vector<std::string>& names) {
  if (names.empty()) return true;
  for (const auto& n : names) {
    if (cf.top_level == n || cf.path == n) return true;
    if (cf.path.size() > n.size() && cf.path.compare(0, n.size(), n) == 0 && cf.path[n.size()] == '.') return true;
  }
  return false;
}

}  // namespace

LayoutDesc describe_layout(const pb::PageLayout& layout, size_t num_page_buffers) {
  LayoutDesc d;
  switch (layout.layout_case()) {
    case pb::PageLayout::kMiniBlockLayout: {
      const auto& m = layout.mini_block_layout();
      MiniBlockDesc mb;
      mb.value_compression = encoding::describe(m.value_compression());
      mb.rep_compression = describe_if(m.has_rep_compression(), m.rep_compression());
      mb.def_compression = describe_if(m.has_def_compression(), m.def_compression());
      mb.layers = layer_names(m.layers());
      if (m.has_dictionary())
        mb.dictionary = DictionaryDesc{m.num_dictionary_items(), encoding::describe(m.dictionary()), {}};
      mb.num_buffers = m.num_buffers();
      mb.num_items = m.num_items();
      mb.repetition_index_depth = m.repetition_index_depth();
      mb.has_large_chunk = m.has_large_chunk();
      d.name = "mini-block";
      d.mini_block = std::move(mb);
      break;
    }
    case pb::PageLayout::kFullZipLayout: {
      const auto& f = layout.full_zip_layout();
      FullZipDesc fz;
      fz.bits_rep = f.bits_rep();
      fz.bits_def = f.bits_def();
      if (f.details_case() == pb::FullZipLayout::kBitsPerValue) fz.bits_per_value = f.bits_per_value();
      if (f.details_case() == pb::FullZipLayout::kBitsPerOffset) fz.bits_per_offset = f.bits_per_offset();
      fz.num_items = f.num_items();
      fz.num_visible_items = f.num_visible_items();
      fz.value_compression = encoding::describe(f.value_compression());
      fz.layers = layer_names(f.layers());
      d.name = "full-zip";
      d.full_zip = std::move(fz);
      break;
    }
    case pb::PageLayout::kConstantLayout: {
      const auto& c = layout.constant_layout();
      ConstantDesc cd;
      if (c.has_inline_value()) cd.inline_value_bytes = c.inline_value().size();
      cd.rep_compression = describe_if(c.has_rep_compression(), c.rep_compression());
      cd.def_compression = describe_if(c.has_def_compression(), c.def_compression());
      cd.num_rep_values = c.num_rep_values();
      cd.num_def_values = c.num_def_values();
      cd.layers = layer_names(c.layers());
      // A scalar is present inline or in a value buffer (1 or 3 buffers); otherwise the
      // page is all null (0 buffers, or [rep, def]).
      const bool scalar = c.has_inline_value() || num_page_buffers == 1 || num_page_buffers == 3;
      d.name = scalar ? "constant" : "all-null";
      d.constant = std::move(cd);
      break;
    }
    case pb::PageLayout::kBlobLayout: {
      const auto& b = layout.blob_layout();
      d.name = "blob";
      d.blob_layers = layer_names(b.layers());
      if (b.has_inner_layout())
        d.blob_inner = std::make_shared<LayoutDesc>(describe_layout(b.inner_layout(), num_page_buffers));
      break;
    }
    case pb::PageLayout::kSparseLayout: {
      const auto& s = layout.sparse_layout();
      SparseDesc sd;
      sd.value_compression = encoding::describe(s.value_compression());
      sd.num_buffers = s.num_buffers();
      sd.num_items = s.num_items();
      sd.num_visible_items = s.num_visible_items();
      sd.has_large_chunk = s.has_large_chunk();
      d.name = "sparse";
      d.sparse = std::move(sd);
      break;
    }
    default:
      d.name = "unknown";
      break;
  }
  return d;
}

std::vector<std::string> layout_buffer_roles(const LayoutDesc& layout, size_t n) {
  std::vector<std::string> roles;
  if (layout.mini_block) {
    roles = {"chunk metadata", "chunks"};
    if (layout.mini_block->dictionary) roles.push_back("dictionary");
    if (layout.mini_block->repetition_index_depth > 0) roles.push_back("repetition index");
  } else if (layout.full_zip) {
    roles = {"zipped values", "repetition index"};
  } else if (layout.constant) {
    const bool inline_value = layout.constant->inline_value_bytes.has_value();
    if (layout.name == "constant" && !inline_value) roles.push_back("scalar");
    if (n >= roles.size() + 2) roles.insert(roles.end(), {"repetition", "definition"});
  } else if (layout.sparse) {
    roles = {"chunk metadata", "chunks"};
    while (roles.size() < n) roles.push_back("position set");
  } else if (layout.blob_inner) {
    roles = layout_buffer_roles(*layout.blob_inner, n);
  }
  roles.resize(std::max(roles.size(), n), "buffer");
  roles.resize(n);
  return roles;
}

namespace {

/// Throws Error(usage) for a name in `filter.columns` that selects no column, with the
/// closest column or struct path as a hint.
void check_selected_columns(const format::FileReader& file, const std::vector<ColumnField>& columns,
                            const PageFilter& filter) {
  for (const auto& name : filter.columns) {
    bool found =
        std::any_of(columns.begin(), columns.end(), [&](const ColumnField& cf) { return path_selected(cf, {name}); });
    if (found) continue;
    std::string known;
    std::vector<std::string> paths;
    for (const auto& cf : columns) {
      known += (known.empty() ? "" : ", ") + cf.path;
      paths.push_back(cf.path);
      for (size_t dot = cf.path.find('.'); dot != std::string::npos; dot = cf.path.find('.', dot + 1))
        paths.push_back(cf.path.substr(0, dot));  // the struct fields above the column
    }
    std::string hint = closest_name(name, paths);
    if (!hint.empty()) throw_usage("no column '{}' in {}; did you mean '{}'?", name, file.path(), hint);
    throw_usage("no column '{}' in {} (columns: {})", name, file.path(), known);
  }
}

/// Sets `pd.decoded_bytes` and `pd.compression_ratio` of a page of `bits`-wide values
/// whose value slots the layout states.
void set_decoded_size(PageDesc& pd, uint64_t bits, uint64_t page_bytes, bool structural) {
  auto slots = value_slots(pd.layout, pd.num_rows, structural);
  if (!slots) return;
  // ceil(slots × bits / 8) without overflowing for absurd counts from a bad file
  const long double decoded = (static_cast<long double>(*slots) * bits + 7) / 8;
  if (decoded >= static_cast<long double>(std::numeric_limits<uint64_t>::max())) return;
  pd.decoded_bytes = static_cast<uint64_t>(decoded);
  if (page_bytes > 0) pd.compression_ratio = static_cast<double>(*pd.decoded_bytes) / static_cast<double>(page_bytes);
}

/// Page `p` of column `column`: its layout (or 2.0 array encoding), buffers with their
/// roles, bytes and, for fixed-width values of `bits` (0: not fixed-width), decoded size.
PageDesc describe_page(const format::PageInfo& page, uint32_t column, size_t p, uint64_t first_row, uint64_t bits,
                       bool structural, double file_size) {
  uint64_t page_bytes = 0;
  for (const auto& b : page.buffers) page_bytes += b.length;
  PageDesc pd;
  pd.column = column;
  pd.page = static_cast<uint32_t>(p);
  pd.first_row = first_row;
  pd.num_rows = page.num_rows;
  std::vector<std::string> roles;
  if (page.layout) {
    pd.layout = describe_layout(*page.layout, page.buffers.size());
    roles = layout_buffer_roles(pd.layout, page.buffers.size());
  } else if (page.array_encoding) {
    pd.layout.name = "array-encoding";
    pd.layout.array_encoding = describe_array_encoding(*page.array_encoding);
    roles = array_encoding_buffer_roles(*page.array_encoding, page.buffers.size());
  } else {
    pd.layout.name = "unknown";
    roles.assign(page.buffers.size(), "buffer");
  }
  for (size_t i = 0; i < page.buffers.size(); ++i)
    pd.buffers.push_back({static_cast<uint32_t>(i), roles[i], page.buffers[i].offset, page.buffers[i].length});
  pd.bytes = page_bytes;
  pd.share = static_cast<double>(page_bytes) / file_size;
  if (pd.layout.mini_block && pd.layout.mini_block->dictionary && page.buffers.size() > 2)
    pd.layout.mini_block->dictionary->bytes = page.buffers[2].length;
  if (bits > 0) set_decoded_size(pd, bits, page_bytes, structural);
  return pd;
}

/// The column of `cf` with its column buffers and the pages `filter` selects; its bytes
/// count every page.
ColumnPages describe_column(const format::FileReader& file, const ColumnField& cf, const PageFilter& filter) {
  const format::ColumnInfo& info = file.columns()[cf.column];
  const bool structural = file.version().is_structural();
  const double file_size = static_cast<double>(std::max<uint64_t>(file.file_size(), 1));
  ColumnPages cp;
  cp.column = cf.column;
  cp.path = cf.path;
  cp.field_id = cf.field ? cf.field->id : -1;
  cp.arrow_type = cf.field && cf.field->arrow && cf.field->arrow->type ? cf.field->arrow->type->to_string() : "";
  cp.column_encoding = column_encoding_name(info.encoding);
  cp.num_pages = info.pages.size();
  for (size_t i = 0; i < info.buffers.size(); ++i) {
    cp.column_buffers.push_back(
        {static_cast<uint32_t>(i), "column buffer", info.buffers[i].offset, info.buffers[i].length});
    cp.bytes += info.buffers[i].length;
  }
  const uint64_t bits =
      cf.field && cf.field->arrow && cf.field->arrow->type ? fixed_value_bits(*cf.field->arrow->type) : 0;

  uint64_t first_row = 0;
  for (size_t p = 0; p < info.pages.size(); ++p) {
    const format::PageInfo& page = info.pages[p];
    for (const auto& b : page.buffers) cp.bytes += b.length;
    const uint64_t this_first = first_row;
    first_row += page.num_rows;
    if (filter.page && p != *filter.page) continue;
    cp.pages.push_back(describe_page(page, cf.column, p, this_first, bits, structural, file_size));
  }
  cp.share = static_cast<double>(cp.bytes) / file_size;
  return cp;
}

/// Fills `MiniBlockDesc::chunks` of every mini-block page of `report`, from one request for
/// all their chunk metadata and repetition indexes. A page whose metadata cannot be read or
/// parsed gets an `error` instead.
void read_chunk_metadata(const format::FileReader& file, PagesReport& report) {
  struct Pending {
    PageDesc* page;
    size_t first_range;
    bool has_rep_index;
    uint64_t data_size;
  };
  std::vector<Pending> pending;
  std::vector<io::ByteRange> ranges;
  for (auto& cp : report.columns) {
    const format::ColumnInfo& info = file.columns()[cp.column];
    for (auto& pd : cp.pages) {
      MiniBlockDesc* mb = mini_block_of(pd.layout);
      if (!mb) continue;
      const auto& bufs = info.pages[pd.page].buffers;
      const bool has_rep_index = mb->repetition_index_depth > 0;
      const size_t needed = 2 + (mb->dictionary ? 1 : 0) + (has_rep_index ? 1 : 0);
      if (bufs.size() < needed) {
        pd.error = fmt::format("mini-block page has {} buffers, expected {}", bufs.size(), needed);
        continue;
      }
      pending.push_back({&pd, ranges.size(), has_rep_index, bufs[1].length});
      ranges.push_back(bufs[0]);
      if (has_rep_index) ranges.push_back(bufs[needed - 1]);
    }
  }
  if (ranges.empty()) return;
  std::vector<Bytes> parts = with_context(file.path(), [&] { return file.io().read(ranges, 0); });
  for (const auto& p : pending) {
    MiniBlockDesc& mb = *mini_block_of(p.page->layout);
    try {
      const Bytes empty;
      auto chunks =
          structural::parse_miniblock_chunks(parts[p.first_range], mb.has_large_chunk, mb.num_items, p.data_size,
                                             p.has_rep_index ? ByteView(parts[p.first_range + 1]) : ByteView(empty),
                                             mb.repetition_index_depth, p.page->num_rows);
      std::vector<uint64_t> sizes, values;
      for (const auto& c : chunks) sizes.push_back(c.size), values.push_back(c.num_values);
      mb.chunks = ChunkStats{chunks.size(), stats_of(sizes), stats_of(values)};
    } catch (const Error& e) {
      p.page->error = std::string("chunk metadata: ") + e.what();
    }
  }
}

}  // namespace

PagesReport inspect_pages(const format::FileReader& file, const PageFilter& filter) {
  const auto columns = map_columns(file);
  check_selected_columns(file, columns, filter);

  PagesReport report;
  report.path = file.path();
  report.format_version = file.version().to_string();
  report.file_size = file.file_size();
  report.num_rows = file.num_rows();

  uint64_t max_pages = 0;
  for (const auto& cf : columns) {
    if (!path_selected(cf, filter.columns)) continue;
    const size_t num_pages = file.columns()[cf.column].pages.size();
    max_pages = std::max<uint64_t>(max_pages, num_pages);
    if (filter.page && *filter.page >= num_pages) continue;
    report.columns.push_back(describe_column(file, cf, filter));
  }
  if (filter.page && report.columns.empty())
    throw_usage("page {} does not exist: the selected columns have {} page{} at most", *filter.page, max_pages,
                max_pages == 1 ? "" : "s");

  if (filter.read_chunk_metadata) read_chunk_metadata(file, report);
  return report;
}

}  // namespace lance::inspect
