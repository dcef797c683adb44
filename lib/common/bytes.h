// Owned byte buffers and bounds-checked views over them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace lance {

/// Owned, growable bytes. Shared between arrays with `std::shared_ptr<Bytes>`.
using Bytes = std::vector<uint8_t>;
using BytesPtr = std::shared_ptr<const Bytes>;

/// A non-owning, bounds-checked window over bytes. All reads are little-endian.
///
/// Every accessor throws a corrupt-file `Error` instead of reading out of bounds, so
/// decoders can index with sizes taken from a file without checking twice.
class ByteView {
 public:
  ByteView() = default;
  ByteView(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  ByteView(const Bytes& b) : data_(b.data()), size_(b.size()) {}              // NOLINT: implicit on purpose
  ByteView(std::span<const uint8_t> s) : data_(s.data()), size_(s.size()) {}  // NOLINT

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint8_t operator[](size_t i) const { return data_[i]; }

  /// Bytes [offset, offset + len); throws when the range leaves the view.
  ByteView slice(uint64_t offset, uint64_t len) const {
    check_corrupt(offset <= size_ && len <= size_ - offset, "range [{}, +{}) outside a buffer of {} bytes", offset, len,
                  size_);
    return ByteView(data_ + offset, static_cast<size_t>(len));
  }
  ByteView slice(uint64_t offset) const { return slice(offset, offset <= size_ ? size_ - offset : 0); }

  /// Reads a little-endian T at byte `offset`.
  template <typename T>
  T read(uint64_t offset) const {
    check_corrupt(offset <= size_ && sizeof(T) <= size_ - offset, "read of {} bytes at {} outside a buffer of {} bytes",
                  sizeof(T), offset, size_);
    T v;
    std::memcpy(&v, data_ + offset, sizeof(T));
    return v;
  }

  Bytes to_bytes() const { return Bytes(data_, data_ + size_); }
  std::string_view as_string_view() const { return {reinterpret_cast<const char*>(data_), size_}; }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

/// Element `index` of an array of little-endian `T` at `base` (any alignment). No bounds
/// check: for loops over buffers whose size was checked once.
template <typename T>
inline T load_at(const uint8_t* base, uint64_t index) {
  T v;
  std::memcpy(&v, base + index * sizeof(T), sizeof(T));
  return v;
}

/// Appends the raw bytes of a trivially copyable value.
template <typename T>
inline void append_le(Bytes& out, T v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof(T));
}

/// Room for `extra` more elements of `v`, growing geometrically (appends that come one
/// after another, such as a column's pages, move the elements O(1) times each).
template <typename V>
void reserve_more(V& v, uint64_t extra) {
  const uint64_t need = v.size() + extra;
  if (need > v.capacity()) v.reserve(std::max<uint64_t>(need, v.capacity() * 2));
}

inline bool get_bit(const uint8_t* bits, uint64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void set_bit(uint8_t* bits, uint64_t i) { bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }
inline void clear_bit(uint8_t* bits, uint64_t i) { bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7))); }

/// Upper bound on a single decoded buffer. Sizes read from a file above this are treated
/// as corrupt instead of being allocated (a file cannot justify more than this per page).
inline constexpr uint64_t kMaxDecodedBufferBytes = uint64_t{1} << 34;  // 16 GiB

inline void check_alloc(uint64_t bytes, const char* what) {
  check_corrupt(bytes <= kMaxDecodedBufferBytes, "{} of {} bytes exceeds the decode limit", what, bytes);
}

}  // namespace lance
