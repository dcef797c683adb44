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
//
// A read goes like a 2.1+ read (read/staged_reads.h): string and list positions and the
// dictionary values in metadata rounds, with the file's other fields; what they point at
// and the fixed-width values in batched data requests. So a batch of a flat table costs a
// round for positions and data requests, not a request per page per field.
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>

#include "array/take.h"
#include "read/field_reader.h"
#include "read/staged_reads.h"
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

/// Where the values of a v1 string page's entries lie, from their positions.
struct BinaryLayout {
  Bytes offsets;  ///< Arrow offsets (i32, or i64 for large types), from 0
  std::vector<uint8_t> valid;
  io::ByteRange data;  ///< the entries' value bytes
};

/// Entries [b, b + n) of a string page, given their n + 1 i64 `positions`.
BinaryLayout binary_layout(const DataType& type, const Bytes& positions, uint64_t b, uint64_t n, bool nullable) {
  ByteView v(positions);
  const int64_t first = v.read<int64_t>(0), last = v.read<int64_t>(n * 8);
  check_corrupt(first >= 0 && first <= last, "string positions {}..{} are not increasing", first, last);
  const bool large = type.is_large_offsets();
  check_corrupt(large || last - first <= INT32_MAX, "{} bytes of strings in one read", last - first);
  BinaryLayout out;
  out.data = {static_cast<uint64_t>(first), static_cast<uint64_t>(last - first)};
  out.offsets.resize((n + 1) * (large ? 8 : 4));
  out.valid.assign(n, 1);
  int64_t prev = first;
  for (uint64_t i = 0; i <= n; ++i) {
    const int64_t cur = v.read<int64_t>(i * 8);
    check_corrupt(cur >= prev && cur <= last, "string positions are not increasing at entry {}", b + i);
    if (i > 0 && nullable && cur == prev) out.valid[i - 1] = 0;
    const int64_t o = cur - first;
    if (large) {
      std::memcpy(out.offsets.data() + i * 8, &o, 8);
    } else {
      const int32_t o32 = static_cast<int32_t>(o);
      std::memcpy(out.offsets.data() + i * 4, &o32, 4);
    }
    prev = cur;
  }
  return out;
}

ArrayPtr binary_array(const TypePtr& type, BinaryLayout layout, Bytes data) {
  auto out = std::make_shared<ArrayData>();
  out->type = type;
  out->length = static_cast<int64_t>(layout.valid.size());
  out->validity = make_validity(layout.valid, &out->null_count);
  out->buffers.push_back(share(std::move(layout.offsets)));
  out->buffers.push_back(share(std::move(data)));
  return out;
}

/// Arrow offsets (from 0) of entries [b, b + n) of a list page, given their n + 1 `positions`.
Bytes list_offsets(const LanceField& f, bool large, const Bytes& positions, uint64_t b, uint64_t n, int64_t& first,
                   int64_t& last) {
  ByteView v(positions);
  auto pos = [&](uint64_t i) -> int64_t { return large ? v.read<int64_t>(i * 8) : v.read<int32_t>(i * 4); };
  first = pos(0);
  last = pos(n);
  Bytes offsets(positions.size());
  for (uint64_t i = 0; i <= n; ++i) {
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
  return offsets;
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

/// Keys of one dictionary page, as indices into its `values`.
ArrayPtr dictionary_keys(const LanceField& f, const Bytes& raw, uint64_t b, uint64_t n, const ArrayPtr& values) {
  const TypePtr& it = f.arrow->type->index_type;
  const uint64_t w = fixed_bytes(*it);
  ByteView v(raw);
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

class V1FieldReader final : public FieldReader {
 public:
  V1FieldReader(std::shared_ptr<format::FileReader> file, size_t field_index, const ReaderOptions& options)
      : file_(std::move(file)),
        field_(&file_->schema().fields.at(field_index)),
        meta_(*file_->v1()),
        budget_(options.page_batch_bytes) {
    output_ = structural::output_field(field_->arrow);
  }

  const FieldPtr& output_field() const override { return output_; }

  ArrayPtr read(uint64_t begin, uint64_t end) override { return read_planned(*this, file_->io(), begin, end); }

  std::unique_ptr<Pending> plan(std::span<const RowRange> ranges, MetadataRounds& rounds) override {
    auto b = std::make_unique<Batch>(ranges);
    b->on_abandon = [this] { forget_pending_dictionaries(); };
    with_context([&] { return label(); },
                 [&] {
                   for (const auto& r : ranges) plan_range(r.begin, r.end, *b);
                 });
    b->reads.add_to(rounds, [this] { return label(); });
    return b;
  }

  void submit(Pending& pending) override { StagedPending::submit(pending, file_->io(), budget_); }

  ArrayPtr finish(std::unique_ptr<Pending> pending) override {
    auto& b = static_cast<Batch&>(*pending);
    b.finished = true;
    return with_context([&] { return label(); },
                        [&] {
                          std::vector<ArrayPtr> parts;
                          for (size_t i = 0; i < b.parts.size(); ++i)
                            parts.push_back(with_context([&] { return fmt::format("batch {}", b.batches[i]); },
                                                         [&] { return b.parts[i]->get(); }));
                          if (parts.empty()) return make_null_array(output_->type, 0);
                          return parts.size() == 1 ? parts[0] : concat_arrays(output_->type, parts);
                        });
  }

 private:
  /// The values of one dictionary field, read as metadata once per file.
  struct Dictionary {
    ArrayPtr values;  ///< null until the metadata round that reads them
  };
  using DictionaryPtr = std::shared_ptr<Dictionary>;

  /// One planned read: a part per (row range, v1 batch) it touches. Dropped unfinished, it
  /// forgets the dictionaries it asked for (they may never arrive), so the next read asks again.
  struct Batch final : StagedPending {
    using StagedPending::StagedPending;
    std::vector<DeferredPtr> parts;
    std::vector<size_t> batches;  ///< the v1 batch of each part, for errors
  };

  void plan_range(uint64_t begin, uint64_t end, Batch& out) {
    check_corrupt(begin < end && end <= meta_.num_rows(), "rows [{}, {}) outside a file of {}", begin, end,
                  meta_.num_rows());
    for (size_t b = 0; b < meta_.num_batches(); ++b) {
      const uint64_t lo = meta_.batch_starts[b], hi = meta_.batch_starts[b + 1];
      if (hi <= begin || lo >= end) continue;
      const uint64_t from = std::max(begin, lo) - lo, to = std::min(end, hi) - lo;
      out.parts.push_back(with_context([&] { return fmt::format("batch {}", b); },
                                       [&] { return plan_node(*field_, b, from, to, out.reads); }));
      out.batches.push_back(b);
    }
  }

  std::string label() const { return fmt::format("field '{}'", field_->name); }

  void forget_pending_dictionaries() {
    std::lock_guard lock(dict_mutex_);
    for (auto it = dicts_.begin(); it != dicts_.end();) it = it->second->values ? std::next(it) : dicts_.erase(it);
  }

  /// [offset, +length) of the file; throws corrupt when it lies outside.
  io::ByteRange file_range(uint64_t offset, uint64_t length) const {
    check_corrupt(offset <= file_->file_size() && length <= file_->file_size() - offset,
                  "[{}, +{}) lies outside the file ({} bytes)", offset, length, file_->file_size());
    return {offset, length};
  }

  const format::v1::PageRef& page_of(const LanceField& f, size_t batch, uint64_t needed_entries) const {
    const auto& p = meta_.page(f.id, batch);
    check_corrupt(needed_entries <= p.length, "field '{}': the page of batch {} has {} entries, {} needed", f.name,
                  batch, p.length, needed_entries);
    return p;
  }

  /// Plans entries [b, e) of a field's page in one batch, decoded to the output type.
  DeferredPtr plan_node(const LanceField& f, size_t batch, uint64_t b, uint64_t e, StagedReads& reads) {
    const TypePtr& type = f.arrow->type;
    const int64_t n = static_cast<int64_t>(e - b);
    TypePtr out_type = structural::output_field(f.arrow)->type;
    switch (type->id) {
      case TypeId::null:
        return make_deferred([type, n] { return make_null_array(type, n); });
      case TypeId::boolean: {
        const auto& p = page_of(f, batch, e);
        auto raw = reads.later({file_range(p.position + b / 8, (e + 7) / 8 - b / 8)});
        return make_deferred([raw, out_type, b, n] {
          Bytes bytes = std::move(raw->take().at(0));
          Bytes bits((static_cast<uint64_t>(n) + 7) / 8, 0);
          for (uint64_t i = 0; i < static_cast<uint64_t>(n); ++i)
            if (get_bit(bytes.data(), (b % 8) + i)) bits[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
          auto out = std::make_shared<ArrayData>();
          out->type = out_type;
          out->length = n;
          out->buffers.push_back(share(std::move(bits)));
          return ArrayPtr(out);
        });
      }
      case TypeId::utf8:
      case TypeId::large_utf8:
      case TypeId::binary:
      case TypeId::large_binary:
        return plan_binary(type, page_of(f, batch, e).position, b, e, f.nullable, reads);
      case TypeId::dictionary:
        return plan_dictionary(f, batch, b, e, reads);
      case TypeId::struct_:
        return plan_struct(f, batch, b, e, reads, out_type);
      case TypeId::list:
      case TypeId::large_list:
        return plan_list(f, batch, b, e, reads, out_type);
      case TypeId::map:
        throw_unsupported("map columns in a legacy v1 file are not supported");
      default:
        break;
    }
    const uint64_t width = fixed_bytes(*type);
    if (width == 0) throw_unsupported("{} columns in a legacy v1 file are not supported", type->to_string());
    const auto& p = page_of(f, batch, e);
    check_corrupt(static_cast<uint64_t>(n) <= kMaxDecodedBufferBytes / width, "page of {} values", n);
    auto raw = reads.later({file_range(p.position + b * width, static_cast<uint64_t>(n) * width)});
    return make_deferred([raw, out_type, n] {
      Bytes bytes = std::move(raw->take().at(0));
      // fixed_size_list: nest the flat items, innermost type fixed width.
      return nest_fsl(out_type, std::move(bytes), n);
    });
  }

  DeferredPtr plan_struct(const LanceField& f, size_t batch, uint64_t b, uint64_t e, StagedReads& reads,
                          TypePtr out_type) {
    check_corrupt(f.children.size() == f.arrow->type->children.size(), "struct '{}' has {} children in the schema",
                  f.name, f.children.size());
    std::vector<DeferredPtr> children;
    for (const auto& c : f.children) children.push_back(plan_node(c, batch, b, e, reads));
    return make_deferred([out_type, n = static_cast<int64_t>(e - b), children = std::move(children)] {
      auto out = std::make_shared<ArrayData>();
      out->type = out_type;
      out->length = n;
      for (const auto& c : children) out->children.push_back(c->get());
      return ArrayPtr(out);
    });
  }

  /// The positions go out as metadata; the child's entries they point at are planned when
  /// they arrive.
  DeferredPtr plan_list(const LanceField& f, size_t batch, uint64_t b, uint64_t e, StagedReads& reads,
                        TypePtr out_type) {
    check_corrupt(f.children.size() == 1, "list '{}' needs one child field", f.name);
    const auto& p = page_of(f, batch, e);
    const bool large = f.arrow->type->id == TypeId::large_list;
    const uint64_t w = large ? 8 : 4, n = e - b;
    auto out = std::make_shared<Deferred>();
    reads.now({file_range(p.position + b * w, (n + 1) * w)},
              [this, &f, batch, b, n, large, out, out_type, &reads](std::vector<Bytes>&& raw) {
                with_context([&] { return fmt::format("batch {}", batch); },
                             [&] {
                               int64_t first = 0, last = 0;
                               Bytes offsets = list_offsets(f, large, raw.at(0), b, n, first, last);
                               const LanceField& child = f.children[0];
                               DeferredPtr items = last > first ? plan_node(child, batch, static_cast<uint64_t>(first),
                                                                            static_cast<uint64_t>(last), reads)
                                                                : nullptr;
                               TypePtr item_type = structural::output_field(child.arrow)->type;
                               out->set([out_type, n, items, item_type, offsets = std::move(offsets)]() mutable {
                                 auto a = std::make_shared<ArrayData>();
                                 a->type = out_type;
                                 a->length = static_cast<int64_t>(n);
                                 a->buffers.push_back(share(std::move(offsets)));
                                 a->children.push_back(items ? items->get() : make_null_array(item_type, 0));
                                 return ArrayPtr(a);
                               });
                             });
              });
    return out;
  }

  /// utf8/binary entries [b, e) of a page whose i64 positions start at `positions_at`: the
  /// positions as metadata, the value bytes as data.
  DeferredPtr plan_binary(const TypePtr& type, uint64_t positions_at, uint64_t b, uint64_t e, bool nullable,
                          StagedReads& reads) {
    const uint64_t n = e - b;
    auto out = std::make_shared<Deferred>();
    reads.now({file_range(positions_at + b * 8, (n + 1) * 8)},
              [this, type, b, n, nullable, out, &reads](std::vector<Bytes>&& raw) {
                BinaryLayout layout = binary_layout(*type, raw.at(0), b, n, nullable);
                auto data = reads.later({file_range(layout.data.offset, layout.data.length)});
                out->set([type, data, layout = std::move(layout)]() mutable {
                  return binary_array(type, std::move(layout), std::move(data->take().at(0)));
                });
              });
    return out;
  }

  DeferredPtr plan_dictionary(const LanceField& f, size_t batch, uint64_t b, uint64_t e, StagedReads& reads) {
    const TypePtr& it = f.arrow->type->index_type;
    const uint64_t w = fixed_bytes(*it);
    check_corrupt(w > 0 && it->is_integer(), "dictionary '{}' with index type {}", f.name, it->to_string());
    const auto& p = page_of(f, batch, e);
    const uint64_t n = e - b;
    auto keys = reads.later({file_range(p.position + b * w, n * w)});
    DictionaryPtr dict = plan_dictionary_values(f, reads);
    return make_deferred([&f, keys, dict, b, n] {
      check_internal(dict->values != nullptr, "dictionary '{}': its values were never read", f.name);
      return dictionary_keys(f, keys->take().at(0), b, n, dict->values);
    });
  }

  /// The values of dictionary field `f` (`Field.dictionary`), asked as metadata on first use.
  DictionaryPtr plan_dictionary_values(const LanceField& f, StagedReads& reads) {
    std::lock_guard<std::mutex> lock(dict_mutex_);
    DictionaryPtr& d = dicts_[f.id];
    if (d) return d;
    d = std::make_shared<Dictionary>();
    auto ref = meta_.dictionaries.find(f.id);
    check_corrupt(ref != meta_.dictionaries.end(), "dictionary field '{}' has no dictionary values", f.name);
    const TypePtr& vt = f.arrow->type->value_type;
    const uint64_t count = ref->second.length, at = ref->second.offset;
    if (count == 0) {
      d->values = make_null_array(vt, 0);
    } else if (vt->is_binary_like()) {
      reads.now({file_range(at, (count + 1) * 8)}, [this, vt, count, d, &reads](std::vector<Bytes>&& raw) {
        auto layout = std::make_shared<BinaryLayout>(binary_layout(*vt, raw.at(0), 0, count, /*nullable=*/true));
        reads.now({file_range(layout->data.offset, layout->data.length)}, [vt, d, layout](std::vector<Bytes>&& data) {
          d->values = binary_array(vt, std::move(*layout), data.empty() ? Bytes{} : std::move(data.at(0)));
        });
      });
    } else if (vt->is_integer()) {
      const uint64_t w = fixed_bytes(*vt);
      check_corrupt(count <= kMaxDecodedBufferBytes / w, "dictionary of {} values", count);
      reads.now({file_range(at, count * w)}, [vt, count, d](std::vector<Bytes>&& raw) {
        auto a = std::make_shared<ArrayData>();
        a->type = vt;
        a->length = static_cast<int64_t>(count);
        a->buffers.push_back(share(std::move(raw.at(0))));
        d->values = a;
      });
    } else {
      throw_unsupported("dictionary values of type {} in a legacy v1 file are not supported", vt->to_string());
    }
    return d;
  }

  std::shared_ptr<format::FileReader> file_;
  const LanceField* field_;
  const format::v1::FileMeta& meta_;
  uint64_t budget_;
  FieldPtr output_;
  std::mutex dict_mutex_;
  std::map<int32_t, DictionaryPtr> dicts_;
};

}  // namespace

std::unique_ptr<FieldReader> make_v1_field_reader(std::shared_ptr<format::FileReader> file, size_t field_index,
                                                  const ReaderOptions& options) {
  check_corrupt(file->v1() != nullptr, "not a legacy v1 file");
  return std::make_unique<V1FieldReader>(std::move(file), field_index, options);
}

}  // namespace lance::read
