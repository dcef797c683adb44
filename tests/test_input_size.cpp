// Sizes of local inputs on disk and the default scan batch they imply (app/input_size.h).
#include <catch2/catch.hpp>

#include <filesystem>

#include "../app/input_size.h"
#include "cli_env.h"

using lance::app::default_scan_batch_rows;
using lance::app::kLargeInputBytes;
using lance::app::local_input_bytes;

TEST_CASE("default scan batch: 8192 rows, larger only for large inputs of small rows", "[cli][batch]") {
  constexpr uint64_t MiB = 1 << 20;
  // Small inputs keep the default whatever their rows.
  CHECK(default_scan_batch_rows(kLargeInputBytes - 1, 10'000'000, 8192) == 8192);
  // 10 M rows of ~20 bytes (the scalars benchmark): capped at 65536.
  CHECK(default_scan_batch_rows(198 * MiB, 10'000'000, 8192) == 65536);
  // ~130 bytes per row: 4 MiB / 130 = 32263 rows, rounded down to a multiple of 8192.
  CHECK(default_scan_batch_rows(130 * 1'000'000, 1'000'000, 8192) == 24576);
  // Large rows (text, vectors: ~1.5 KB) never go below the default.
  CHECK(default_scan_batch_rows(159 * MiB, 110'000, 8192) == 8192);
  // Degenerate inputs.
  CHECK(default_scan_batch_rows(100 * MiB, 0, 8192) == 8192);
  CHECK(default_scan_batch_rows(100 * MiB, 10, 8192) == 8192);
  CHECK(default_scan_batch_rows(198 * MiB, 10'000'000, 100000) == 100000);
}

TEST_CASE("local input size: a .lance file, a dataset's data files, nothing else", "[cli][batch]") {
  lance::testing::TempDir dir("input-size");
  const auto f = dir.path() / "x.lance";
  lance::testing::write_file(f, std::string(1000, 'x'));
  CHECK(local_input_bytes(f.string()) == 1000);
  const auto ds = dir.path() / "t.lance";
  std::filesystem::create_directories(ds / "_versions");
  std::filesystem::create_directories(ds / "data");
  lance::testing::write_file(ds / "data" / "a.lance", std::string(300, 'a'));
  lance::testing::write_file(ds / "data" / "b.lance", std::string(200, 'b'));
  lance::testing::write_file(ds / "_versions" / "1.manifest", std::string(50, 'm'));
  CHECK(local_input_bytes(ds.string()) == 500);
  CHECK_FALSE(local_input_bytes((dir.path() / "missing.lance").string()));
  CHECK_FALSE(local_input_bytes(dir.path().string()));  // a directory without _versions/
  CHECK_FALSE(local_input_bytes("s3://bucket/t.lance"));
}
