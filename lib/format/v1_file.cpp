#include "format/v1_file.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "table.pb.h"
#include "v1_file.pb.h"

namespace lance::format::v1 {

namespace {

/// Reads `[u32 length][message]` at `pos` (Lance's `read_struct`).
template <typename Msg>
uint64_t read_struct(uint64_t file_size, const std::function<Bytes(uint64_t, uint64_t)>& read, uint64_t pos,
                     uint64_t end, Msg& msg, const char* what) {
  check_corrupt(pos <= end && end - pos >= 4, "{} at {} does not fit before byte {}", what, pos, end);
  Bytes len_bytes = read(pos, 4);
  const uint32_t len = ByteView(len_bytes).read<uint32_t>(0);
  check_corrupt(len <= end - pos - 4, "{} at {} claims {} bytes, past byte {}", what, pos, len, end);
  Bytes body = read(pos + 4, len);
  check_corrupt(msg.ParseFromArray(body.data(), static_cast<int>(body.size())),
                "cannot decode {} ({} bytes of protobuf)", what, body.size());
  return len;
}

void collect_ids(const LanceField& f, int32_t& lo, int32_t& hi) {
  lo = std::min(lo, f.id);
  hi = std::max(hi, f.id);
  for (const auto& c : f.children) collect_ids(c, lo, hi);
}

}  // namespace

bool is_v1_tail(ByteView tail16) {
  if (tail16.size() < kTailSize || std::memcmp(tail16.data() + tail16.size() - 4, "LANC", 4) != 0) return false;
  const uint16_t major = tail16.read<uint16_t>(tail16.size() - 8), minor = tail16.read<uint16_t>(tail16.size() - 6);
  return major == 0 && (minor == 1 || minor == 2);
}

const PageRef& FileMeta::page(int32_t field_id, size_t batch) const {
  check_corrupt(field_id >= min_field_id && field_id <= max_field_id && batch < num_batches(),
                "no page table entry for field id {} in batch {} (the table covers ids {}-{} and {} batches)", field_id,
                batch, min_field_id, max_field_id, num_batches());
  return pages[static_cast<size_t>(field_id - min_field_id) * num_batches() + batch];
}

FileMeta load_file_meta(uint64_t size, const std::function<Bytes(uint64_t, uint64_t)>& read, Schema& schema) {
  FileMeta m;
  check_corrupt(size >= kTailSize, "file of {} bytes is too small for a v1 tail", size);
  Bytes tail = read(size - kTailSize, kTailSize);
  ByteView t(tail);
  m.minor = t.read<uint16_t>(10);
  const int64_t meta_pos = t.read<int64_t>(0);
  const uint64_t tail_pos = size - kTailSize;
  check_corrupt(meta_pos >= 0 && static_cast<uint64_t>(meta_pos) < tail_pos, "metadata position {} is outside the file",
                meta_pos);
  m.metadata_position = static_cast<uint64_t>(meta_pos);

  ::lance::v1::Metadata meta;
  m.metadata_length = read_struct(size, read, m.metadata_position, tail_pos, meta, "the v1 metadata");
  int64_t prev = 0;
  for (int i = 0; i < meta.batch_offsets_size(); ++i) {
    const int64_t o = meta.batch_offsets(i);
    check_corrupt(o >= prev && (i > 0 || o == 0), "batch offsets are not increasing from 0 (entry {} is {})", i, o);
    m.batch_starts.push_back(static_cast<uint64_t>(o));
    prev = o;
  }
  check_corrupt(m.batch_starts.size() != 1, "batch offsets list a single entry");

  if (meta.manifest_position() == 0)
    throw_unsupported("this v1 data file does not carry its own schema (it needs its dataset's manifest)");
  m.manifest_position = meta.manifest_position();
  ::lance::table::Manifest manifest;
  m.manifest_length =
      read_struct(size, read, m.manifest_position, m.metadata_position, manifest, "the embedded schema");
  schema = schema_from_fields(manifest.fields(), &manifest.schema_metadata());
  if (!manifest.writer_version().library().empty())
    m.writer = manifest.writer_version().library() + " " + manifest.writer_version().version();
  for (const auto& pf : manifest.fields()) {
    if (!pf.has_dictionary()) continue;
    const auto& d = pf.dictionary();
    check_corrupt(d.offset() >= 0 && d.length() >= 0 && static_cast<uint64_t>(d.offset()) < size,
                  "field '{}': dictionary at {} (+{} values) lies outside the file", pf.name(), d.offset(), d.length());
    m.dictionaries[pf.id()] = {static_cast<uint64_t>(d.offset()), static_cast<uint64_t>(d.length())};
  }

  // The page table spans every id from the smallest to the largest of the schema.
  int32_t lo = INT32_MAX, hi = INT32_MIN;
  for (const auto& f : schema.fields) collect_ids(f, lo, hi);
  if (schema.fields.empty()) lo = 0, hi = -1;
  check_corrupt(lo >= 0, "field id {} is negative", lo);
  m.min_field_id = lo;
  m.max_field_id = hi;
  const uint64_t ids = hi >= lo ? static_cast<uint64_t>(hi - lo) + 1 : 0;
  const uint64_t entries = ids * m.num_batches();
  m.page_table_position = meta.page_table_position();
  check_corrupt(entries <= size / 16 && m.page_table_position <= m.metadata_position &&
                    entries * 16 <= m.metadata_position - m.page_table_position,
                "page table at {} ({} fields × {} batches) does not fit before the metadata", m.page_table_position,
                ids, m.num_batches());
  Bytes table = entries ? read(m.page_table_position, entries * 16) : Bytes{};
  ByteView tv(table);
  m.pages.resize(entries);
  for (uint64_t i = 0; i < entries; ++i) {
    const int64_t pos = tv.read<int64_t>(i * 16), len = tv.read<int64_t>(i * 16 + 8);
    check_corrupt(pos >= 0 && len >= 0 && static_cast<uint64_t>(pos) <= size,
                  "page table entry {} (position {}, length {}) lies outside the file", i, pos, len);
    m.pages[i] = {static_cast<uint64_t>(pos), static_cast<uint64_t>(len)};
  }
  return m;
}

}  // namespace lance::format::v1
