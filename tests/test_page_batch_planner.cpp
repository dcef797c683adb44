// The page-batch planner (read/page_batch_planner.h) in isolation: row splitting and data
// batching as tables of inputs -> expected requests (in the style of Arrow's
// CoalesceReadRanges test), and the metadata rounds on real files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>

#include "cli_runner.h"
#include "format/file_reader.h"
#include "io/object_store.h"
#include "output/value_text.h"
#include "read/column_reader.h"
#include "read/page_batch_planner.h"
#include "read/row_reader.h"

using lance::io::ByteRange;
using lance::read::BatchSlot;
using lance::read::PageRows;
using lance::read::RowRange;
using lance::testing::source_path;

TEST_CASE("planner: data ranges of consecutive pages grouped into requests by the byte budget", "[planner]") {
  struct Case {
    const char* name;
    std::vector<std::vector<ByteRange>> pages;  // per page: its data ranges
    uint64_t budget;
    std::vector<std::vector<ByteRange>> want_requests;
    std::vector<BatchSlot> want_slots;  // per page: request, first part, parts
  };
  const std::vector<Case> cases = {
      {"no pages", {}, 100, {}, {}},
      {"one page", {{{0, 10}}}, 100, {{{0, 10}}}, {{0, 0, 1}}},
      {"pages fit one budget",
       {{{0, 40}}, {{40, 30}, {70, 5}}, {{80, 20}}},
       100,
       {{{0, 40}, {40, 30}, {70, 5}, {80, 20}}},
       {{0, 0, 1}, {0, 1, 2}, {0, 3, 1}}},
      {"exactly the budget stays together",
       {{{0, 50}}, {{50, 50}}},
       100,
       {{{0, 50}, {50, 50}}},
       {{0, 0, 1}, {0, 1, 1}}},
      {"one byte over starts a new request",
       {{{0, 50}}, {{50, 51}}},
       100,
       {{{0, 50}}, {{50, 51}}},
       {{0, 0, 1}, {1, 0, 1}}},
      {"a page above the budget is a request of its own, never split",
       {{{0, 10}}, {{10, 500}}, {{510, 10}}},
       100,
       {{{0, 10}}, {{10, 500}}, {{510, 10}}},
       {{0, 0, 1}, {1, 0, 1}, {2, 0, 1}}},
      {"budget 0: one request per page",
       {{{0, 1}}, {{1, 1}}, {{2, 1}}},
       0,
       {{{0, 1}}, {{1, 1}}, {{2, 1}}},
       {{0, 0, 1}, {1, 0, 1}, {2, 0, 1}}},
      {"a page with nothing to read (constant) takes no parts",
       {{{0, 10}}, {}, {{10, 10}}},
       100,
       {{{0, 10}, {10, 10}}},
       {{0, 0, 1}, {0, 1, 0}, {0, 1, 1}}},
      {"only pages with nothing to read: no request", {{}, {}}, 100, {}, {{0, 0, 0}, {0, 0, 0}}},
      {"ranges keep the decoder's order (not sorted)",
       {{{500, 10}, {0, 10}}},
       100,
       {{{500, 10}, {0, 10}}},
       {{0, 0, 2}}},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) {
      auto plan = lance::read::plan_page_batches(c.pages, c.budget);
      CHECK(plan.requests == c.want_requests);
      CHECK(plan.pages == c.want_slots);
    }
  }
}

TEST_CASE("planner: row ranges split by page", "[planner]") {
  struct Case {
    const char* name;
    std::vector<uint64_t> page_starts;  // first row of each page, then the row count
    std::vector<RowRange> ranges;
    std::vector<PageRows> want;
  };
  const std::vector<Case> cases = {
      {"within one page", {0, 100, 200}, {{10, 20}}, {{0, {{10, 20}}}}},
      {"across a page boundary", {0, 100, 200}, {{90, 110}}, {{0, {{90, 100}}}, {1, {{0, 10}}}}},
      {"several ranges in one page", {0, 100, 200}, {{1, 2}, {5, 9}}, {{0, {{1, 2}, {5, 9}}}}},
      {"untouched pages left out", {0, 10, 20, 30}, {{5, 6}, {25, 26}}, {{0, {{5, 6}}}, {2, {{5, 6}}}}},
      {"empty pages skipped", {0, 10, 10, 20}, {{5, 15}}, {{0, {{5, 10}}}, {2, {{0, 5}}}}},
      {"whole column", {0, 3, 6}, {{0, 6}}, {{0, {{0, 3}}}, {1, {{0, 3}}}}},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) { CHECK(lance::read::split_rows_by_page(c.page_starts, c.ranges) == c.want); }
  }
  std::vector<uint64_t> starts = {0, 10};
  std::vector<RowRange> past = {{5, 11}}, empty = {{3, 3}};
  CHECK_THROWS_AS(lance::read::split_rows_by_page(starts, past), lance::Error);
  CHECK_THROWS_AS(lance::read::split_rows_by_page(starts, empty), lance::Error);
}

namespace {

uint64_t requests(const lance::format::FileReader& f) { return f.io().stats().requests.load(); }

}  // namespace

TEST_CASE("planner: the metadata of all projected columns goes out in one request", "[planner]") {
  auto file = lance::format::FileReader::open(source_path("data/fixtures/multipage-v2.2.lance"));
  const size_t nfields = file->schema().fields.size();
  REQUIRE(nfields >= 3);
  std::vector<size_t> all;
  for (size_t i = 0; i < nfields; ++i) all.push_back(i);
  // Columns whose pages hold data ('pad' is all constant pages: nothing to read but metadata).
  size_t with_data = 0;
  for (const auto& c : file->columns())
    with_data +=
        std::any_of(c.pages.begin(), c.pages.end(), [](const auto& p) { return !p.layout->has_constant_layout(); });
  REQUIRE(with_data == 4);
  lance::read::FileRowReader reader(file, all);
  const uint64_t before = requests(*file);
  auto batch = reader.finish(reader.start({{0, file->num_rows()}}));
  CHECK(batch.num_rows == static_cast<int64_t>(file->num_rows()));
  // One metadata request for every column, then one data request per column with data (its
  // pages fit the default 8 MiB budget). Before the planner had its own module, every column
  // made its own metadata round: 5 + 4 requests.
  CHECK(requests(*file) - before == 1 + with_data);
  // The next batch of the same pages: metadata known, data only.
  const uint64_t again = requests(*file);
  reader.finish(reader.start({{0, 10}}));
  CHECK(requests(*file) - again == with_data);
}

TEST_CASE("planner: a blob page asks for its descriptors as a second metadata round", "[planner]") {
  auto file = lance::format::FileReader::open(source_path("data/fixtures/enc_blob-v2.1.lance"));
  // The blob column: the one whose first page has a blob layout.
  std::optional<uint32_t> blob_col;
  for (uint32_t c = 0; c < file->columns().size(); ++c) {
    const auto& pages = file->columns()[c].pages;
    if (!pages.empty() && pages[0].layout && pages[0].layout->has_blob_layout()) blob_col = c;
  }
  REQUIRE(blob_col);
  lance::read::ColumnReader col(file, *blob_col, lance::make_type(lance::TypeId::large_binary), "blob");
  lance::read::MetadataRounds rounds;
  const uint64_t rows = std::min<uint64_t>(file->num_rows(), 5);
  std::vector<RowRange> ranges = {{0, rows}};
  const uint64_t before = requests(*file);
  auto pending = col.plan(ranges, rounds);
  CHECK(requests(*file) == before);  // planning reads nothing
  rounds.run(file->io(), 0);
  CHECK(rounds.rounds() == 2);  // the inner page's chunk metadata, then the descriptors
  CHECK(requests(*file) - before == 2);
  col.submit(*pending);
  auto leaf = col.finish(std::move(pending));
  CHECK(leaf.num_rows == rows);
  CHECK(requests(*file) - before == 3);  // and the blob bytes
}

TEST_CASE("planner: a blob page serves a batch planned while the previous one is still undecoded", "[planner]") {
  // A scan starts batch k+1 before it finishes batch k; the blob decoder keeps the
  // descriptors of both (there is no synchronous re-read to fall back on).
  auto file = lance::format::FileReader::open(source_path("data/fixtures/enc_blob-v2.1.lance"));
  std::vector<size_t> all;
  for (size_t i = 0; i < file->schema().fields.size(); ++i) all.push_back(i);
  lance::read::FileRowReader whole(file, all);
  auto expected = whole.read_range(0, file->num_rows());
  lance::read::FileRowReader batched(file, all);
  const uint64_t n = file->num_rows(), step = 7;
  REQUIRE(n > 2 * step);
  auto next = batched.start({{0, step}});
  for (uint64_t row = 0; row < n; row += step) {
    auto current = std::move(next);
    if (row + step < n) next = batched.start({{row + step, std::min(n, row + 2 * step)}});
    auto batch = batched.finish(std::move(current));
    REQUIRE(batch.num_rows == static_cast<int64_t>(std::min(step, n - row)));
    for (size_t c = 0; c < batch.columns.size(); ++c) {
      for (int64_t i = 0; i < batch.num_rows; ++i) {
        std::string got, want;
        lance::output::append_json_value(got, *batch.columns[c], i);
        lance::output::append_json_value(want, *expected.columns[c], static_cast<int64_t>(row) + i);
        CHECK(got == want);
      }
    }
  }
}

// ---------------------------------------------------------------- likely data ranges

TEST_CASE("planner: likely_share estimates where a page's rows lie, whole for small buffers", "[planner]") {
  using lance::structural::likely_share;
  // Small buffers are announced whole.
  CHECK(likely_share({1000, 200 * 1024}, 100, {10, 20}) == ByteRange{1000, 200 * 1024});
  // 10 MiB over 10,000 rows: rows [5000, 5100) are about [5,120,000, 5,222,400); widened by
  // 64 KiB (half their length is less) on each side.
  const uint64_t mib = 1024 * 1024;
  CHECK(likely_share({0, 10 * mib}, 10000, {5000, 5100}) == ByteRange{5242880 - 65536, 104857 + 2 * 65536});
  // Widened by half their length (at most 1 MiB), clipped to the buffer.
  CHECK(likely_share({100, 10 * mib}, 10000, {0, 1000}) == ByteRange{100, 1048576 + 524288});
  CHECK(likely_share({0, 100 * mib}, 100, {90, 100}) == ByteRange{90 * mib - mib, 11 * mib});
  // Nothing to estimate.
  CHECK(likely_share({0, 0}, 100, {0, 10}).length == 0);
  CHECK(likely_share({0, 10 * mib}, 0, {0, 10}).length == 0);
}

namespace {

/// A local file that records announcements (will_read) and reads, in order.
class AnnouncedFile final : public lance::io::RandomAccessFile {
 public:
  explicit AnnouncedFile(std::shared_ptr<lance::io::RandomAccessFile> inner) : inner_(std::move(inner)) {}
  const std::string& path() const override { return inner_->path(); }
  uint64_t size() const override { return inner_->size(); }
  void read_at(uint64_t offset, uint64_t length, uint8_t* out) const override {
    {
      std::lock_guard lock(mutex_);
      events_.push_back({false, {offset, length}, requests ? requests->load() : 0});
    }
    inner_->read_at(offset, length, out);
  }
  void will_read(const std::vector<ByteRange>& units) const override {
    std::lock_guard lock(mutex_);
    for (const auto& u : units) events_.push_back({true, u, requests ? requests->load() : 0});
  }
  struct Event {
    bool announced;
    ByteRange range;
    uint64_t requests;  ///< the reader's scheduler's request count at the time
  };
  /// The request counter of the scheduler reading this file (set after opening).
  const std::atomic<uint64_t>* requests = nullptr;
  std::vector<Event> events() const {
    std::lock_guard lock(mutex_);
    return events_;
  }

 private:
  std::shared_ptr<lance::io::RandomAccessFile> inner_;
  mutable std::mutex mutex_;
  mutable std::vector<Event> events_;
};

/// `got` holds the same rows as `expected`, cell for cell (as JSON text).
void check_same_rows(const lance::RecordBatch& got, const lance::RecordBatch& expected) {
  REQUIRE(got.num_rows == expected.num_rows);
  for (size_t c = 0; c < got.columns.size(); ++c) {
    std::string g, w;
    for (int64_t i = 0; i < got.num_rows; ++i) {
      lance::output::append_json_value(g, *got.columns[c], i);
      lance::output::append_json_value(w, *expected.columns[c], i);
    }
    CHECK(g == w);
  }
}

}  // namespace

TEST_CASE("planner: a take from a remote file announces its likely data before the metadata round", "[planner]") {
  for (const char* name : {"multipage-v2.1.lance", "multipage-v2.2.lance"}) {
    DYNAMIC_SECTION(name) {
      const std::string path = source_path(std::string("data/fixtures/") + name);
      auto local = lance::format::FileReader::open(path);
      const uint64_t n = local->num_rows();
      REQUIRE(n > 100);
      std::vector<size_t> all;
      for (size_t i = 0; i < local->schema().fields.size(); ++i) all.push_back(i);
      std::vector<uint64_t> rows;
      for (uint64_t r = n / 3; r < n / 3 + 50; ++r) rows.push_back(r);
      const auto expected = lance::read::FileRowReader(local, all).take(rows);

      lance::io::IoOptions remote;
      remote.remote = true;
      auto recorded = std::make_shared<AnnouncedFile>(lance::io::LocalFile::open(path));
      auto file = lance::format::FileReader::open(recorded, remote);
      recorded->requests = &file->io().stats().requests;
      const size_t opened = recorded->events().size();  // the tail
      const uint64_t base = file->io().stats().requests;
      const auto got = lance::read::FileRowReader(file, all).take(rows);
      check_same_rows(got, expected);

      // Request base + 1 is the metadata round; the data requests come after it.
      const auto events = recorded->events();
      std::vector<ByteRange> announced;
      for (size_t i = opened; i < events.size(); ++i) {
        if (!events[i].announced) continue;
        CHECK(events[i].requests == base);  // announced before the metadata round went out
        announced.push_back(events[i].range);
      }
      REQUIRE_FALSE(announced.empty());
      // Announced ranges joined where they overlap or touch (a read may span neighbours,
      // merged by the scheduler; a remote file serves it from both windows).
      std::sort(announced.begin(), announced.end(),
                [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
      std::vector<ByteRange> joined;
      for (const auto& a : announced) {
        if (!joined.empty() && a.offset <= joined.back().end())
          joined.back().length = std::max(joined.back().end(), a.end()) - joined.back().offset;
        else
          joined.push_back(a);
      }
      // The reads after the metadata round (the data) lie inside announced ranges.
      size_t data_reads = 0;
      for (size_t i = opened; i < events.size(); ++i) {
        if (events[i].announced || events[i].requests <= base + 1) continue;
        const ByteRange r = events[i].range;
        ++data_reads;
        INFO("read [" << r.offset << ", +" << r.length << ")");
        CHECK(std::any_of(joined.begin(), joined.end(),
                          [&](const ByteRange& a) { return a.offset <= r.offset && r.end() <= a.end(); }));
      }
      CHECK(data_reads > 0);

      // Scans and local takes announce nothing.
      const size_t before = recorded->events().size();
      lance::read::FileRowReader(file, all).read_range(n / 3, n / 3 + 50);
      const auto after = recorded->events();
      for (size_t i = before; i < after.size(); ++i) CHECK_FALSE(after[i].announced);
    }
  }
}

TEST_CASE("planner: a scattered take from a remote file announces small buffers whole, nothing large", "[planner]") {
  const std::string path = source_path("data/fixtures/multipage-v2.1.lance");
  auto local = lance::format::FileReader::open(path);
  const uint64_t n = local->num_rows();
  std::vector<size_t> all;
  for (size_t i = 0; i < local->schema().fields.size(); ++i) all.push_back(i);
  // Rows far apart: more row ranges per page than MetadataRounds::kLikelyMaxRanges.
  std::vector<uint64_t> rows;
  for (uint64_t r = 0; r < n; r += n / 12) rows.push_back(r);
  REQUIRE(rows.size() > lance::read::MetadataRounds::kLikelyMaxRanges);
  const auto expected = lance::read::FileRowReader(local, all).take(rows);

  lance::io::IoOptions remote;
  remote.remote = true;
  auto recorded = std::make_shared<AnnouncedFile>(lance::io::LocalFile::open(path));
  auto file = lance::format::FileReader::open(recorded, remote);
  const size_t opened = recorded->events().size();
  const auto got = lance::read::FileRowReader(file, all).take(rows);
  check_same_rows(got, expected);
  size_t announced = 0;
  const auto events = recorded->events();  // a copy: events() returns by value
  for (size_t i = opened; i < events.size(); ++i) {
    const auto& e = events[i];
    if (!e.announced) continue;
    ++announced;
    CHECK(e.range.length <= lance::read::MetadataRounds::kScatteredLikelyMaxBytes);
  }
  CHECK(announced > 0);  // the file's small pages
}
