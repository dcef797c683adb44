// dataset/read_cost.h: the estimates behind "fetch a data file whole, or its tail first".
#include <catch2/catch.hpp>

#include <numeric>

#include "dataset/read_cost.h"
#include "dataset/table_reader.h"

using namespace lance;
using namespace lance::dataset;

namespace {

format::LanceField field(int32_t id, const std::string& name, TypePtr type) {
  format::LanceField f;
  f.id = id;
  f.name = name;
  auto a = std::make_shared<Field>();
  a->name = name;
  a->type = std::move(type);
  a->id = id;
  f.arrow = a;
  return f;
}

TypePtr vector_type(int32_t dim) {
  auto item = std::make_shared<Field>();
  item->name = "item";
  item->type = make_type(TypeId::float32);
  return make_fixed_size_list(item, dim);
}

}  // namespace

TEST_CASE("read cost: fixed_bits of fixed- and variable-width types", "[read_cost]") {
  CHECK(fixed_bits(*make_type(TypeId::int64)) == 64);
  CHECK(fixed_bits(*make_type(TypeId::boolean)) == 1);
  CHECK(fixed_bits(*vector_type(384)) == 384 * 32);
  CHECK(fixed_bits(*make_type(TypeId::utf8)) == 0);
  auto item = std::make_shared<Field>();
  item->type = make_type(TypeId::int32);
  CHECK(fixed_bits(*make_list(TypeId::list, item)) == 0);
  auto name = std::make_shared<Field>();
  name->type = make_type(TypeId::utf8);
  CHECK(fixed_bits(*make_struct({item, item})) == 64);
  CHECK(fixed_bits(*make_struct({item, name})) == 0);  // one variable child: variable
}

TEST_CASE("read cost: take_bytes counts each row's share and the holes the coalescing gap reads through",
          "[read_cost]") {
  const uint64_t n = 1'000'000, size = 20'000'000;  // 20 bytes per row
  std::vector<uint64_t> run(2048);
  std::iota(run.begin(), run.end(), 333'333);
  CHECK(take_bytes(run, n, size, 65536) == 2048 * 20);  // contiguous: its own share
  std::vector<uint64_t> scattered;
  for (uint64_t r = 0; r < n; r += 488) scattered.push_back(r);  // holes of ~9.7 KB < the gap
  CHECK(take_bytes(scattered, n, size, 65536) > size * 99 / 100);
  CHECK(take_bytes(scattered, n, size, 1000) < size / 8);  // a 1,000-byte gap: ~1,020 bytes a row
  CHECK(take_bytes({}, n, size, 65536) == 0);
  CHECK(take_bytes(scattered, 0, size, 65536) == 0);
  const std::vector<uint64_t> two = {0, n - 1};
  CHECK(take_bytes(two, n, size, 1ull << 40) == size);  // never more than the file
  // Repeats (a take of rows in order keeps them) are fetched once: no hole, no second share.
  const std::vector<uint64_t> repeated = {7, 7, 7, 7, 7, 7, 7, 7};
  CHECK(take_bytes(repeated, n, size, 65536) == 20);
  std::vector<uint64_t> run_twice;
  for (uint64_t r : run) run_twice.insert(run_twice.end(), {r, r});
  CHECK(take_bytes(run_twice, n, size, 65536) == 2048 * 20);
}

TEST_CASE("read cost: projected_share from the schema's fixed widths", "[read_cost]") {
  format::Schema schema;
  schema.fields = {field(0, "id", make_type(TypeId::int64)), field(1, "vector", vector_type(384)),
                   field(2, "text", make_type(TypeId::utf8))};
  DataFileRef fixed;  // holds id and vector
  fixed.field_ids = {0, 1};
  CHECK(projected_share(schema, {0, 1}, fixed) == 1.0);
  CHECK(projected_share(schema, {1}, fixed) == Approx(12288.0 / (12288 + 64)));
  CHECK(projected_share(schema, {0}, fixed) == Approx(64.0 / (12288 + 64)));
  CHECK(projected_share(schema, {2}, fixed) == 0.0);  // nothing of the file projected
  DataFileRef mixed;                                  // all three
  mixed.field_ids = {0, 1, 2};
  CHECK(projected_share(schema, {0, 1}, mixed) == 0.0);  // the skipped text column's bytes are unknown
  CHECK(projected_share(schema, {1, 2}, mixed) == Approx(12288.0 / (12288 + 64)));  // text counts 0: a lower bound
  CHECK(projected_share(schema, {0, 1, 2}, mixed) == 1.0);
}

TEST_CASE("read cost: ascending_run stops at a descent and at the fragment's end", "[read_cost]") {
  const std::vector<uint64_t> rows{3, 5, 5, 9, 2, 4};
  CHECK(ascending_run(rows, 100) == 4);  // 9 -> 2 descends
  CHECK(ascending_run(rows, 9) == 3);    // 9 is past the end
  CHECK(ascending_run(rows, 3) == 0);    // the first row already is
  CHECK(ascending_run(std::vector<uint64_t>{}, 10) == 0);
  CHECK(ascending_run(std::vector<uint64_t>{7}, 10) == 1);
}

TEST_CASE("read cost: scan_batch_rows caps a batch by its file bytes, at least a row", "[read_cost]") {
  using lance::dataset::scan_batch_rows;
  CHECK(scan_batch_rows(8192, 30, 4 << 20) == 8192);   // small rows: the batch size
  CHECK(scan_batch_rows(8192, 6600, 4 << 20) == 635);  // large rows: the byte budget
  CHECK(scan_batch_rows(8192, 10e6, 4 << 20) == 1);    // a row above the budget
  CHECK(scan_batch_rows(8192, 0, 4 << 20) == 8192);    // size unknown
  CHECK(scan_batch_rows(8192, 6600, 0) == 8192);       // no budget
  CHECK(scan_batch_rows(100, 6600, uint64_t{1} << 40) == 100);
}

TEST_CASE("read cost: take_groups splits by distinct rows' bytes, repeats stay together", "[read_cost]") {
  const std::vector<uint64_t> rows{1, 2, 2, 2, 5, 8, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};  // 13 distinct
  // 1000 bytes a row, 2000 a group: two distinct rows per group.
  CHECK(take_groups(rows, 1000, 2000) == std::vector<size_t>{4, 3, 2, 2, 2, 2, 1});
  CHECK(take_groups(rows, 1000, 1) == std::vector<size_t>{1, 3, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1});  // a row each
  CHECK(take_groups(rows, 0, 2000) == std::vector<size_t>{16});                                     // size unknown
  CHECK(take_groups(rows, 1000, 0) == std::vector<size_t>{16});                                     // grouping off
  CHECK(take_groups(rows, 1000, 1 << 20) == std::vector<size_t>{16});
  // 13,000 bytes within four budgets of 3,250: one group, not four.
  CHECK(take_groups(rows, 1000, 3250) == std::vector<size_t>{16});
  CHECK(take_groups(rows, 1000, 3249).size() == 5);
  CHECK(take_groups(std::vector<uint64_t>{}, 1000, 2000).empty());
}

TEST_CASE("read_ahead_hint_for_take: sparse rows only, counted once", "[read_cost]") {
  using lance::dataset::read_ahead_hint_for_take;
  const std::vector<uint64_t> none;
  CHECK(read_ahead_hint_for_take(none).sparse_rows == 0);
  // A contiguous run (in any order, with repeats) is not sparse.
  const std::vector<uint64_t> run = {105, 100, 101, 102, 103, 104, 104};
  CHECK(read_ahead_hint_for_take(run).sparse_rows == 0);
  // Over twice as many row numbers as rows: sparse; repeats count once.
  const std::vector<uint64_t> spread = {0, 50, 50, 100, 7};
  CHECK(read_ahead_hint_for_take(spread).sparse_rows == 4);
  const std::vector<uint64_t> edge = {0, 3, 4, 7};  // span 8, 4 rows: not more than twice
  CHECK(read_ahead_hint_for_take(edge).sparse_rows == 0);
  CHECK_FALSE(read_ahead_hint_for_take(spread).whole_files);
}
