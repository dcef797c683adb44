// StagedReads (lib/read/staged_reads.h): how 2.0 and v1 fields send their reads. Metadata
// needs go out in rounds (one request each, for every field of a file), data needs after
// them in batched requests; and a 2.0 or v1 read costs that, not one request per page.
#include <catch2/catch.hpp>

#include <numeric>

#include "cli_env.h"
#include "cli_runner.h"
#include "format/file_reader.h"
#include "io/file.h"
#include "read/row_reader.h"
#include "read/staged_reads.h"

using lance::Bytes;
using lance::io::ByteRange;
using lance::read::MetadataRounds;
using lance::read::StagedReads;
using lance::testing::source_path;
using lance::testing::TempDir;

namespace {

/// A file of `n` bytes where byte i is i % 251, and a scheduler over it.
struct NumberedFile {
  TempDir dir{"staged"};
  std::shared_ptr<lance::ReadStats> stats = std::make_shared<lance::ReadStats>();
  std::unique_ptr<lance::io::IoScheduler> io;
  explicit NumberedFile(size_t n) {
    std::string bytes(n, '\0');
    for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<char>(i % 251);
    lance::testing::write_file(dir.file("f"), bytes);
    io = std::make_unique<lance::io::IoScheduler>(lance::io::LocalFile::open(dir.file("f")), lance::io::IoOptions{},
                                                  stats);
  }
  uint64_t requests() const { return io->stats().requests.load(); }
};

Bytes numbered(uint64_t offset, uint64_t length) {
  Bytes b(length);
  for (uint64_t i = 0; i < length; ++i) b[i] = static_cast<uint8_t>((offset + i) % 251);
  return b;
}

}  // namespace

TEST_CASE("staged reads: a metadata need's callback plans the next round and the data", "[planner][staged]") {
  NumberedFile f(100000);
  StagedReads reads;
  std::shared_ptr<lance::read::DataBytes> data;
  std::vector<Bytes> second;
  // Round 1 names round 2, which names the data (a list of lists: offsets, then offsets, then values).
  reads.now({{10, 4}, {500, 0}}, [&](std::vector<Bytes>&& b) {
    REQUIRE(b.size() == 2);
    CHECK(b[0] == numbered(10, 4));
    CHECK(b[1].empty());  // a range of length 0 reads as empty, without I/O
    reads.now({{2000, 8}}, [&](std::vector<Bytes>&& c) {
      second = std::move(c);
      data = reads.later({{50000, 16}, {60000, 0}, {70000, 3}});
    });
  });
  auto early = reads.later({{90000, 5}});
  CHECK(reads.pending_now() == 1);
  MetadataRounds rounds;
  reads.add_to(rounds, [] { return std::string("test field"); });
  rounds.run(*f.io, 0);
  CHECK(rounds.rounds() == 2);
  CHECK(reads.pending_now() == 0);
  REQUIRE(second.size() == 1);
  CHECK(second[0] == numbered(2000, 8));
  REQUIRE(data);
  const uint64_t before = f.requests();
  reads.submit(*f.io, /*budget=*/1 << 20, 0);
  CHECK(f.requests() - before == 1);  // both data needs fit the budget: one request
  auto got = data->take();
  REQUIRE(got.size() == 3);
  CHECK(got[0] == numbered(50000, 16));
  CHECK(got[1].empty());
  CHECK(got[2] == numbered(70000, 3));
  CHECK(early->take().at(0) == numbered(90000, 5));
}

TEST_CASE("staged reads: budget 0 sends one request per data need and needs of zero bytes send none",
          "[planner][staged]") {
  NumberedFile f(10000);
  StagedReads reads;
  auto a = reads.later({{0, 10}});
  auto b = reads.later({{100, 10}, {200, 10}});
  auto none = reads.later({{300, 0}});
  MetadataRounds rounds;
  reads.add_to(rounds, [] { return std::string(); });
  rounds.run(*f.io, 0);
  CHECK(rounds.rounds() == 0);
  reads.submit(*f.io, 0, 0);
  CHECK(f.requests() == 2);
  CHECK(b->take().at(1) == numbered(200, 10));
  CHECK(none->take().at(0).empty());
  CHECK(a->take().at(0) == numbered(0, 10));
}

TEST_CASE("staged reads: a metadata need with nothing to read runs at once and errors name the task",
          "[planner][staged]") {
  NumberedFile f(100);
  StagedReads reads;
  bool ran = false;
  reads.now({}, [&](std::vector<Bytes>&&) { ran = true; });
  CHECK(ran);
  reads.now({{50, 10}}, [](std::vector<Bytes>&&) { lance::throw_corrupt("positions are not increasing"); });
  MetadataRounds rounds;
  reads.add_to(rounds, [] { return std::string("field 'x'"); });
  CHECK_THROWS_WITH(rounds.run(*f.io, 0), Catch::Contains("field 'x': positions are not increasing"));
}

TEST_CASE("deferred: built once on first get and a Deferred never planned is an internal error", "[planner][staged]") {
  int calls = 0;
  auto d = lance::read::make_deferred([&] {
    ++calls;
    return lance::make_null_array(lance::make_type(lance::TypeId::int32), 3);
  });
  CHECK(d->get()->length == 3);
  CHECK(d->get()->length == 3);
  CHECK(calls == 1);
  lance::read::Deferred empty;
  CHECK_THROWS_AS(empty.get(), lance::Error);
}

namespace {

size_t fields_of(const std::string& path) { return lance::format::FileReader::open(path)->schema().fields.size(); }

/// Scheduler requests of reading every row of `path` in batches of `batch` rows.
uint64_t requests_of_scan(const std::string& path, uint64_t batch, uint64_t budget = lance::read::kPageBatchBytes) {
  lance::read::ReaderOptions opts;
  opts.page_batch_bytes = budget;
  opts.stats = std::make_shared<lance::ReadStats>();
  auto file = lance::format::FileReader::open(path, opts.io, opts.stats);
  std::vector<size_t> fields(file->schema().fields.size());
  std::iota(fields.begin(), fields.end(), 0);
  lance::read::FileRowReader rows(file, fields, opts);
  const uint64_t before = file->io().stats().requests.load();
  for (uint64_t r = 0; r < rows.num_rows(); r += batch) rows.read_range(r, std::min(rows.num_rows(), r + batch));
  return file->io().stats().requests.load() - before;
}

size_t pages_of(const std::string& path) {
  auto file = lance::format::FileReader::open(path);
  size_t n = 0;
  for (const auto& c : file->columns()) n += c.pages.size();
  return n;
}

}  // namespace

TEST_CASE("2.0 reads: a batch costs its metadata rounds and batched data requests and not a request per page",
          "[v2_0][planner][staged]") {
  // Like 2.1+ columns, each field sends its own data requests (decoded as each arrives).
  SECTION("313 pages: a metadata round per list level (a list of lists: 2), one data request per field") {
    const std::string path = source_path("data/fixtures/v20_pages-v2.0.lance");
    REQUIRE(pages_of(path) > 300);
    CHECK(requests_of_scan(path, 1u << 20) <= 2 + fields_of(path));
    // Page by page (budget 0): a request per value page.
    CHECK(requests_of_scan(path, 1u << 20, 0) > 300);
  }
  SECTION("lists over many pages: one metadata round per list level, then the data") {
    const std::string path = source_path("data/fixtures/v20_list_pages-v2.0.lance");
    REQUIRE(pages_of(path) > 200);
    CHECK(requests_of_scan(path, 1u << 20) <= 2 + fields_of(path));
  }
  SECTION("batches inside one page read the page once") {
    const std::string path = source_path("data/fixtures/v20_nested_multipage-v2.0.lance");
    REQUIRE(pages_of(path) > 20);
    const uint64_t whole = requests_of_scan(path, 1u << 20);
    CHECK(whole <= 2 + fields_of(path));
    // 100-row batches: a page shared by two batches is not read again, so the data requests
    // of all batches together are no more than the pages (plus a round per batch).
    CHECK(requests_of_scan(path, 100) <= 15 * 2 + pages_of(path));
  }
}

TEST_CASE("v1 reads: positions in a metadata round and values in batched data requests", "[v1][planner][staged]") {
  for (std::string ds : {"l0_10_prims", "l0_10_strings", "l0_10_nested"}) {
    DYNAMIC_SECTION(ds) {
      const std::string dir = source_path("data/writers/" + ds + "/data");
      for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const std::string path = e.path().string();
        auto file = lance::format::FileReader::open(path);
        REQUIRE(file->v1() != nullptr);
        const uint64_t batches = file->v1()->num_batches();
        const uint64_t fields = file->schema().fields.size();
        // Every row in one read: the positions of all v1 batches in a round or two (lists of
        // strings need two), then one data request per field.
        CHECK(requests_of_scan(path, 1u << 20) <= 2 + fields);
        // A read per v1 batch: at most that per batch.
        CHECK(requests_of_scan(path, file->v1()->batch_starts[1]) <= (2 + fields) * batches);
      }
    }
  }
}
