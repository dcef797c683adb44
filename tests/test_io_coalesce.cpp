// Read planning: merging, splitting and un-merging byte ranges (io/coalesce.h).
#include <catch2/catch.hpp>

#include "io/coalesce.h"

using lance::io::ByteRange;
using lance::io::plan_reads;

namespace {
std::vector<ByteRange> reads_of(const std::vector<lance::io::PlannedRead>& p) {
  std::vector<ByteRange> out;
  for (const auto& r : p) out.push_back(r.range);
  return out;
}
}  // namespace

TEST_CASE("plan_reads merges and splits as specified", "[io]") {
  struct Case {
    const char* name;
    std::vector<ByteRange> in;
    uint64_t block, max_iop;
    std::vector<ByteRange> want;
  };
  std::vector<Case> cases = {
      {"empty", {}, 4096, 1 << 20, {}},
      {"zero-length only", {{100, 0}}, 4096, 1 << 20, {}},
      {"one", {{10, 5}}, 4096, 1 << 20, {{10, 5}}},
      {"adjacent", {{0, 10}, {10, 10}}, 0, 1 << 20, {{0, 20}}},
      {"gap exactly block", {{0, 10}, {20, 10}}, 10, 1 << 20, {{0, 30}}},
      {"gap one over block", {{0, 10}, {21, 10}}, 10, 1 << 20, {{0, 10}, {21, 10}}},
      {"unordered", {{100, 10}, {0, 10}}, 0, 1 << 20, {{0, 10}, {100, 10}}},
      {"overlapping", {{0, 50}, {20, 10}, {40, 30}}, 0, 1 << 20, {{0, 70}}},
      {"split large", {{0, 25}}, 0, 10, {{0, 10}, {10, 10}, {20, 5}}},
      {"merge then split", {{0, 8}, {8, 8}}, 0, 10, {{0, 10}, {10, 6}}},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) { CHECK(reads_of(plan_reads(c.in, c.block, c.max_iop)) == c.want); }
  }
}

TEST_CASE("plan_reads: every range is served by the reads listing it", "[io]") {
  std::vector<ByteRange> in = {{500, 100}, {0, 10}, {5, 20}, {1000, 0}, {590, 30}, {10000, 50}};
  auto plan = plan_reads(in, 64, 64);
  for (size_t i = 0; i < in.size(); ++i) {
    uint64_t covered = 0;
    for (const auto& p : plan)
      for (size_t s : p.serves)
        if (s == i) {
          uint64_t lo = std::max(in[i].offset, p.range.offset), hi = std::min(in[i].end(), p.range.end());
          covered += hi - lo;
        }
    CHECK(covered == in[i].length);
  }
}

TEST_CASE("copy_into_extents: pieces of a read land in the extents they overlap, holes are dropped", "[io]") {
  // A read of file bytes [100, 200) arriving in pieces; three extents, two overlapping.
  std::vector<uint8_t> file(300);
  for (size_t i = 0; i < file.size(); ++i) file[i] = static_cast<uint8_t>(i);
  std::vector<uint8_t> a(10, 0), b(30, 0), c(5, 0);
  const std::vector<lance::io::ReadExtent> extents = {{100, 10, a.data()}, {150, 30, b.data()}, {170, 5, c.data()}};
  size_t cursor = 0;
  for (uint64_t at = 100; at < 200; at += 7) {
    const uint64_t n = std::min<uint64_t>(7, 200 - at);
    lance::io::copy_into_extents(extents, at, file.data() + at, n, cursor);
  }
  CHECK(a == std::vector<uint8_t>(file.begin() + 100, file.begin() + 110));
  CHECK(b == std::vector<uint8_t>(file.begin() + 150, file.begin() + 180));
  CHECK(c == std::vector<uint8_t>(file.begin() + 170, file.begin() + 175));
  CHECK(cursor == 3);  // all of them end before the last piece (bytes 198 and 199)
}
