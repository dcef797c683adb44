// The page-batch planner (read/page_batch_planner.h) in isolation: row splitting and data
// batching as tables of inputs -> expected requests (in the style of Arrow's
// CoalesceReadRanges test), and the metadata rounds on real files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>

#include "cli_runner.h"
#include "format/file_reader.h"
#include "output/value_text.h"
#include "read/column_reader.h"
#include "read/row_reader.h"
#include "read/page_batch_planner.h"

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
      {"pages fit one budget", {{{0, 40}}, {{40, 30}, {70, 5}}, {{80, 20}}}, 100,
       {{{0, 40}, {40, 30}, {70, 5}, {80, 20}}}, {{0, 0, 1}, {0, 1, 2}, {0, 3, 1}}},
      {"exactly the budget stays together", {{{0, 50}}, {{50, 50}}}, 100, {{{0, 50}, {50, 50}}},
       {{0, 0, 1}, {0, 1, 1}}},
      {"one byte over starts a new request", {{{0, 50}}, {{50, 51}}}, 100, {{{0, 50}}, {{50, 51}}},
       {{0, 0, 1}, {1, 0, 1}}},
      {"a page above the budget is a request of its own, never split", {{{0, 10}}, {{10, 500}}, {{510, 10}}}, 100,
       {{{0, 10}}, {{10, 500}}, {{510, 10}}}, {{0, 0, 1}, {1, 0, 1}, {2, 0, 1}}},
      {"budget 0: one request per page", {{{0, 1}}, {{1, 1}}, {{2, 1}}}, 0, {{{0, 1}}, {{1, 1}}, {{2, 1}}},
       {{0, 0, 1}, {1, 0, 1}, {2, 0, 1}}},
      {"a page with nothing to read (constant) takes no parts", {{{0, 10}}, {}, {{10, 10}}}, 100,
       {{{0, 10}, {10, 10}}}, {{0, 0, 1}, {0, 1, 0}, {0, 1, 1}}},
      {"only pages with nothing to read: no request", {{}, {}}, 100, {}, {{0, 0, 0}, {0, 0, 0}}},
      {"ranges keep the decoder's order (not sorted)", {{{500, 10}, {0, 10}}}, 100, {{{500, 10}, {0, 10}}},
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
    with_data += std::any_of(c.pages.begin(), c.pages.end(), [](const auto& p) { return !p.layout->has_constant_layout(); });
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
