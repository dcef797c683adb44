#include "index/distance.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <cctype>
#include <cmath>
#include <string>

#include "index/distance_kernels.h"
#include "index/distance_lanes.h"

namespace lance::index {

using lanes::kLanes;
using lanes::Sum;

std::optional<Metric> parse_metric(std::string_view text) {
  std::string t;
  for (const char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "l2" || t == "euclidean") return Metric::l2;
  if (t == "cosine") return Metric::cosine;
  if (t == "dot") return Metric::dot;
  return std::nullopt;
}

const char* metric_name(Metric m) {
  switch (m) {
    case Metric::l2:
      return "l2";
    case Metric::cosine:
      return "cosine";
    case Metric::dot:
      return "dot";
  }
  return "?";
}

namespace {

#if defined(__x86_64__)
/// What the CPU and the OS support, asked once when a kernel is first chosen. Not
/// __builtin_cpu_supports: linking it adds libgcc's start-up constructor, which asks the CPU a
/// dozen questions in every process (0.1 ms a command on a VM, where each CPUID exits to the
/// hypervisor).
struct X86Features {
  bool avx2 = false;
  bool avx512f = false;
};

X86Features x86_features() {
  X86Features f;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
  const bool osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
  if (!osxsave || !avx) return f;
  unsigned xcr0_lo = 0, xcr0_hi = 0;
  asm volatile("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
  const bool ymm_state = (xcr0_lo & 0x6) == 0x6;                 // SSE and AVX registers saved
  const bool zmm_state = ymm_state && (xcr0_lo & 0xe0) == 0xe0;  // opmask, ZMM0-15 upper, ZMM16-31
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return f;
  f.avx2 = ymm_state && ((b >> 5) & 1);
  f.avx512f = zmm_state && ((b >> 16) & 1);
  return f;
}
#endif

}  // namespace

Kernel best_kernel() {
  static const Kernel k = [] {
#if defined(__x86_64__)
    const X86Features cpu = x86_features();
    if (kernels::avx512_f32 && cpu.avx512f) return Kernel::avx512;
    if (kernels::avx2_f32 && cpu.avx2) return Kernel::avx2;
#endif
    return Kernel::portable;
  }();
  return k;
}

const char* kernel_name(Kernel k) {
  switch (k) {
    case Kernel::portable:
      return "portable";
    case Kernel::avx2:
      return "avx2";
    case Kernel::avx512:
      return "avx512";
  }
  return "?";
}

namespace {

/// One distance in the shared lane order, any float type.
template <typename T>
float one_distance(Metric m, const T* q, const T* x, size_t dim, T query_norm) {
  T a[kLanes] = {}, b[kLanes] = {};
  if (m == Metric::l2)
    lanes::add_elements<Sum::squared_difference>(q, x, 0, dim, a, b);
  else if (m == Metric::dot)
    lanes::add_elements<Sum::product>(q, x, 0, dim, a, b);
  else
    lanes::add_elements<Sum::product_and_norm>(q, x, 0, dim, a, b);
  const T sum = lanes::reduce(a);
  return kernels::finish(m, sum, m == Metric::cosine ? lanes::reduce(b) : T(0), query_norm);
}

/// |q| in the shared lane order (the same on every kernel: it is computed once per query).
template <typename T>
T norm(const T* q, size_t dim) {
  T a[kLanes] = {}, b[kLanes] = {};
  lanes::add_elements<Sum::product>(q, q, 0, dim, a, b);
  return std::sqrt(lanes::reduce(a));
}

}  // namespace

namespace kernels {

void portable_f32(Metric m, const float* query, const float* vectors, size_t n, size_t dim, float query_norm,
                  float* out) {
  for (size_t r = 0; r < n; ++r) out[r] = one_distance(m, query, vectors + r * dim, dim, query_norm);
}

void portable_pq_column(bool product, float r, const float* column, size_t n, float* table) {
  if (product) {
    for (size_t k = 0; k < n; ++k) table[k] += r * column[k];
    return;
  }
  for (size_t k = 0; k < n; ++k) {
    const float d = r - column[k];
    table[k] += d * d;
  }
}

}  // namespace kernels

void distances(Metric metric, const float* query, const float* vectors, size_t n, size_t dim, float* out,
               Kernel kernel) {
  const float query_norm = metric == Metric::cosine ? norm(query, dim) : 0.0f;
  kernels::DistancesF32 run = kernels::portable_f32;
  if (kernel == Kernel::avx512 && kernels::avx512_f32) run = kernels::avx512_f32;
  if (kernel == Kernel::avx2 && kernels::avx2_f32) run = kernels::avx2_f32;
  run(metric, query, vectors, n, dim, query_norm, out);
}

void distances(Metric metric, const float* query, const float* vectors, size_t n, size_t dim, float* out) {
  distances(metric, query, vectors, n, dim, out, best_kernel());
}

void add_pq_column(bool product, float r, const float* column, size_t n, float* table, Kernel kernel) {
  kernels::PqColumn run = kernels::portable_pq_column;
  if (kernel == Kernel::avx512 && kernels::avx512_pq_column) run = kernels::avx512_pq_column;
  if (kernel == Kernel::avx2 && kernels::avx2_pq_column) run = kernels::avx2_pq_column;
  run(product, r, column, n, table);
}

void distances(Metric metric, const double* query, const double* vectors, size_t n, size_t dim, float* out) {
  const double query_norm = metric == Metric::cosine ? norm(query, dim) : 0.0;
  for (size_t r = 0; r < n; ++r) out[r] = one_distance(metric, query, vectors + r * dim, dim, query_norm);
}

}  // namespace lance::index
