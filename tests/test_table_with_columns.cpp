// TableReader::with_columns: a second reader of the same table for other columns (a filter's,
// a vector search's), sharing the opened manifest and data files instead of reading them again.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli_runner.h"
#include "common/error.h"
#include "dataset/dataset.h"
#include "dataset/fragment_select.h"
#include "dataset/table_reader.h"
#include "fixtures.h"
#include "output/value_text.h"

using lance::testing::source_path;

namespace {

/// Every cell of `table`'s rows as JSON text, column by column.
std::vector<std::string> cells(lance::dataset::TableReader& table) {
  std::vector<std::string> out(table.fields().size());
  table.scan(0, table.num_rows(), 1000, [&](const lance::RecordBatch& b) {
    for (size_t c = 0; c < b.columns.size(); ++c)
      for (int64_t i = 0; i < b.num_rows; ++i) {
        lance::output::append_json_value(out[c], *b.columns[c], i);
        out[c] += '\n';
      }
  });
  return out;
}

std::unique_ptr<lance::dataset::TableReader> open(const std::string& path, std::vector<std::string> columns = {}) {
  lance::dataset::TableOptions opts;
  opts.columns = std::move(columns);
  return lance::dataset::open_table(path, opts);
}

}  // namespace

TEST_CASE("with_columns: the same rows as a fresh open of those columns", "[dataset][with_columns]") {
  // A dataset of several fragments with deletions, and a single data file.
  for (const char* rel : {"data/datasets/appends", "data/fixtures/multipage-v2.1.lance"}) {
    DYNAMIC_SECTION(rel) {
      const std::string path = source_path(rel);
      auto all = open(path);
      REQUIRE(all->fields().size() >= 2);
      const std::string last = all->fields().back()->name, first = all->fields().front()->name;
      auto narrowed = all->with_columns({last, first});
      REQUIRE(narrowed->fields().size() == 2);
      CHECK(narrowed->fields()[0]->name == last);
      CHECK(narrowed->fields()[1]->name == first);
      CHECK(narrowed->num_rows() == all->num_rows());
      auto fresh = open(path, {last, first});
      CHECK(cells(*narrowed) == cells(*fresh));
      // Empty: every column again.
      CHECK(all->with_columns({})->fields().size() == all->fields().size());
    }
  }
}

TEST_CASE("with_columns: an unknown column is a usage error naming the input", "[dataset][with_columns]") {
  auto t = open(source_path("data/datasets/appends"));
  try {
    t->with_columns({"no_such_column"});
    FAIL("no error");
  } catch (const lance::Error& e) {
    CHECK(e.kind() == lance::ErrorKind::usage);
    CHECK_THAT(std::string(e.what()), Catch::Contains("no_such_column") && Catch::Contains("appends"));
  }
}

TEST_CASE("dataset: a data file opened once is handed out again", "[dataset][with_columns]") {
  auto ds = lance::dataset::Dataset::open(source_path("data/datasets/appends"));
  REQUIRE(ds->fragments().size() >= 2);
  const auto& a = ds->fragments()[0].files.at(0);
  const auto& b = ds->fragments()[1].files.at(0);
  const auto first = ds->open_data_file(a);
  CHECK(ds->open_data_file(a) == first);
  CHECK(ds->open_data_file(b) != first);
  // A fragment selection of the dataset shares its open files.
  const std::vector<lance::dataset::IdRange> only{
      lance::dataset::IdRange{ds->fragments()[0].id, ds->fragments()[0].id}};
  CHECK(ds->select_fragments(only)->open_data_file(a) == first);
}
