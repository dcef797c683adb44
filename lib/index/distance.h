// Distances between vectors, as Lance defines them for vector search (upstream
// rust/lance-linalg/src/distance/{l2,cosine,dot}.rs, the `DistanceType` of
// rust/lance-linalg/src/distance.rs):
//   l2      Σ (q_i - x_i)²          (squared: Lance never takes the root)
//   cosine  1 - q·x / (|q| |x|)     (NaN when either vector is all zeros)
//   dot     1 - q·x
// The float32 kernels are vectorised (AVX-512 or AVX2, chosen at run time from the CPU) and
// add in one fixed order on every path: 16 lanes (lane j takes elements i ≡ j mod 16, products
// rounded before each sum, no fused multiply-add), then the lanes pairwise (j + 8, + 4, + 2,
// + 1). The portable path gives bit-identical results.
//
// Usage:
//   std::vector<float> out(n);
//   distances(Metric::l2, query.data(), rows.data(), n, dim, out.data());
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lance::index {

enum class Metric { l2, cosine, dot };

/// "l2", "cosine", "dot" (as LanceDB's `distanceType` names them; "euclidean" is l2), case
/// folded; nothing for other text.
std::optional<Metric> parse_metric(std::string_view text);
/// "l2", "cosine" or "dot".
const char* metric_name(Metric m);

/// Which float32 kernel runs.
enum class Kernel { portable, avx2, avx512 };
/// The fastest kernel this CPU runs (AVX-512F, else AVX2, else portable).
Kernel best_kernel();
const char* kernel_name(Kernel k);

/// Distances from `query` (dim values) to each of `n` vectors stored one after another in
/// `vectors` (n × dim values), into out[0..n), with the kernel `kernel` (default: best_kernel()).
void distances(Metric metric, const float* query, const float* vectors, size_t n, size_t dim, float* out);
void distances(Metric metric, const float* query, const float* vectors, size_t n, size_t dim, float* out,
               Kernel kernel);
/// float64 vectors: summed in double in the same lane order, rounded to float at the end.
void distances(Metric metric, const double* query, const double* vectors, size_t n, size_t dim, float* out);

/// One dimension's share of a product quantizer's distance table (the table of asymmetric
/// distances, rust/lance-index/src/vector/pq/distance.rs): for k < n, table[k] += r·column[k]
/// with `product`, else table[k] += (r − column[k])². `column`: the dimension's value in each of
/// n codewords. Every kernel gives the portable path's bits (each element rounded the same way,
/// no fused multiply-add).
void add_pq_column(bool product, float r, const float* column, size_t n, float* table, Kernel kernel);

}  // namespace lance::index
