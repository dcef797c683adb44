#include "arrow/ipc_file_reader.h"

#include "arrow/ipc_reader.h"
#include "common/error.h"

namespace lance::arrow {

namespace {

template <typename T>
void append_values(const ArrayData& a, std::vector<uint64_t>& out) {
  ByteView v(*a.buffers.at(0));
  for (int64_t i = 0; i < a.length; ++i) {
    const T x = v.read<T>(static_cast<uint64_t>(i) * sizeof(T));
    if constexpr (std::is_signed_v<T>) check_corrupt(x >= 0, "negative value {} at row {}", x, i);
    out.push_back(static_cast<uint64_t>(x));
  }
}

}  // namespace

std::vector<uint64_t> read_arrow_file_integer_column(ByteView file_bytes, std::string_view column_name) {
  IpcReadOptions options;
  options.columns = {std::string(column_name)};
  IpcContents contents = read_ipc_file(file_bytes, options);
  return with_context("Arrow IPC file", [&] {
    check_corrupt(contents.fields.size() == 1, "no column '{}'", column_name);
    const DataType& type = *contents.fields[0]->type;
    if (!type.is_integer())
      throw_unsupported("column '{}' is {}, not an integer column", column_name, type.to_string());
    std::vector<uint64_t> out;
    for (size_t b = 0; b < contents.batches.size(); ++b) {
      const ArrayData& a = *contents.batches[b].columns.at(0);
      with_context([&] { return fmt::format("record batch {}: column '{}'", b, column_name); },
                   [&] {
                     check_corrupt(a.null_count == 0, "{} null values in a column that must have none", a.null_count);
                     switch (type.id) {
                       case TypeId::int8:
                         append_values<int8_t>(a, out);
                         break;
                       case TypeId::int16:
                         append_values<int16_t>(a, out);
                         break;
                       case TypeId::int32:
                         append_values<int32_t>(a, out);
                         break;
                       case TypeId::int64:
                         append_values<int64_t>(a, out);
                         break;
                       case TypeId::uint8:
                         append_values<uint8_t>(a, out);
                         break;
                       case TypeId::uint16:
                         append_values<uint16_t>(a, out);
                         break;
                       case TypeId::uint32:
                         append_values<uint32_t>(a, out);
                         break;
                       default:
                         append_values<uint64_t>(a, out);
                         break;
                     }
                   });
    }
    return out;
  });
}

}  // namespace lance::arrow
