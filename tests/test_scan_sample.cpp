// `scan --sample N --seed S` (common/row_sample.h): N distinct rows drawn uniformly at random,
// in scan order, the same for the same seed everywhere; the rows are what Lance's reader
// returns at those positions (the dataset golden).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "cli_runner.h"
#include "common/row_sample.h"
#include "fixtures.h"

using lance::sample_rows;
using lance::testing::lines;
using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;

TEST_CASE("sample_rows: k distinct ascending rows in range and all rows when k >= n", "[unit][sample]") {
  for (uint64_t n : {1, 2, 10, 1000}) {
    for (uint64_t k : {uint64_t{0}, uint64_t{1}, n / 3, n / 2, n / 2 + 1, n - 1, n, n + 5}) {
      const auto rows = sample_rows(n, k, 42);
      CHECK(rows.size() == std::min(n, k));
      CHECK(std::is_sorted(rows.begin(), rows.end()));
      CHECK(std::set<uint64_t>(rows.begin(), rows.end()).size() == rows.size());
      if (!rows.empty()) CHECK(rows.back() < n);
    }
  }
  CHECK(sample_rows(0, 5, 1).empty());
}

TEST_CASE("sample_rows: a seed fixes the rows and the values do not depend on the standard library", "[unit][sample]") {
  CHECK(sample_rows(1000000, 5, 7) == sample_rows(1000000, 5, 7));
  CHECK(sample_rows(1000000, 5, 7) != sample_rows(1000000, 5, 8));
  // SplitMix64's published first output for seed 0.
  lance::SplitMix64 g(0);
  CHECK(g.next() == 0xe220a8397b1dcdafULL);
  // Pinned, both algorithms: a change would silently change the rows of every user's --seed.
  CHECK(sample_rows(2000, 4, 2026) == std::vector<uint64_t>{21, 1186, 1266, 1583});  // Floyd
  const auto most = sample_rows(2000, 1998, 2026);                                   // selection sampling
  std::vector<uint64_t> left_out;
  for (uint64_t r = 0, i = 0; r < 2000; ++r)
    if (i < most.size() && most[i] == r)
      ++i;
    else
      left_out.push_back(r);
  CHECK(left_out == std::vector<uint64_t>{272, 579});
}

TEST_CASE("sample_rows: every row is equally likely, both algorithms", "[unit][sample]") {
  // n = 10: k = 3 uses Floyd, k = 7 selection sampling. 20,000 draws: each row is drawn
  // k / n of the time; 5 standard deviations of slack.
  for (uint64_t k : {3, 7}) {
    std::map<uint64_t, uint64_t> seen;
    const uint64_t draws = 20000;
    for (uint64_t s = 0; s < draws; ++s)
      for (uint64_t r : sample_rows(10, k, s)) ++seen[r];
    const double p = static_cast<double>(k) / 10, mean = draws * p, sd = std::sqrt(draws * p * (1 - p));
    for (uint64_t r = 0; r < 10; ++r) {
      INFO("k " << k << " row " << r);
      CHECK(std::abs(static_cast<double>(seen[r]) - mean) < 5 * sd);
    }
  }
}

TEST_CASE("scan --sample: the rows Lance reads at the drawn positions and the same rows for the same seed",
          "[cli][sample]") {
  // appends at version 4: 257 visible rows in 3 fragments with deletion files.
  const std::string ds = source_path("data/datasets/appends");
  const auto golden = lines(read_text(source_path("data/golden/ds_appends-version4.jsonl")));
  REQUIRE(golden.size() == 257);
  for (uint64_t k : {1, 10, 200, 257, 1000}) {
    DYNAMIC_SECTION("k " << k) {
      auto r = run_cli({"scan", ds, "--version", "4", "--sample", std::to_string(k), "--seed", "11"});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      std::string want;
      for (uint64_t row : sample_rows(257, k, 11)) want += golden[row] + "\n";
      CHECK(r.out == want);
      CHECK(run_cli({"scan", ds, "--version", "4", "--sample", std::to_string(k), "--seed", "11"}).out == r.out);
    }
  }
  SECTION("another seed draws other rows; without one -v tells the seed, which draws them again") {
    auto a = run_cli({"scan", ds, "--version", "4", "--sample", "20", "--seed", "1"});
    auto b = run_cli({"scan", ds, "--version", "4", "--sample", "20", "--seed", "2"});
    CHECK(a.out != b.out);
    auto c = run_cli({"-v", "scan", ds, "--version", "4", "--sample", "20", "-c", "id"});
    REQUIRE(c.exit_code == 0);
    const auto at = c.err.find("--seed ");
    REQUIRE(at != std::string::npos);
    const std::string seed = c.err.substr(at + 7, c.err.find(' ', at + 7) - at - 7);
    CHECK(run_cli({"scan", ds, "--version", "4", "--sample", "20", "-c", "id", "--seed", seed}).out == c.out);
  }
  SECTION("with --limit or --offset, or --seed alone, it is a usage error") {
    CHECK(run_cli({"scan", ds, "--sample", "5", "-n", "3"}).exit_code == 2);
    CHECK(run_cli({"scan", ds, "--sample", "5", "--offset", "3"}).exit_code == 2);
    CHECK(run_cli({"scan", ds, "--seed", "3"}).exit_code == 2);
    CHECK(run_cli({"scan", ds, "--sample", "-1"}).exit_code == 2);
  }
}
