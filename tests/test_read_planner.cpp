// The page-batch planner: request counts and bytes for scans and takes of one column.
#include <catch2/catch.hpp>

#include <cstring>

#include "cli_runner.h"
#include "format/file_reader.h"
#include "read/column_reader.h"
#include "read/row_reader.h"

using lance::read::ColumnReader;
using lance::read::RowRange;
using lance::testing::source_path;

namespace {

struct Counts {
  uint64_t requests, iops, bytes;
};
Counts counts(const lance::format::FileReader& f) {
  const auto& s = f.io().stats();
  return {s.requests.load(), s.iops.load(), s.bytes_read.load()};
}

uint64_t page_bytes(const lance::format::PageInfo& p) {
  uint64_t n = 0;
  for (const auto& b : p.buffers) n += b.length;
  return n;
}

}  // namespace

TEST_CASE("planner: a multi-page column is read with one metadata and one data request", "[planner]") {
  auto file = lance::format::FileReader::open(source_path("data/fixtures/multipage-v2.2.lance"));
  const auto& col = file->columns().at(2);  // 'txt': 7 pages
  REQUIRE(col.pages.size() == 7);
  ColumnReader reader(file, 2, file->schema().fields.at(2).arrow->type, "txt");
  auto before = counts(*file);
  auto leaf = reader.read(0, file->num_rows());
  auto after = counts(*file);
  CHECK(leaf.num_rows == file->num_rows());
  CHECK(after.requests - before.requests == 2);  // all pages' metadata, then all pages' data
}

TEST_CASE("planner: batching off means one data request per page", "[planner]") {
  auto file = lance::format::FileReader::open(source_path("data/fixtures/multipage-v2.2.lance"));
  ColumnReader reader(file, 2, file->schema().fields.at(2).arrow->type, "txt");
  reader.set_page_batch_bytes(0);
  auto before = counts(*file);
  reader.read(0, file->num_rows());
  auto after = counts(*file);
  CHECK(after.requests - before.requests == 1 + 7);
}

TEST_CASE("planner: the byte budget splits batches", "[planner]") {
  auto file = lance::format::FileReader::open(source_path("data/fixtures/multipage-v2.2.lance"));
  ColumnReader reader(file, 2, file->schema().fields.at(2).arrow->type, "txt");
  // A budget smaller than any two pages' data: every page its own request again.
  reader.set_page_batch_bytes(1);
  auto before = counts(*file);
  reader.read(0, file->num_rows());
  CHECK(counts(*file).requests - before.requests == 1 + 7);
}

TEST_CASE("planner: pages no row touches are not read", "[planner]") {
  auto file = lance::format::FileReader::open(source_path("data/fixtures/multipage-v2.2.lance"));
  const auto& pages = file->columns().at(2).pages;
  ColumnReader reader(file, 2, file->schema().fields.at(2).arrow->type, "txt");
  // Rows 310..320 lie in page 1 only (pages of 300 rows).
  auto before = counts(*file);
  auto leaf = reader.read(310, 320);
  auto after = counts(*file);
  CHECK(leaf.num_rows == 10);
  CHECK(after.bytes - before.bytes <= page_bytes(pages[1]));
  CHECK(after.requests - before.requests <= 2);
}

TEST_CASE("planner: a take reads each needed chunk once, in two requests per column", "[planner]") {
  auto file = lance::format::FileReader::open(source_path("data/fixtures/multipage-v2.2.lance"));
  ColumnReader reader(file, 0, file->schema().fields.at(0).arrow->type, "id");
  std::vector<RowRange> rows = {{1, 2}, {2, 3}, {700, 701}, {1500, 1502}, {1999, 2000}};
  auto before = counts(*file);
  auto leaf = reader.read_ranges(rows);
  auto after = counts(*file);
  CHECK(leaf.num_rows == 6);
  CHECK(after.requests - before.requests == 2);
  // A second take of rows in the same pages needs no metadata round.
  before = counts(*file);
  reader.read_ranges(rows);
  CHECK(counts(*file).requests - before.requests == 1);
}

TEST_CASE("planner: a whole full-zip page is read without its repetition index", "[planner]") {
  auto file = lance::format::FileReader::open(source_path("data/fixtures/strings_long-v2.2.lance"));
  const auto& page = file->columns().at(0).pages.at(0);
  REQUIRE(page.layout->has_full_zip_layout());
  REQUIRE(page.buffers.size() == 2);
  ColumnReader reader(file, 0, file->schema().fields.at(0).arrow->type, "medium");
  auto before = counts(*file);
  reader.read(0, page.num_rows);
  auto after = counts(*file);
  CHECK(after.requests - before.requests == 1);
  CHECK(after.bytes - before.bytes == page.buffers[0].length);
  // A partial read needs the index entries first: two requests.
  ColumnReader partial(file, 0, file->schema().fields.at(0).arrow->type, "medium");
  before = counts(*file);
  partial.read(3, 5);
  CHECK(counts(*file).requests - before.requests == 2);
}

namespace {

/// Rows [0, n) of column `column` of `file` read as a scan reads them: batches of `batch`
/// rows, the next one planned and submitted before the last is finished; the batches' levels
/// and values joined.
lance::structural::LeafData read_in_batches(const std::shared_ptr<lance::format::FileReader>& file, uint32_t column,
                                            const lance::TypePtr& type, uint64_t batch, uint64_t n) {
  ColumnReader reader(file, column, type, "c");
  lance::structural::LeafData out;
  RowRange r{0, std::min(batch, n)};
  auto pending = reader.start(std::span<const RowRange>(&r, 1));
  for (uint64_t b = r.end; pending; b += batch) {
    std::unique_ptr<ColumnReader::Pending> next;
    if (b < n) {
      RowRange nr{b, std::min(b + batch, n)};
      next = reader.start(std::span<const RowRange>(&nr, 1));
    }
    lance::structural::append_leaf(out, reader.finish(std::move(pending)));
    pending = std::move(next);
  }
  return out;
}

/// A variable-width block's offsets as numbers, whatever their width (joined blocks may
/// widen them).
std::vector<uint64_t> offsets_of(const lance::encoding::DataBlock& b) {
  std::vector<uint64_t> out;
  const size_t w = b.bits_per_offset / 8;
  for (size_t i = 0; w && i + w <= b.offsets.size(); i += w) {
    uint64_t v = 0;
    std::memcpy(&v, b.offsets.data() + i, w);
    out.push_back(v);
  }
  return out;
}

}  // namespace

TEST_CASE("planner: a scan's batches read the mini-block chunk they share once", "[planner]") {
  // Page 0 of 'id': 600 rows in two chunks (512 and 88 values). Batches of 100 rows all but
  // the last want chunk 0; each batch takes it from the read before instead of the file.
  auto file = lance::format::FileReader::open(source_path("data/fixtures/multipage-v2.2.lance"));
  const auto type = file->schema().fields.at(0).arrow->type;
  ColumnReader whole(file, 0, type, "id");
  auto before = counts(*file);
  const auto expected = whole.read(0, 600);
  const uint64_t once = counts(*file).bytes - before.bytes;
  const auto values_of = [](const lance::structural::LeafData& d) { return d.values.data; };

  SECTION("each batch finished before the next is planned") {
    ColumnReader reader(file, 0, type, "id");
    before = counts(*file);
    std::vector<uint8_t> got;
    for (uint64_t b = 0; b < 600; b += 100) {
      const auto part = values_of(reader.read(b, b + 100));
      got.insert(got.end(), part.begin(), part.end());
    }
    CHECK(counts(*file).bytes - before.bytes == once);
    CHECK(got == values_of(expected));
  }
  SECTION("the next batch planned and submitted before this one is finished, as a scan does") {
    before = counts(*file);
    const auto got = read_in_batches(file, 0, type, 100, 600);
    CHECK(counts(*file).bytes - before.bytes == once);
    CHECK(values_of(got) == values_of(expected));
  }
  SECTION("a batch whose predecessor is dropped unfinished reads the shared chunk itself") {
    ColumnReader reader(file, 0, type, "id");
    RowRange a{0, 100}, b{100, 200};
    auto dropped = reader.start(std::span<const RowRange>(&a, 1));
    auto kept = reader.start(std::span<const RowRange>(&b, 1));
    dropped.reset();
    const auto leaf = reader.finish(std::move(kept));
    const auto all = values_of(expected);
    CHECK(values_of(leaf) == std::vector<uint8_t>(all.begin() + 100 * 8, all.begin() + 200 * 8));
  }
}

TEST_CASE("planner: batches sharing chunks decode what one read does, lists and strings included", "[planner]") {
  struct Case {
    const char* file;
    uint32_t column;
    lance::TypePtr type;
  };
  using lance::make_type;
  using lance::TypeId;
  const std::vector<Case> cases = {
      // long lists: rows span chunks, one- and two-level
      {"data/fixtures/nested2_long_lists-v2.2.lance", 0, make_type(TypeId::int32)},
      {"data/fixtures/nested2_long_lists-v2.2.lance", 1, make_type(TypeId::utf8)},
      {"data/fixtures/nested2_long_lists-v2.2.lance", 2, make_type(TypeId::int32)},
      {"data/fixtures/nested2_long_lists-v2.1.lance", 0, make_type(TypeId::int32)},
      // dictionary-encoded strings over several pages
      {"data/fixtures/multipage-v2.2.lance", 3, make_type(TypeId::utf8)},
  };
  for (const auto& c : cases) {
    for (const uint64_t batch : {7, 33, 150}) {
      INFO(c.file << " column " << c.column << ", batches of " << batch);
      auto file = lance::format::FileReader::open(source_path(c.file));
      ColumnReader whole(file, c.column, c.type, "c");
      auto before = counts(*file);
      const auto expected = whole.read(0, file->num_rows());
      const uint64_t once = counts(*file).bytes - before.bytes;
      before = counts(*file);
      const auto got = read_in_batches(file, c.column, c.type, batch, file->num_rows());
      // At most the bytes of one read (the scheduler's merging of nearby metadata ranges
      // may read a few gap bytes more or less); reading each shared chunk again would add
      // a chunk per batch.
      CHECK(counts(*file).bytes - before.bytes <= once);
      CHECK(got.num_rows == expected.num_rows);
      CHECK(got.rep == expected.rep);
      CHECK(got.def == expected.def);
      CHECK(got.values.data == expected.values.data);
      CHECK(offsets_of(got.values) == offsets_of(expected.values));
    }
  }
}

TEST_CASE("column reader: a read over several pages reserves its values' room once", "[planner]") {
  auto file = lance::format::FileReader::open(source_path("data/fixtures/multipage-v2.2.lance"));
  REQUIRE(file->columns().at(0).pages.size() == 4);  // 'id', int64, mini-block pages of 600 rows
  ColumnReader reader(file, 0, file->schema().fields.at(0).arrow->type, "id");
  // Every page: the values' buffer is sized once (PageDecoder::size_hint), not grown page by
  // page, which would leave it with room to spare (and have copied it on the way).
  auto whole = reader.read(0, file->num_rows());
  CHECK(whole.values.data.size() == file->num_rows() * 8);
  CHECK(whole.values.data.capacity() == whole.values.data.size());
  // A take across three pages.
  const std::vector<RowRange> ranges = {{5, 6}, {700, 702}, {1900, 1903}};
  auto some = reader.read_ranges(ranges);
  CHECK(some.num_rows == 6);
  CHECK(some.values.data.size() == 6 * 8);
  CHECK(some.values.data.capacity() == some.values.data.size());
  const std::vector<uint64_t> rows = {5, 700, 701, 1900, 1901, 1902};
  for (size_t i = 0; i < rows.size(); ++i)
    CHECK(std::memcmp(some.values.data.data() + i * 8, whole.values.data.data() + rows[i] * 8, 8) == 0);
}
