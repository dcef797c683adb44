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

uint64_t ColumnInfo::num_rows() const {
  uint64_t n = 0;
  for (const auto& p : pages) n += p.num_rows;
  return n;
}

std::shared_ptr<FileReader> FileReader::open(const std::string& path, io::IoOptions options,
                                             std::shared_ptr<ReadStats> stats) {
  const auto store = io::store_for(path);
  return open(store->open(path), store->tune(options), std::move(stats));
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

}  // namespace

void FileReader::load() {
  with_context(path(), [&] {
    const uint64_t size = file_size();
    check_corrupt(size >= 4, "file of {} bytes is too small to be a Lance file", size);
    // One coalescing block (4 KiB on a local disk, >= 64 KiB on object stores), at most
    // kTailReadSize: a small file's metadata fits in it, and a larger tail would be read
    // again with the last pages' data.
    uint64_t tail_len =
        std::min(size, std::clamp<uint64_t>(io_->options().block_size, kMinTailReadSize, kTailReadSize));
    uint64_t tail_start = size - tail_len;
    Bytes tail = io_->read_range({tail_start, tail_len});
    if (v1::is_v1_tail(ByteView(tail))) return load_v1();
    footer_ = parse_footer(tail, path());
    const Footer& f = footer_;
    const uint64_t footer_pos = size - kFooterSize;

    // Offset tables must lie before the footer, and the metadata before the tables.
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

    // Everything from the smallest metadata position to EOF, in at most one more read.
    auto ensure = [&](uint64_t from) {
      if (from < tail_start) {
        Bytes more = io_->read_range({from, tail_start - from});
        more.insert(more.end(), tail.begin(), tail.end());
        tail = std::move(more);
        tail_start = from;
      }
    };
    auto view = [&](uint64_t pos, uint64_t len) {
      ensure(pos);
      return ByteView(tail).slice(pos - tail_start, len);
    };
    ensure(std::min(f.column_meta_start, f.global_buff_offsets_start));

    ByteView gbo = view(f.global_buff_offsets_start, f.num_global_buffers * kOffsetEntrySize);
    for (uint32_t i = 0; i < f.num_global_buffers; ++i) {
      io::ByteRange r{gbo.read<uint64_t>(i * 16), gbo.read<uint64_t>(i * 16 + 8)};
      check_corrupt(r.offset <= size && r.length <= size - r.offset, "global buffer {} [{}, +{}) lies outside the file",
                    i, r.offset, r.length);
      global_buffers_.push_back(r);
    }
    // Global buffer 0: the FileDescriptor (schema + row count).
    {
      const auto& r = global_buffers_[0];
      ::lance::file::FileDescriptor fd;
      parse_proto(fd, view(r.offset, r.length), "the file descriptor (global buffer 0)");
      num_rows_ = fd.length();
      schema_ = schema_from_proto(fd.schema());
    }

    ByteView cmo = view(f.column_meta_offsets_start, f.num_columns * kOffsetEntrySize);
    columns_.resize(f.num_columns);
    const bool structural = f.version.is_structural();
    for (uint32_t c = 0; c < f.num_columns; ++c) {
      with_context(
          [&] { return fmt::format("column {}", c); },
          [&] {
            ColumnInfo& col = columns_[c];
            col.index = c;
            col.metadata_range = {cmo.read<uint64_t>(c * 16), cmo.read<uint64_t>(c * 16 + 8)};
            check_corrupt(
                col.metadata_range.offset <= size && col.metadata_range.length <= size - col.metadata_range.offset,
                "column metadata [{}, +{}) lies outside the file", col.metadata_range.offset,
                col.metadata_range.length);
            ::lance::file::v2::ColumnMetadata meta;
            parse_proto(meta, view(col.metadata_range.offset, col.metadata_range.length), "column metadata");
            check_corrupt(meta.buffer_offsets_size() == meta.buffer_sizes_size(),
                          "column buffer offsets/sizes differ in count");
            for (int i = 0; i < meta.buffer_offsets_size(); ++i) {
              io::ByteRange r{meta.buffer_offsets(i), meta.buffer_sizes(i)};
              check_corrupt(r.offset <= size && r.length <= size - r.offset, "column buffer {} lies outside the file",
                            i);
              col.buffers.push_back(r);
            }
            if (meta.encoding().has_direct()) {
              ::lance::wire::AnyMessage any;
              parse_proto(any,
                          ByteView(reinterpret_cast<const uint8_t*>(meta.encoding().direct().encoding().data()),
                                   meta.encoding().direct().encoding().size()),
                          "column encoding");
              parse_proto(col.encoding,
                          ByteView(reinterpret_cast<const uint8_t*>(any.value().data()), any.value().size()),
                          "column encoding");
            }
            uint64_t expected_priority = 0;
            for (int p = 0; p < meta.pages_size(); ++p) {
              with_context([&] { return fmt::format("page {}", p); },
                           [&] {
                             const auto& pm = meta.pages(p);
                             PageInfo page;
                             page.num_rows = pm.length();
                             page.priority = pm.priority();
                             check_corrupt(pm.buffer_offsets_size() == pm.buffer_sizes_size(),
                                           "page buffer offsets/sizes differ in count");
                             for (int i = 0; i < pm.buffer_offsets_size(); ++i) {
                               io::ByteRange r{pm.buffer_offsets(i), pm.buffer_sizes(i)};
                               check_corrupt(r.offset <= size && r.length <= size - r.offset,
                                             "buffer {} [{}, +{}) lies outside the file ({} bytes)", i, r.offset,
                                             r.length, size);
                               page.buffers.push_back(r);
                             }
                             if (pm.encoding().has_indirect())
                               throw_unsupported("deferred (indirect) page encodings are not supported");
                             if (!pm.encoding().has_direct()) throw_corrupt("page has no encoding");
                             ::lance::wire::AnyMessage any;
                             const auto& enc = pm.encoding().direct().encoding();
                             parse_proto(any, ByteView(reinterpret_cast<const uint8_t*>(enc.data()), enc.size()),
                                         "page encoding");
                             page.encoding_type_url = any.type_url();
                             ByteView value(reinterpret_cast<const uint8_t*>(any.value().data()), any.value().size());
                             std::string type = any_type_name(any.type_url());
                             if (structural) {
                               if (!type.empty() && type != "lance.encodings21.PageLayout")
                                 throw_unsupported("page encoding '{}' in a {} file", type, f.version.to_string());
                               auto layout = std::make_shared<::lance::encodings21::PageLayout>();
                               parse_proto(*layout, value, "page layout");
                               page.layout = std::move(layout);
                               check_corrupt(page.priority == expected_priority,
                                             "page starts at row {} but the previous pages end at row {}",
                                             page.priority, expected_priority);
                             } else {
                               if (!type.empty() && type != "lance.encodings.ArrayEncoding")
                                 throw_unsupported("page encoding '{}' in a 2.0 file", type);
                               auto ae = std::make_shared<::lance::encodings::ArrayEncoding>();
                               parse_proto(*ae, value, "array encoding");
                               page.array_encoding = std::move(ae);
                             }
                             expected_priority += page.num_rows;
                             col.pages.push_back(std::move(page));
                           });
            }
          });
    }
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
