// Lance's serialized RowAddrTreeMap (scalar_index.h).
#include "common/error.h"
#include "dataset/roaring_portable.h"
#include "index/scalar_index.h"

namespace lance::index {

namespace {

uint32_t read_u32(ByteView bytes, size_t& pos) {
  check_corrupt(bytes.size() - pos >= 4, "row address map: ends inside a header at byte {} of {}", pos, bytes.size());
  const auto v = bytes.read<uint32_t>(pos);
  pos += 4;
  return v;
}

}  // namespace

RowSet decode_row_addr_map(ByteView bytes, const std::function<uint32_t(uint32_t)>& physical_rows) {
  size_t pos = 0;
  const uint32_t count = read_u32(bytes, pos);
  check_corrupt(count <= (bytes.size() - pos) / 8, "row address map: {} fragments in {} bytes", count, bytes.size());
  RowSet out;
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t fragment = read_u32(bytes, pos);
    const uint32_t size = read_u32(bytes, pos);
    check_corrupt(size <= bytes.size() - pos, "row address map: fragment {}'s bitmap of {} bytes runs past the end",
                  fragment, size);
    check_corrupt(!out.count(fragment), "row address map: fragment {} appears twice", fragment);
    const uint32_t rows = physical_rows(fragment);
    if (size == 0) {  // the whole fragment
      if (rows) out[fragment] = all_offsets(rows);
      continue;
    }
    const uint64_t bound = rows ? rows : (uint64_t{1} << 32);
    auto decoded = dataset::decode_roaring_portable(bytes.slice(pos, size), bound);
    check_corrupt(decoded.bytes_used == size, "row address map: fragment {}'s bitmap spans {} of its {} bytes",
                  fragment, decoded.bytes_used, size);
    check_corrupt(!rows || decoded.values.empty() || decoded.values.back() < rows,
                  "row address map: row {} of fragment {}, which has {} rows", decoded.values.back(), fragment, rows);
    pos += size;
    if (rows && !decoded.values.empty()) out[fragment] = std::move(decoded.values);
  }
  check_corrupt(pos == bytes.size(), "row address map: {} bytes after the last fragment", bytes.size() - pos);
  return out;
}

}  // namespace lance::index
