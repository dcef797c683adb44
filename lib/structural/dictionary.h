// Mini-block dictionaries (docs/format.md §5.3): chunk values are indices into a page-level
// dictionary decoded once per page.
#pragma once

#include <cstdint>
#include <cstring>

#include "common/error.h"
#include "encoding/data_block.h"

namespace lance::structural {

/// Calls `f(index)` with index(i) the i-th of `idx`'s indices (8/16/32/64-bit unsigned,
/// little-endian), one instantiation per width. Throws Error(corrupt) for another width or a
/// buffer shorter than its indices.
template <typename F>
void with_typed_indices(const encoding::DataBlock& idx, F&& f) {
  const uint64_t n = idx.num_values;
  const uint32_t bits = idx.bits_per_value;
  check_corrupt(bits == 8 || bits == 16 || bits == 32 || bits == 64, "dictionary indices of {} bits", bits);
  check_corrupt(idx.data.size() >= n * (bits / 8), "{} dictionary indices in {} bytes", n, idx.data.size());
  const uint8_t* p = idx.data.data();
  // memcpy reads: the buffer need not be aligned for the index type.
  auto run = [&](auto tag) {
    using T = decltype(tag);
    f([p](uint64_t i) {
      T v;
      std::memcpy(&v, p + i * sizeof(T), sizeof(T));
      return static_cast<uint64_t>(v);
    });
  };
  switch (bits) {
    case 8:
      return run(uint8_t{});
    case 16:
      return run(uint16_t{});
    case 32:
      return run(uint32_t{});
    default:
      return run(uint64_t{});
  }
}

/// Gathers `dictionary[indices[i]]` for every index (indices: 8/16/32/64-bit unsigned).
/// Throws Error(corrupt) for an index outside the dictionary.
encoding::DataBlock lookup_dictionary(const encoding::DataBlock& dictionary, const encoding::DataBlock& indices);

}  // namespace lance::structural
