// read/read_ahead.h: what a read fetches ahead, given a store's network model and the plan.
#include <catch2/catch.hpp>

#include "cli_runner.h"
#include "read/read_ahead.h"

using lance::io::ListEntry;
using lance::io::NetworkModel;
using lance::read::ReadAheadHint;
using lance::testing::source_path;

namespace {

/// An S3-like model: 64 KiB tails, 32 MiB whole-file limit, 1 MiB gap and round trip.
NetworkModel s3_model() {
  NetworkModel m;
  m.remote = true;
  m.round_trip_bytes = 1 << 20;
  m.tail_read_size = 64 << 10;
  m.whole_file_limit = 32 << 20;
  m.coalesce_gap = 1 << 20;
  m.requests_in_flight = 32;
  return m;
}

std::vector<ListEntry> listing() {
  return {{"a.lance", 10 << 10, false},  // smaller than a tail
          {"b.lance", 8 << 20, false},   // 8 MiB
          {"c.lance", 64 << 20, false},  // over the whole-file limit
          {"x.txt", 100, false},         // not a data file
          {"sub", 0, true}};
}

/// "name:tail_bytes" of each open, and "+head_of" when it fetches the file's head too.
std::vector<std::string> opens(const std::vector<lance::io::ObjectStore::OpenAhead>& o) {
  std::vector<std::string> out;
  for (const auto& a : o)
    out.push_back(a.path + ":" + std::to_string(a.tail_bytes) + (a.head_of ? "+" + std::to_string(a.head_of) : ""));
  return out;
}

}  // namespace

TEST_CASE("read ahead: the local store's model fetches nothing ahead", "[read-ahead]") {
  const NetworkModel local;
  ReadAheadHint full;
  full.whole_files = true;
  CHECK(lance::read::data_files_to_open(local, "/t/data", listing(), full).empty());
  CHECK(lance::read::open_tail_bytes(local, 1000, 1000) == 0);
  CHECK_FALSE(lance::read::worth_prefetch(local, 5, 5, true));
  CHECK_FALSE(lance::read::announce_page_buffers(local));
  CHECK_FALSE(lance::read::overlap_fragments(local));
  CHECK_FALSE(lance::read::chain_threads(local));
  CHECK(lance::read::batches_in_flight(local, 0) == 0);
  CHECK(lance::read::batches_in_flight(local, 3) == 3);
}

TEST_CASE("read ahead: data files opened with the manifest, by plan", "[read-ahead]") {
  const NetworkModel m = s3_model();
  const std::string dir = "s3://b/t.lance/data";
  SECTION("a full scan opens every data file whole up to the whole-file limit, a larger one with its head") {
    ReadAheadHint h;
    h.whole_files = true;
    CHECK(opens(lance::read::data_files_to_open(m, dir, listing(), h)) ==
          std::vector<std::string>{dir + "/a.lance:10240", dir + "/b.lance:8388608", dir + "/c.lance:0+67108864"});
  }
  SECTION("a scan of some columns of every row opens the files a tail reads whole and those too large to fetch whole") {
    ReadAheadHint h;
    h.small_files_only = true;
    CHECK(opens(lance::read::data_files_to_open(m, dir, listing(), h)) ==
          std::vector<std::string>{dir + "/a.lance:0", dir + "/c.lance:0"});
  }
  SECTION("a dense take (rows closer than the gap) opens files whole, a sparse one their tails") {
    ReadAheadHint dense;
    dense.sparse_rows = 300;  // 100 per file: b's rows 80 KiB apart
    CHECK(opens(lance::read::data_files_to_open(m, dir, listing(), dense)) ==
          std::vector<std::string>{dir + "/a.lance:10240", dir + "/b.lance:8388608", dir + "/c.lance:0"});
    ReadAheadHint sparse;
    sparse.sparse_rows = 3;  // 1 per file: b's and c's rows far apart, a's within the gap
    CHECK(opens(lance::read::data_files_to_open(m, dir, listing(), sparse)) ==
          std::vector<std::string>{dir + "/a.lance:10240", dir + "/b.lance:0", dir + "/c.lance:0"});
  }
  SECTION("nothing to open without data files") {
    CHECK(lance::read::data_files_to_open(m, dir, {{"x.txt", 1, false}}, {}).empty());
  }
}

TEST_CASE("read ahead: a data file is opened whole when what it skips costs less than a round trip", "[read-ahead]") {
  const NetworkModel m = s3_model();
  CHECK(lance::read::open_tail_bytes(m, 8 << 20, 8 << 20) == (8u << 20));        // needs all of it
  CHECK(lance::read::open_tail_bytes(m, 8 << 20, (7 << 20) + 1) == (8u << 20));  // skips < 1 MiB
  CHECK(lance::read::open_tail_bytes(m, 8 << 20, 6 << 20) == 0);                 // skips 2 MiB
  CHECK(lance::read::open_tail_bytes(m, 64 << 20, 64 << 20) == 0);               // over the limit
  CHECK(lance::read::open_tail_bytes(m, 0, 100) == 0);                           // size unknown
}

TEST_CASE("read ahead: prefetches, announcements and overlap over a network", "[read-ahead]") {
  const NetworkModel m = s3_model();
  CHECK_FALSE(lance::read::worth_prefetch(m, 1, 0, false));  // one open: no bundle to gain
  CHECK(lance::read::worth_prefetch(m, 1, 0, true));         // ... unless it reads the file whole
  CHECK(lance::read::worth_prefetch(m, 1, 1, false));
  CHECK(lance::read::announce_page_buffers(m));
  CHECK(lance::read::overlap_fragments(m));
  CHECK(lance::read::chain_threads(m));
  CHECK(lance::read::batches_in_flight(m, 0) == lance::read::kRemoteBatchesInFlight);
  CHECK(lance::read::batches_in_flight(m, 2) == 2);
}

TEST_CASE("read ahead: a scan announces the page buffers of its rows (2.1+) or all of them (2.0)", "[read-ahead]") {
  auto expect_pages = [](const lance::format::FileReader& f, size_t field, const std::vector<size_t>& pages) {
    std::vector<lance::io::ByteRange> want;
    for (uint32_t c : f.field_columns().at(field)) {
      const auto& col = f.columns().at(c);
      for (size_t p : pages) want.insert(want.end(), col.pages.at(p).buffers.begin(), col.pages.at(p).buffers.end());
      want.insert(want.end(), col.buffers.begin(), col.buffers.end());
    }
    return want;
  };
  auto same = [](const std::vector<lance::io::ByteRange>& a, const std::vector<lance::io::ByteRange>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].offset != b[i].offset || a[i].length != b[i].length) return false;
    return true;
  };
  SECTION("2.1: rows 600-1199 of a column of 600-row pages are page 1") {
    auto f = lance::format::FileReader::open(source_path("data/fixtures/multipage-v2.1.lance"));
    REQUIRE(f->columns().at(f->field_columns().at(0).at(0)).pages.size() == 4);
    CHECK(same(lance::read::scan_page_buffers(*f, {0}, 600, 1200), expect_pages(*f, 0, {1})));
    CHECK(same(lance::read::scan_page_buffers(*f, {0}, 599, 601), expect_pages(*f, 0, {0, 1})));
    CHECK(same(lance::read::scan_page_buffers(*f, {0}, 0, 2000), expect_pages(*f, 0, {0, 1, 2, 3})));
    CHECK(lance::read::scan_page_buffers(*f, {99}, 0, 2000).empty());  // no such field
  }
  SECTION("2.0: every page, whatever the rows") {
    auto f = lance::format::FileReader::open(source_path("data/fixtures/v20_pages-v2.0.lance"));
    const size_t pages = f->columns().at(f->field_columns().at(0).at(0)).pages.size();
    REQUIRE(pages > 1);
    std::vector<size_t> all(pages);
    for (size_t p = 0; p < pages; ++p) all[p] = p;
    CHECK(same(lance::read::scan_page_buffers(*f, {0}, 0, 1), expect_pages(*f, 0, all)));
  }
}

TEST_CASE("read ahead: of a large buffer, a scan announces its rows' share", "[read-ahead]") {
  using lance::io::ByteRange;
  using lance::read::rows_part_of_buffer;
  const uint64_t mib = 1 << 20;
  const ByteRange big{1000, 80 * mib};  // a page of rows [50000, 150000): 838 bytes a row
  SECTION("100 rows in the middle: their bytes and 1 MiB either side") {
    const ByteRange r = rows_part_of_buffer(big, 50000, 100000, 100000, 100100);
    CHECK(r.offset == 1000 + 40 * mib - mib);
    CHECK(r.length == 83886 + 2 * mib);  // 100 rows' share (838.86 bytes a row), rounded down at each end
  }
  SECTION("a quarter of the rows: widened by a quarter of that on each side") {
    const ByteRange r = rows_part_of_buffer(big, 50000, 100000, 50000, 75000);
    CHECK(r.offset == 1000);  // nothing before the page's first row
    CHECK(r.length == 20 * mib + 5 * mib);
  }
  SECTION("rows past the page are cut at its end") {
    const ByteRange r = rows_part_of_buffer(big, 50000, 100000, 140000, 400000);
    CHECK(r.offset == 1000 + 72 * mib - 2 * mib);
    CHECK(r.end() == big.end());
  }
  SECTION("whole: rows covering the page, estimates near all of it, small buffers, empty pages") {
    CHECK(rows_part_of_buffer(big, 50000, 100000, 0, 200000) == big);
    CHECK(rows_part_of_buffer(big, 50000, 100000, 52000, 150000) == big);  // 98 % of it
    const ByteRange small{0, lance::read::kWholeBufferBytes};
    CHECK(rows_part_of_buffer(small, 0, 100000, 10, 20) == small);
    CHECK(rows_part_of_buffer(big, 50000, 0, 10, 20) == big);
    CHECK(rows_part_of_buffer(big, UINT64_MAX - 5, 100, 10, 20) == big);  // corrupt: rows past 2^64
  }
}
