// Level scans (structural/level_scan.h) against plain loops, on lengths around the block size.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "structural/level_scan.h"

using namespace lance::structural;

namespace {

std::vector<uint16_t> random_levels(std::mt19937& rng, size_t n, uint16_t max_level, double p_top) {
  std::bernoulli_distribution top(p_top);
  std::uniform_int_distribution<int> other(0, max_level);
  std::vector<uint16_t> out(n);
  for (auto& v : out) v = top(rng) ? max_level : static_cast<uint16_t>(other(rng));
  return out;
}

}  // namespace

TEST_CASE("level scans: counts, the k-th start and the start index equal plain loops", "[repdef]") {
  std::mt19937 rng(11);
  for (size_t n : {0, 1, 31, 32, 33, 64, 95, 200, 4096, 4099}) {
    for (double p_top : {0.0, 0.01, 0.2, 1.0}) {
      const uint16_t top = 3, max_visible = 2;
      const auto rep = random_levels(rng, n, top, p_top);
      const auto def = random_levels(rng, n, 4, 0.1);
      INFO("n " << n << ", share of starts " << p_top);
      uint64_t starts = 0, visible = 0;
      std::vector<uint32_t> want_starts, want_before;
      for (size_t i = 0; i < n; ++i) {
        if (rep[i] == top) want_starts.push_back(static_cast<uint32_t>(i)), want_before.push_back(visible);
        starts += rep[i] == top;
        visible += def[i] <= max_visible;
      }
      CHECK(count_levels_equal(rep.data(), n, top) == starts);
      CHECK(count_levels_at_most(def.data(), n, max_visible) == visible);
      for (uint64_t k = 0; k <= starts; ++k) {
        const uint64_t want = k < starts ? want_starts[k] : n;
        REQUIRE(find_nth_level_equal(rep.data(), n, top, k) == want);
      }
      std::vector<uint32_t> got_starts(starts + 1), got_before(starts + 1);  // + 1: the scratch entry
      CHECK(index_level_starts(rep.data(), def.data(), n, top, max_visible, got_starts.data(), got_before.data()) ==
            visible);
      got_starts.pop_back(), got_before.pop_back();
      CHECK(got_starts == want_starts);
      CHECK(got_before == want_before);
      // Without definition levels every level is visible.
      got_starts.resize(starts + 1), got_before.resize(starts + 1);
      CHECK(index_level_starts(rep.data(), nullptr, n, top, max_visible, got_starts.data(), got_before.data()) == n);
      got_starts.pop_back(), got_before.pop_back();
      CHECK(got_starts == want_starts);
      CHECK(got_before == want_starts);
    }
  }
}
