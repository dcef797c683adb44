// A uniform random sample of row numbers, the same for the same seed on every machine and
// compiler (`scan --sample N --seed S`): the generator is SplitMix64 and the draws are
// unbiased (rejection), nothing from <random> whose distributions differ between standard
// libraries.
#pragma once

#include <cstdint>
#include <vector>

namespace lance {

/// `k` distinct row numbers drawn uniformly from [0, n) (every k-subset equally likely),
/// ascending; all n rows when k ≥ n. Floyd's algorithm for k ≤ n / 2 (time and memory O(k)),
/// else selection sampling (Knuth's Algorithm S, O(n) time). Pure: the same (n, k, seed)
/// gives the same rows.
std::vector<uint64_t> sample_rows(uint64_t n, uint64_t k, uint64_t seed);

/// SplitMix64: a small generator of 64-bit values whose sequence is fixed by its seed.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next();
  /// A value uniform in [0, bound) (bound > 0), without modulo bias.
  uint64_t below(uint64_t bound);

 private:
  uint64_t state_;
};

}  // namespace lance
