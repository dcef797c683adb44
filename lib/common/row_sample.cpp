#include "common/row_sample.h"

#include <algorithm>
#include <unordered_set>

namespace lance {

uint64_t SplitMix64::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t SplitMix64::below(uint64_t bound) {
  // Reject the top (2^64 mod bound) values so each residue is equally likely.
  const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  for (;;) {
    const uint64_t x = next();
    if (x < limit) return x % bound;
  }
}

std::vector<uint64_t> sample_rows(uint64_t n, uint64_t k, uint64_t seed) {
  std::vector<uint64_t> out;
  if (k >= n) {
    out.resize(n);
    for (uint64_t i = 0; i < n; ++i) out[i] = i;
    return out;
  }
  SplitMix64 rng(seed);
  if (k > n / 2) {
    // Selection sampling: row i is taken with probability (still needed) / (rows left).
    out.reserve(k);
    for (uint64_t i = 0; i < n && out.size() < k; ++i)
      if (rng.below(n - i) < k - out.size()) out.push_back(i);
    return out;
  }
  // Floyd: for j = n-k .. n-1, draw t in [0, j]; take t unless taken, else j.
  std::unordered_set<uint64_t> taken;
  taken.reserve(k * 2);
  for (uint64_t j = n - k; j < n; ++j) {
    const uint64_t t = rng.below(j + 1);
    taken.insert(taken.count(t) ? j : t);
  }
  out.assign(taken.begin(), taken.end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace lance
