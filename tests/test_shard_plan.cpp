// lib/dataset/shard_plan and fragment_select: the pure shard planner (byte balance, order,
// the big-fragment rule), fragment id lists, byte sizes, and a dataset's fragment extents.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

#include "cli_runner.h"
#include "common/byte_size.h"
#include "common/error.h"
#include "dataset/dataset.h"
#include "dataset/fragment_select.h"
#include "dataset/shard_plan.h"

using namespace lance;
using dataset::FragmentExtent;
using dataset::IdRange;
using dataset::Shard;
using lance::testing::source_path;

namespace {

/// Fragments with ids 10, 11, ... and the given byte sizes (rows = bytes / 2).
std::vector<FragmentExtent> extents(const std::vector<uint64_t>& bytes) {
  std::vector<FragmentExtent> out;
  for (size_t i = 0; i < bytes.size(); ++i) out.push_back({10 + i, bytes[i] / 2, bytes[i]});
  return out;
}

std::vector<std::vector<uint64_t>> ids(const std::vector<Shard>& shards) {
  std::vector<std::vector<uint64_t>> out;
  for (const auto& s : shards) out.push_back(s.fragments);
  return out;
}

/// Every fragment once, in order, shard after shard; sums per shard right; no empty shard.
void check_partition(const std::vector<FragmentExtent>& frags, const std::vector<Shard>& shards) {
  size_t i = 0;
  for (const auto& s : shards) {
    REQUIRE_FALSE(s.fragments.empty());
    uint64_t rows = 0, bytes = 0;
    for (uint64_t id : s.fragments) {
      REQUIRE(i < frags.size());
      REQUIRE(id == frags[i].id);
      rows += frags[i].rows;
      bytes += frags[i].bytes;
      ++i;
    }
    CHECK(s.rows == rows);
    CHECK(s.bytes == bytes);
  }
  CHECK(i == frags.size());
}

using V = std::vector<std::vector<uint64_t>>;

}  // namespace

TEST_CASE("plan_by_count: balanced runs of consecutive fragments", "[plan]") {
  SECTION("equal fragments split evenly, the remainder at the end") {
    auto f = extents({10, 10, 10, 10});
    CHECK(ids(dataset::plan_by_count(f, 2)) == V{{10, 11}, {12, 13}});
    CHECK(ids(dataset::plan_by_count(f, 3)) == V{{10}, {11}, {12, 13}});
    CHECK(ids(dataset::plan_by_count(f, 4)) == V{{10}, {11}, {12}, {13}});
    CHECK(ids(dataset::plan_by_count(f, 1)) == V{{10, 11, 12, 13}});
  }
  SECTION("more shards than fragments: one fragment each") {
    auto f = extents({5, 7});
    CHECK(ids(dataset::plan_by_count(f, 8)) == V{{10}, {11}});
  }
  SECTION("a fragment larger than the target is a shard of its own") {
    CHECK(ids(dataset::plan_by_count(extents({1, 1, 1, 1, 100}), 2)) == V{{10, 11, 12, 13}, {14}});
    CHECK(ids(dataset::plan_by_count(extents({100, 1, 1, 1, 1}), 2)) == V{{10}, {11, 12, 13, 14}});
    CHECK(ids(dataset::plan_by_count(extents({2, 60, 2, 2, 60, 2}), 3)) == V{{10}, {11, 12}, {13, 14, 15}});
  }
  SECTION("cuts where the running total is closest to the target") {
    // total 100, target 50: 30+30=60 is 10 over, 30 is 20 under: take both.
    CHECK(ids(dataset::plan_by_count(extents({30, 30, 40}), 2)) == V{{10, 11}, {12}});
    CHECK(ids(dataset::plan_by_count(extents({40, 30, 30}), 2)) == V{{10}, {11, 12}});
  }
  SECTION("no fragments, no shards; zero shards is a usage error") {
    CHECK(dataset::plan_by_count({}, 4).empty());
    CHECK_THROWS_AS(dataset::plan_by_count(extents({1}), 0), Error);
  }
}

TEST_CASE("plan_by_bytes: shards stay within the target unless one fragment is bigger", "[plan]") {
  auto f = extents({30, 30, 30, 100, 10, 10, 55});
  CHECK(ids(dataset::plan_by_bytes(f, 60)) == V{{10, 11}, {12}, {13}, {14, 15}, {16}});
  CHECK(ids(dataset::plan_by_bytes(f, 1000)) == V{{10, 11, 12, 13, 14, 15, 16}});
  CHECK(ids(dataset::plan_by_bytes(f, 1)) == V{{10}, {11}, {12}, {13}, {14}, {15}, {16}});
  CHECK(dataset::plan_by_bytes({}, 64).empty());
  CHECK_THROWS_AS(dataset::plan_by_bytes(f, 0), Error);
}

TEST_CASE("shard plans are ordered partitions, for random fragment sizes", "[plan]") {
  std::mt19937_64 rng(20);
  for (int round = 0; round < 300; ++round) {
    std::vector<uint64_t> sizes(rng() % 40);
    for (auto& s : sizes) s = (rng() % 4 == 0) ? rng() % 10000 : rng() % 100;  // some big ones, some 0
    auto f = extents(sizes);
    const uint64_t n = 1 + rng() % 10;
    INFO("round " << round << " shards " << n);
    auto by_count = dataset::plan_by_count(f, n);
    check_partition(f, by_count);
    CHECK(by_count.size() == std::min<uint64_t>(n, sizes.size()));
    const uint64_t target = 1 + rng() % 300;
    auto by_bytes = dataset::plan_by_bytes(f, target);
    check_partition(f, by_bytes);
    for (const auto& s : by_bytes) CHECK((s.bytes <= target || s.fragments.size() == 1));
    // Greedy: no two neighbouring shards would fit together in the target.
    for (size_t k = 0; k + 1 < by_bytes.size(); ++k) {
      const uint64_t next_first = f[by_bytes[k + 1].fragments.front() - 10].bytes;
      CHECK(by_bytes[k].bytes + next_first > target);
    }
  }
}

TEST_CASE("fragment id lists: parse and format", "[plan]") {
  CHECK(dataset::parse_id_ranges("0,3,5-9") == std::vector<IdRange>{{0, 0}, {3, 3}, {5, 9}});
  CHECK(dataset::parse_id_ranges(" 7 , 2-2\n1") == std::vector<IdRange>{{7, 7}, {2, 2}, {1, 1}});
  CHECK(dataset::parse_id_ranges("0-18446744073709551615") == std::vector<IdRange>{{0, UINT64_MAX}});
  for (const char* bad : {"", ",", "a", "1-", "-1", "3-1", "1.5", "2,x"}) {
    INFO(bad);
    try {
      dataset::parse_id_ranges(bad);
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);
      CHECK(std::string(e.what()).find("--fragments") != std::string::npos);
    }
  }
  CHECK(dataset::format_ids(std::vector<uint64_t>{}) == "");
  CHECK(dataset::format_ids(std::vector<uint64_t>{4}) == "4");
  CHECK(dataset::format_ids(std::vector<uint64_t>{0, 2, 3}) == "0,2,3");
  CHECK(dataset::format_ids(std::vector<uint64_t>{0, 2, 3, 4, 9}) == "0,2-4,9");
}

TEST_CASE("byte sizes with units", "[plan]") {
  CHECK(parse_byte_size("4096", "--shard-bytes") == 4096);
  CHECK(parse_byte_size("64MiB", "--shard-bytes") == (uint64_t{64} << 20));
  CHECK(parse_byte_size("64m", "--shard-bytes") == (uint64_t{64} << 20));
  CHECK(parse_byte_size("1G", "--shard-bytes") == (uint64_t{1} << 30));
  CHECK(parse_byte_size("1.5 GiB", "--shard-bytes") == (uint64_t{3} << 29));
  CHECK(parse_byte_size("2KB", "--shard-bytes") == 2000);
  CHECK(parse_byte_size("1tb", "--shard-bytes") == 1000000000000ull);
  CHECK(parse_byte_size("10b", "--shard-bytes") == 10);
  for (const char* bad : {"", "MiB", "1x", "1..2M", "-1", "1 M B", "17179869184GiB"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_byte_size(bad, "--shard-bytes"), Error);
  }
}

TEST_CASE("fragment extents: visible rows and data file bytes of each fragment", "[plan]") {
  auto ds = dataset::Dataset::open(source_path("data/datasets/appends"));
  auto ext = dataset::fragment_extents(*ds);
  REQUIRE(ext.size() == 3);
  CHECK(ext[0].id == 0);
  CHECK(ext[1].id == 2);
  CHECK(ext[2].id == 3);
  CHECK(ext[0].rows == 103);
  CHECK(ext[1].rows == 86);
  CHECK(ext[2].rows == 58);
  for (size_t i = 0; i < ext.size(); ++i) {
    uint64_t on_disk = 0;
    for (const auto& f : ds->fragments()[i].files) on_disk += std::filesystem::file_size(ds->data_file_path(f));
    CHECK(ext[i].bytes == on_disk);  // Lance records file_size_bytes; it matches the files
  }
}

TEST_CASE("select_fragments keeps manifest order and names a missing id", "[plan]") {
  auto ds = dataset::Dataset::open(source_path("data/datasets/appends"));  // fragments 0, 2, 3
  auto part = ds->select_fragments(std::vector<IdRange>{{3, 3}, {0, 0}, {3, 3}});
  REQUIRE(part->fragments().size() == 2);
  CHECK(part->fragments()[0].id == 0);
  CHECK(part->fragments()[1].id == 3);
  CHECK(part->num_rows() == 103 + 58);
  CHECK(part->version() == ds->version());
  CHECK(ds->select_fragments(std::vector<IdRange>{{2, 3}})->num_rows() == 86 + 58);
  for (auto r : {IdRange{1, 1}, IdRange{0, 2}, IdRange{2, 4}, IdRange{0, UINT64_MAX}}) {
    INFO(r.first << "-" << r.last);
    try {
      ds->select_fragments(std::vector<IdRange>{r});
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);
      CHECK(std::string(e.what()).find("its fragments are 0,2,3") != std::string::npos);
    }
  }
}
