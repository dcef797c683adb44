#include "format/file_reader.h"

#include <algorithm>

#include "file.pb.h"
#include "file2.pb.h"
#include "io/object_store.h"

namespace lance::format {

std::string FileVersion::to_string() const {
  if (is_legacy_v2_0()) return "2.0";
  if (is_v1()) return fmt::format("legacy v1 (0.{})", minor);
  return fmt::format("{}.{}", major, minor);
}

uint64_t PageInfo::bytes() const {
  uint64_t n = 0;
  for (const auto& b : buffers) n += b.length;
  return n;
}

const ::lance::encodings21::CompressiveEncoding* PageInfo::full_zip_values() const {
  return layout && layout->has_full_zip_layout() ? &layout->full_zip_layout().value_compression() : nullptr;
}

std::vector<const ColumnInfo*> FileReader::columns_of(const std::vector<size_t>& fields) const {
  std::vector<const ColumnInfo*> out;
  for (size_t fi : fields) {
    if (fi >= field_columns_.size()) continue;
    for (uint32_t c : field_columns_[fi])
      if (c < columns_.size()) out.push_back(&columns_[c]);
  }
  return out;
}

uint64_t ColumnInfo::num_rows() const {
  uint64_t n = 0;
  for (const auto& p : pages) n += p.num_rows;
  return n;
}

std::shared_ptr<FileReader> FileReader::open(const std::string& path, io::IoOptions options,
                                             std::shared_ptr<ReadStats> stats) {
  return open(io::LocalFile::open(path), options, std::move(stats));
}

std::shared_ptr<FileReader> FileReader::open(std::shared_ptr<io::RandomAccessFile> file, io::IoOptions options,
                                             std::shared_ptr<ReadStats> stats) {
  auto reader = std::shared_ptr<FileReader>(new FileReader());
  if (!stats) stats = std::make_shared<ReadStats>();
  reader->io_ = std::make_unique<io::IoScheduler>(std::move(file), options, std::move(stats));
  reader->load();
  return reader;
}

namespace {

Footer parse_footer(ByteView b, const std::string& path) {
  if (b.size() < 4 || std::memcmp(b.data() + b.size() - 4, "LANC", 4) != 0)
    throw_corrupt("not a Lance file (no \"LANC\" magic at the end)");
  Footer f;
  // Shorter than a footer: no version's file, whatever its last bytes say.
  check_corrupt(b.size() >= kFooterSize, "file of {} bytes is too small for a Lance footer", b.size());
  ByteView t = b.slice(b.size() - kFooterSize);
  f.version.major = t.read<uint16_t>(32);
  f.version.minor = t.read<uint16_t>(34);
  // A version this build does not read is "unsupported" whatever else the footer says, so
  // it is checked before anything that could call the file corrupt. (v1 files, which end
  // in a 16-byte tail, are told apart before this is called.)
  const FileVersion& v = f.version;
  if (!(v.is_legacy_v2_0() || (v.major == 2 && v.minor >= 1 && v.minor <= 3)))
    throw_unsupported(
        "Lance file format version {}.{} is not supported (this build reads the legacy v1 format "
        "0.1/0.2 and 2.0 to 2.3)",
        v.major, v.minor);
  f.column_meta_start = t.read<uint64_t>(0);
  f.column_meta_offsets_start = t.read<uint64_t>(8);
  f.global_buff_offsets_start = t.read<uint64_t>(16);
  f.num_global_buffers = t.read<uint32_t>(24);
  f.num_columns = t.read<uint32_t>(28);
  return f;
}

template <typename Msg>
void parse_proto(Msg& msg, ByteView bytes, const char* what) {
  if (!msg.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw_corrupt("cannot decode {} ({} bytes of protobuf)", what, bytes.size());
}

std::string any_type_name(const std::string& url) {
  auto p = url.rfind('/');
  return p == std::string::npos ? url : url.substr(p + 1);
}

/// The bytes from `start` to the end of the file, as far as `load` has read them: first one
/// block at the end, then extended down to the start of the metadata, each byte read once.
class MetadataTail {
 public:
  /// Reads the last block of a file of `size` bytes: one coalescing block (4 KiB on a local
  /// disk, >= 64 KiB on object stores), at most kTailReadSize: a small file's metadata fits
  /// in it, and a larger tail would be read again with the last pages' data.
  MetadataTail(io::IoScheduler& io, uint64_t size) : io_(io) {
    const uint64_t len = std::min(size, std::clamp<uint64_t>(io.options().block_size, kMinTailReadSize, kTailReadSize));
    start_ = size - len;
    bytes_ = io.read_range({start_, len});
  }

  ByteView bytes() const { return ByteView(bytes_); }

  /// Reads [from, start) in front of the bytes held, when `from` lies before them.
  void extend_to(uint64_t from) {
    if (from >= start_) return;
    Bytes more = io_.read_range({from, start_ - from});
    more.insert(more.end(), bytes_.begin(), bytes_.end());
    bytes_ = std::move(more);
    start_ = from;
  }

  /// The `len` bytes at file position `pos`, extending first when they start before the
  /// bytes held (which moves them: earlier views are then invalid).
  ByteView view(uint64_t pos, uint64_t len) {
    extend_to(pos);
    return ByteView(bytes_).slice(pos - start_, len);
  }

 private:
  io::IoScheduler& io_;
  uint64_t start_ = 0;
  Bytes bytes_;
};

/// Checks that the footer's offset tables lie before the footer, and the metadata before
/// the tables, in a file of `size` bytes.
void check_offset_tables(const Footer& f, uint64_t size) {
  const uint64_t footer_pos = size - kFooterSize;
  check_corrupt(f.num_columns <= size / kOffsetEntrySize && f.num_global_buffers <= size / kOffsetEntrySize,
                "footer claims {} columns and {} global buffers, more than the file can hold", f.num_columns,
                f.num_global_buffers);
  check_corrupt(f.column_meta_offsets_start <= footer_pos &&
                    f.num_columns * kOffsetEntrySize <= footer_pos - f.column_meta_offsets_start,
                "column metadata offset table at {} does not fit before the footer", f.column_meta_offsets_start);
  check_corrupt(f.global_buff_offsets_start <= footer_pos &&
                    f.num_global_buffers * kOffsetEntrySize <= footer_pos - f.global_buff_offsets_start,
                "global buffer offset table at {} does not fit before the footer", f.global_buff_offsets_start);
  check_corrupt(f.column_meta_start <= f.column_meta_offsets_start, "column metadata starts after its offset table");
  check_corrupt(f.num_global_buffers >= 1, "file has no global buffers (the schema is global buffer 0)");
}

/// The `n` (offset, length) entries of an offset table.
std::vector<io::ByteRange> read_offset_table(ByteView table, uint32_t n) {
  std::vector<io::ByteRange> entries;
  entries.reserve(n);
  for (uint32_t i = 0; i < n; ++i) entries.push_back({table.read<uint64_t>(i * 16), table.read<uint64_t>(i * 16 + 8)});
  return entries;
}

bool inside_file(const io::ByteRange& r, uint64_t size) { return r.offset <= size && r.length <= size - r.offset; }

ByteView string_bytes(const std::string& s) { return ByteView(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }

/// One page of a 2.0 (`structural` false) or 2.1+ file of `size` bytes: its buffers and
/// its layout or array encoding. `expected_priority` is the row the previous pages end at;
/// a 2.1+ page must start there.
PageInfo parse_page(const ::lance::file::v2::ColumnMetadata::Page& pm, uint64_t size, const FileVersion& version,
                    uint64_t expected_priority) {
  PageInfo page;
  page.num_rows = pm.length();
  page.priority = pm.priority();
  check_corrupt(pm.buffer_offsets_size() == pm.buffer_sizes_size(), "page buffer offsets/sizes differ in count");
  for (int i = 0; i < pm.buffer_offsets_size(); ++i) {
    io::ByteRange r{pm.buffer_offsets(i), pm.buffer_sizes(i)};
    check_corrupt(inside_file(r, size), "buffer {} [{}, +{}) lies outside the file ({} bytes)", i, r.offset, r.length,
                  size);
    page.buffers.push_back(r);
  }
  if (pm.encoding().has_indirect()) throw_unsupported("deferred (indirect) page encodings are not supported");
  if (!pm.encoding().has_direct()) throw_corrupt("page has no encoding");
  ::lance::wire::AnyMessage any;
  parse_proto(any, string_bytes(pm.encoding().direct().encoding()), "page encoding");
  page.encoding_type_url = any.type_url();
  const ByteView value = string_bytes(any.value());
  const std::string type = any_type_name(any.type_url());
  if (version.is_structural()) {
    if (!type.empty() && type != "lance.encodings21.PageLayout")
      throw_unsupported("page encoding '{}' in a {} file", type, version.to_string());
    auto layout = std::make_shared<::lance::encodings21::PageLayout>();
    parse_proto(*layout, value, "page layout");
    page.layout = std::move(layout);
    check_corrupt(page.priority == expected_priority, "page starts at row {} but the previous pages end at row {}",
                  page.priority, expected_priority);
  } else {
    if (!type.empty() && type != "lance.encodings.ArrayEncoding")
      throw_unsupported("page encoding '{}' in a 2.0 file", type);
    auto ae = std::make_shared<::lance::encodings::ArrayEncoding>();
    parse_proto(*ae, value, "array encoding");
    page.array_encoding = std::move(ae);
  }
  return page;
}

/// Column `c`, whose ColumnMetadata lies at `metadata_range`: its buffers, encoding and
/// pages.
ColumnInfo parse_column(uint32_t c, const io::ByteRange& metadata_range, MetadataTail& tail, uint64_t size,
                        const FileVersion& version) {
  ColumnInfo col;
  col.index = c;
  col.metadata_range = metadata_range;
  check_corrupt(inside_file(metadata_range, size), "column metadata [{}, +{}) lies outside the file",
                metadata_range.offset, metadata_range.length);
  ::lance::file::v2::ColumnMetadata meta;
  parse_proto(meta, tail.view(metadata_range.offset, metadata_range.length), "column metadata");
  check_corrupt(meta.buffer_offsets_size() == meta.buffer_sizes_size(), "column buffer offsets/sizes differ in count");
  for (int i = 0; i < meta.buffer_offsets_size(); ++i) {
    io::ByteRange r{meta.buffer_offsets(i), meta.buffer_sizes(i)};
    check_corrupt(inside_file(r, size), "column buffer {} lies outside the file", i);
    col.buffers.push_back(r);
  }
  if (meta.encoding().has_direct()) {
    ::lance::wire::AnyMessage any;
    parse_proto(any, string_bytes(meta.encoding().direct().encoding()), "column encoding");
    parse_proto(col.encoding, string_bytes(any.value()), "column encoding");
  }
  uint64_t expected_priority = 0;
  for (int p = 0; p < meta.pages_size(); ++p) {
    with_context([&] { return fmt::format("page {}", p); },
                 [&] {
                   PageInfo page = parse_page(meta.pages(p), size, version, expected_priority);
                   expected_priority += page.num_rows;
                   col.pages.push_back(std::move(page));
                 });
  }
  return col;
}

}  // namespace

void FileReader::load() {
  with_context(path(), [&] {
    const uint64_t size = file_size();
    check_corrupt(size >= 4, "file of {} bytes is too small to be a Lance file", size);
    MetadataTail tail(*io_, size);
    if (v1::is_v1_tail(tail.bytes())) return load_v1();
    footer_ = parse_footer(tail.bytes(), path());
    const Footer& f = footer_;
    check_offset_tables(f, size);
    // Everything from the smallest metadata position to EOF, in at most one more read.
    tail.extend_to(std::min(f.column_meta_start, f.global_buff_offsets_start));

    global_buffers_ = read_offset_table(tail.view(f.global_buff_offsets_start, f.num_global_buffers * kOffsetEntrySize),
                                        f.num_global_buffers);
    for (size_t i = 0; i < global_buffers_.size(); ++i)
      check_corrupt(inside_file(global_buffers_[i], size), "global buffer {} [{}, +{}) lies outside the file", i,
                    global_buffers_[i].offset, global_buffers_[i].length);
    // Global buffer 0: the FileDescriptor (schema + row count).
    {
      const auto& r = global_buffers_[0];
      ::lance::file::FileDescriptor fd;
      parse_proto(fd, tail.view(r.offset, r.length), "the file descriptor (global buffer 0)");
      num_rows_ = fd.length();
      schema_ = schema_from_proto(fd.schema());
    }

    const std::vector<io::ByteRange> column_metadata =
        read_offset_table(tail.view(f.column_meta_offsets_start, f.num_columns * kOffsetEntrySize), f.num_columns);
    columns_.resize(f.num_columns);
    for (uint32_t c = 0; c < f.num_columns; ++c)
      with_context([&] { return fmt::format("column {}", c); },
                   [&] { columns_[c] = parse_column(c, column_metadata[c], tail, size, f.version); });
    map_fields_to_columns();
  });
}

void FileReader::load_v1() {
  auto meta = std::make_shared<v1::FileMeta>(v1::load_file_meta(
      file_size(),
      [&](uint64_t off, uint64_t len) {
        return io_->read_range({off, len});
      },
      schema_));
  footer_ = Footer{};
  footer_.version = FileVersion{0, meta->minor};
  num_rows_ = meta->num_rows();
  field_columns_.assign(schema_.fields.size(), {});  // v1 files have no columns
  v1_ = std::move(meta);
}

void FileReader::map_fields_to_columns() {
  uint32_t next = 0;
  for (const auto& field : schema_.fields) {
    std::vector<uint32_t> cols;
    if (footer_.version.is_structural()) {
      std::vector<const LanceField*> leaves;
      structural_leaves(field, leaves);
      for (size_t i = 0; i < leaves.size(); ++i) cols.push_back(next++);
    } else {
      // 2.0: one column per schema node in pre-order (packed structs: one for the subtree).
      std::function<void(const LanceField&)> walk = [&](const LanceField& f) {
        cols.push_back(next++);
        if (f.is_packed_struct() || f.is_blob()) return;
        for (const auto& c : f.children) walk(c);
      };
      walk(field);
    }
    for (uint32_t c : cols)
      check_corrupt(c < columns_.size(), "field '{}' needs column {} but the file has {} columns", field.name, c,
                    columns_.size());
    field_columns_.push_back(std::move(cols));
  }
}

}  // namespace lance::format
