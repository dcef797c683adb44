// dataset::decode_roaring_portable, the strict decoder of roaring bitmaps (`.bin` deletion
// files, index fragment bitmaps) that replaced libroaring's after fuzz findings: it agrees
// with libroaring on what Lance wrote, and refuses the self-contradicting bitmaps on which
// libroaring's iterator crashed (data/fuzz-regressions/fuzz_deletion, fuzz_manifest).
#include <catch2/catch.hpp>

#include <roaring/roaring.h>

#include "cli_runner.h"
#include "common/error.h"
#include "dataset/roaring_portable.h"

using lance::testing::read_text;
using lance::testing::source_path;

namespace {

std::vector<uint32_t> libroaring_values(const std::string& bytes) {
  roaring_bitmap_t* r = roaring_bitmap_portable_deserialize_safe(bytes.data(), bytes.size());
  REQUIRE(r != nullptr);
  std::vector<uint32_t> out(roaring_bitmap_get_cardinality(r));
  roaring_bitmap_to_uint32_array(r, out.data());
  roaring_bitmap_free(r);
  return out;
}

lance::ByteView view(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

}  // namespace

TEST_CASE("roaring: Lance's .bin deletion file decodes as libroaring decodes it", "[fuzz-findings][dataset]") {
  const std::string bin = read_text(source_path("data/datasets/bitmap/_deletions/0-1-7511766121408583140.bin"));
  const auto r = lance::dataset::decode_roaring_portable(view(bin), uint64_t{1} << 32);
  CHECK(r.bytes_used == bin.size());
  CHECK(r.values.size() > 5000);
  CHECK(r.values == libroaring_values(bin));
  // Serializations libroaring writes: arrays, a bitset, runs.
  roaring_bitmap_t* b = roaring_bitmap_create();
  for (uint32_t v = 0; v < 70000; v += 3) roaring_bitmap_add(b, v);  // bitset, then array
  roaring_bitmap_add_range(b, 200000, 260000);                       // runs after run_optimize
  roaring_bitmap_add(b, 4000000000u);
  for (bool runs : {false, true}) {
    if (runs) roaring_bitmap_run_optimize(b);
    std::string s(roaring_bitmap_portable_size_in_bytes(b), '\0');
    roaring_bitmap_portable_serialize(b, s.data());
    const auto d = lance::dataset::decode_roaring_portable(view(s), uint64_t{1} << 32);
    CHECK(d.bytes_used == s.size());
    CHECK(d.values == libroaring_values(s));
    // Bounded: a bound below the count refuses it before storing more.
    CHECK_THROWS_AS(lance::dataset::decode_roaring_portable(view(s), 1000), lance::Error);
    // Every truncation is an error, never a read past the end.
    for (size_t cut = 0; cut < s.size(); cut += 97)
      CHECK_THROWS_AS(lance::dataset::decode_roaring_portable(view(s.substr(0, cut)), uint64_t{1} << 32), lance::Error);
  }
  roaring_bitmap_free(b);
}

TEST_CASE("roaring: a container that contradicts itself is corrupt", "[fuzz-findings][dataset]") {
  // No-run cookie, 2 containers with the same key 0: libroaring accepts, we refuse.
  std::string s = {0x3a, 0x30, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  s += std::string(8, '\0') + std::string("\x01\x00\x02\x00", 4);
  try {
    lance::dataset::decode_roaring_portable(view(s), 100);
    FAIL("no error");
  } catch (const lance::Error& e) {
    CHECK(e.kind() == lance::ErrorKind::corrupt);
  }
  // An array container that is not increasing.
  std::string a = {0x3a, 0x30, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0};
  a += std::string(4, '\0') + std::string("\x05\x00\x03\x00", 4);
  CHECK_THROWS_AS(lance::dataset::decode_roaring_portable(view(a), 100), lance::Error);
}
