// AVX2 and AVX-512 float32 distance loops (index/distance_kernels.h), compiled for those
// instruction sets whatever the build's target and called only where the CPU has them
// (best_kernel). Built with -ffp-contract=off, so products are rounded before each sum as
// on the portable path.
#include "index/distance_kernels.h"
#include "index/distance_lanes.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace lance::index::kernels {

#if defined(__x86_64__)

namespace {

using lanes::kLanes;
using lanes::Sum;

template <Sum S>
__attribute__((target("avx2"))) void avx2_loop(const float* q, const float* x, size_t dim, float (&a)[kLanes],
                                               float (&b)[kLanes]) {
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
  _mm256_storeu_ps(a, a0);
  _mm256_storeu_ps(a + 8, a1);
  _mm256_storeu_ps(b, b0);
  _mm256_storeu_ps(b + 8, b1);
  lanes::add_elements<S>(q, x, i, dim, a, b);
}

template <Sum S>
__attribute__((target("avx512f"))) void avx512_loop(const float* q, const float* x, size_t dim, float (&a)[kLanes],
                                                    float (&b)[kLanes]) {
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
  _mm512_storeu_ps(a, va);
  _mm512_storeu_ps(b, vb);
  lanes::add_elements<S>(q, x, i, dim, a, b);
}

/// Runs `loop` (one vector's lane sums) over the n vectors.
template <void (*L2)(const float*, const float*, size_t, float (&)[kLanes], float (&)[kLanes]),
          void (*Dot)(const float*, const float*, size_t, float (&)[kLanes], float (&)[kLanes]),
          void (*Cos)(const float*, const float*, size_t, float (&)[kLanes], float (&)[kLanes])>
void run(Metric m, const float* query, const float* vectors, size_t n, size_t dim, float query_norm, float* out) {
  for (size_t r = 0; r < n; ++r) {
    float a[kLanes], b[kLanes];
    const float* x = vectors + r * dim;
    if (m == Metric::l2)
      L2(query, x, dim, a, b);
    else if (m == Metric::dot)
      Dot(query, x, dim, a, b);
    else
      Cos(query, x, dim, a, b);
    const float sum = lanes::reduce(a);
    out[r] = finish(m, sum, m == Metric::cosine ? lanes::reduce(b) : 0.0f, query_norm);
  }
}

}  // namespace

const DistancesF32 avx2_f32 =
    run<avx2_loop<Sum::squared_difference>, avx2_loop<Sum::product>, avx2_loop<Sum::product_and_norm>>;
const DistancesF32 avx512_f32 =
    run<avx512_loop<Sum::squared_difference>, avx512_loop<Sum::product>, avx512_loop<Sum::product_and_norm>>;

#else

const DistancesF32 avx2_f32 = nullptr;
const DistancesF32 avx512_f32 = nullptr;

#endif

}  // namespace lance::index::kernels
