// Per-thread reuse of the short-lived vectors that decoding makes for every mini-block chunk.
#pragma once

#include <cstddef>
#include <vector>

namespace lance {

/// A free list of `std::vector<T>` per thread: `take(n)` hands out an empty vector that keeps
/// the capacity of one given back earlier on the same thread (or none), `give` keeps a vector
/// for the next `take`.
///
/// Why: a mini-block page decodes each chunk (a few KiB of values, 4-8 KiB of levels) into
/// vectors of its own and drops them once their rows are copied out. With glibc's one heap,
/// the decoding threads then queued for its lock (the nested_large scan: ~27,000 futex calls,
/// nearly all from malloc and free of those vectors). A vector taken here is allocated once
/// per thread and size, not once per chunk.
///
/// Bounds: a thread keeps at most kMaxKeptBytes of capacity per element type, in vectors of
/// at most kMaxBytes each (larger ones are freed). A page's decoding gives back all its chunks'
/// vectors at once, so the list holds a page's worth. Vectors may cross threads: a vector given
/// on another thread joins that thread's list.
template <class T>
class Recycled {
 public:
  static constexpr size_t kMaxBytes = size_t{1} << 20;
  static constexpr size_t kMaxKeptBytes = size_t{8} << 20;
  static constexpr size_t kSmallBytes = size_t{16} << 10;

  /// An empty vector for about `n` elements: the last one given back on this thread, unless
  /// none is kept or its capacity exceeds both 4 × `n` and kSmallBytes (a small result that
  /// outlives the decoding, a dictionary or a 2.0 page, must not hold a chunk-sized buffer);
  /// then a new one without capacity.
  static std::vector<T> take(size_t n) {
    auto& l = list();
    if (l.free.empty()) return {};
    const size_t cap = l.free.back().capacity();
    if (cap * sizeof(T) > kSmallBytes && cap / 4 > n) return {};
    std::vector<T> v = std::move(l.free.back());
    l.free.pop_back();
    l.bytes -= v.capacity() * sizeof(T);
    return v;
  }

  /// Keeps `v`'s storage for a later `take` on this thread (or frees it, over the bounds).
  static void give(std::vector<T>&& v) {
    const size_t bytes = v.capacity() * sizeof(T);
    if (bytes == 0 || bytes > kMaxBytes) return;
    auto& l = list();
    if (l.bytes + bytes > kMaxKeptBytes) return;
    v.clear();
    l.free.push_back(std::move(v));
    l.bytes += bytes;
  }

  /// Bytes of capacity this thread keeps now.
  static size_t kept_bytes() { return list().bytes; }

 private:
  struct List {
    std::vector<std::vector<T>> free;
    size_t bytes = 0;
  };
  static List& list() {
    thread_local List l;
    return l;
  }
};

}  // namespace lance
