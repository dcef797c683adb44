// Dataset-level corrupt sweep: copies of the committed datasets with damaged manifests,
// deletion files and latest_version_hint.json, missing data and deletion files, and a
// `_versions/` full of garbage names. The real binary runs scan, take, count and inspect on
// each, under a time bound and (non-sanitizer builds) an address-space bound. Allowed: exit 0,
// 1 (I/O: a file is missing), 3 (unsupported), 4 (corrupt), and 2 for a take whose rows a
// damaged row count put out of range; a failing run prints exactly one line
// "lance-cli: …". Never a signal, a hang or an allocation beyond the bound.
// Where the damage must not matter (the hint file, names that are not manifests), the output
// must equal the intact dataset's.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include "cli_env.h"
#include "cli_runner.h"
#include "corrupt_variants.h"

using namespace lance::testing;
namespace fs = std::filesystem;

namespace {

/// A fresh copy of data/datasets/<name> under `dir`.
fs::path copy_dataset(const TempDir& dir, const std::string& name) {
  const fs::path dst = dir.path() / fs::path(name).filename();
  fs::remove_all(dst);
  fs::copy(source_path("data/datasets/" + name), dst, fs::copy_options::recursive);
  return dst;
}

RunLimits limits() {
  RunLimits l;
  l.timeout_ms = sanitizer_build() ? 30000 : 10000;
  if (!sanitizer_build()) l.address_space_bytes = uint64_t{2} << 30;
  return l;
}

/// One run on a damaged dataset: allowed exits, one error line, no signal or hang.
CliResult check_run(const std::vector<std::string>& args, const std::string& label, bool usage_ok = false) {
  CliResult r = run_cli_limited(args, limits());
  INFO(label << "\n  lance-cli " << fmt::format("{}", fmt::join(args, " ")) << "\n  exit " << r.exit_code
             << (r.timed_out ? " (timed out)" : "") << "\n  stderr: " << r.err);
  REQUIRE_FALSE(r.timed_out);
  REQUIRE(r.term_signal == 0);
  const int c = r.exit_code;
  REQUIRE((c == 0 || c == 1 || c == 3 || c == 4 || (usage_ok && c == 2)));
  if (c != 0) {
    REQUIRE(r.err.rfind("lance-cli: ", 0) == 0);
    REQUIRE(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    REQUIRE(r.err.find("internal error") == std::string::npos);
  }
  return r;
}

/// scan, take, count and inspect meta of `ds` (and of `version` when given).
size_t run_commands(const fs::path& ds, const std::string& label, std::optional<uint64_t> version = std::nullopt) {
  const std::string d = ds.string();
  std::vector<std::string> v;
  if (version) v = {"--version", std::to_string(*version)};
  auto with = [&](std::vector<std::string> a) {
    a.insert(a.end(), v.begin(), v.end());
    return a;
  };
  check_run(with({"scan", d, "-f", "jsonl"}), label);
  check_run(with({"take", d, "--rows", "0,2"}), label, true);
  check_run(with({"count", d, "--json"}), label);
  check_run(with({"inspect", "meta", d, "--json"}), label);
  return 4;
}

/// The manifest file of `version` in a dataset with V2 names.
fs::path manifest_path(const fs::path& ds, uint64_t version) {
  return ds / "_versions" / fmt::format("{:020}.manifest", UINT64_MAX - version);
}

std::vector<Variant> manifest_variants(const std::string& original, uint64_t seed, int flips) {
  std::vector<Variant> v = make_blind_variants(original, seed, flips);
  // The 16-byte tail ([i64 position][u16 major][u16 minor]["LANC"]) and the length prefix.
  for (uint64_t cut : {original.size() - 4, original.size() - 16, original.size() - 17})
    v.push_back({fmt::format("truncated to {} bytes", cut), original.substr(0, cut)});
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  for (int i = 0; i < flips / 2; ++i) {  // single bit flips inside the tail
    Variant t{"", original};
    const size_t at = original.size() - 16 + rng() % 12;
    const int bit = static_cast<int>(rng() % 8);
    t.bytes[at] = static_cast<char>(t.bytes[at] ^ (1 << bit));
    t.name = fmt::format("tail byte {} bit {} flipped", at, bit);
    v.push_back(std::move(t));
  }
  return v;
}

}  // namespace

TEST_CASE("Corrupt dataset manifests end with a typed error", "[corrupt][dataset]") {
  TempDir dir("corrupt-ds");
  size_t runs = 0;
  const int flips = sanitizer_build() ? 4 : 8;
  struct Case {
    const char* name;
    uint64_t latest;
  };
  for (const Case& c :
       {Case{"appends", 7}, Case{"bitmap", 4}, Case{"evolution", 5}, Case{"v2_0", 5}, Case{"know/history", 12}}) {
    const fs::path ds = copy_dataset(dir, c.name);
    const fs::path m = manifest_path(ds, c.latest);
    REQUIRE(fs::exists(m));
    const std::string original = read_text(m.string());
    for (const auto& v : manifest_variants(original, stable_seed(c.name), flips)) {
      write_file(m, v.bytes);
      runs += run_commands(ds, fmt::format("{} latest manifest: {}", c.name, v.name));
    }
    write_file(m, original);
    // An older version read by --version: its manifest damaged.
    const fs::path m1 = manifest_path(ds, 1);
    const std::string first = read_text(m1.string());
    for (const auto& v : make_blind_variants(first, stable_seed(c.name) + 1, flips / 2)) {
      write_file(m1, v.bytes);
      runs += run_commands(ds, fmt::format("{} manifest of version 1: {}", c.name, v.name), 1);
    }
    write_file(m1, first);
  }
  INFO("runs: " << runs);
  CHECK(runs > 100);
}

TEST_CASE("Corrupt deletion files end with a typed error", "[corrupt][dataset]") {
  TempDir dir("corrupt-ds");
  size_t runs = 0;
  const int flips = sanitizer_build() ? 4 : 8;
  for (const char* name : {"appends", "bitmap", "know/history"}) {
    const fs::path ds = copy_dataset(dir, name);
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(ds / "_deletions")) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE_FALSE(files.empty());
    for (const auto& f : files) {
      const std::string original = read_text(f.string());
      auto variants = make_blind_variants(original, stable_seed(f.filename().string()), flips);
      variants.push_back({"emptied", ""});
      for (const auto& v : variants) {
        write_file(f, v.bytes);
        const std::string label = fmt::format("{}: {}: {}", name, f.filename().string(), v.name);
        check_run({"scan", ds.string(), "-f", "jsonl"}, label);
        check_run({"take", ds.string(), "--rows", "0,2,40"}, label, true);
        runs += 2;
      }
      write_file(f, original);
    }
  }
  INFO("runs: " << runs);
  CHECK(runs > 50);
}

TEST_CASE("latest_version_hint.json is only a hint: damaged, it changes nothing", "[corrupt][dataset]") {
  TempDir dir("corrupt-ds");
  const fs::path ds = copy_dataset(dir, "appends");
  const fs::path hint = ds / "_versions" / "latest_version_hint.json";
  REQUIRE(fs::exists(hint));
  const std::string original = read_text(hint.string());
  const CliResult intact = run_cli({"scan", ds.string(), "-f", "jsonl"});
  REQUIRE(intact.exit_code == 0);
  std::vector<Variant> variants = make_blind_variants(original, 7, 10);
  for (const char* text :
       {"", "{", "null", "[]", "{\"version\": -1}", "{\"version\": 1e400}", "{\"version\": 18446744073709551616}",
        "{\"version\": \"7\"}", "{\"version\": 1}", "{\"version\": 99}", "{\"version\": 0}", "\xff\xfe\x00garbage"})
    variants.push_back({fmt::format("replaced by '{}'", text), text});
  variants.push_back({"100000 nested arrays", std::string(100000, '[')});
  variants.push_back({"1 MiB of digits", "{\"version\": " + std::string(1 << 20, '9') + "}"});
  size_t runs = 0;
  for (const auto& v : variants) {
    write_file(hint, v.bytes);
    const CliResult r = check_run({"scan", ds.string(), "-f", "jsonl"}, "hint " + v.name);
    INFO("hint " << v.name << ": " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out == intact.out);
    const CliResult c = check_run({"count", ds.string(), "--json"}, "hint " + v.name);
    CHECK(c.out == "{\"rows\":247,\"deleted_rows\":33,\"fragments\":3,\"version\":7}\n");
    runs += 2;
  }
  // Not a file at all: a directory, a dangling link, a link to itself, a FIFO.
  fs::remove(hint);
  for (const char* kind : {"directory", "dangling link", "link loop", "fifo"}) {
    if (std::string(kind) == "directory")
      fs::create_directory(hint);
    else if (std::string(kind) == "dangling link")
      fs::create_symlink(ds / "nowhere.json", hint);
    else if (std::string(kind) == "link loop")
      fs::create_symlink(hint, hint);
    else
      REQUIRE(mkfifo(hint.c_str(), 0600) == 0);  // opening it for reading must not wait for a writer
    const CliResult r = check_run({"scan", ds.string(), "-f", "jsonl"}, std::string("hint is a ") + kind);
    CHECK(r.exit_code == 0);
    CHECK(r.out == intact.out);
    fs::remove(hint);
    ++runs;
  }
  CHECK(runs > 20);
}

TEST_CASE("A missing data or deletion file exits 1 naming it", "[corrupt][dataset]") {
  TempDir dir("corrupt-ds");
  for (const char* name : {"appends", "evolution", "bitmap"}) {
    const fs::path src = copy_dataset(dir, name);
    std::vector<fs::path> files;
    for (const char* sub : {"data", "_deletions"})
      if (fs::exists(src / sub))
        for (const auto& e : fs::directory_iterator(src / sub)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      const fs::path ds = copy_dataset(dir, name);
      const fs::path gone = ds / f.parent_path().filename() / f.filename();
      fs::remove(gone);
      // Every version that lists the file fails with exit 1 and says it is missing; others read.
      // An older version's message suggests another version; the latest's says the dataset is
      // damaged and points at verify (no other version would help).
      uint64_t latest = 1;
      while (fs::exists(manifest_path(ds, latest + 1))) ++latest;
      for (uint64_t v = 1;; ++v) {
        if (!fs::exists(manifest_path(ds, v))) break;
        const std::string label = fmt::format("{}: {} removed, version {}", name, gone.filename().string(), v);
        const CliResult r = check_run({"scan", ds.string(), "--version", std::to_string(v), "-f", "null"}, label);
        INFO(label << ": " << r.err);
        if (r.exit_code != 0) {
          CHECK(r.exit_code == 1);
          CHECK(r.err.find(gone.filename().string()) != std::string::npos);
          CHECK(r.err.find("is missing") != std::string::npos);
          if (v < latest) {
            CHECK(r.err.find("--version") != std::string::npos);
          } else {
            CHECK(r.err.find("the latest, is missing: the dataset is damaged") != std::string::npos);
            CHECK(r.err.find("lance-cli verify") != std::string::npos);
            CHECK(r.err.find("--version") == std::string::npos);
          }
        }
      }
    }
  }
}

TEST_CASE("A _versions/ full of garbage names reads the real versions", "[corrupt][dataset]") {
  TempDir dir("corrupt-ds");
  const fs::path ds = copy_dataset(dir, "appends");
  const fs::path vdir = ds / "_versions";
  const CliResult intact = run_cli({"scan", ds.string(), "-f", "jsonl"});
  const CliResult intact1 = run_cli({"scan", ds.string(), "--version", "1", "-f", "jsonl"});
  REQUIRE(intact.exit_code == 0);
  REQUIRE(intact1.exit_code == 0);

  SECTION("names that are not committed manifests are ignored") {
    // Lance's temporary and detached names, and names whose number does not parse.
    for (const char* n : {"abc.manifest", ".manifest", "manifest", "-1.manifest", "+7.manifest", " 7.manifest",
                          "7 .manifest", "1.5.manifest", "0x10.manifest", "d5.manifest", "1.manifest.tmp",
                          ".tmp_1.manifest_abc", "8.manifest-0a1b2c3d", "99999999999999999999.manifest",
                          "\xd9\xa1.manifest", "7.MANIFEST", "7.manifes", "latest_version_hint.json.tmp"})
      write_file(vdir / n, "garbage");
    std::mt19937_64 rng(42);
    for (int i = 0; i < 300; ++i) {  // random names, random bytes
      std::string name;
      const int len = 1 + static_cast<int>(rng() % 40);
      for (int k = 0; k < len; ++k) {
        char ch = static_cast<char>(1 + rng() % 255);
        if (ch == '/') ch = '_';
        name += ch;
      }
      if (name == "." || name == ".." || name.find(".manifest") != std::string::npos) continue;
      std::string bytes(rng() % 64, '\0');
      for (auto& b : bytes) b = static_cast<char>(rng());
      std::ofstream(vdir / name, std::ios::binary) << bytes;
    }
    fs::create_directory(vdir / "sub.dir");
    fs::create_symlink(vdir / "nowhere", vdir / "dangling");
    const CliResult r = check_run({"scan", ds.string(), "-f", "jsonl"}, "garbage names");
    CHECK(r.exit_code == 0);
    CHECK(r.out == intact.out);
    const CliResult r1 = check_run({"scan", ds.string(), "--version", "1", "-f", "jsonl"}, "garbage names, v1");
    CHECK(r1.exit_code == 0);
    CHECK(r1.out == intact1.out);
    check_run({"inspect", "versions", ds.string()}, "garbage names: inspect versions");
    check_run({"inspect", "meta", ds.string()}, "garbage names: inspect meta");
  }

  SECTION("garbage under a manifest name is the latest version: a typed error; older versions still read") {
    struct Bad {
      const char* name;
      const char* what;
    };
    for (const Bad& b : {Bad{"100.manifest", "empty"}, Bad{"101.manifest", "random"},
                         Bad{"00000000000000000007.manifest", "random"}, Bad{"102.manifest", "directory"},
                         Bad{"103.manifest", "dangling"}, Bad{"104.manifest", "loop"}, Bad{"105.manifest", "fifo"}}) {
      const fs::path p = vdir / b.name;
      const std::string what = b.what;
      if (what == "empty")
        write_file(p, "");
      else if (what == "random")
        write_file(p, std::string(100, '\x5a') + "LANC");
      else if (what == "directory")
        fs::create_directory(p);
      else if (what == "dangling")
        fs::create_symlink(vdir / "nowhere", p);
      else if (what == "loop")
        fs::create_symlink(p, p);
      else
        REQUIRE(mkfifo(p.c_str(), 0600) == 0);  // a reader that opens it must not block forever
      const std::string label = fmt::format("{} ({})", b.name, b.what);
      const CliResult r = check_run({"scan", ds.string(), "-f", "jsonl"}, label);
      // A directory is not a manifest (the listing skips it, as an object store's would):
      // the real latest version is read. Everything else named like a manifest is an error.
      if (what == "directory")
        CHECK(r.exit_code == 0);
      else
        CHECK(r.exit_code != 0);
      check_run({"count", ds.string()}, label);
      check_run({"inspect", "versions", ds.string()}, label);
      const CliResult r1 = check_run({"scan", ds.string(), "--version", "1", "-f", "jsonl"}, label + ", v1");
      CHECK(r1.exit_code == 0);
      CHECK(r1.out == intact1.out);
      fs::remove(p);
    }
  }

  SECTION("no _versions/ directory, an empty one, or a file in its place") {
    fs::remove_all(vdir);
    // Then the directory is not a dataset at all: a usage error (exit 2) naming it.
    CHECK(check_run({"scan", ds.string()}, "no _versions", true).exit_code == 2);
    fs::create_directory(vdir);
    CHECK(check_run({"scan", ds.string()}, "empty _versions").exit_code == 4);
    fs::remove(vdir);
    write_file(vdir, "not a directory");
    CHECK(check_run({"scan", ds.string()}, "_versions is a file", true).exit_code == 2);  // not a dataset either
    CHECK(check_run({"count", ds.string()}, "_versions is a file", true).exit_code == 2);
  }
}
