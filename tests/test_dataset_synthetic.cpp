// Dataset cases Lance 8.0 does not produce by itself, made by editing copies of real
// datasets (a fully deleted fragment, unknown deletion counts, unknown feature flags,
// corrupt or missing files), and unit tests of version naming and deletion vectors.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fmt/format.h>
#include <roaring/roaring.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "cli_runner.h"
#include "dataset/deletion.h"
#include "dataset/manifest.h"
#include "fixtures.h"
#include "table.pb.h"

namespace fs = std::filesystem;
using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using namespace lance::dataset;

using lance::testing::lines;

namespace {

/// A scratch copy of a dataset under the system temp directory, removed afterwards.
struct DatasetCopy {
  fs::path dir;
  explicit DatasetCopy(const std::string& name) {
    static int counter = 0;
    dir = fs::temp_directory_path() /
          ("lance-cli-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)) / name;
    fs::create_directories(dir.parent_path());
    fs::copy(source_path("data/datasets/" + name), dir, fs::copy_options::recursive);
  }
  ~DatasetCopy() {
    std::error_code ec;
    fs::remove_all(dir.parent_path(), ec);
  }
  std::string str() const { return dir.string(); }
};

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_bytes(const fs::path& p, const std::string& data) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

lance::table::Manifest load_manifest(const fs::path& dataset, uint64_t version) {
  std::string b = file_bytes(dataset / "_versions" / manifest_file_name(version, ManifestNaming::v2));
  int64_t pos;
  std::memcpy(&pos, b.data() + b.size() - 16, 8);
  uint32_t len;
  std::memcpy(&len, b.data() + pos, 4);
  lance::table::Manifest m;
  REQUIRE(m.ParseFromArray(b.data() + pos + 4, static_cast<int>(len)));
  return m;
}

/// Writes `m` as the manifest of its version (V2 naming): [u32 len][proto][i64 0][u16 0][u16 2]["LANC"].
void save_manifest(const fs::path& dataset, const lance::table::Manifest& m) {
  std::string body = m.SerializeAsString();
  std::string out;
  uint32_t len = static_cast<uint32_t>(body.size());
  out.append(reinterpret_cast<const char*>(&len), 4);
  out += body;
  int64_t pos = 0;
  uint16_t major = 0, minor = 2;
  out.append(reinterpret_cast<const char*>(&pos), 8);
  out.append(reinterpret_cast<const char*>(&major), 2);
  out.append(reinterpret_cast<const char*>(&minor), 2);
  out += "LANC";
  write_bytes(dataset / "_versions" / manifest_file_name(m.version(), ManifestNaming::v2), out);
}

/// Writes a `.bin` deletion file (portable roaring bitmap) deleting `rows`.
void write_bitmap(const fs::path& p, const std::vector<uint32_t>& rows) {
  roaring_bitmap_t* r = roaring_bitmap_create();
  roaring_bitmap_add_many(r, rows.size(), rows.data());
  std::string buf(roaring_bitmap_portable_size_in_bytes(r), '\0');
  roaring_bitmap_portable_serialize(r, buf.data());
  roaring_bitmap_free(r);
  write_bytes(p, buf);
}

const std::string kAppendsGolden = "data/golden/ds_appends.jsonl";
constexpr uint64_t kAppendsLatest = 7;
// Visible rows per fragment of `appends` at version 7 (see data/datasets/index.json).
constexpr uint64_t kAppendsFrag0 = 103, kAppendsFrag1 = 86, kAppendsFrag2 = 58;

}  // namespace

TEST_CASE("manifest names: both schemes, temporary and detached files ignored", "[dataset][unit]") {
  auto v2 = parse_manifest_name("18446744073709551614.manifest");
  REQUIRE(v2);
  CHECK(v2->version == 1);
  CHECK(v2->naming == ManifestNaming::v2);
  auto v1 = parse_manifest_name("42.manifest");
  REQUIRE(v1);
  CHECK(v1->version == 42);
  CHECK(v1->naming == ManifestNaming::v1);
  CHECK(parse_manifest_name("18446744073709551615.manifest")->version == 0);
  CHECK_FALSE(parse_manifest_name("d12.manifest"));
  CHECK_FALSE(parse_manifest_name(".tmp_7.manifest_9c100374"));
  CHECK_FALSE(parse_manifest_name("42.manifest-cee4fbbb"));
  CHECK_FALSE(parse_manifest_name("latest_version_hint.json"));
  CHECK_FALSE(parse_manifest_name(".manifest"));
  CHECK_FALSE(parse_manifest_name("99999999999999999999999.manifest"));
  CHECK(manifest_file_name(1, ManifestNaming::v2) == "18446744073709551614.manifest");
  CHECK(manifest_file_name(7, ManifestNaming::v1) == "7.manifest");
}

TEST_CASE("deletion vector: physical rows and surviving runs", "[dataset][unit]") {
  auto dv = DeletionVector::from_offsets({7, 0, 3, 4, 4, 9}, 10);
  CHECK(dv.num_deleted() == 5);
  // physical: 0x 1 2 3x 4x 5 6 7x 8 9x → surviving 1 2 5 6 8
  std::vector<uint64_t> want = {1, 2, 5, 6, 8};
  for (uint64_t i = 0; i < want.size(); ++i) CHECK(dv.physical_row(i) == want[i]);
  using Runs = std::vector<std::pair<uint64_t, uint64_t>>;
  CHECK(dv.live_runs(0, 10) == Runs{{1, 3}, {5, 7}, {8, 9}});
  CHECK(dv.live_runs(2, 6) == Runs{{2, 3}, {5, 6}});
  CHECK(dv.live_runs(3, 5).empty());
  CHECK(DeletionVector().physical_row(5) == 5);
  CHECK_THROWS_AS(DeletionVector::from_offsets({10}, 10), lance::Error);
}

TEST_CASE("deletion bitmap: Lance's .bin files decode, bad bytes are corrupt", "[dataset][unit]") {
  const fs::path dir = source_path("data/datasets/bitmap/_deletions");
  fs::path bin;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".bin") bin = e.path();
  REQUIRE(!bin.empty());
  std::string b = file_bytes(bin);
  lance::Bytes bytes(b.begin(), b.end());
  auto dv = parse_deletion_bitmap(lance::ByteView(bytes), 6000);
  CHECK(dv.num_deleted() == 5400);
  CHECK(!dv.is_deleted(0));
  CHECK(dv.is_deleted(1));
  CHECK(dv.physical_row(3) == 30);
  CHECK_THROWS_AS(parse_deletion_bitmap(lance::ByteView(bytes), 100), lance::Error);  // rows past the fragment
  lance::Bytes cut(bytes.begin(), bytes.begin() + static_cast<long>(bytes.size() / 2));
  CHECK_THROWS_AS(parse_deletion_bitmap(lance::ByteView(cut), 6000), lance::Error);
  lance::Bytes junk(64, 0xAB);
  CHECK_THROWS_AS(parse_deletion_bitmap(lance::ByteView(junk), 6000), lance::Error);
}

TEST_CASE("a fragment whose rows are all deleted contributes no rows", "[dataset]") {
  DatasetCopy copy("appends");
  auto m = load_manifest(copy.dir, kAppendsLatest);
  auto* frag = m.mutable_fragments(1);
  const uint64_t physical = frag->physical_rows();
  std::vector<uint32_t> all(physical);
  for (uint32_t i = 0; i < physical; ++i) all[i] = i;
  auto* del = frag->mutable_deletion_file();
  del->set_file_type(lance::table::DeletionFile::BITMAP);
  del->set_read_version(kAppendsLatest);
  del->set_id(12345);
  del->set_num_deleted_rows(physical);
  write_bitmap(copy.dir / "_deletions" / fmt::format("{}-{}-12345.bin", frag->id(), kAppendsLatest), all);
  m.set_version(kAppendsLatest + 1);
  save_manifest(copy.dir, m);

  auto golden = lines(read_text(source_path(kAppendsGolden)));
  REQUIRE(golden.size() == kAppendsFrag0 + kAppendsFrag1 + kAppendsFrag2);
  std::string want;
  for (size_t i = 0; i < golden.size(); ++i)
    if (i < kAppendsFrag0 || i >= kAppendsFrag0 + kAppendsFrag1) want += golden[i] + "\n";

  auto r = run_cli({"scan", copy.str(), "-f", "jsonl", "--batch-size", "10"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == want);

  // Rows on both sides of the empty fragment, via offset/limit and via take.
  r = run_cli({"scan", copy.str(), "--offset", std::to_string(kAppendsFrag0 - 1), "-n", "2"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == golden[kAppendsFrag0 - 1] + "\n" + golden[kAppendsFrag0 + kAppendsFrag1] + "\n");
  r = run_cli({"take", copy.str(), "--rows", std::to_string(kAppendsFrag0) + "," + std::to_string(kAppendsFrag0 - 1)});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == golden[kAppendsFrag0 + kAppendsFrag1] + "\n" + golden[kAppendsFrag0 - 1] + "\n");

  // The older version is untouched.
  r = run_cli({"scan", copy.str(), "--version", std::to_string(kAppendsLatest)});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == read_text(source_path(kAppendsGolden)));
}

TEST_CASE("fragments without recorded row or deletion counts are counted from their files", "[dataset]") {
  DatasetCopy copy("appends");
  auto m = load_manifest(copy.dir, kAppendsLatest);
  for (auto& f : *m.mutable_fragments()) {
    f.mutable_deletion_file()->set_num_deleted_rows(0);
    f.set_physical_rows(0);  // unknown as well: taken from the data file
  }
  m.set_version(kAppendsLatest + 1);
  save_manifest(copy.dir, m);
  auto r = run_cli({"scan", copy.str(), "--offset", "100", "-n", "100"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto golden = lines(read_text(source_path(kAppendsGolden)));
  std::string want;
  for (size_t i = 100; i < 200; ++i) want += golden[i] + "\n";
  CHECK(r.out == want);
}

TEST_CASE("latest_version_hint.json is only a hint", "[dataset]") {
  DatasetCopy copy("appends");
  write_bytes(copy.dir / "_versions" / "latest_version_hint.json", "{\"version\": 3}");
  auto r = run_cli({"scan", copy.str()});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == read_text(source_path(kAppendsGolden)));
  write_bytes(copy.dir / "_versions" / "latest_version_hint.json", "not json");
  r = run_cli({"scan", copy.str()});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == read_text(source_path(kAppendsGolden)));
}

TEST_CASE("broken datasets fail with the right exit code and name the file", "[dataset]") {
  SECTION("truncated manifest: corrupt (4)") {
    DatasetCopy copy("appends");
    const fs::path p = copy.dir / "_versions" / manifest_file_name(kAppendsLatest, ManifestNaming::v2);
    std::string b = file_bytes(p);
    write_bytes(p, b.substr(0, b.size() - 7));
    auto r = run_cli({"scan", copy.str()});
    CHECK(r.exit_code == 4);
    CHECK(r.err.find(p.filename().string()) != std::string::npos);
    // Older versions still read.
    r = run_cli({"scan", copy.str(), "--version", "1", "-n", "1"});
    CHECK(r.exit_code == 0);
  }
  SECTION("manifest length prefix wrong: corrupt (4)") {
    DatasetCopy copy("appends");
    const fs::path p = copy.dir / "_versions" / manifest_file_name(kAppendsLatest, ManifestNaming::v2);
    std::string b = file_bytes(p);
    int64_t pos;
    std::memcpy(&pos, b.data() + b.size() - 16, 8);
    b[static_cast<size_t>(pos)] ^= 0x40;
    write_bytes(p, b);
    auto r = run_cli({"scan", copy.str()});
    CHECK(r.exit_code == 4);
    CHECK(r.err.find("length") != std::string::npos);
  }
  SECTION("unknown reader feature flag: unsupported (3)") {
    DatasetCopy copy("appends");
    auto m = load_manifest(copy.dir, kAppendsLatest);
    m.set_reader_feature_flags(m.reader_feature_flags() | 64);
    m.set_version(kAppendsLatest + 1);
    save_manifest(copy.dir, m);
    auto r = run_cli({"scan", copy.str()});
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("feature") != std::string::npos);
  }
  SECTION("missing deletion file: I/O error (1) naming it") {
    DatasetCopy copy("appends");
    auto m = load_manifest(copy.dir, kAppendsLatest);
    const auto& d = m.fragments(0).deletion_file();
    const std::string name = fmt::format("0-{}-{}.arrow", d.read_version(), d.id());
    fs::remove(copy.dir / "_deletions" / name);
    auto r = run_cli({"scan", copy.str()});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find(name) != std::string::npos);
    // A scan that never reaches fragment 0 does not need it.
    r = run_cli({"scan", copy.str(), "--offset", std::to_string(kAppendsFrag0), "-n", "3"});
    CHECK(r.exit_code == 0);
  }
  SECTION("deletion file disagrees with the manifest's count: corrupt (4)") {
    DatasetCopy copy("appends");
    auto m = load_manifest(copy.dir, kAppendsLatest);
    m.mutable_fragments(2)->mutable_deletion_file()->set_num_deleted_rows(5);
    m.set_version(kAppendsLatest + 1);
    save_manifest(copy.dir, m);
    auto r = run_cli({"scan", copy.str()});
    CHECK(r.exit_code == 4);
  }
  SECTION("missing data file: I/O error (1) naming it") {
    DatasetCopy copy("appends");
    auto m = load_manifest(copy.dir, kAppendsLatest);
    const std::string name = m.fragments(2).files(0).path();
    fs::remove(copy.dir / "data" / name);
    auto r = run_cli({"scan", copy.str()});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find(name) != std::string::npos);
    r = run_cli({"scan", copy.str(), "-n", "5"});  // fragment 2 is never opened
    CHECK(r.exit_code == 0);
  }
  SECTION("data file path leaving the dataset: corrupt (4)") {
    DatasetCopy copy("appends");
    auto m = load_manifest(copy.dir, kAppendsLatest);
    m.mutable_fragments(0)->mutable_files(0)->set_path("../../etc/passwd");
    m.set_version(kAppendsLatest + 1);
    save_manifest(copy.dir, m);
    auto r = run_cli({"scan", copy.str()});
    CHECK(r.exit_code == 4);
  }
  SECTION("no manifest at all") {
    DatasetCopy copy("empty");
    for (const auto& e : fs::directory_iterator(copy.dir / "_versions")) fs::remove(e.path());
    auto r = run_cli({"scan", copy.str()});
    CHECK(r.exit_code == 4);
    CHECK(r.err.find("no manifest") != std::string::npos);
  }
}

TEST_CASE("mutated manifests and deletion files never crash the parsers", "[dataset][unit]") {
  const fs::path ds = source_path("data/datasets/evolution");
  std::string manifest = file_bytes(ds / "_versions" / manifest_file_name(11, ManifestNaming::v2));
  std::string arrow_file;
  for (const auto& e : fs::directory_iterator(ds / "_deletions"))
    if (e.path().extension() == ".arrow") arrow_file = file_bytes(e.path());
  REQUIRE(!arrow_file.empty());
  uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  for (const std::string* original : {&manifest, &arrow_file}) {
    for (int round = 0; round < 400; ++round) {
      lance::Bytes b(original->begin(), original->end());
      if (round % 5 == 4)
        b.resize(next() % b.size());
      else
        for (int k = 0; k < 1 + round % 3; ++k) b[next() % b.size()] ^= static_cast<uint8_t>(1u << (next() % 8));
      try {
        if (original == &manifest)
          (void)parse_manifest(lance::ByteView(b), "mutated.manifest");
        else
          (void)parse_deletion_arrow(lance::ByteView(b), 20);
      } catch (const lance::Error&) {
      }
    }
  }
}
