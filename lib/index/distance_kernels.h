// The float32 distance loops behind index/distance.h, one per instruction set. Internal.
#pragma once

#include <cmath>
#include <cstddef>

#include "index/distance.h"

namespace lance::index::kernels {

/// out[r] for each of the n vectors; `query_norm` = |q| (used by cosine only).
using DistancesF32 = void (*)(Metric, const float* query, const float* vectors, size_t n, size_t dim, float query_norm,
                              float* out);

void portable_f32(Metric, const float* query, const float* vectors, size_t n, size_t dim, float query_norm, float* out);
/// Null where the build has no such kernel (not x86-64).
extern const DistancesF32 avx2_f32;
extern const DistancesF32 avx512_f32;

/// add_pq_column's loop (index/distance.h); null where the build has no such kernel.
using PqColumn = void (*)(bool product, float r, const float* column, size_t n, float* table);
void portable_pq_column(bool product, float r, const float* column, size_t n, float* table);
extern const PqColumn avx2_pq_column;
extern const PqColumn avx512_pq_column;

/// The distance from the reduced lane sums: l2 → Σ (q - x)²; dot → 1 - q·x; cosine →
/// 1 - q·x / (|q| |x|) (`sum` is q·x, `norm2` is x·x). Computed in T, rounded to float.
template <typename T>
float finish(Metric m, T sum, T norm2, T query_norm) {
  switch (m) {
    case Metric::l2:
      return static_cast<float>(sum);
    case Metric::dot:
      return static_cast<float>(T(1) - sum);
    case Metric::cosine:
      return static_cast<float>(T(1) - sum / (query_norm * std::sqrt(norm2)));
  }
  return static_cast<float>(sum);
}

}  // namespace lance::index::kernels
