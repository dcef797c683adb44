// The k nearest of a stream of (distance, row) candidates, kept in a bounded max-heap:
// O(log k) per candidate, k entries of memory whatever the stream's length.
//
// Usage:
//   TopK best(10);
//   for (...) best.push(distance, row);
//   for (const Neighbor& n : best.sorted()) ...   // nearest first
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace lance::index {

struct Neighbor {
  float distance = 0;
  uint64_t row = 0;  ///< whatever numbering the caller uses (table row number, row address)
};

/// Nearer first: by distance, then by row (so equal distances come in row order); NaN after
/// every number.
inline bool nearer(const Neighbor& a, const Neighbor& b) {
  const bool an = std::isnan(a.distance), bn = std::isnan(b.distance);
  if (an != bn) return bn;
  if (!an && a.distance != b.distance) return a.distance < b.distance;
  return a.row < b.row;
}

class TopK {
 public:
  explicit TopK(size_t k) : k_(k) { heap_.reserve(std::min<size_t>(k, 1 << 16)); }

  /// Offers one candidate; kept if it is among the k nearest so far.
  void push(float distance, uint64_t row) {
    if (k_ == 0) return;
    const Neighbor n{distance, row};
    if (heap_.size() < k_) {
      heap_.push_back(n);
      std::push_heap(heap_.begin(), heap_.end(), nearer);
    } else if (nearer(n, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), nearer);
      heap_.back() = n;
      std::push_heap(heap_.begin(), heap_.end(), nearer);
    }
  }

  /// Whether `distance` could still enter (fewer than k kept, or nearer than the farthest).
  bool admits(float distance) const { return heap_.size() < k_ || nearer(Neighbor{distance, 0}, heap_.front()); }

  size_t size() const { return heap_.size(); }

  /// The kept candidates, in no particular order.
  const std::vector<Neighbor>& candidates() const { return heap_; }

  /// The kept candidates, nearest first.
  std::vector<Neighbor> sorted() const {
    std::vector<Neighbor> out = heap_;
    std::sort(out.begin(), out.end(), nearer);
    return out;
  }

 private:
  size_t k_;
  std::vector<Neighbor> heap_;  ///< max-heap under `nearer`: the farthest kept on top
};

}  // namespace lance::index
