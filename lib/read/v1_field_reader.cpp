// Reading one top-level field of a legacy v1 data file (footer 0.1 / 0.2; format/v1_file.h).
//
// Every field has one page per batch; the pages are plain (upstream lancedb/lance
// rust/lance-file/src/previous/reader.rs `read_array`, rust/lance-io/src/encodings/):
//   - fixed width (ints, floats, temporal, decimals, fixed_size_binary, fixed_size_list of
//     those): the values back to back, `length` rows; booleans as an LSB-first bitmap;
//   - utf8 / binary (and large_*): `length + 1` i64 absolute file positions of the value
//     bytes; with a nullable field an empty value reads as null (v1 keeps no validity);
//   - dictionary: the keys plain; the values (binary-encoded like above, or plain ints)
//     sit once per file at `Field.dictionary` {offset, length};
//   - list / large_list: `length + 1` i32 / i64 positions into the child's page of the same
//     batch; struct: no page, its children have the same rows.
// There is no validity anywhere else: null numbers read as what was stored (zeros), null
// lists as empty lists, null structs as structs — exactly what Lance's own reader returns.
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>

#include "array/take.h"
#include "read/field_reader.h"
#include "structural/assemble.h"

namespace lance::read {

namespace {

using format::LanceField;

/// Bytes per row of a fixed-width v1 value (fixed_size_list flattened), 0 when not fixed.
uint64_t fixed_bytes(const DataType& t) {
  if (t.id == TypeId::fixed_size_binary) return static_cast<uint64_t>(t.byte_width);
  if (t.id == TypeId::fixed_size_list) {
    const uint64_t inner = fixed_bytes(*t.children.at(0)->type);
    return inner * static_cast<uint64_t>(t.list_size);
  }
  const int bits = t.bit_width();
  return bits >= 8 && bits % 8 == 0 ? static_cast<uint64_t>(bits / 8) : 0;
}

BytesPtr share(Bytes b) { return std::make_shared<const Bytes>(std::move(b)); }

class V1FieldReader final : public FieldReader {
 public:
  V1FieldReader(std::shared_ptr<format::FileReader> file, size_t field_index)
      : file_(std::move(file)), field_(&file_->schema().fields.at(field_index)), meta_(*file_->v1()) {
    output_ = structural::output_field(field_->arrow);
  }

  const FieldPtr& output_field() const override { return output_; }

  ArrayPtr read(uint64_t begin, uint64_t end) override {
    return with_context(fmt::format("field '{}'", field_->name), [&] {
      check_corrupt(begin < end && end <= meta_.num_rows(), "rows [{}, {}) outside a file of {}", begin, end,
                    meta_.num_rows());
      std::vector<ArrayPtr> parts;
      for (size_t b = 0; b < meta_.num_batches(); ++b) {
        const uint64_t lo = meta_.batch_starts[b], hi = meta_.batch_starts[b + 1];
        if (hi <= begin || lo >= end) continue;
        const uint64_t from = std::max(begin, lo) - lo, to = std::min(end, hi) - lo;
        parts.push_back(with_context(fmt::format("batch {}", b), [&] { return read_node(*field_, b, from, to); }));
      }
      return parts.size() == 1 ? parts[0] : concat_arrays(output_->type, parts);
    });
  }

 private:
  Bytes bytes(uint64_t offset, uint64_t length) const {
    check_corrupt(offset <= file_->file_size() && length <= file_->file_size() - offset,
                  "[{}, +{}) lies outside the file ({} bytes)", offset, length, file_->file_size());
    if (length == 0) return {};
    return file_->io().read_range({offset, length});
  }

  const format::v1::PageRef& page_of(const LanceField& f, size_t batch, uint64_t needed_entries) const {
    const auto& p = meta_.page(f.id, batch);
    check_corrupt(needed_entries <= p.length, "field '{}': the page of batch {} has {} entries, {} needed", f.name,
                  batch, p.length, needed_entries);
    return p;
  }

  /// Entries [b, e) of a field's page in one batch, decoded to the output type.
  ArrayPtr read_node(const LanceField& f, size_t batch, uint64_t b, uint64_t e) {
    const TypePtr& type = f.arrow->type;
    const int64_t n = static_cast<int64_t>(e - b);
    auto out = std::make_shared<ArrayData>();
    out->type = structural::output_field(f.arrow)->type;
    out->length = n;
    switch (type->id) {
      case TypeId::null:
        return make_null_array(type, n);
      case TypeId::boolean: {
        const auto& p = page_of(f, batch, e);
        Bytes raw = bytes(p.position + b / 8, (e + 7) / 8 - b / 8);
        Bytes bits((static_cast<uint64_t>(n) + 7) / 8, 0);
        for (uint64_t i = 0; i < static_cast<uint64_t>(n); ++i)
          if (get_bit(raw.data(), (b % 8) + i)) bits[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
        out->buffers.push_back(share(std::move(bits)));
        return out;
      }
      case TypeId::utf8:
      case TypeId::large_utf8:
      case TypeId::binary:
      case TypeId::large_binary: {
        const auto& p = page_of(f, batch, e);
        return read_binary(type, p.position, b, e, f.nullable);
      }
      case TypeId::dictionary:
        return read_dictionary(f, batch, b, e);
      case TypeId::struct_: {
        check_corrupt(f.children.size() == type->children.size(), "struct '{}' has {} children in the schema", f.name,
                      f.children.size());
        for (const auto& c : f.children) out->children.push_back(read_node(c, batch, b, e));
        return out;
      }
      case TypeId::list:
      case TypeId::large_list: {
        check_corrupt(f.children.size() == 1, "list '{}' needs one child field", f.name);
        const auto& p = page_of(f, batch, e);
        const bool large = type->id == TypeId::large_list;
        const uint64_t w = large ? 8 : 4;
        Bytes raw = bytes(p.position + b * w, (static_cast<uint64_t>(n) + 1) * w);
        ByteView v(raw);
        auto pos = [&](uint64_t i) -> int64_t { return large ? v.read<int64_t>(i * 8) : v.read<int32_t>(i * 4); };
        const int64_t first = pos(0), last = pos(static_cast<uint64_t>(n));
        Bytes offsets(raw.size());
        for (uint64_t i = 0; i <= static_cast<uint64_t>(n); ++i) {
          const int64_t cur = pos(i);
          check_corrupt(cur >= first && cur <= last && (i == 0 || cur >= pos(i - 1)),
                        "list '{}': positions are not increasing at entry {}", f.name, b + i);
          if (large) {
            const int64_t o = cur - first;
            std::memcpy(offsets.data() + i * 8, &o, 8);
          } else {
            const int32_t o = static_cast<int32_t>(cur - first);
            std::memcpy(offsets.data() + i * 4, &o, 4);
          }
        }
        out->buffers.push_back(share(std::move(offsets)));
        if (last > first)
          out->children.push_back(
              read_node(f.children[0], batch, static_cast<uint64_t>(first), static_cast<uint64_t>(last)));
        else
          out->children.push_back(make_null_array(structural::output_field(f.children[0].arrow)->type, 0));
        return out;
      }
      case TypeId::map:
        throw_unsupported("map columns in a legacy v1 file are not supported");
      default:
        break;
    }
    const uint64_t width = fixed_bytes(*type);
    if (width == 0) throw_unsupported("{} columns in a legacy v1 file are not supported", type->to_string());
    const auto& p = page_of(f, batch, e);
    check_corrupt(static_cast<uint64_t>(n) <= kMaxDecodedBufferBytes / width, "page of {} values", n);
    Bytes raw = bytes(p.position + b * width, static_cast<uint64_t>(n) * width);
    if (type->id != TypeId::fixed_size_list) {
      out->buffers.push_back(share(std::move(raw)));
      return out;
    }
    // fixed_size_list: nest the flat items, innermost type fixed width.
    return nest_fsl(type, std::move(raw), n);
  }

  ArrayPtr nest_fsl(const TypePtr& type, Bytes raw, int64_t rows) {
    auto out = std::make_shared<ArrayData>();
    out->type = type;
    out->length = rows;
    if (type->id != TypeId::fixed_size_list) {
      out->buffers.push_back(share(std::move(raw)));
      return out;
    }
    const auto& item = type->children.at(0)->type;
    out->children.push_back(nest_fsl(item, std::move(raw), rows * type->list_size));
    return out;
  }

  /// utf8/binary entries [b, e) of a page whose i64 positions start at `positions_at`.
  ArrayPtr read_binary(const TypePtr& type, uint64_t positions_at, uint64_t b, uint64_t e, bool nullable) {
    const uint64_t n = e - b;
    Bytes raw = bytes(positions_at + b * 8, (n + 1) * 8);
    ByteView v(raw);
    const int64_t first = v.read<int64_t>(0), last = v.read<int64_t>(n * 8);
    check_corrupt(first >= 0 && first <= last, "string positions {}..{} are not increasing", first, last);
    const bool large = type->is_large_offsets();
    check_corrupt(large || last - first <= INT32_MAX, "{} bytes of strings in one read", last - first);
    Bytes data = bytes(static_cast<uint64_t>(first), static_cast<uint64_t>(last - first));
    Bytes offsets((n + 1) * (large ? 8 : 4));
    std::vector<uint8_t> valid(n, 1);
    int64_t prev = first;
    for (uint64_t i = 0; i <= n; ++i) {
      const int64_t cur = v.read<int64_t>(i * 8);
      check_corrupt(cur >= prev && cur <= last, "string positions are not increasing at entry {}", b + i);
      if (i > 0 && nullable && cur == prev) valid[i - 1] = 0;
      const int64_t o = cur - first;
      if (large)
        std::memcpy(offsets.data() + i * 8, &o, 8);
      else {
        const int32_t o32 = static_cast<int32_t>(o);
        std::memcpy(offsets.data() + i * 4, &o32, 4);
      }
      prev = cur;
    }
    auto out = std::make_shared<ArrayData>();
    out->type = type;
    out->length = static_cast<int64_t>(n);
    out->validity = make_validity(valid, &out->null_count);
    out->buffers.push_back(share(std::move(offsets)));
    out->buffers.push_back(share(std::move(data)));
    return out;
  }

  ArrayPtr dictionary_values(const LanceField& f) {
    std::lock_guard<std::mutex> lock(dict_mutex_);
    auto it = dicts_.find(f.id);
    if (it != dicts_.end()) return it->second;
    auto ref = meta_.dictionaries.find(f.id);
    check_corrupt(ref != meta_.dictionaries.end(), "dictionary field '{}' has no dictionary values", f.name);
    const TypePtr& vt = f.arrow->type->value_type;
    ArrayPtr values;
    if (ref->second.length == 0) {
      values = make_null_array(vt, 0);
    } else if (vt->is_binary_like()) {
      values = read_binary(vt, ref->second.offset, 0, ref->second.length, /*nullable=*/true);
    } else if (vt->is_integer()) {
      const uint64_t w = fixed_bytes(*vt);
      check_corrupt(ref->second.length <= kMaxDecodedBufferBytes / w, "dictionary of {} values", ref->second.length);
      auto a = std::make_shared<ArrayData>();
      a->type = vt;
      a->length = static_cast<int64_t>(ref->second.length);
      a->buffers.push_back(share(bytes(ref->second.offset, ref->second.length * w)));
      values = a;
    } else {
      throw_unsupported("dictionary values of type {} in a legacy v1 file are not supported", vt->to_string());
    }
    dicts_[f.id] = values;
    return values;
  }

  ArrayPtr read_dictionary(const LanceField& f, size_t batch, uint64_t b, uint64_t e) {
    const TypePtr& it = f.arrow->type->index_type;
    const uint64_t w = fixed_bytes(*it);
    check_corrupt(w > 0 && it->is_integer(), "dictionary '{}' with index type {}", f.name, it->to_string());
    const auto& p = page_of(f, batch, e);
    const uint64_t n = e - b;
    Bytes raw = bytes(p.position + b * w, n * w);
    ByteView v(raw);
    ArrayPtr values = dictionary_values(f);
    std::vector<int64_t> index(n);
    for (uint64_t i = 0; i < n; ++i) {
      int64_t k = 0;
      switch (w) {
        case 1:
          k = it->is_signed_integer() ? v.read<int8_t>(i) : v.read<uint8_t>(i);
          break;
        case 2:
          k = it->is_signed_integer() ? v.read<int16_t>(i * 2) : v.read<uint16_t>(i * 2);
          break;
        case 4:
          k = it->is_signed_integer() ? v.read<int32_t>(i * 4) : v.read<uint32_t>(i * 4);
          break;
        default:
          k = v.read<int64_t>(i * 8);
          break;
      }
      check_corrupt(k >= 0 && k < values->length, "dictionary '{}': key {} at entry {} is outside {} values", f.name, k,
                    b + i, values->length);
      index[i] = k;
    }
    return take_array(values, index);
  }

  std::shared_ptr<format::FileReader> file_;
  const LanceField* field_;
  const format::v1::FileMeta& meta_;
  FieldPtr output_;
  std::mutex dict_mutex_;
  std::map<int32_t, ArrayPtr> dicts_;
};

}  // namespace

std::unique_ptr<FieldReader> make_v1_field_reader(std::shared_ptr<format::FileReader> file, size_t field_index) {
  check_corrupt(file->v1() != nullptr, "not a legacy v1 file");
  return std::make_unique<V1FieldReader>(std::move(file), field_index);
}

}  // namespace lance::read
