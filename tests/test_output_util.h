// Builders of small Arrow-layout arrays and output capture, for the lib/output tests.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "output/value_text.h"
#include "output/writer.h"

namespace lance::test {

using namespace lance::output;  // the writers under test

inline FieldPtr field(std::string name, TypePtr type) {
  auto f = std::make_shared<Field>();
  f->name = std::move(name);
  f->type = std::move(type);
  return f;
}

template <typename T>
BytesPtr bytes_of(const std::vector<T>& values) {
  auto b = std::make_shared<Bytes>();
  for (const T& v : values) append_le(*b, v);
  return b;
}

/// A validity bitmap from flags; empty flags = all valid.
inline void set_validity(ArrayData& a, const std::vector<uint8_t>& valid) {
  if (!valid.empty()) a.validity = make_validity(valid, &a.null_count);
}

/// A fixed-width array of `type` with `values` (nulls: a zero flag in `valid`).
template <typename T>
ArrayPtr fixed(TypePtr type, const std::vector<T>& values, const std::vector<uint8_t>& valid = {}) {
  auto a = std::make_shared<ArrayData>();
  a->type = std::move(type);
  a->length = static_cast<int64_t>(values.size());
  a->buffers = {bytes_of(values)};
  set_validity(*a, valid);
  return a;
}

inline ArrayPtr bools(const std::vector<bool>& values, const std::vector<uint8_t>& valid = {}) {
  auto a = std::make_shared<ArrayData>();
  a->type = make_type(TypeId::boolean);
  a->length = static_cast<int64_t>(values.size());
  auto bits = std::make_shared<Bytes>((values.size() + 7) / 8, 0);
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i]) set_bit(bits->data(), i);
  a->buffers = {bits};
  set_validity(*a, valid);
  return a;
}

/// utf8/binary (int32 offsets) or large_utf8/large_binary (int64 offsets); nullopt = null.
inline ArrayPtr strings(TypePtr type, const std::vector<std::optional<std::string>>& values) {
  auto a = std::make_shared<ArrayData>();
  const bool large = type->is_large_offsets();
  a->type = std::move(type);
  a->length = static_cast<int64_t>(values.size());
  auto offsets = std::make_shared<Bytes>();
  auto data = std::make_shared<Bytes>();
  std::vector<uint8_t> valid;
  auto put_offset = [&](size_t o) {
    if (large)
      append_le<int64_t>(*offsets, static_cast<int64_t>(o));
    else
      append_le<int32_t>(*offsets, static_cast<int32_t>(o));
  };
  put_offset(0);
  for (const auto& v : values) {
    if (v) data->insert(data->end(), v->begin(), v->end());
    valid.push_back(v.has_value());
    put_offset(data->size());
  }
  a->buffers = {offsets, data};
  a->validity = make_validity(valid, &a->null_count);
  return a;
}

inline ArrayPtr utf8(const std::vector<std::optional<std::string>>& values) {
  return strings(make_type(TypeId::utf8), values);
}

/// list/large_list/map with `offsets` over `child`.
inline ArrayPtr list_like(TypePtr type, const std::vector<int64_t>& offsets, ArrayPtr child,
                          const std::vector<uint8_t>& valid = {}) {
  auto a = std::make_shared<ArrayData>();
  a->length = static_cast<int64_t>(offsets.size()) - 1;
  auto b = std::make_shared<Bytes>();
  for (int64_t o : offsets) {
    if (type->is_large_offsets())
      append_le<int64_t>(*b, o);
    else
      append_le<int32_t>(*b, static_cast<int32_t>(o));
  }
  a->type = std::move(type);
  a->buffers = {b};
  a->children = {std::move(child)};
  set_validity(*a, valid);
  return a;
}

inline ArrayPtr struct_of(const std::vector<FieldPtr>& fields, std::vector<ArrayPtr> children,
                          const std::vector<uint8_t>& valid = {}) {
  auto a = std::make_shared<ArrayData>();
  a->type = make_struct(fields);
  a->length = children.empty() ? 0 : children[0]->length;
  a->children = std::move(children);
  set_validity(*a, valid);
  return a;
}

inline std::string json_of(const ArrayPtr& a, int64_t i) {
  std::string s;
  append_json_value(s, *a, i);
  return s;
}

inline std::string cell_of(const ArrayPtr& a, int64_t i) {
  std::string s;
  append_cell_text(s, *a, i);
  return s;
}

/// Everything written to `fd` (a regular file) from its start.
inline std::string read_all(int fd) {
  std::string out;
  char buf[4096];
  off_t pos = 0;
  for (ssize_t n; (n = ::pread(fd, buf, sizeof buf, pos)) > 0; pos += n) out.append(buf, static_cast<size_t>(n));
  return out;
}

/// Runs a text writer over `batches` into a temporary file and returns the output.
inline std::string write_text(OutputFormat format, const TextOptions& options, const std::vector<FieldPtr>& fields,
                              const std::vector<RecordBatch>& batches) {
  std::FILE* file = std::tmpfile();
  std::string out;
  {
    OutputSink sink(fileno(file), 16);  // a tiny block exercises the sink's spill paths
    auto writer = make_text_writer(format, sink, options);
    writer->begin(fields);
    for (const auto& b : batches) writer->write(b);
    writer->finish();
    out = read_all(fileno(file));
  }
  std::fclose(file);
  return out;
}

inline RecordBatch batch_of(const std::vector<FieldPtr>& fields, std::vector<ArrayPtr> columns) {
  RecordBatch b;
  b.fields = fields;
  b.num_rows = columns.empty() ? 0 : columns[0]->length;
  b.columns = std::move(columns);
  return b;
}

}  // namespace lance::test
