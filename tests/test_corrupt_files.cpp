// Corrupt-file suite: hundreds of hostile variants of real fixtures (every format version,
// every page layout, nested lists, a dataset) generated at test time. Each is scanned
// (all columns) and taken from by the real binary, which must end with exit 0, 3
// (unsupported) or 4 (corrupt) and one error line naming the file — within a time bound,
// under a memory bound (RLIMIT_AS, non-sanitizer builds), never killed by a signal.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>

#include "cli_env.h"
#include "cli_runner.h"
#include "corrupt_variants.h"
#include "format/file_reader.h"

using namespace lance::testing;
namespace fs = std::filesystem;

namespace {

RunLimits limits() {
  RunLimits l;
  l.keep_stdout = false;
  // Generous for a loaded 2-core CI machine; a decoder that loops shows up anyway.
  l.timeout_ms = sanitizer_build() ? 30000 : 10000;
  // An allocation beyond what a small file justifies fails the run (bad_alloc → exit 1).
  if (!sanitizer_build()) l.address_space_bytes = uint64_t{2} << 30;
  return l;
}

/// Checks one run of the binary on a hostile input.
void check_run(const std::vector<std::string>& args, const std::string& label, const std::string& name_in_error,
               bool usage_ok, bool missing_ok = false) {
  CliResult r = run_cli_limited(args, limits());
  INFO(label << "\n  lance-cli " << fmt::format("{}", fmt::join(args, " ")) << "\n  exit " << r.exit_code
             << (r.timed_out ? " (timed out)" : "") << "\n  stderr: " << r.err);
  REQUIRE_FALSE(r.timed_out);
  REQUIRE(r.term_signal == 0);
  const bool ok = r.exit_code == 0 || r.exit_code == 3 || r.exit_code == 4 || (usage_ok && r.exit_code == 2) ||
                  (missing_ok && r.exit_code == 1 &&
                   (r.err.find("No such file") != std::string::npos || r.err.find("is missing") != std::string::npos));
  REQUIRE(ok);
  if (r.exit_code != 0) {
    // One line: "lance-cli: <file>: ...".
    REQUIRE(r.err.rfind("lance-cli: ", 0) == 0);
    REQUIRE(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    REQUIRE(r.err.find(name_in_error) != std::string::npos);
  }
}

/// Runs every variant of each fixture (paths under data/fixtures): scan all columns, and
/// take three rows.
void run_file_suite(const std::vector<std::string>& fixtures, int meta_flips, int data_flips) {
  TempDir dir("corrupt");
  size_t runs = 0;
  for (const auto& name : fixtures) {
    const std::string src = source_path("data/fixtures/" + name);
    const std::string original = read_text(src);
    const auto regions = file_regions(src);
    const uint64_t rows = lance::format::FileReader::open(src)->num_rows();
    const int scale = sanitizer_build() ? 2 : 1;  // ASan runs are several times slower
    auto variants = make_variants(original, regions, stable_seed(name), meta_flips / scale, data_flips / scale);
    for (size_t i = 0; i < variants.size(); ++i) {
      if (sanitizer_build() && i % 4 >= 2 && i < 40) continue;  // half of the structural ones
      const auto& v = variants[i];
      const fs::path p = dir.path() / fmt::format("v{}-{}", i, name);
      write_file(p, v.bytes);
      const std::string label = name + ": " + v.name;
      check_run({"scan", p.string(), "-f", "jsonl"}, label, p.filename().string(), false);
      std::string take_rows = rows ? fmt::format("0,{},{}", rows / 2, rows - 1) : "0";
      // A flipped row count may make the rows out of range: a usage error is right then.
      if (i % 2 == 1) {  // take on every other variant: the same parsing, half the runs
        check_run({"take", p.string(), "--rows", take_rows}, label, p.filename().string(), true);
        ++runs;
      }
      ++runs;
      fs::remove(p);
    }
  }
  INFO("runs: " << runs);
  CHECK(runs > 0);
}

}  // namespace

TEST_CASE("Corrupt 2.0 files end with a typed error", "[corrupt][v2_0]") {
  run_file_suite({"v20_ints-v2.0.lance", "v20_strings-v2.0.lance", "v20_dict-v2.0.lance", "v20_nested_lists-v2.0.lance",
                  "v20_compression-v2.0.lance", "v20_packed-v2.0.lance"},
                 10, 8);
}

TEST_CASE("Corrupt 2.1 files end with a typed error", "[corrupt][v2_1]") {
  run_file_suite({"enc_fullzip-v2.1.lance", "enc_constant-v2.1.lance", "nested_lists-v2.1.lance", "enc_rle-v2.1.lance",
                  "enc_blob-v2.1.lance"},
                 10, 8);
}

TEST_CASE("Corrupt 2.2 files end with a typed error", "[corrupt][v2_2]") {
  run_file_suite({"enc_dict-v2.2.lance", "enc_fsst-v2.2.lance", "misc-v2.2.lance", "nested2_maps-v2.2.lance",
                  "enc_packed_var-v2.2.lance"},
                 10, 8);
}

TEST_CASE("Corrupt 2.3 files end with a typed error", "[corrupt][v2_3]") {
  run_file_suite({"enc_bss_f64-v2.3.lance", "enc_general_fullzip-v2.3.lance", "nested2_structs-v2.3.lance",
                  "multipage-v2.3.lance", "ints_levels-v2.3.lance", "enc_minichunk-v2.3.lance"},
                 10, 8);
}

TEST_CASE("A dataset with corrupt manifests, deletion files or data files ends with a typed error",
          "[corrupt][dataset]") {
  TempDir dir("corrupt");
  const fs::path src = source_path("data/datasets/bitmap");
  const fs::path ds = dir.path() / "bitmap";
  fs::copy(src, ds, fs::copy_options::recursive);
  std::vector<fs::path> targets;
  for (const auto& sub : {"_versions", "_deletions", "data"})
    for (const auto& e : fs::directory_iterator(ds / sub))
      if (e.path().extension() != ".json") targets.push_back(e.path());
  std::sort(targets.begin(), targets.end());
  size_t runs = 0;
  for (const auto& t : targets) {
    const std::string original = read_text(t.string());
    const bool data_file = t.extension() == ".lance";
    std::vector<Variant> variants;
    if (data_file) {
      variants = make_variants(original, file_regions(t.string()), stable_seed(t.filename().string()),
                               sanitizer_build() ? 3 : 6, sanitizer_build() ? 2 : 4);
    } else {
      variants = make_blind_variants(original, stable_seed(t.filename().string()), sanitizer_build() ? 5 : 10);
    }
    for (const auto& v : variants) {
      write_file(t, v.bytes);
      const std::string label = t.filename().string() + ": " + v.name;
      // Errors name the dataset's file that is at fault, or the dataset directory.
      // A flipped file name in a manifest names a data file that is not there: an I/O error.
      check_run({"scan", ds.string()}, label, "bitmap", false, true);
      check_run({"take", ds.string(), "--rows", "0,3,5"}, label, "bitmap", true, true);
      runs += 2;
    }
    write_file(t, original);
  }
  INFO("runs: " << runs);
  CHECK(runs > 0);
}
