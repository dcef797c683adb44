// io::RemoteFile against the real store (Ceph RGW): the whole-file open and the read-ahead of
// announced units, request by request (counted in the ReadStats every test client here shares).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

#include "cli_env.h"
#include "common/read_stats.h"
#include "io/remote/http_client.h"
#include "io/remote/remote_file.h"
#include "s3_env.h"

using namespace lance::testing;
using lance::io::ByteRange;
using lance::io::HttpClient;
using lance::io::RemoteFile;

namespace {

/// An object the fixture uploads (data/ byte for byte), and its local bytes.
const char* kObject = "data/fixtures/index.json";

std::string local_bytes() { return read_text(source_path(kObject)); }

/// The counters every client() counts into.
const std::shared_ptr<lance::ReadStats>& stats() {
  static const auto s = std::make_shared<lance::ReadStats>();
  return s;
}

std::shared_ptr<const HttpClient> client() {
  lance::io::StorageOptions o;
  o.endpoint = s3().endpoint;
  o.allow_http = true;
  o.access_key_id = s3().key;
  o.secret_access_key = s3().secret;
  o.region = "us-east-1";
  return std::make_shared<HttpClient>(o, true, true, stats());
}

std::string url() { return s3().endpoint + "/" + s3().bucket + "/" + kObject; }

std::string read(const RemoteFile& f, uint64_t offset, uint64_t length) {
  std::string out(length, '\0');
  f.read_at(offset, length, reinterpret_cast<uint8_t*>(out.data()));
  return out;
}

uint64_t requests() { return stats()->http_requests.load(); }

}  // namespace

TEST_CASE(
    "s3: a whole-file open GETs its pieces at once, and falls back to a plain open when the recorded size is wrong",
    "[s3][remote]") {
  const std::string want = local_bytes();
  REQUIRE(want.size() > 4 * 65536);
  const uint64_t size = want.size();
  const uint64_t pieces = (size + 65535) / 65536;
  SECTION("the right size: one GET per 64 KiB piece, every byte from memory after") {
    const uint64_t before = requests();
    auto f = RemoteFile::open_whole(client(), url(), kObject, size, 65536, {});
    CHECK(requests() - before == pieces);
    CHECK(f->size() == size);
    CHECK(f->in_memory());
    CHECK(read(*f, 0, size) == want);
    CHECK(read(*f, 70000, 100000) == want.substr(70000, 100000));
    CHECK(requests() - before == pieces);  // no request after the open
  }
  for (int64_t wrong : {int64_t{1000}, int64_t{-1000}}) {
    DYNAMIC_SECTION("a recorded size " << (wrong > 0 ? "larger" : "smaller") << " than the object's") {
      auto f = RemoteFile::open_whole(client(), url(), kObject, size + wrong, 65536, {});
      CHECK(f->size() == size);  // Content-Range told the truth; the file opened with its tail
      CHECK_FALSE(f->in_memory());
      CHECK(read(*f, 0, size) == want);
    }
  }
}

TEST_CASE("s3: units announced to a remote file are fetched at once, neighbours merged, within the budget",
          "[s3][remote]") {
  const std::string want = local_bytes();
  // A 16-byte tail: every unit below is outside it.
  const std::vector<ByteRange> units = {{1000, 100}, {1150, 100}, {5000, 300}, {200000, 70000}};
  SECTION(
      "all of them: four GETs (the first two units, 50 bytes apart, share one; the last is two pieces), reads from "
      "memory") {
    auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 16, 100, 1 << 20});
    const uint64_t before = requests();
    f->will_read(units);
    CHECK(read(*f, 1000, 100) == want.substr(1000, 100));
    CHECK(read(*f, 1050, 180) == want.substr(1050, 180));  // spans the merged gap
    CHECK(read(*f, 5100, 100) == want.substr(5100, 100));
    CHECK(read(*f, 260000, 5000) == want.substr(260000, 5000));
    CHECK(read(*f, 200000, 70000) == want.substr(200000, 70000));  // spans two pieces
    CHECK(requests() - before == 4);
    // The large unit's pieces are cells of its grid: read out entirely, they were let go.
    CHECK(read(*f, 260000, 10000) == want.substr(260000, 10000));
    CHECK(requests() - before > 4);
  }
  SECTION("a budget of 250 bytes: the first GET only; the rest on demand, still correct") {
    auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 16, 100, 250});
    const uint64_t before = requests();
    f->will_read(units);
    CHECK(read(*f, 1000, 250) == want.substr(1000, 250));
    CHECK(requests() - before == 1);
    CHECK(read(*f, 5000, 300) == want.substr(5000, 300));
    CHECK(read(*f, 200000, 70000) == want.substr(200000, 70000));
    CHECK(requests() - before > 1);
  }
  SECTION("no read-ahead budget: nothing is fetched until a read asks") {
    auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 16, 100, 0});
    const uint64_t before = requests();
    f->will_read(units);
    CHECK(requests() - before == 0);
    CHECK(read(*f, 5000, 300) == want.substr(5000, 300));
  }
}

TEST_CASE("s3: a unit larger than a request is fetched in grid cells that reads starting anywhere share",
          "[s3][remote]") {
  const std::string want = local_bytes();
  REQUIRE(want.size() > 320000);
  // One 300,000-byte unit (a page a scan reads batch by batch); requests of at most 64 KiB,
  // so its cells are [10000, 65536), [65536, 131072), ... [262144, 310000): five.
  const std::vector<ByteRange> units = {{10000, 300000}};
  const auto bytes = [] { return stats()->http_bytes.load(); };
  SECTION("on demand: each cell once, whatever the reads' boundaries") {
    auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 16, 100, 0});
    f->will_read(units);
    const uint64_t before = requests(), bytes_before = bytes();
    CHECK(read(*f, 10000, 50000) == want.substr(10000, 50000));
    CHECK(read(*f, 60000, 50000) == want.substr(60000, 50000));      // the rest of cell 1, part of cell 2
    CHECK(read(*f, 110000, 100000) == want.substr(110000, 100000));  // cells 2 to 4
    CHECK(read(*f, 210000, 100000) == want.substr(210000, 100000));  // cells 4 and 5
    CHECK(requests() - before == 5);
    CHECK(bytes() - bytes_before == 300000);
    // A cell read out entirely was let go (a scan reads each byte once): asked again, it is
    // fetched again.
    CHECK(read(*f, 70000, 10) == want.substr(70000, 10));
    CHECK(requests() - before == 6);
  }
  SECTION("a cell partly read stays in memory") {
    auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 16, 100, 0});
    f->will_read(units);
    const uint64_t before = requests();
    CHECK(read(*f, 70000, 100) == want.substr(70000, 100));
    CHECK(read(*f, 70000, 100) == want.substr(70000, 100));
    CHECK(read(*f, 80000, 20000) == want.substr(80000, 20000));
    CHECK(requests() - before == 1);
  }
  SECTION("fetched ahead: the pieces end on the same grid, so no read fetches again") {
    auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 16, 100, 1 << 20});
    const uint64_t before = requests(), bytes_before = bytes();
    f->will_read(units);
    CHECK(read(*f, 10001, 99999) == want.substr(10001, 99999));
    CHECK(read(*f, 110000, 200000) == want.substr(110000, 200000));
    CHECK(requests() - before == 5);
    CHECK(bytes() - bytes_before == 300000);
  }
}

TEST_CASE("s3: a coalesced read keeps only its extents, in one GET", "[s3][remote]") {
  const std::string want = local_bytes();
  REQUIRE(want.size() > 300000);
  auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 16, 100, 0});
  std::string a(100, '\0'), b(5000, '\0'), c(7, '\0');
  const std::vector<lance::io::ReadExtent> extents = {{1000, 100, reinterpret_cast<uint8_t*>(a.data())},
                                                      {150000, 5000, reinterpret_cast<uint8_t*>(b.data())},
                                                      {290000, 7, reinterpret_cast<uint8_t*>(c.data())}};
  const uint64_t before = requests(), bytes_before = stats()->http_bytes.load();
  f->read_extents(1000, 289007, extents);
  CHECK(a == want.substr(1000, 100));
  CHECK(b == want.substr(150000, 5000));
  CHECK(c == want.substr(290000, 7));
  CHECK(requests() - before == 1);
  CHECK(stats()->http_bytes.load() - bytes_before == 289007);  // the holes travel, but are not kept
}

TEST_CASE("s3: a coalesced read whose last extent reaches into the cached tail is still one GET", "[s3][remote]") {
  const std::string want = local_bytes();
  REQUIRE(want.size() > 300000);
  const uint64_t size = want.size(), tail = 20000, tail_start = size - tail;
  auto f = RemoteFile::open(client(), url(), kObject, tail, RemoteFile::ReadAhead{65536, 16, 100, 0});
  std::string a(100, '\0'), b(5000, '\0'), c(300, '\0');
  const std::vector<lance::io::ReadExtent> extents = {
      {1000, 100, reinterpret_cast<uint8_t*>(a.data())},
      {150000, 5000, reinterpret_cast<uint8_t*>(b.data())},
      {tail_start - 100, 300, reinterpret_cast<uint8_t*>(c.data())}};  // 100 bytes below the tail, 200 in it
  const uint64_t before = requests();
  f->read_extents(1000, tail_start + 200 - 1000, extents);
  CHECK(a == want.substr(1000, 100));
  CHECK(b == want.substr(150000, 5000));
  CHECK(c == want.substr(tail_start - 100, 300));
  CHECK(requests() - before == 1);  // was one GET per extent, one round trip after another
}

namespace {

/// Waits (up to 10 s) until the requests since `before` reach `want`; returns the count.
uint64_t await_requests(uint64_t before, uint64_t want) {
  for (int i = 0; i < 1000 && requests() - before < want; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return requests() - before;
}

}  // namespace

TEST_CASE("s3: a read of a large unit fetches what follows in file order, across units, before reads ask",
          "[s3][remote]") {
  const std::string want = local_bytes();
  REQUIRE(want.size() > 320000);
  // Two large units (pages of a scan) with a small one between them (another column's page).
  // Requests of at most 64 KiB; an ahead budget of 65,600 bytes for will_read; reads keep four
  // times that (262,400 bytes) past them fetched or on the way.
  const std::vector<ByteRange> units = {{0, 100000}, {100000, 50}, {100064, 200000}};
  auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 32, 0, 65600});
  const uint64_t before = requests();
  f->will_read(units);  // the small unit first, then the first cell [0, 65536): the budget
  CHECK(read(*f, 0, 100) == want.substr(0, 100));
  // Up to byte 262,400: the first unit's second cell [65536, 100000), and the third unit's
  // cells [100064, 131072), [131072, 196608), [196608, 262144) and [262144, 300064), the
  // cell holding the limit.
  CHECK(await_requests(before, 7) == 7);
  CHECK(read(*f, 50000, 50000) == want.substr(50000, 50000));
  CHECK(read(*f, 100000, 50) == want.substr(100000, 50));
  CHECK(read(*f, 100064, 96544) == want.substr(100064, 96544));
  CHECK(read(*f, 196608, 103456) == want.substr(196608, 103456));
  CHECK(requests() - before == 7);                       // all of it from memory
  CHECK(read(*f, 0, 300064) == want.substr(0, 300064));  // again, from windows or not
}

namespace {

/// GETs and bytes fetched.
struct Traffic {
  uint64_t requests = 0, bytes = 0;
};

/// Announces `units` (two pages, the first at least 100 bytes) to `f` and reads them as a
/// scan would: the first 100 bytes; then, once `ahead` GETs went out, the rest of the first
/// page and all of the second. Every byte is checked against the local copy. Returns what was
/// fetched from the announcement on.
Traffic read_two_pages(const RemoteFile& f, const std::vector<ByteRange>& units, uint64_t ahead) {
  const std::string want = local_bytes();
  REQUIRE(want.size() > 320000);
  REQUIRE(units.size() == 2);
  const uint64_t before = requests(), bytes_before = stats()->http_bytes.load();
  f.will_read(units);
  const ByteRange a = units[0], b = units[1];
  CHECK(read(f, a.offset, 100) == want.substr(a.offset, 100));
  CHECK(await_requests(before, ahead) == ahead);
  CHECK(read(f, a.offset + 100, a.length - 100) == want.substr(a.offset + 100, a.length - 100));
  CHECK(read(f, b.offset, b.length) == want.substr(b.offset, b.length));
  return Traffic{requests() - before, stats()->http_bytes.load() - bytes_before};
}

}  // namespace

TEST_CASE("s3: two large units ending and starting in one grid cell share its GET", "[s3][remote]") {
  const std::string want = local_bytes();
  // A column's two pages with 2,000 bytes of a page not read between them (the vector column
  // of a table with an id column): [10000, 110000) and [112000, 262000). Requests of at most
  // 64 KiB, a merging gap of 4 KiB, an ahead budget of one cell. Cells: [10000, 65536), then
  // [65536, 131072) for the end of the first page and the start of the second together, then
  // [131072, 196608) and [196608, 262000): four GETs, not five.
  auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 32, 4096, 65600});
  const Traffic t = read_two_pages(*f, {{10000, 100000}, {112000, 150000}}, 4);
  CHECK(t.requests == 4);
  CHECK(t.bytes == 252000);
  // The shared cell was let go once both pages' bytes in it were read (the 2,000 between count
  // as read): asked again, it is fetched again.
  const uint64_t before = requests();
  CHECK(read(*f, 70000, 10) == want.substr(70000, 10));
  CHECK(requests() - before == 1);
}

TEST_CASE("s3: a small unit running past the shared cell is not cut, but fetched whole once", "[s3][remote]") {
  // A large page [10000, 110000) and, 2,000 bytes on, a 30,000-byte page [112000, 142000) that
  // runs past the cell [65536, 131072). An ahead budget too small for will_read to fetch the
  // small page first. The first page's last cell stops at its end: taken along, the small
  // page would be cut at 131072 and then fetched whole again when read (151,072 bytes).
  auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 32, 4096, 20000});
  const Traffic t = read_two_pages(*f, {{10000, 100000}, {112000, 30000}}, 2);
  CHECK(t.requests == 3);
  CHECK(t.bytes == 130000);
}

TEST_CASE("s3: the holes of one read between windows are fetched side by side, and the bytes are right",
          "[s3][remote]") {
  const std::string want = local_bytes();
  // Three small units fetched ahead as three windows (no merging); a read spanning them has
  // two holes, [1100, 1200) and [1300, 1400): two GETs.
  const std::vector<ByteRange> units = {{1000, 100}, {1200, 100}, {1400, 100}};
  auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 16, 0, 1 << 20});
  const uint64_t before = requests();
  f->will_read(units);
  CHECK(read(*f, 1000, 500) == want.substr(1000, 500));
  CHECK(requests() - before == 5);
  CHECK(read(*f, 1050, 400) == want.substr(1050, 400));  // the holes again: not kept
  CHECK(requests() - before == 7);
}

TEST_CASE("s3: a small unit announced next to a large one is its own GET, not part of the large one's first cell",
          "[s3][remote]") {
  const std::string want = local_bytes();
  // A small page 28 bytes before a large one: within the merging gap, but merged it would wait
  // for the large page's whole first cell. Pieces: [0, 100), then the cells [128, 65536),
  // [65536, 131072), [131072, 196608) and [196608, 200128).
  const std::vector<ByteRange> units = {{0, 100}, {128, 200000}};
  auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 16, 100, 1 << 20});
  const uint64_t before = requests();
  f->will_read(units);
  CHECK(await_requests(before, 5) == 5);
  CHECK(read(*f, 0, 100) == want.substr(0, 100));
  CHECK(read(*f, 128, 200000) == want.substr(128, 200000));
  CHECK(requests() - before == 5);
}

TEST_CASE("s3: an open with a head fetches the file's first cells along with its tail", "[s3][remote]") {
  const std::string want = local_bytes();
  REQUIRE(want.size() > 200000);
  // Cells of 64 KiB: a head of 100,000 bytes is [0, 65536) and [65536, 100000), fetched while
  // the tail's GET is out; reads there come from memory.
  const uint64_t before = requests();
  auto f = RemoteFile::open(client(), url(), kObject, 16, RemoteFile::ReadAhead{65536, 16, 0, 1 << 20}, 100000);
  CHECK(await_requests(before, 3) == 3);
  CHECK(read(*f, 0, 100000) == want.substr(0, 100000));
  CHECK(read(*f, want.size() - 16, 16) == want.substr(want.size() - 16));
  CHECK(requests() - before == 3);
  CHECK(read(*f, 100000, 1000) == want.substr(100000, 1000));  // past the head: a GET
  CHECK(requests() - before == 4);
}
