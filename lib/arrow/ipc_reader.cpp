#include "arrow/ipc_reader.h"

#include <lz4frame.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>

#include "File_generated.h"
#include "Message_generated.h"
#include "Schema_generated.h"
#include "arrow/ipc_format.h"
#include "common/error.h"

namespace lance::arrow {

namespace {

/// Entry `i` of a flatbuffer vector of structs (FieldNode, Buffer, Block), copied out: some
/// writers (older arrow-rs, e.g. in Lance's deletion files) leave these 8-byte structs only
/// 4-byte aligned, and reading them in place is undefined behaviour.
template <typename T>
T struct_at(const flatbuffers::Vector<const T*>* v, flatbuffers::uoffset_t i) {
  T out;
  std::memcpy(static_cast<void*>(&out), reinterpret_cast<const uint8_t*>(v->Data()) + size_t{i} * sizeof(T), sizeof(T));
  return out;
}

/// Longest array we accept from an IPC message (2^48 values): keeps every size computed from
/// a length within 64 bits.
constexpr int64_t kMaxArrayLength = int64_t{1} << 48;
/// A compressed buffer may not claim to expand by more than this factor (zstd and LZ4 frames
/// stay far below it), so a tiny corrupt buffer cannot make us allocate gigabytes.
constexpr uint64_t kMaxExpansion = uint64_t{1} << 16;
/// Flatbuffer verifier limits: nesting depth of tables and number of tables in one message.
constexpr flatbuffers::uoffset_t kMaxFlatbufferDepth = 128;
constexpr flatbuffers::uoffset_t kMaxFlatbufferTables = 1u << 20;

/// A copy of flatbuffer bytes at an 8-byte-aligned address (the verifier checks alignment).
class AlignedCopy {
 public:
  explicit AlignedCopy(ByteView bytes) : words_((bytes.size() + 7) / 8) {
    if (!bytes.empty()) std::memcpy(words_.data(), bytes.data(), bytes.size());
    size_ = bytes.size();
  }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(words_.data()); }
  size_t size() const { return size_; }

 private:
  std::vector<uint64_t> words_;
  size_t size_ = 0;
};

flatbuffers::Verifier make_verifier(const AlignedCopy& c) {
  return flatbuffers::Verifier(c.data(), c.size(), kMaxFlatbufferDepth, kMaxFlatbufferTables);
}

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

TimeUnit from_fb(fb::TimeUnit unit) {
  switch (unit) {
    case fb::TimeUnit::SECOND:
      return TimeUnit::second;
    case fb::TimeUnit::MILLISECOND:
      return TimeUnit::milli;
    case fb::TimeUnit::MICROSECOND:
      return TimeUnit::micro;
    case fb::TimeUnit::NANOSECOND:
      return TimeUnit::nano;
  }
  throw_corrupt("unknown time unit {}", static_cast<int>(unit));
}

TypePtr int_type(const fb::Int* t) {
  check_corrupt(t != nullptr, "Int type without its table");
  const bool s = t->is_signed();
  switch (t->bit_width()) {
    case 8:
      return make_type(s ? TypeId::int8 : TypeId::uint8);
    case 16:
      return make_type(s ? TypeId::int16 : TypeId::uint16);
    case 32:
      return make_type(s ? TypeId::int32 : TypeId::uint32);
    case 64:
      return make_type(s ? TypeId::int64 : TypeId::uint64);
  }
  throw_corrupt("Int type of {} bits", t->bit_width());
}

std::map<std::string, std::string> metadata_of(const flatbuffers::Vector<flatbuffers::Offset<fb::KeyValue>>* kvs) {
  std::map<std::string, std::string> out;
  if (!kvs) return out;
  for (const auto* kv : *kvs) {
    if (!kv || !kv->key()) continue;
    out[kv->key()->str()] = kv->value() ? kv->value()->str() : std::string();
  }
  return out;
}

/// Dictionary ids of the schema and the value type each one decodes to.
using DictionaryTypes = std::map<int64_t, TypePtr>;

FieldPtr convert_field(const fb::Field* f, DictionaryTypes& dictionaries, bool in_dictionary);

std::vector<FieldPtr> convert_children(const fb::Field* f, DictionaryTypes& dictionaries, bool in_dictionary) {
  std::vector<FieldPtr> out;
  if (f->children())
    for (const auto* c : *f->children()) {
      check_corrupt(c != nullptr, "null child field");
      out.push_back(convert_field(c, dictionaries, in_dictionary));
    }
  return out;
}

TypePtr convert_type(const fb::Field* f, std::vector<FieldPtr> children) {
  auto expect_children = [&](size_t n, const char* what) {
    check_corrupt(children.size() == n, "{} type with {} children (expected {})", what, children.size(), n);
  };
  switch (f->type_type()) {
    case fb::Type::Null:
      return make_type(TypeId::null);
    case fb::Type::Int:
      return int_type(f->type_as_Int());
    case fb::Type::FloatingPoint: {
      const auto* t = f->type_as_FloatingPoint();
      check_corrupt(t != nullptr, "FloatingPoint type without its table");
      switch (t->precision()) {
        case fb::Precision::HALF:
          return make_type(TypeId::float16);
        case fb::Precision::SINGLE:
          return make_type(TypeId::float32);
        case fb::Precision::DOUBLE:
          return make_type(TypeId::float64);
      }
      throw_corrupt("unknown floating point precision {}", static_cast<int>(t->precision()));
    }
    case fb::Type::Binary:
      return make_type(TypeId::binary);
    case fb::Type::Utf8:
      return make_type(TypeId::utf8);
    case fb::Type::LargeBinary:
      return make_type(TypeId::large_binary);
    case fb::Type::LargeUtf8:
      return make_type(TypeId::large_utf8);
    case fb::Type::Bool:
      return make_type(TypeId::boolean);
    case fb::Type::Decimal: {
      const auto* t = f->type_as_Decimal();
      check_corrupt(t != nullptr, "Decimal type without its table");
      check_corrupt(t->bit_width() == 128 || t->bit_width() == 256, "decimal of {} bits", t->bit_width());
      return make_decimal(t->bit_width() == 128 ? TypeId::decimal128 : TypeId::decimal256, t->precision(), t->scale());
    }
    case fb::Type::Date: {
      const auto* t = f->type_as_Date();
      check_corrupt(t != nullptr, "Date type without its table");
      if (t->unit() == fb::DateUnit::DAY) return make_type(TypeId::date32);
      check_corrupt(t->unit() == fb::DateUnit::MILLISECOND, "unknown date unit {}", static_cast<int>(t->unit()));
      return make_type(TypeId::date64);
    }
    case fb::Type::Time: {
      const auto* t = f->type_as_Time();
      check_corrupt(t != nullptr, "Time type without its table");
      const TimeUnit unit = from_fb(t->unit());
      const bool wide = unit == TimeUnit::micro || unit == TimeUnit::nano;
      check_corrupt(t->bit_width() == (wide ? 64 : 32), "time in {} with {} bits", time_unit_suffix(unit),
                    t->bit_width());
      return make_temporal(wide ? TypeId::time64 : TypeId::time32, unit);
    }
    case fb::Type::Timestamp: {
      const auto* t = f->type_as_Timestamp();
      check_corrupt(t != nullptr, "Timestamp type without its table");
      return make_temporal(TypeId::timestamp, from_fb(t->unit()), t->timezone() ? t->timezone()->str() : std::string());
    }
    case fb::Type::Duration: {
      const auto* t = f->type_as_Duration();
      check_corrupt(t != nullptr, "Duration type without its table");
      return make_temporal(TypeId::duration, from_fb(t->unit()));
    }
    case fb::Type::FixedSizeBinary: {
      const auto* t = f->type_as_FixedSizeBinary();
      check_corrupt(t != nullptr && t->byte_width() > 0, "fixed_size_binary without a positive byte width");
      // DataType::bit_width() must stay within an int.
      check_corrupt(t->byte_width() < (1 << 28), "fixed_size_binary of {} bytes per value", t->byte_width());
      return make_fixed_size_binary(t->byte_width());
    }
    case fb::Type::List:
      expect_children(1, "list");
      return make_list(TypeId::list, children[0]);
    case fb::Type::LargeList:
      expect_children(1, "large_list");
      return make_list(TypeId::large_list, children[0]);
    case fb::Type::FixedSizeList: {
      const auto* t = f->type_as_FixedSizeList();
      check_corrupt(t != nullptr && t->list_size() >= 0, "fixed_size_list without a list size");
      expect_children(1, "fixed_size_list");
      return make_fixed_size_list(children[0], t->list_size());
    }
    case fb::Type::Struct_:
      return make_struct(std::move(children));
    case fb::Type::Map: {
      expect_children(1, "map");
      check_corrupt(children[0]->type->id == TypeId::struct_ && children[0]->type->children.size() == 2,
                    "map entries are not a struct of key and value");
      return make_map(children[0]);
    }
    default:
      break;
  }
  throw_unsupported("Arrow type tag {} is not supported", static_cast<int>(f->type_type()));
}

FieldPtr convert_field(const fb::Field* f, DictionaryTypes& dictionaries, bool in_dictionary) {
  auto field = std::make_shared<Field>();
  field->name = f->name() ? f->name()->str() : std::string();
  with_context([&] { return fmt::format("field '{}'", field->name); },
               [&] {
                 field->nullable = f->nullable();
                 field->metadata = metadata_of(f->custom_metadata());
                 const auto* d = f->dictionary();
                 if (d && in_dictionary) throw_unsupported("dictionary-encoded values inside dictionary values");
                 TypePtr type = convert_type(f, convert_children(f, dictionaries, in_dictionary || d));
                 if (d) {
                   TypePtr index = d->index_type() ? int_type(d->index_type()) : make_type(TypeId::int32);
                   check_corrupt(dictionaries.emplace(d->id(), type).second, "dictionary id {} used twice", d->id());
                   type = make_dictionary(index, type);
                 }
                 field->type = type;
               });
  return field;
}

struct SchemaInfo {
  std::vector<FieldPtr> fields;
  std::map<std::string, std::string> metadata;
  DictionaryTypes dictionaries;
};

SchemaInfo convert_schema(const fb::Schema* s) {
  check_corrupt(s != nullptr, "missing schema");
  check_corrupt(s->endianness() == fb::Endianness::Little, "big-endian Arrow data is not supported");
  SchemaInfo info;
  if (s->fields())
    for (const auto* f : *s->fields()) {
      check_corrupt(f != nullptr, "null field");
      info.fields.push_back(convert_field(f, info.dictionaries, false));
    }
  info.metadata = metadata_of(s->custom_metadata());
  return info;
}

// ---------------------------------------------------------------------------------------------
// Record batch bodies
// ---------------------------------------------------------------------------------------------

Bytes decompress(fb::CompressionType codec, ByteView frame, uint64_t size) {
  check_alloc(size, "Arrow IPC decompressed buffer");
  check_corrupt(size / kMaxExpansion <= frame.size(), "{} compressed bytes cannot expand to the declared {} bytes",
                frame.size(), size);
  Bytes out(static_cast<size_t>(size));
  uint8_t dummy = 0;
  uint8_t* dst = out.empty() ? &dummy : out.data();
  if (codec == fb::CompressionType::ZSTD) {
    const size_t n = ZSTD_decompress(dst, out.size(), frame.data(), frame.size());
    if (ZSTD_isError(n)) throw_corrupt("zstd: {}", ZSTD_getErrorName(n));
    check_corrupt(n == size, "zstd: decompressed {} bytes, the buffer says {}", n, size);
    return out;
  }
  check_corrupt(codec == fb::CompressionType::LZ4_FRAME, "unknown compression codec {}", static_cast<int>(codec));
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) throw_io("lz4: cannot allocate a context");
  std::unique_ptr<LZ4F_dctx, decltype(&LZ4F_freeDecompressionContext)> guard(ctx, &LZ4F_freeDecompressionContext);
  size_t in_pos = 0, out_pos = 0, hint = 1;
  while (in_pos < frame.size() && hint != 0) {
    size_t in_n = frame.size() - in_pos, out_n = out.size() - out_pos;
    hint = LZ4F_decompress(ctx, dst + out_pos, &out_n, frame.data() + in_pos, &in_n, nullptr);
    if (LZ4F_isError(hint)) throw_corrupt("lz4: {}", LZ4F_getErrorName(hint));
    in_pos += in_n;
    out_pos += out_n;
    if (in_n == 0 && out_n == 0) break;  // no progress: the output is full
  }
  check_corrupt(hint == 0, "lz4: frame is truncated or longer than the declared {} bytes", size);
  check_corrupt(out_pos == size, "lz4: decompressed {} bytes, the buffer says {}", out_pos, size);
  return out;
}

struct Node {
  int64_t length;
  int64_t null_count;
};

/// Turns the nodes and buffers of one RecordBatch (or DictionaryBatch data) into arrays.
class BatchLoader {
 public:
  BatchLoader(const fb::RecordBatch* rb, ByteView body, const std::map<int64_t, ArrayPtr>& dictionaries,
              const std::vector<int64_t>& dictionary_ids)
      : rb_(rb), body_(body), dictionaries_(dictionaries), dictionary_ids_(dictionary_ids) {
    check_corrupt(rb_ != nullptr, "message without its batch header");
    if (const auto* c = rb_->compression()) {
      check_corrupt(c->method() == fb::BodyCompressionMethod::BUFFER, "unknown body compression method {}",
                    static_cast<int>(c->method()));
      if (c->codec() != fb::CompressionType::ZSTD && c->codec() != fb::CompressionType::LZ4_FRAME)
        throw_unsupported("body compression codec {}", static_cast<int>(c->codec()));
      codec_ = c->codec();
    }
  }

  int64_t num_rows() const {
    check_corrupt(rb_->length() >= 0 && rb_->length() <= kMaxArrayLength, "batch length {}", rb_->length());
    return rb_->length();
  }

  /// Loads (`keep`) or skips one array of `type` and its children.
  ArrayPtr load(const TypePtr& type, bool keep) {
    const Node node = next_node();
    const DataType& t = *type;
    auto a = std::make_shared<ArrayData>();
    a->type = type;
    a->length = node.length;
    const uint64_t n = static_cast<uint64_t>(node.length);
    if (t.id == TypeId::null) {
      a->null_count = node.length;
      return keep ? a : nullptr;
    }
    {
      BytesPtr validity = next_buffer(keep && node.null_count > 0, bitmap_bytes(n), "validity");
      if (keep && node.null_count > 0) {
        a->validity = std::move(validity);
        a->null_count = node.null_count;
      }
    }
    switch (t.id) {
      case TypeId::boolean:
        a->buffers.push_back(next_buffer(keep, bitmap_bytes(n), "values"));
        break;
      case TypeId::utf8:
      case TypeId::large_utf8:
      case TypeId::binary:
      case TypeId::large_binary: {
        const bool large = t.is_large_offsets();
        BytesPtr offsets = next_offsets(keep, n, large);
        const uint64_t end = keep ? check_offsets(*offsets, n, large, UINT64_MAX) : 0;
        BytesPtr data = next_buffer(keep, end, "data");
        if (keep) {
          check_corrupt(end <= data->size(), "offsets end at {} past {} data bytes", end, data->size());
          a->buffers = {offsets, data};
        }
        break;
      }
      case TypeId::list:
      case TypeId::large_list:
      case TypeId::map: {
        const bool large = t.id == TypeId::large_list;
        BytesPtr offsets = next_offsets(keep, n, large);
        ArrayPtr child = load(t.children.at(0)->type, keep);
        if (keep) {
          check_offsets(*offsets, n, large, static_cast<uint64_t>(child->length));
          a->buffers = {offsets};
          a->children = {child};
        }
        break;
      }
      case TypeId::fixed_size_list: {
        ArrayPtr child = load(t.children.at(0)->type, keep);
        if (keep) {
          const uint64_t size = static_cast<uint64_t>(t.list_size);
          check_corrupt(size == 0 || n <= static_cast<uint64_t>(kMaxArrayLength) / size,
                        "fixed_size_list of {} x {} items is too long", n, size);
          check_corrupt(static_cast<uint64_t>(child->length) >= n * size,
                        "fixed_size_list of {} x {} items has a child of {}", n, size, child->length);
          a->children = {child};
        }
        break;
      }
      case TypeId::struct_:
        for (const auto& f : t.children) {
          ArrayPtr child = load(f->type, keep);
          if (keep) {
            check_corrupt(child->length >= node.length, "struct child '{}' of {} values for {} rows", f->name,
                          child->length, node.length);
            a->children.push_back(child);
          }
        }
        break;
      case TypeId::dictionary: {
        const size_t width = static_cast<size_t>(t.index_type->bit_width() / 8);
        a->buffers.push_back(next_buffer(keep, n * width, "indices"));
        check_corrupt(next_dictionary_ < dictionary_ids_.size(), "dictionary field without a dictionary id");
        const int64_t id = dictionary_ids_[next_dictionary_++];
        if (keep) {
          auto it = dictionaries_.find(id);
          check_corrupt(it != dictionaries_.end(), "no dictionary batch with id {} before the record batch", id);
          a->dictionary = it->second;
          check_indices(*a, width);
        }
        break;
      }
      default: {  // fixed-width values
        const uint64_t width = t.id == TypeId::fixed_size_binary ? static_cast<uint64_t>(t.byte_width)
                                                                 : static_cast<uint64_t>(t.bit_width() / 8);
        check_corrupt(n <= UINT64_MAX / width / 2, "{} values of {} bytes is too large", n, width);
        a->buffers.push_back(next_buffer(keep, n * width, "values"));
        break;
      }
    }
    return keep ? a : nullptr;
  }

  /// Checks that every node and buffer was used.
  void finish() const {
    const size_t nodes = rb_->nodes() ? rb_->nodes()->size() : 0;
    const size_t buffers = rb_->buffers() ? rb_->buffers()->size() : 0;
    check_corrupt(next_node_ == nodes && next_buffer_ == buffers,
                  "the batch has {} nodes and {} buffers but the schema uses {} and {}", nodes, buffers, next_node_,
                  next_buffer_);
  }

 private:
  static uint64_t bitmap_bytes(uint64_t n) { return (n + 7) / 8; }

  Node next_node() {
    const auto* nodes = rb_->nodes();
    check_corrupt(nodes && next_node_ < nodes->size(), "the batch has fewer nodes than the schema needs");
    const fb::FieldNode node = struct_at(nodes, static_cast<flatbuffers::uoffset_t>(next_node_++));
    const fb::FieldNode* fn = &node;
    check_corrupt(fn->length() >= 0 && fn->length() <= kMaxArrayLength, "node of length {}", fn->length());
    check_corrupt(fn->null_count() >= 0 && fn->null_count() <= fn->length(), "node of length {} with {} nulls",
                  fn->length(), fn->null_count());
    return {fn->length(), fn->null_count()};
  }

  /// The next buffer, decompressed and copied when `keep`; at least `min_size` bytes.
  BytesPtr next_buffer(bool keep, uint64_t min_size, const char* what) {
    const auto* buffers = rb_->buffers();
    check_corrupt(buffers && next_buffer_ < buffers->size(), "the batch has fewer buffers than the schema needs");
    const fb::Buffer entry = struct_at(buffers, static_cast<flatbuffers::uoffset_t>(next_buffer_++));
    const fb::Buffer* b = &entry;
    check_corrupt(b->offset() >= 0 && b->length() >= 0, "{} buffer at {} of {} bytes", what, b->offset(), b->length());
    ByteView raw = body_.slice(static_cast<uint64_t>(b->offset()), static_cast<uint64_t>(b->length()));
    if (!keep) return nullptr;
    Bytes bytes;
    if (!codec_ || raw.empty()) {
      bytes = raw.to_bytes();
    } else {
      const int64_t size = raw.read<int64_t>(0);
      ByteView payload = raw.slice(kCompressedLengthPrefixBytes);
      if (size == -1) {
        bytes = payload.to_bytes();
      } else {
        check_corrupt(size >= 0, "compressed {} buffer declares {} bytes", what, size);
        bytes = with_context([&] { return fmt::format("{} buffer", what); },
                             [&] { return decompress(*codec_, payload, static_cast<uint64_t>(size)); });
      }
    }
    check_corrupt(bytes.size() >= min_size, "{} buffer of {} bytes, {} needed", what, bytes.size(), min_size);
    return std::make_shared<const Bytes>(std::move(bytes));
  }

  /// An offsets buffer of n + 1 entries (an empty buffer stands for [0] when n == 0).
  BytesPtr next_offsets(bool keep, uint64_t n, bool large) {
    const uint64_t width = large ? 8 : 4;
    BytesPtr offsets = next_buffer(keep, n == 0 ? 0 : (n + 1) * width, "offsets");
    if (keep && offsets->size() < width) offsets = std::make_shared<const Bytes>(width, 0);
    return offsets;
  }

  /// Checks offsets are non-negative, non-decreasing and end at most at `limit`; returns the end.
  static uint64_t check_offsets(const Bytes& offsets, uint64_t n, bool large, uint64_t limit) {
    ByteView v(offsets);
    auto at = [&](uint64_t i) { return large ? v.read<int64_t>(i * 8) : int64_t{v.read<int32_t>(i * 4)}; };
    int64_t prev = at(0);
    check_corrupt(prev >= 0, "negative offset {}", prev);
    for (uint64_t i = 1; i <= n; ++i) {
      const int64_t cur = at(i);
      check_corrupt(cur >= prev, "offsets decrease at {} ({} after {})", i, cur, prev);
      prev = cur;
    }
    check_corrupt(static_cast<uint64_t>(prev) <= limit, "offsets end at {} past the {} values", prev, limit);
    return static_cast<uint64_t>(prev);
  }

  /// Checks that every valid index points into the dictionary.
  static void check_indices(const ArrayData& a, size_t width) {
    ByteView v(*a.buffers[0]);
    const bool is_signed = a.type->index_type->is_signed_integer();
    const uint64_t size = static_cast<uint64_t>(a.dictionary->length);
    for (int64_t i = 0; i < a.length; ++i) {
      if (!a.is_valid(i)) continue;
      const uint64_t off = static_cast<uint64_t>(i) * width;
      int64_t s = 0;
      uint64_t u = 0;
      switch (width) {
        case 1:
          s = is_signed ? v.read<int8_t>(off) : v.read<uint8_t>(off);
          break;
        case 2:
          s = is_signed ? v.read<int16_t>(off) : v.read<uint16_t>(off);
          break;
        case 4:
          s = is_signed ? v.read<int32_t>(off) : int64_t{v.read<uint32_t>(off)};
          break;
        default:
          u = v.read<uint64_t>(off);
          s = is_signed ? static_cast<int64_t>(u)
                        : (u > static_cast<uint64_t>(INT64_MAX) ? -1 : static_cast<int64_t>(u));
          break;
      }
      check_corrupt(s >= 0 && static_cast<uint64_t>(s) < size, "dictionary index {} outside a dictionary of {}", s,
                    size);
    }
  }

  const fb::RecordBatch* rb_;
  ByteView body_;
  std::optional<fb::CompressionType> codec_;
  const std::map<int64_t, ArrayPtr>& dictionaries_;
  const std::vector<int64_t>& dictionary_ids_;
  size_t next_node_ = 0;
  size_t next_buffer_ = 0;
  size_t next_dictionary_ = 0;
};

/// Dictionary ids in depth-first order of the dictionary-typed fields under `f`.
void collect_dictionary_ids(const fb::Field* f, std::vector<int64_t>& out) {
  if (f->dictionary()) {
    out.push_back(f->dictionary()->id());
    return;  // dictionary values hold no further dictionaries (convert_field rejects them)
  }
  if (f->children())
    for (const auto* c : *f->children()) collect_dictionary_ids(c, out);
}

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

/// One message: its verified flatbuffer (owned copy) and its body.
struct Message {
  std::unique_ptr<AlignedCopy> metadata;
  const fb::Message* message = nullptr;
  ByteView body;
};

/// The message whose prefix starts at `pos` of `bytes`, without its body; `body_start`
/// receives the position after its metadata. Returns nullopt at an end-of-stream marker.
std::optional<Message> read_message_metadata(ByteView bytes, uint64_t pos, uint64_t* body_start) {
  uint32_t size = bytes.read<uint32_t>(pos);
  uint64_t start = pos + 4;
  if (size == kContinuationMarker) {
    size = bytes.read<uint32_t>(start);
    start += 4;
  }
  if (size == 0) return std::nullopt;  // end-of-stream marker
  check_corrupt(size <= INT32_MAX, "message metadata of {} bytes", size);
  Message m;
  m.metadata = std::make_unique<AlignedCopy>(bytes.slice(start, size));
  auto verifier = make_verifier(*m.metadata);
  check_corrupt(fb::VerifyMessageBuffer(verifier), "message metadata at {} is not a valid Arrow Message", pos);
  m.message = fb::GetMessage(m.metadata->data());
  check_corrupt(m.message->body_length() >= 0, "message body of {} bytes", m.message->body_length());
  *body_start = start + size;
  return m;
}

/// The message at `pos` of a stream with its body; `pos` moves past it. Returns nullopt at
/// an end-of-stream marker or at the end of `bytes`.
std::optional<Message> read_stream_message(ByteView bytes, uint64_t& pos) {
  if (pos == bytes.size()) return std::nullopt;
  uint64_t body_start = 0;
  auto m = read_message_metadata(bytes, pos, &body_start);
  if (!m) return m;
  const uint64_t body_length = static_cast<uint64_t>(m->message->body_length());
  m->body = bytes.slice(body_start, body_length);
  pos = body_start + body_length;
  return m;
}

/// Reads the batches of a stream or file: holds the schema and the current dictionaries.
class ContentsBuilder {
 public:
  ContentsBuilder(const fb::Schema* schema, const IpcReadOptions& options) {
    SchemaInfo info = with_context("schema", [&] { return convert_schema(schema); });
    dictionary_types_ = std::move(info.dictionaries);
    all_fields_ = info.fields;
    contents_.metadata = std::move(info.metadata);
    for (size_t i = 0; i < all_fields_.size(); ++i) {
      const bool keep = options.columns.empty() || std::find(options.columns.begin(), options.columns.end(),
                                                             all_fields_[i]->name) != options.columns.end();
      keep_.push_back(keep);
      if (keep) contents_.fields.push_back(all_fields_[i]);
      std::vector<int64_t> ids;
      if (schema->fields()) collect_dictionary_ids(schema->fields()->Get(static_cast<flatbuffers::uoffset_t>(i)), ids);
      for (int64_t id : ids) field_dictionary_ids_.push_back(id);
    }
  }

  void add(const Message& m) {
    switch (m.message->header_type()) {
      case fb::MessageHeader::RecordBatch: {
        const size_t k = contents_.batches.size();
        with_context([&] { return fmt::format("record batch {}", k); }, [&] { add_record_batch(m); });
        break;
      }
      case fb::MessageHeader::DictionaryBatch:
        with_context("dictionary batch", [&] { add_dictionary_batch(m); });
        break;
      case fb::MessageHeader::Schema:
        throw_corrupt("a second schema message");
      default:
        throw_unsupported("Arrow IPC message type {}", static_cast<int>(m.message->header_type()));
    }
  }

  IpcContents take() { return std::move(contents_); }

 private:
  void add_record_batch(const Message& m) {
    BatchLoader loader(m.message->header_as_RecordBatch(), m.body, dictionaries_, field_dictionary_ids_);
    RecordBatch batch;
    batch.fields = contents_.fields;
    batch.num_rows = loader.num_rows();
    for (size_t i = 0; i < all_fields_.size(); ++i) {
      ArrayPtr a = with_context([&] { return fmt::format("column '{}'", all_fields_[i]->name); },
                                [&] { return loader.load(all_fields_[i]->type, keep_[i]); });
      if (!keep_[i]) continue;
      check_corrupt(a->length == batch.num_rows, "column '{}' has {} values for {} rows", all_fields_[i]->name,
                    a->length, batch.num_rows);
      batch.columns.push_back(a);
    }
    loader.finish();
    contents_.batches.push_back(std::move(batch));
  }

  void add_dictionary_batch(const Message& m) {
    const auto* d = m.message->header_as_DictionaryBatch();
    check_corrupt(d != nullptr, "dictionary message without its header");
    auto it = dictionary_types_.find(d->id());
    check_corrupt(it != dictionary_types_.end(), "dictionary id {} is not in the schema", d->id());
    static const std::vector<int64_t> kNoNestedDictionaries;
    BatchLoader loader(d->data(), m.body, dictionaries_, kNoNestedDictionaries);
    ArrayPtr values = loader.load(it->second, true);
    loader.finish();
    auto& slot = dictionaries_[d->id()];
    if (d->is_delta() && slot) values = concat_arrays(it->second, {slot, values});
    slot = values;
  }

  std::vector<FieldPtr> all_fields_;
  std::vector<bool> keep_;
  DictionaryTypes dictionary_types_;
  std::vector<int64_t> field_dictionary_ids_;
  std::map<int64_t, ArrayPtr> dictionaries_;
  IpcContents contents_;
};

}  // namespace

IpcContents read_ipc_stream(ByteView bytes, const IpcReadOptions& options) {
  return with_context("Arrow IPC stream", [&] {
    uint64_t pos = 0;
    auto first = read_stream_message(bytes, pos);
    check_corrupt(first && first->message->header_type() == fb::MessageHeader::Schema,
                  "the stream does not start with a schema message");
    ContentsBuilder builder(first->message->header_as_Schema(), options);
    while (auto m = read_stream_message(bytes, pos)) builder.add(*m);
    return builder.take();
  });
}

IpcContents read_ipc_file(ByteView bytes, const IpcReadOptions& options) {
  return with_context("Arrow IPC file", [&] {
    constexpr uint64_t kTrailerBytes = 4 + kFileMagic.size();  // footer size + magic
    check_corrupt(bytes.size() >= kFileHeaderBytes + kTrailerBytes &&
                      bytes.slice(0, kFileMagic.size()).as_string_view() == kFileMagic &&
                      bytes.slice(bytes.size() - kFileMagic.size()).as_string_view() == kFileMagic,
                  "not an Arrow IPC file (no ARROW1 magic at both ends)");
    const int32_t footer_size = bytes.read<int32_t>(bytes.size() - kTrailerBytes);
    check_corrupt(
        footer_size > 0 && static_cast<uint64_t>(footer_size) <= bytes.size() - kFileHeaderBytes - kTrailerBytes,
        "footer of {} bytes in a file of {}", footer_size, bytes.size());
    const uint64_t footer_start = bytes.size() - kTrailerBytes - static_cast<uint64_t>(footer_size);
    AlignedCopy footer_bytes(bytes.slice(footer_start, static_cast<uint64_t>(footer_size)));
    auto verifier = make_verifier(footer_bytes);
    check_corrupt(fb::VerifyFooterBuffer(verifier), "the footer is not a valid Arrow Footer");
    const fb::Footer* footer = fb::GetFooter(footer_bytes.data());
    ContentsBuilder builder(footer->schema(), options);
    ByteView messages = bytes.slice(0, footer_start);
    auto read_block = [&](const fb::Block& block_entry, const char* what, size_t index) {
      const fb::Block* b = &block_entry;
      with_context([&] { return fmt::format("{} block {}", what, index); },
                   [&] {
                     check_corrupt(b->offset() >= static_cast<int64_t>(kFileHeaderBytes) && b->meta_data_length() > 0 &&
                                       b->body_length() >= 0,
                                   "block at {} with {} metadata and {} body bytes", b->offset(), b->meta_data_length(),
                                   b->body_length());
                     const uint64_t start = static_cast<uint64_t>(b->offset());
                     ByteView block = messages.slice(start, static_cast<uint64_t>(b->meta_data_length()));
                     uint64_t body_start = 0;
                     auto m = read_message_metadata(block, 0, &body_start);
                     check_corrupt(m.has_value(), "block holds an end-of-stream marker");
                     check_corrupt(m->message->body_length() == b->body_length(),
                                   "block says {} body bytes, the message {}", b->body_length(),
                                   m->message->body_length());
                     m->body = messages.slice(start + static_cast<uint64_t>(b->meta_data_length()),
                                              static_cast<uint64_t>(b->body_length()));
                     const auto type = m->message->header_type();
                     check_corrupt(
                         type == (what[0] == 'd' ? fb::MessageHeader::DictionaryBatch : fb::MessageHeader::RecordBatch),
                         "block holds a message of type {}", static_cast<int>(type));
                     builder.add(*m);
                   });
    };
    if (footer->dictionaries())
      for (flatbuffers::uoffset_t i = 0; i < footer->dictionaries()->size(); ++i)
        read_block(struct_at(footer->dictionaries(), i), "dictionary", i);
    if (footer->record_batches())
      for (flatbuffers::uoffset_t i = 0; i < footer->record_batches()->size(); ++i)
        read_block(struct_at(footer->record_batches(), i), "record batch", i);
    return builder.take();
  });
}

}  // namespace lance::arrow
