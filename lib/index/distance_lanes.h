// The lane order the distance kernels share (index/distance.h): 16 accumulators, lane j
// taking elements i ≡ j (mod 16), reduced pairwise. Internal to the kernels.
#pragma once

#include <cstddef>

namespace lance::index::lanes {

inline constexpr size_t kLanes = 16;

/// Sums the 16 lanes pairwise: lane j + lane j+8, then + 4, + 2, + 1.
template <typename T>
T reduce(T (&lane)[kLanes]) {
  for (size_t width = kLanes / 2; width >= 1; width /= 2)
    for (size_t j = 0; j < width; ++j) lane[j] += lane[j + width];
  return lane[0];
}

/// What each metric accumulates per element.
enum class Sum { squared_difference, product, product_and_norm };

/// Elements [from, dim) added to the lanes one by one (the tail after the vector loop, or all
/// of them on the portable path).
template <Sum S, typename T>
void add_elements(const T* q, const T* x, size_t from, size_t dim, T (&a)[kLanes], T (&b)[kLanes]) {
  for (size_t i = from; i < dim; ++i) {
    const size_t j = i % kLanes;
    if constexpr (S == Sum::squared_difference) {
      const T d = q[i] - x[i];
      a[j] += d * d;
    } else {
      a[j] += q[i] * x[i];
      if constexpr (S == Sum::product_and_norm) b[j] += x[i] * x[i];
    }
  }
}

}  // namespace lance::index::lanes
