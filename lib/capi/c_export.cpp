#include "capi/c_export.h"

#include <cerrno>
#include <cstring>
#include <deque>
#include <new>
#include <stdexcept>

#include "common/error.h"
#include "read/row_reader.h"

namespace lance::capi {

namespace {

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

/// The C data interface format string of a non-dictionary type.
std::string format_of(const DataType& t) {
  const char* unit = time_unit_suffix(t.unit);     // "s", "ms", "us", "ns"
  const char u = unit[1] == '\0' ? 's' : unit[0];  // s, m, u, n
  switch (t.id) {
    case TypeId::null:
      return "n";
    case TypeId::boolean:
      return "b";
    case TypeId::int8:
      return "c";
    case TypeId::uint8:
      return "C";
    case TypeId::int16:
      return "s";
    case TypeId::uint16:
      return "S";
    case TypeId::int32:
      return "i";
    case TypeId::uint32:
      return "I";
    case TypeId::int64:
      return "l";
    case TypeId::uint64:
      return "L";
    case TypeId::float16:
      return "e";
    case TypeId::float32:
      return "f";
    case TypeId::float64:
      return "g";
    case TypeId::binary:
      return "z";
    case TypeId::large_binary:
      return "Z";
    case TypeId::utf8:
      return "u";
    case TypeId::large_utf8:
      return "U";
    case TypeId::fixed_size_binary:
      return fmt::format("w:{}", t.byte_width);
    case TypeId::decimal128:
      return fmt::format("d:{},{}", t.precision, t.scale);
    case TypeId::decimal256:
      return fmt::format("d:{},{},256", t.precision, t.scale);
    case TypeId::date32:
      return "tdD";
    case TypeId::date64:
      return "tdm";
    case TypeId::time32:
    case TypeId::time64:
      return fmt::format("tt{}", u);
    case TypeId::timestamp:
      return fmt::format("ts{}:{}", u, t.timezone);
    case TypeId::duration:
      return fmt::format("tD{}", u);
    case TypeId::list:
      return "+l";
    case TypeId::large_list:
      return "+L";
    case TypeId::fixed_size_list:
      return fmt::format("+w:{}", t.list_size);
    case TypeId::struct_:
      return "+s";
    case TypeId::map:
      return "+m";
    case TypeId::dictionary:
      break;
  }
  throw std::logic_error("format_of: dictionary types have no format of their own");
}

/// Metadata as the C data interface encodes it: int32 count, then int32-length-prefixed
/// key and value bytes (native endianness); empty when there is none.
std::string encode_metadata(const std::map<std::string, std::string>& md) {
  if (md.empty()) return {};
  std::string out;
  auto put_i32 = [&](size_t v) {
    const int32_t x = static_cast<int32_t>(v);
    out.append(reinterpret_cast<const char*>(&x), sizeof x);
  };
  put_i32(md.size());
  for (const auto& [k, v] : md) {
    put_i32(k.size());
    out += k;
    put_i32(v.size());
    out += v;
  }
  return out;
}

struct SchemaPrivate {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<ArrowSchema> child_storage;
  std::vector<ArrowSchema*> children;
  ArrowSchema dictionary{};
};

void release_schema(ArrowSchema* s) {
  if (s == nullptr || s->release == nullptr) return;
  auto* p = static_cast<SchemaPrivate*>(s->private_data);
  for (ArrowSchema* c : p->children)
    if (c->release) c->release(c);
  if (p->dictionary.release) p->dictionary.release(&p->dictionary);
  delete p;
  s->release = nullptr;
  s->private_data = nullptr;
}

/// Fills `out` (releasable even when this throws half-way).
void fill_schema(ArrowSchema* out, const std::string& name, const DataType& type, bool nullable,
                 const std::map<std::string, std::string>& metadata) {
  auto* p = new SchemaPrivate;
  *out = ArrowSchema{};
  out->private_data = p;
  out->release = &release_schema;
  try {
    p->name = name;
    p->metadata = encode_metadata(metadata);
    const DataType* t = &type;
    if (type.id == TypeId::dictionary) {
      p->format = format_of(*type.index_type);
      fill_schema(&p->dictionary, "", *type.value_type, true, {});
      out->dictionary = &p->dictionary;
      t = nullptr;  // the value type's children belong to the dictionary schema
    } else {
      p->format = format_of(type);
    }
    if (t) {
      p->child_storage.resize(t->children.size(), ArrowSchema{});
      for (size_t i = 0; i < t->children.size(); ++i) {
        const Field& c = *t->children[i];
        p->children.push_back(&p->child_storage[i]);
        fill_schema(&p->child_storage[i], c.name, *c.type, c.nullable, c.metadata);
      }
    }
    out->format = p->format.c_str();
    out->name = p->name.c_str();
    out->metadata = p->metadata.empty() ? nullptr : p->metadata.data();
    out->flags = nullable ? ARROW_FLAG_NULLABLE : 0;
    out->n_children = static_cast<int64_t>(p->children.size());
    out->children = p->children.empty() ? nullptr : p->children.data();
  } catch (...) {
    release_schema(out);
    throw;
  }
}

// ---------------------------------------------------------------------------------------------
// Arrays
// ---------------------------------------------------------------------------------------------

/// Stands in for empty buffers, so consumers never see NULL where a buffer is required
/// (e.g. the single zero offset of an empty utf8 array). 64 bytes: any offset width fits.
alignas(64) constexpr uint8_t kZeros[64] = {};

struct ArrayPrivate {
  ArrayPtr array;  ///< keeps the array and its shared buffers alive
  std::vector<const void*> buffers;
  std::vector<ArrowArray> child_storage;
  std::vector<ArrowArray*> children;
  ArrowArray dictionary{};
};

void release_array(ArrowArray* a) {
  if (a == nullptr || a->release == nullptr) return;
  auto* p = static_cast<ArrayPrivate*>(a->private_data);
  for (ArrowArray* c : p->children)
    if (c->release) c->release(c);
  if (p->dictionary.release) p->dictionary.release(&p->dictionary);
  delete p;
  a->release = nullptr;
  a->private_data = nullptr;
}

const void* buffer_pointer(const BytesPtr& b) {
  return b && !b->empty() ? static_cast<const void*>(b->data()) : static_cast<const void*>(kZeros);
}

/// Buffers after the validity bitmap in the C data interface layout of `t`.
size_t data_buffer_count(const DataType& t) {
  switch (t.id) {
    case TypeId::null:
    case TypeId::fixed_size_list:
    case TypeId::struct_:
      return 0;
    case TypeId::utf8:
    case TypeId::large_utf8:
    case TypeId::binary:
    case TypeId::large_binary:
      return 2;
    default:
      return 1;  // values, offsets (list/large_list/map) or indices (dictionary)
  }
}

/// Fills `out` from `array` (releasable even when this throws half-way).
void fill_array(ArrowArray* out, ArrayPtr array, const std::vector<ArrayPtr>* struct_children, int64_t length) {
  auto* p = new ArrayPrivate;
  *out = ArrowArray{};
  out->private_data = p;
  out->release = &release_array;
  try {
    const std::vector<ArrayPtr>& children = struct_children ? *struct_children : array->children;
    if (array) {
      p->array = array;
      const DataType& t = *array->type;
      if (t.id != TypeId::null) {
        if (array->null_count > 0 && !array->validity)
          throw std::logic_error("array with nulls but no validity bitmap");
        p->buffers.push_back(array->null_count > 0 ? array->validity->data() : nullptr);
        const size_t n = data_buffer_count(t);
        if (array->buffers.size() < n)
          throw std::logic_error(fmt::format("{} array with {} buffers", t.to_string(), array->buffers.size()));
        for (size_t i = 0; i < n; ++i) p->buffers.push_back(buffer_pointer(array->buffers[i]));
      }
      out->length = array->length;
      out->null_count = t.id == TypeId::null ? array->length : array->null_count;
    } else {  // the struct array of a record batch: no nulls, no buffer of its own
      p->buffers.push_back(nullptr);
      out->length = length;
      out->null_count = 0;
    }
    p->child_storage.resize(children.size(), ArrowArray{});
    for (size_t i = 0; i < children.size(); ++i) {
      p->children.push_back(&p->child_storage[i]);
      fill_array(&p->child_storage[i], children[i], nullptr, 0);
    }
    if (array && array->type->id == TypeId::dictionary) {
      if (!array->dictionary) throw std::logic_error("dictionary array without a dictionary");
      fill_array(&p->dictionary, array->dictionary, nullptr, 0);
      out->dictionary = &p->dictionary;
    }
    out->offset = 0;
    out->n_buffers = static_cast<int64_t>(p->buffers.size());
    out->buffers = p->buffers.empty() ? nullptr : p->buffers.data();
    out->n_children = static_cast<int64_t>(p->children.size());
    out->children = p->children.empty() ? nullptr : p->children.data();
  } catch (...) {
    release_array(out);
    throw;
  }
}

// ---------------------------------------------------------------------------------------------
// Streams
// ---------------------------------------------------------------------------------------------

struct StreamPrivate {
  std::unique_ptr<BatchSource> source;
  std::string last_error;
};

/// Runs `fn`, turning exceptions into an errno code and the stream's last error.
template <typename Fn>
int guarded(ArrowArrayStream* s, Fn&& fn) {
  auto* p = static_cast<StreamPrivate*>(s->private_data);
  p->last_error.clear();
  try {
    fn(*p);
    return 0;
  } catch (const Error& e) {
    p->last_error = e.what();
    switch (e.kind()) {
      case ErrorKind::usage:
        return EINVAL;
      case ErrorKind::unsupported:
        return ENOTSUP;
      case ErrorKind::io:
      case ErrorKind::corrupt:
      case ErrorKind::internal:
        return EIO;
    }
    return EIO;
  } catch (const std::bad_alloc&) {
    p->last_error = "out of memory";
    return ENOMEM;
  } catch (const std::exception& e) {
    p->last_error = e.what();
    return EIO;
  }
}

int stream_get_schema(ArrowArrayStream* s, ArrowSchema* out) {
  return guarded(s, [&](StreamPrivate& p) { export_schema(p.source->fields(), out, p.source->metadata()); });
}

int stream_get_next(ArrowArrayStream* s, ArrowArray* out) {
  return guarded(s, [&](StreamPrivate& p) {
    std::optional<RecordBatch> batch = p.source->next();
    if (!batch) {
      *out = ArrowArray{};  // release == NULL: end of stream
      return;
    }
    export_batch(*batch, out);
  });
}

const char* stream_get_last_error(ArrowArrayStream* s) {
  auto* p = static_cast<StreamPrivate*>(s->private_data);
  return p->last_error.empty() ? nullptr : p->last_error.c_str();
}

void stream_release(ArrowArrayStream* s) {
  if (s == nullptr || s->release == nullptr) return;
  delete static_cast<StreamPrivate*>(s->private_data);
  s->private_data = nullptr;
  s->release = nullptr;
}

class TableBatchSource : public BatchSource {
 public:
  TableBatchSource(std::unique_ptr<dataset::TableReader> table, uint64_t begin, uint64_t end, uint64_t batch_size)
      : table_(std::move(table)),
        next_(begin),
        end_(std::min(end, table_->num_rows())),
        batch_size_(batch_size == 0 ? read::kDefaultBatchSize : batch_size) {}

  const std::vector<FieldPtr>& fields() const override { return table_->fields(); }
  std::map<std::string, std::string> metadata() const override { return table_->schema().metadata; }
  std::optional<RecordBatch> next() override {
    // One scan call per batch; a dataset may split it at fragment boundaries.
    while (pending_.empty() && next_ < end_) {
      const uint64_t stop = next_ + std::min(batch_size_, end_ - next_);
      table_->scan(next_, stop, batch_size_, [&](RecordBatch batch) { pending_.push_back(std::move(batch)); });
      next_ = stop;
    }
    if (pending_.empty()) return std::nullopt;
    RecordBatch batch = std::move(pending_.front());
    pending_.pop_front();
    return batch;
  }

 private:
  std::unique_ptr<dataset::TableReader> table_;
  uint64_t next_;
  uint64_t end_;
  uint64_t batch_size_;
  std::deque<RecordBatch> pending_;
};

}  // namespace

void export_field(const Field& field, ArrowSchema* out) {
  fill_schema(out, field.name, *field.type, field.nullable, field.metadata);
}

void export_schema(const std::vector<FieldPtr>& fields, ArrowSchema* out,
                   const std::map<std::string, std::string>& metadata) {
  fill_schema(out, "", *make_struct(fields), false, metadata);
}

void export_array(ArrayPtr array, ArrowArray* out) {
  if (!array) throw std::logic_error("export_array of a null array");
  fill_array(out, std::move(array), nullptr, 0);
}

void export_batch(const RecordBatch& batch, ArrowArray* out) {
  for (const auto& c : batch.columns)
    if (!c || c->length < batch.num_rows) throw std::logic_error("export_batch: a column is shorter than the batch");
  fill_array(out, nullptr, &batch.columns, batch.num_rows);
}

void export_stream(std::unique_ptr<BatchSource> source, ArrowArrayStream* out) {
  auto* p = new StreamPrivate{std::move(source), {}};
  *out = ArrowArrayStream{};
  out->get_schema = &stream_get_schema;
  out->get_next = &stream_get_next;
  out->get_last_error = &stream_get_last_error;
  out->release = &stream_release;
  out->private_data = p;
}

std::unique_ptr<BatchSource> make_table_batch_source(std::unique_ptr<dataset::TableReader> table, uint64_t begin,
                                                     uint64_t end, uint64_t batch_size) {
  return std::make_unique<TableBatchSource>(std::move(table), begin, end, batch_size);
}

}  // namespace lance::capi
