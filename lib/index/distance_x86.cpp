// AVX2 and AVX-512 float32 distance loops (index/distance_kernels.h), compiled for those
// instruction sets whatever the build's target and called only where the CPU has them
// (best_kernel). Built with -ffp-contract=off, so products are rounded before each sum as
// on the portable path.
#include "index/distance_kernels.h"
#include "index/distance_lanes.h"

#if defined(__x86_64__)
// GCC 12 warns that the AVX-512 intrinsics' internal "undefined" operands may be used
// uninitialized (a false positive inside immintrin.h, reported at its own lines).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif

namespace lance::index::kernels {

#if defined(__x86_64__)

namespace {

using lanes::kLanes;
using lanes::Sum;

/// Lanes j and j + 8 of a 16-lane sum given as two 8-lane halves, then j + 4, j + 2, j + 1:
/// the order of lanes::reduce, in registers.
__attribute__((target("avx2"))) inline float reduce_halves(__m256 lo, __m256 hi) {
  const __m256 s8 = _mm256_add_ps(lo, hi);
  const __m128 s4 = _mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps(s8, 1));
  const __m128 s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
  return _mm_cvtss_f32(_mm_add_ss(s2, _mm_shuffle_ps(s2, s2, 1)));
}

/// One vector's sums (Σ over its metric's terms, and Σ x² for cosine), in the shared order.
struct Sums {
  float sum = 0, norm2 = 0;
};

template <Sum S>
__attribute__((target("avx2"))) Sums avx2_loop(const float* q, const float* x, size_t dim) {
  __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), b0 = _mm256_setzero_ps(), b1 = _mm256_setzero_ps();
  size_t i = 0;
  for (; i + kLanes <= dim; i += kLanes) {
    const __m256 q0 = _mm256_loadu_ps(q + i), q1 = _mm256_loadu_ps(q + i + 8);
    const __m256 x0 = _mm256_loadu_ps(x + i), x1 = _mm256_loadu_ps(x + i + 8);
    if constexpr (S == Sum::squared_difference) {
      const __m256 d0 = _mm256_sub_ps(q0, x0), d1 = _mm256_sub_ps(q1, x1);
      a0 = _mm256_add_ps(a0, _mm256_mul_ps(d0, d0));
      a1 = _mm256_add_ps(a1, _mm256_mul_ps(d1, d1));
    } else {
      a0 = _mm256_add_ps(a0, _mm256_mul_ps(q0, x0));
      a1 = _mm256_add_ps(a1, _mm256_mul_ps(q1, x1));
      if constexpr (S == Sum::product_and_norm) {
        b0 = _mm256_add_ps(b0, _mm256_mul_ps(x0, x0));
        b1 = _mm256_add_ps(b1, _mm256_mul_ps(x1, x1));
      }
    }
  }
  if (i == dim) return {reduce_halves(a0, a1), S == Sum::product_and_norm ? reduce_halves(b0, b1) : 0.0f};
  float a[kLanes], b[kLanes];
  _mm256_storeu_ps(a, a0);
  _mm256_storeu_ps(a + 8, a1);
  _mm256_storeu_ps(b, b0);
  _mm256_storeu_ps(b + 8, b1);
  lanes::add_elements<S>(q, x, i, dim, a, b);
  return {lanes::reduce(a), S == Sum::product_and_norm ? lanes::reduce(b) : 0.0f};
}

__attribute__((target("avx512f"))) inline float reduce16(__m512 v) {
  const __m256 lo = _mm512_castps512_ps256(v);
  const __m256 hi = _mm512_castps512_ps256(_mm512_shuffle_f32x4(v, v, 0xee));  // lanes 8..15
  const __m256 s8 = _mm256_add_ps(lo, hi);
  const __m128 s4 = _mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps(s8, 1));
  const __m128 s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
  return _mm_cvtss_f32(_mm_add_ss(s2, _mm_shuffle_ps(s2, s2, 1)));
}

template <Sum S>
__attribute__((target("avx512f"))) Sums avx512_loop(const float* q, const float* x, size_t dim) {
  __m512 va = _mm512_setzero_ps(), vb = _mm512_setzero_ps();
  size_t i = 0;
  for (; i + kLanes <= dim; i += kLanes) {
    const __m512 vq = _mm512_loadu_ps(q + i), vx = _mm512_loadu_ps(x + i);
    if constexpr (S == Sum::squared_difference) {
      const __m512 d = _mm512_sub_ps(vq, vx);
      va = _mm512_add_ps(va, _mm512_mul_ps(d, d));
    } else {
      va = _mm512_add_ps(va, _mm512_mul_ps(vq, vx));
      if constexpr (S == Sum::product_and_norm) vb = _mm512_add_ps(vb, _mm512_mul_ps(vx, vx));
    }
  }
  if (i == dim) return {reduce16(va), S == Sum::product_and_norm ? reduce16(vb) : 0.0f};
  float a[kLanes], b[kLanes];
  _mm512_storeu_ps(a, va);
  _mm512_storeu_ps(b, vb);
  lanes::add_elements<S>(q, x, i, dim, a, b);
  return {lanes::reduce(a), S == Sum::product_and_norm ? lanes::reduce(b) : 0.0f};
}

/// Runs the loops (one vector's sums) over the n vectors.
template <Sums (*L2)(const float*, const float*, size_t), Sums (*Dot)(const float*, const float*, size_t),
          Sums (*Cos)(const float*, const float*, size_t)>
void run(Metric m, const float* query, const float* vectors, size_t n, size_t dim, float query_norm, float* out) {
  for (size_t r = 0; r < n; ++r) {
    const float* x = vectors + r * dim;
    const Sums s = m == Metric::l2 ? L2(query, x, dim) : m == Metric::dot ? Dot(query, x, dim) : Cos(query, x, dim);
    out[r] = finish(m, s.sum, s.norm2, query_norm);
  }
}

/// add_pq_column's loops: the portable path's operations, 8 or 16 elements at a time.
__attribute__((target("avx2"))) void avx2_pq(bool product, float r, const float* column, size_t n, float* table) {
  const __m256 vr = _mm256_set1_ps(r);
  size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const __m256 c = _mm256_loadu_ps(column + k);
    const __m256 d = product ? _mm256_mul_ps(vr, c) : _mm256_mul_ps(_mm256_sub_ps(vr, c), _mm256_sub_ps(vr, c));
    _mm256_storeu_ps(table + k, _mm256_add_ps(_mm256_loadu_ps(table + k), d));
  }
  portable_pq_column(product, r, column + k, n - k, table + k);
}

__attribute__((target("avx512f"))) void avx512_pq(bool product, float r, const float* column, size_t n, float* table) {
  const __m512 vr = _mm512_set1_ps(r);
  size_t k = 0;
  for (; k + 16 <= n; k += 16) {
    const __m512 c = _mm512_loadu_ps(column + k);
    const __m512 d = product ? _mm512_mul_ps(vr, c) : _mm512_mul_ps(_mm512_sub_ps(vr, c), _mm512_sub_ps(vr, c));
    _mm512_storeu_ps(table + k, _mm512_add_ps(_mm512_loadu_ps(table + k), d));
  }
  portable_pq_column(product, r, column + k, n - k, table + k);
}

}  // namespace

const PqColumn avx2_pq_column = avx2_pq;
const PqColumn avx512_pq_column = avx512_pq;
const DistancesF32 avx2_f32 =
    run<avx2_loop<Sum::squared_difference>, avx2_loop<Sum::product>, avx2_loop<Sum::product_and_norm>>;
const DistancesF32 avx512_f32 =
    run<avx512_loop<Sum::squared_difference>, avx512_loop<Sum::product>, avx512_loop<Sum::product_and_norm>>;

#else

const DistancesF32 avx2_f32 = nullptr;
const DistancesF32 avx512_f32 = nullptr;
const PqColumn avx2_pq_column = nullptr;
const PqColumn avx512_pq_column = nullptr;

#endif

}  // namespace lance::index::kernels
