// Fuzz target: the vector index reader (lib/index/vector_index.cpp). Input: [u32 n][n bytes:
// index.idx][the rest: auxiliary.idx], the two files of one IVF index; seeds are the real
// ones of data/vectors/indexed (IVF_PQ, IVF_FLAT, IVF_HNSW_SQ). Each readable index is
// searched with a few queries of its dimension, with every row admitted, with none, and with
// every other address. Upstream: rust/lance-index/src/vector/, rust/lance/src/index/vector/ivf/v2.rs.
#include <cstring>
#include <vector>

#include "fuzz_index_files.h"
#include "index/vector_index.h"

using namespace lance;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fuzz::ScratchIndexDir dir;
  if (!dir.put_two(data, size, "index.idx", "auxiliary.idx")) return 0;
  fuzz::expect_error_or_success([&] {
    const index::VectorIndex ix(dir.location());
    const uint32_t dim = ix.info().dim;
    if (dim > 4096) return;
    for (const float fill : {0.0f, 0.5f, -3.0f}) {
      std::vector<float> q(dim, fill);
      if (dim) q[0] = 1.0f;
      index::AnnQuery query;
      query.vector = q;
      query.k = fill == 0 ? 1 : 20;
      query.refine_factor = fill < 0 ? 3 : 1;
      index::AnnCounters counters;
      const index::AdmitRow every_other = [](uint64_t address) { return address % 2 == 0; };
      const index::AdmitRow none = [](uint64_t) { return false; };
      for (const index::AdmitRow* admit : {static_cast<const index::AdmitRow*>(nullptr), &every_other, &none})
        fuzz::expect_error_or_success([&] { (void)ix.search(query, admit ? *admit : index::AdmitRow{}, counters); });
    }
  });
  return 0;
}
