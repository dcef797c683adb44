#include "arrow/ipc_writer.h"

#include <lz4frame.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "File_generated.h"
#include "Message_generated.h"
#include "Schema_generated.h"
#include "arrow/ipc_format.h"
#include "common/error.h"

namespace lance::arrow {

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

/// zstd level for compressed bodies: fast, and what Arrow implementations default to.
constexpr int kZstdLevel = 1;

fb::TimeUnit to_fb(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::second:
      return fb::TimeUnit::SECOND;
    case TimeUnit::milli:
      return fb::TimeUnit::MILLISECOND;
    case TimeUnit::micro:
      return fb::TimeUnit::MICROSECOND;
    case TimeUnit::nano:
      return fb::TimeUnit::NANOSECOND;
  }
  return fb::TimeUnit::SECOND;
}

Offset<fb::Int> build_int(FlatBufferBuilder& fbb, const DataType& t) {
  return fb::CreateInt(fbb, t.bit_width(), t.is_signed_integer());
}

Offset<flatbuffers::Vector<Offset<fb::KeyValue>>> build_metadata(FlatBufferBuilder& fbb,
                                                                 const std::map<std::string, std::string>& md) {
  if (md.empty()) return 0;
  std::vector<Offset<fb::KeyValue>> items;
  for (const auto& [k, v] : md) items.push_back(fb::CreateKeyValue(fbb, fbb.CreateString(k), fbb.CreateString(v)));
  return fbb.CreateVector(items);
}

/// The `Type` union of a field of (non-dictionary) type `t`: its tag and its table.
std::pair<fb::Type, Offset<void>> build_type(FlatBufferBuilder& fbb, const DataType& t) {
  switch (t.id) {
    case TypeId::null:
      return {fb::Type::Null, fb::CreateNull(fbb).Union()};
    case TypeId::boolean:
      return {fb::Type::Bool, fb::CreateBool(fbb).Union()};
    case TypeId::int8:
    case TypeId::int16:
    case TypeId::int32:
    case TypeId::int64:
    case TypeId::uint8:
    case TypeId::uint16:
    case TypeId::uint32:
    case TypeId::uint64:
      return {fb::Type::Int, build_int(fbb, t).Union()};
    case TypeId::float16:
    case TypeId::float32:
    case TypeId::float64: {
      auto p = t.id == TypeId::float16   ? fb::Precision::HALF
               : t.id == TypeId::float32 ? fb::Precision::SINGLE
                                         : fb::Precision::DOUBLE;
      return {fb::Type::FloatingPoint, fb::CreateFloatingPoint(fbb, p).Union()};
    }
    case TypeId::utf8:
      return {fb::Type::Utf8, fb::CreateUtf8(fbb).Union()};
    case TypeId::large_utf8:
      return {fb::Type::LargeUtf8, fb::CreateLargeUtf8(fbb).Union()};
    case TypeId::binary:
      return {fb::Type::Binary, fb::CreateBinary(fbb).Union()};
    case TypeId::large_binary:
      return {fb::Type::LargeBinary, fb::CreateLargeBinary(fbb).Union()};
    case TypeId::fixed_size_binary:
      return {fb::Type::FixedSizeBinary, fb::CreateFixedSizeBinary(fbb, t.byte_width).Union()};
    case TypeId::date32:
      return {fb::Type::Date, fb::CreateDate(fbb, fb::DateUnit::DAY).Union()};
    case TypeId::date64:
      return {fb::Type::Date, fb::CreateDate(fbb, fb::DateUnit::MILLISECOND).Union()};
    case TypeId::time32:
    case TypeId::time64:
      return {fb::Type::Time, fb::CreateTime(fbb, to_fb(t.unit), t.bit_width()).Union()};
    case TypeId::timestamp: {
      auto tz = t.timezone.empty() ? Offset<flatbuffers::String>(0) : fbb.CreateString(t.timezone);
      return {fb::Type::Timestamp, fb::CreateTimestamp(fbb, to_fb(t.unit), tz).Union()};
    }
    case TypeId::duration:
      return {fb::Type::Duration, fb::CreateDuration(fbb, to_fb(t.unit)).Union()};
    case TypeId::decimal128:
    case TypeId::decimal256:
      return {fb::Type::Decimal, fb::CreateDecimal(fbb, t.precision, t.scale, t.bit_width()).Union()};
    case TypeId::list:
      return {fb::Type::List, fb::CreateList(fbb).Union()};
    case TypeId::large_list:
      return {fb::Type::LargeList, fb::CreateLargeList(fbb).Union()};
    case TypeId::fixed_size_list:
      return {fb::Type::FixedSizeList, fb::CreateFixedSizeList(fbb, t.list_size).Union()};
    case TypeId::struct_:
      return {fb::Type::Struct_, fb::CreateStruct_(fbb).Union()};
    case TypeId::map:
      return {fb::Type::Map, fb::CreateMap(fbb, /*keys_sorted=*/false).Union()};
    case TypeId::dictionary:
      throw std::logic_error("unreachable: dictionary handled by build_field");
  }
  return {fb::Type::NONE, 0};
}

/// Builds the `Field` table of `field`, numbering dictionary-encoded fields with `next_dictionary_id`.
Offset<fb::Field> build_field(FlatBufferBuilder& fbb, const Field& field, int64_t& next_dictionary_id,
                              bool in_dictionary) {
  const DataType* t = field.type.get();
  Offset<fb::DictionaryEncoding> dictionary = 0;
  if (t->id == TypeId::dictionary) {
    if (in_dictionary)
      throw_unsupported("field '{}': a dictionary inside dictionary values cannot be written as Arrow IPC", field.name);
    if (!t->index_type || !t->index_type->is_integer() || !t->value_type)
      throw std::logic_error("dictionary type without an integer index type or a value type");
    dictionary = fb::CreateDictionaryEncoding(fbb, next_dictionary_id++, build_int(fbb, *t->index_type), false);
    t = t->value_type.get();
    in_dictionary = true;
  }
  std::vector<Offset<fb::Field>> children;
  for (const auto& c : t->children) children.push_back(build_field(fbb, *c, next_dictionary_id, in_dictionary));

  const auto [type_type, type] = build_type(fbb, *t);
  auto name = fbb.CreateString(field.name);
  auto kids = fbb.CreateVector(children);
  auto md = build_metadata(fbb, field.metadata);
  return fb::CreateField(fbb, name, field.nullable, type_type, type, dictionary, kids, md);
}

Offset<fb::Schema> build_schema(FlatBufferBuilder& fbb, const std::vector<FieldPtr>& fields,
                                const std::map<std::string, std::string>& metadata, int64_t* num_dictionaries) {
  int64_t next_id = 0;
  std::vector<Offset<fb::Field>> fs;
  for (const auto& f : fields) fs.push_back(build_field(fbb, *f, next_id, false));
  if (num_dictionaries) *num_dictionaries = next_id;
  auto vec = fbb.CreateVector(fs);
  auto md = build_metadata(fbb, metadata);
  return fb::CreateSchema(fbb, fb::Endianness::Little, vec, md);
}

std::string_view finished_bytes(const FlatBufferBuilder& fbb) {
  return {reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize()};
}

/// The needed bytes of a buffer, checked against what the array holds.
const uint8_t* checked(const BytesPtr& buffer, uint64_t needed, const char* what) {
  if (needed == 0) return nullptr;
  if (!buffer || buffer->size() < needed)
    throw std::logic_error(fmt::format("Arrow IPC writer: {} buffer holds {} bytes, {} needed", what,
                                       buffer ? buffer->size() : 0, needed));
  return buffer->data();
}

uint64_t bitmap_bytes(int64_t length) { return (static_cast<uint64_t>(length) + 7) / 8; }

/// The last offset of an offsets buffer of `length` + 1 entries (0 when the buffer is empty).
int64_t last_offset(const ArrayData& a, size_t index, bool large) {
  const uint64_t width = large ? 8 : 4;
  checked(a.buffers.at(index), (static_cast<uint64_t>(a.length) + 1) * width, "offsets");
  return large ? a.values<int64_t>(index)[a.length] : a.values<int32_t>(index)[a.length];
}

}  // namespace

/// The FieldNodes and buffers of one record batch body, with their offsets in the body.
struct IpcWriter::Body {
  IpcCompression compression = IpcCompression::none;
  std::vector<fb::FieldNode> nodes;
  std::vector<fb::Buffer> buffers;
  std::vector<std::string_view> pieces;       ///< bytes of each buffer (views into arrays or `owned`)
  std::vector<std::unique_ptr<Bytes>> owned;  ///< compressed buffers
  int64_t length = 0;                         ///< body bytes including padding

  void add_buffer(const uint8_t* data, uint64_t size) {
    std::string_view piece(reinterpret_cast<const char*>(data), size);
    if (compression != IpcCompression::none && size > 0) piece = compress(piece);
    buffers.emplace_back(length, static_cast<int64_t>(piece.size()));
    pieces.push_back(piece);
    length += static_cast<int64_t>(piece.size() + padding_for(piece.size(), kIpcAlignment));
  }

  /// `[i64 uncompressed length][frame]`, or `[-1][raw bytes]` when compression does not help.
  std::string_view compress(std::string_view raw) {
    auto out = std::make_unique<Bytes>();
    size_t bound = compression == IpcCompression::zstd ? ZSTD_compressBound(raw.size())
                                                       : LZ4F_compressFrameBound(raw.size(), nullptr);
    out->resize(kCompressedLengthPrefixBytes + bound);
    uint8_t* dst = out->data() + kCompressedLengthPrefixBytes;
    size_t n = 0;
    if (compression == IpcCompression::zstd) {
      n = ZSTD_compress(dst, bound, raw.data(), raw.size(), kZstdLevel);
      if (ZSTD_isError(n)) throw_io("zstd compression failed: {}", ZSTD_getErrorName(n));
    } else {
      n = LZ4F_compressFrame(dst, bound, raw.data(), raw.size(), nullptr);
      if (LZ4F_isError(n)) throw_io("lz4 compression failed: {}", LZ4F_getErrorName(n));
    }
    int64_t prefix = static_cast<int64_t>(raw.size());
    if (n >= raw.size()) {  // store raw
      prefix = -1;
      n = raw.size();
      std::memcpy(dst, raw.data(), n);
    }
    std::memcpy(out->data(), &prefix, sizeof prefix);
    out->resize(kCompressedLengthPrefixBytes + n);
    owned.push_back(std::move(out));
    return {reinterpret_cast<const char*>(owned.back()->data()), owned.back()->size()};
  }

  /// Appends `a` and its children depth-first.
  void add_array(const ArrayData& a) {
    const DataType& t = *a.type;
    if (t.id == TypeId::null) {
      nodes.emplace_back(a.length, a.length);
      return;  // the null type has no buffers
    }
    nodes.emplace_back(a.length, a.null_count);
    if (a.null_count > 0) {
      add_buffer(checked(a.validity, bitmap_bytes(a.length), "validity"), bitmap_bytes(a.length));
    } else {
      add_buffer(nullptr, 0);
    }
    const uint64_t n = static_cast<uint64_t>(a.length);
    switch (t.id) {
      case TypeId::boolean:
        add_buffer(checked(a.buffers.at(0), bitmap_bytes(a.length), "values"), bitmap_bytes(a.length));
        break;
      case TypeId::utf8:
      case TypeId::large_utf8:
      case TypeId::binary:
      case TypeId::large_binary: {
        const bool large = t.is_large_offsets();
        const uint64_t offset_bytes = (n + 1) * (large ? 8 : 4);
        const int64_t end = last_offset(a, 0, large);
        if (end < 0) throw std::logic_error("Arrow IPC writer: negative offset");
        add_buffer(a.buffers[0]->data(), offset_bytes);
        add_buffer(checked(a.buffers.at(1), static_cast<uint64_t>(end), "data"), static_cast<uint64_t>(end));
        break;
      }
      case TypeId::list:
      case TypeId::large_list:
      case TypeId::map: {
        const bool large = t.id == TypeId::large_list;
        last_offset(a, 0, large);
        add_buffer(a.buffers[0]->data(), (n + 1) * (large ? 8 : 4));
        add_array(*a.children.at(0));
        break;
      }
      case TypeId::fixed_size_list:
        add_array(*a.children.at(0));
        break;
      case TypeId::struct_:
        if (a.children.size() != t.children.size())
          throw std::logic_error("struct array with a wrong number of children");
        for (const auto& c : a.children) add_array(*c);
        break;
      case TypeId::dictionary: {
        const uint64_t bytes = n * static_cast<uint64_t>(t.index_type->bit_width() / 8);
        add_buffer(checked(a.buffers.at(0), bytes, "indices"), bytes);
        break;
      }
      default: {  // fixed-width values
        const uint64_t bytes = n * static_cast<uint64_t>(t.bit_width() / 8);
        add_buffer(checked(a.buffers.at(0), bytes, "values"), bytes);
        break;
      }
    }
  }

  Offset<fb::RecordBatch> build(FlatBufferBuilder& fbb, int64_t num_rows) const {
    auto n = fbb.CreateVectorOfStructs(nodes);
    auto b = fbb.CreateVectorOfStructs(buffers);
    Offset<fb::BodyCompression> c = 0;
    if (compression != IpcCompression::none)
      c = fb::CreateBodyCompression(
          fbb, compression == IpcCompression::zstd ? fb::CompressionType::ZSTD : fb::CompressionType::LZ4_FRAME);
    return fb::CreateRecordBatch(fbb, num_rows, n, b, c);
  }
};

IpcWriter::IpcWriter(Output out, IpcWriteOptions options) : out_(std::move(out)), options_(options) {}
IpcWriter::~IpcWriter() = default;

void IpcWriter::emit(std::string_view bytes) {
  if (bytes.empty()) return;
  out_(bytes);
  position_ += bytes.size();
}

void IpcWriter::emit_padding(size_t n) {
  static constexpr char kZeros[kIpcAlignment] = {};
  while (n > 0) {
    size_t k = std::min(n, sizeof kZeros);
    emit({kZeros, k});
    n -= k;
  }
}

void IpcWriter::write_message(std::string_view flatbuffer, const Body& body, bool record_block, bool dictionary_block) {
  const uint64_t start = position_;
  // Pad the metadata so the body starts on an aligned position.
  const size_t pad = padding_for(start + kMessagePrefixBytes + flatbuffer.size(), kIpcAlignment);
  const uint64_t metadata_size = flatbuffer.size() + pad;
  if (metadata_size > static_cast<uint64_t>(INT32_MAX)) throw_unsupported("Arrow IPC message metadata is too large");
  uint32_t prefix[2] = {kContinuationMarker, static_cast<uint32_t>(metadata_size)};
  emit({reinterpret_cast<const char*>(prefix), sizeof prefix});
  emit(flatbuffer);
  emit_padding(pad);
  for (size_t i = 0; i < body.pieces.size(); ++i) {
    emit(body.pieces[i]);
    emit_padding(padding_for(body.pieces[i].size(), kIpcAlignment));
  }
  Block block{static_cast<int64_t>(start), static_cast<int32_t>(kMessagePrefixBytes + metadata_size), body.length};
  if (record_block) record_blocks_.push_back(block);
  if (dictionary_block) dictionary_blocks_.push_back(block);
}

void IpcWriter::begin(const std::vector<FieldPtr>& fields, const std::map<std::string, std::string>& metadata) {
  if (begun_) throw std::logic_error("IpcWriter::begin called twice");
  begun_ = true;
  fields_ = fields;
  metadata_ = metadata;
  if (options_.file_format) {
    emit(kFileMagic);
    emit_padding(kFileHeaderBytes - kFileMagic.size());
  }
  FlatBufferBuilder fbb;
  auto schema = build_schema(fbb, fields, metadata, &num_dictionaries_);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::Schema, schema.Union(), 0));
  write_message(finished_bytes(fbb), Body{}, false, false);
  last_dictionaries_.assign(static_cast<size_t>(num_dictionaries_), nullptr);
}

namespace {

/// The dictionaries of dictionary-typed arrays in `a`, depth-first (the order of their ids).
void collect_dictionaries(const ArrayPtr& a, std::vector<ArrayPtr>& out) {
  if (a->type->id == TypeId::dictionary) {
    if (!a->dictionary) throw std::logic_error("dictionary array without a dictionary");
    out.push_back(a->dictionary);
    return;
  }
  for (const auto& c : a->children) collect_dictionaries(c, out);
}

}  // namespace

void IpcWriter::write_dictionaries(const RecordBatch& batch) {
  std::vector<ArrayPtr> dictionaries;
  for (const auto& c : batch.columns) collect_dictionaries(c, dictionaries);
  if (static_cast<int64_t>(dictionaries.size()) != num_dictionaries_)
    throw std::logic_error("batch dictionaries do not match the schema");
  for (size_t id = 0; id < dictionaries.size(); ++id) {
    if (dictionaries[id] == last_dictionaries_[id]) continue;  // unchanged since the last batch
    if (options_.file_format && last_dictionaries_[id])
      throw_unsupported("the Arrow IPC file format cannot replace a dictionary; write a stream instead");
    Body body;
    body.compression = options_.compression;
    body.add_array(*dictionaries[id]);
    FlatBufferBuilder fbb;
    auto data = body.build(fbb, dictionaries[id]->length);
    auto dict = fb::CreateDictionaryBatch(fbb, static_cast<int64_t>(id), data, /*is_delta=*/false);
    fbb.Finish(
        fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::DictionaryBatch, dict.Union(), body.length));
    write_message(finished_bytes(fbb), body, false, true);
    last_dictionaries_[id] = dictionaries[id];
  }
}

void IpcWriter::write(const RecordBatch& batch) {
  if (!begun_ || finished_) throw std::logic_error("IpcWriter::write outside begin/finish");
  if (batch.columns.size() != fields_.size())
    throw std::logic_error(fmt::format("batch of {} columns for {} fields", batch.columns.size(), fields_.size()));
  RecordBatch exact = batch;
  for (size_t k = 0; k < exact.columns.size(); ++k) {
    auto& c = exact.columns[k];
    if (!c || c->length < batch.num_rows)
      throw std::logic_error(fmt::format("column shorter than the batch's {} rows", batch.num_rows));
    if (c->type->id != fields_[k]->type->id) throw std::logic_error("column type does not match its field");
    if (c->length > batch.num_rows) c = slice_array(c, 0, batch.num_rows);
  }
  if (num_dictionaries_ > 0) write_dictionaries(exact);
  Body body;
  body.compression = options_.compression;
  for (const auto& c : exact.columns) body.add_array(*c);
  FlatBufferBuilder fbb;
  auto rb = body.build(fbb, batch.num_rows);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::RecordBatch, rb.Union(), body.length));
  write_message(finished_bytes(fbb), body, true, false);
}

void IpcWriter::finish() {
  if (!begun_ || finished_) throw std::logic_error("IpcWriter::finish outside begin");
  finished_ = true;
  const uint32_t eos[2] = {kContinuationMarker, 0};
  emit({reinterpret_cast<const char*>(eos), sizeof eos});
  if (!options_.file_format) return;
  FlatBufferBuilder fbb;
  auto schema = build_schema(fbb, fields_, metadata_, nullptr);
  auto blocks = [&](const std::vector<Block>& bs) {
    std::vector<fb::Block> v;
    for (const auto& b : bs) v.emplace_back(b.offset, b.metadata_length, b.body_length);
    return fbb.CreateVectorOfStructs(v);
  };
  auto dicts = blocks(dictionary_blocks_);
  auto records = blocks(record_blocks_);
  fbb.Finish(fb::CreateFooter(fbb, fb::MetadataVersion::V5, schema, dicts, records));
  emit(finished_bytes(fbb));
  const int32_t size = static_cast<int32_t>(fbb.GetSize());
  emit({reinterpret_cast<const char*>(&size), sizeof size});
  emit(kFileMagic);
}

}  // namespace lance::arrow
