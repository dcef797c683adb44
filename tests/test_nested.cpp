// Nested data (issue 3): the nested2_* fixtures (scripts/fixtures/nested_more.mjs) really
// hold the layouts and layer kinds they are meant to cover (their scans are compared with
// Lance's reading by test_scan_golden / test_take_golden); null structs print null;
// dotted-path projection of nested sub-fields; large_list offsets from hand-built levels.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <sstream>

#include "cli_runner.h"
#include "encodings_v2_1.pb.h"
#include "fixtures.h"
#include "format/file_reader.h"
#include "read/row_reader.h"
#include "structural/assemble.h"
#include "structural/miniblock.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using nlohmann::json;
namespace pb = ::lance::encodings21;

namespace {

using NestedFixture = lance::testing::FileFixture;

/// The data-file fixtures of generator table `table`, every format version.
std::vector<NestedFixture> fixtures_of(const std::string& table) {
  std::vector<NestedFixture> out;
  for (const auto& fx : lance::testing::file_fixtures())
    if (fx.table == table) out.push_back(fx);
  return out;
}

using lance::testing::lines;

std::vector<json> golden_rows(const NestedFixture& fx) {
  std::vector<json> out;
  for (const auto& l : lines(lance::testing::golden_text(fx, "jsonl"))) out.push_back(json::parse(l));
  return out;
}

// ---------------------------------------------------------------------------------------
// What Lance wrote: page layouts and rep/def layers per leaf column
// ---------------------------------------------------------------------------------------

struct PageFacts {
  std::string layout;                   // "mini-block", "full-zip", "constant", ...
  std::vector<pb::RepDefLayer> layers;  // innermost first
  uint32_t repetition_index_depth = 0;  // mini-block
  uint32_t bits_rep = 0;                // full-zip
};

template <typename Repeated>
std::vector<pb::RepDefLayer> layers_of(const Repeated& r) {
  std::vector<pb::RepDefLayer> out;
  for (int l : r) out.push_back(static_cast<pb::RepDefLayer>(l));
  return out;
}

PageFacts facts_of(const pb::PageLayout& l) {
  PageFacts f;
  switch (l.layout_case()) {
    case pb::PageLayout::kMiniBlockLayout:
      f.layout = "mini-block";
      f.layers = layers_of(l.mini_block_layout().layers());
      f.repetition_index_depth = l.mini_block_layout().repetition_index_depth();
      break;
    case pb::PageLayout::kFullZipLayout:
      f.layout = "full-zip";
      f.layers = layers_of(l.full_zip_layout().layers());
      f.bits_rep = l.full_zip_layout().bits_rep();
      break;
    case pb::PageLayout::kConstantLayout:
      f.layout = "constant";
      f.layers = layers_of(l.constant_layout().layers());
      break;
    default:
      f.layout = "other";
      break;
  }
  return f;
}

/// Pages of every leaf column of top-level field `field`: [leaf][page].
std::vector<std::vector<PageFacts>> pages_of(const lance::format::FileReader& file, const std::string& field) {
  const auto& fields = file.schema().fields;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name != field) continue;
    std::vector<std::vector<PageFacts>> out;
    for (uint32_t col : file.field_columns().at(i)) {
      out.emplace_back();
      for (const auto& page : file.columns().at(col).pages) out.back().push_back(facts_of(*page.layout));
    }
    return out;
  }
  FAIL("no field " << field);
  return {};
}

std::shared_ptr<lance::format::FileReader> open_file(const std::string& path) {
  return lance::format::FileReader::open(path);
}

}  // namespace

TEST_CASE("nested2_layers: every repetition/definition layer kind is written", "[nested]") {
  auto fxs = fixtures_of("nested2_layers");
  REQUIRE(fxs.size() == 3);
  // column -> the layers (innermost first) Lance must have chosen for it
  const std::map<std::string, std::vector<pb::RepDefLayer>> want = {
      {"all_valid", {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_ALL_VALID_LIST}},
      {"all_valid_nullable_field", {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_ALL_VALID_LIST}},
      {"null_items", {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_ALL_VALID_LIST}},
      {"null_lists", {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULLABLE_LIST}},
      {"empty_lists", {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_EMPTYABLE_LIST}},
      {"empty_lists_null_items", {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_EMPTYABLE_LIST}},
      {"null_lists_null_items", {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULLABLE_LIST}},
      {"null_and_empty", {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST}},
      {"null_and_empty_null_items", {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST}},
      {"s_all_valid", {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_ALL_VALID_LIST}},
      {"s_null_items", {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_ALL_VALID_LIST}},
      {"s_null_lists", {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULLABLE_LIST}},
      {"s_empty_lists", {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_EMPTYABLE_LIST}},
      {"s_null_and_empty", {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST}},
  };
  for (const auto& fx : fxs) {
    auto file = open_file(fx.file);
    for (const auto& [column, layers] : want) {
      DYNAMIC_SECTION(fx.name << " " << column) {
        auto pages = pages_of(*file, column);
        REQUIRE(pages.size() == 1);
        for (const auto& p : pages[0]) {
          INFO("layout " << p.layout);
          CHECK(p.layers == layers);
        }
      }
    }
  }
}

TEST_CASE("nested2 fixtures use the page layouts they are meant to cover", "[nested]") {
  struct Want {
    std::string table, column;
    std::string layout;      // of every page of every leaf
    bool repetition = true;  // full-zip: bits_rep > 0; mini-block: a repetition index
    size_t min_pages = 1;
  };
  const std::vector<Want> wants = {
      {"nested2_fullzip", "l_long_str", "full-zip"},
      {"nested2_fullzip", "l_str_fz", "full-zip"},
      {"nested2_fullzip", "l_bin_fz", "full-zip"},
      {"nested2_fullzip", "l_i32_fz", "full-zip"},
      {"nested2_fullzip", "l_i64_fz_valid", "full-zip"},
      {"nested2_fullzip", "ll_str_fz", "full-zip"},
      {"nested2_fullzip", "l_f64_fz_long", "full-zip"},
      {"nested2_fsl", "v3", "mini-block", false},
      {"nested2_fsl", "v768", "full-zip", false},
      {"nested2_fsl", "v128_miniblock", "mini-block", false},
      {"nested2_fsl", "v3_fullzip", "full-zip", false},
      {"nested2_fsl", "l_fsl4", "mini-block"},
      {"nested2_fsl", "l_fsl4_fullzip", "full-zip"},
      {"nested2_fsl", "l_fsl128", "full-zip"},
      {"nested2_long_lists", "l_i32", "mini-block", true, 2},
      {"nested2_long_lists", "ll_i32", "mini-block", true, 2},
      {"nested2_multipage", "l_utf8", "mini-block", true, 3},
      {"nested2_multipage", "ll_i32", "mini-block", true, 3},
      {"nested2_multipage", "l_fz", "full-zip", true, 3},
  };
  for (const auto& w : wants) {
    for (const auto& fx : fixtures_of(w.table)) {
      DYNAMIC_SECTION(fx.name << " " << w.column) {
        auto file = open_file(fx.file);
        for (const auto& leaf : pages_of(*file, w.column)) {
          CHECK(leaf.size() >= w.min_pages);
          for (const auto& p : leaf) {
            CHECK(p.layout == w.layout);
            if (p.layout == "full-zip") CHECK((p.bits_rep > 0) == w.repetition);
            if (p.layout == "mini-block") CHECK((p.repetition_index_depth > 0) == w.repetition);
          }
        }
      }
    }
  }
}

TEST_CASE("nested2_long_lists: long rows span several mini-block chunks", "[nested]") {
  for (const auto& fx : fixtures_of("nested2_long_lists")) {
    DYNAMIC_SECTION(fx.name) {
      auto file = open_file(fx.file);
      const auto& fields = file->schema().fields;
      size_t spanning = 0;  // chunks where no row starts: wholly inside one long row
      for (size_t i = 0; i < fields.size(); ++i) {
        for (uint32_t col : file->field_columns().at(i)) {
          for (const auto& page : file->columns().at(col).pages) {
            if (!page.layout->has_mini_block_layout()) continue;
            const auto& mb = page.layout->mini_block_layout();
            REQUIRE(mb.repetition_index_depth() > 0);
            lance::Bytes meta = file->io().read_range(page.buffers.at(0));
            lance::Bytes index = file->io().read_range(page.buffers.at(2 + mb.has_dictionary()));
            auto chunks = lance::structural::parse_miniblock_chunks(meta, mb.has_large_chunk(), mb.num_items(),
                                                                    page.buffers.at(1).length, index,
                                                                    mb.repetition_index_depth(), page.num_rows);
            for (const auto& c : chunks) spanning += c.num_starts == 0;
          }
        }
      }
      INFO("chunks wholly inside a row: " << spanning);
      CHECK(spanning >= 3);
    }
  }
}

// ---------------------------------------------------------------------------------------
// large_list
// ---------------------------------------------------------------------------------------

TEST_CASE("nested2_large_list: Lance's large_list columns read with 64-bit offsets", "[nested]") {
  auto fxs = fixtures_of("nested2_large_list");
  REQUIRE(fxs.size() == 3);
  for (const auto& fx : fxs) {
    DYNAMIC_SECTION(fx.name) {
      auto file = open_file(fx.file);
      lance::read::FileRowReader reader(file, lance::read::resolve_column_paths(file->schema(), {}));
      auto batch = reader.read_range(0, reader.num_rows());
      REQUIRE(batch.columns.size() == 3);
      for (const auto& c : batch.columns) {
        CHECK(c->type->id == lance::TypeId::large_list);
        REQUIRE(c->buffers.size() == 1);
        CHECK(c->buffers[0]->size() == (static_cast<size_t>(c->length) + 1) * 8);
      }
    }
  }
}

TEST_CASE("assemble: large_list offsets from hand-built levels", "[nested]") {
  using namespace lance;
  // large_list<int32>: [1, 2]  null  [null, 5]  []   (the worked example of repdef.h)
  auto item = std::make_shared<Field>(Field{"item", make_type(TypeId::int32), true, 2, {}});
  auto list = std::make_shared<Field>(Field{"ll", make_list(TypeId::large_list, item), true, 1, {}});
  format::LanceField lf;
  lf.id = 1;
  lf.name = "ll";
  lf.logical_type = "large_list";
  lf.arrow = list;
  format::LanceField li;
  li.id = 2;
  li.parent_id = 1;
  li.name = "item";
  li.logical_type = "int32";
  li.arrow = item;
  lf.children.push_back(li);

  structural::LeafData leaf;
  leaf.layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST};
  leaf.rep = {1, 0, 1, 1, 0, 1};
  leaf.def = {0, 0, 2, 1, 0, 3};
  leaf.num_rows = 4;
  leaf.values.num_values = 4;
  leaf.values.bits_per_value = 32;
  for (int32_t v : {1, 2, 0, 5}) append_le<int32_t>(leaf.values.data, v);
  std::vector<structural::LeafData> leaves;
  leaves.push_back(std::move(leaf));

  ArrayPtr a = structural::assemble_field(lf, leaves, 4);
  REQUIRE(a->type->id == TypeId::large_list);
  CHECK(a->length == 4);
  CHECK(a->null_count == 1);
  CHECK(a->is_valid(0));
  CHECK_FALSE(a->is_valid(1));
  REQUIRE(a->buffers.size() == 1);
  REQUIRE(a->buffers[0]->size() == 5 * 8);
  const int64_t* offsets = a->values<int64_t>(0);
  CHECK(std::vector<int64_t>(offsets, offsets + 5) == std::vector<int64_t>{0, 2, 2, 4, 4});
  REQUIRE(a->children.size() == 1);
  const auto& items = a->children[0];
  CHECK(items->length == 4);
  CHECK(items->null_count == 1);
  CHECK_FALSE(items->is_valid(2));
  CHECK(items->values<int32_t>(0)[3] == 5);
}

// ---------------------------------------------------------------------------------------
// Null structs
// ---------------------------------------------------------------------------------------

TEST_CASE("a null struct prints null in JSON and an empty cell in CSV/TSV", "[nested]") {
  for (const auto& fx : fixtures_of("nested2_structs")) {
    DYNAMIC_SECTION(fx.name) {
      // row 0 of s is null; row 1 a struct of nulls (not the same thing)
      auto j = run_cli({"scan", fx.file, "-c", "s", "-n", "2", "-f", "jsonl"});
      REQUIRE(j.exit_code == 0);
      CHECK(j.out == "{\"s\":null}\n{\"s\":{\"x\":null,\"inner\":null,\"flag\":null}}\n");
      auto c = run_cli({"scan", fx.file, "-c", "s", "-n", "2", "-f", "csv"});
      REQUIRE(c.exit_code == 0);
      CHECK(c.out == "s\n\n\"{\"\"x\"\":null,\"\"inner\"\":null,\"\"flag\"\":null}\"\n");
      auto t = run_cli({"scan", fx.file, "-c", "s", "-n", "2", "-f", "tsv"});
      REQUIRE(t.exit_code == 0);
      CHECK(t.out == "s\n\n{\"x\":null,\"inner\":null,\"flag\":null}\n");
      auto n = run_cli({"scan", fx.file, "-c", "s_all_null,s", "-n", "1", "-f", "csv", "--null", "NULL"});
      REQUIRE(n.exit_code == 0);
      CHECK(n.out == "s_all_null,s\nNULL,NULL\n");
      // an all-null struct column: every row null
      auto all = run_cli({"scan", fx.file, "-c", "s_all_null", "-f", "jsonl"});
      REQUIRE(all.exit_code == 0);
      auto got = lines(all.out);
      REQUIRE(got.size() == fx.num_rows);
      for (const auto& l : got) CHECK(l == "{\"s_all_null\":null}");
    }
  }
}

// ---------------------------------------------------------------------------------------
// Dotted-path projection
// ---------------------------------------------------------------------------------------

namespace {

/// The value at `path` (dot-separated keys) of `v`, null when any step is null.
json at_path(const json& v, const std::string& path) {
  json cur = v;
  size_t start = 0;
  while (start <= path.size()) {
    size_t dot = path.find('.', start);
    std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (cur.is_null()) return nullptr;
    cur = cur.at(key);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return cur;
}

void check_projection(const NestedFixture& fx, const std::vector<std::string>& cols,
                      std::vector<std::string> extra = {}, uint64_t offset = 0) {
  auto want = golden_rows(fx);
  std::string arg;
  for (const auto& c : cols) arg += (arg.empty() ? "" : ",") + c;
  std::vector<std::string> argv = {"scan", fx.file, "-c", arg, "-f", "jsonl"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto r = run_cli(argv);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto got = lines(r.out);
  REQUIRE(got.size() <= want.size() - offset);
  for (size_t i = 0; i < got.size(); ++i) {
    nlohmann::ordered_json order = nlohmann::ordered_json::parse(got[i]);  // keeps key order
    REQUIRE(order.size() == cols.size());
    size_t k = 0;
    for (auto it = order.begin(); it != order.end(); ++it, ++k) CHECK(it.key() == cols[k]);
    json g = json::parse(got[i]);
    for (const auto& c : cols) {
      INFO("row " << offset + i << " column " << c);
      CHECK(g.at(c) == at_path(want[offset + i], c));
    }
  }
}

}  // namespace

TEST_CASE("scan -c s.inner.y selects a nested sub-field", "[nested][projection]") {
  for (const auto& fx : fixtures_of("nested2_structs")) {
    DYNAMIC_SECTION(fx.name) {
      check_projection(fx, {"s.inner.y"});
      check_projection(fx, {"s.inner.z", "s.x", "s_ab.b", "s.inner", "s_ab"});
      check_projection(fx, {"s_l.tags", "s_null_children_and_rows.a", "s_valid.b"});
      check_projection(fx, {"s.inner.y", "s.flag"}, {"--offset", "150", "-n", "40"}, 150);
      // the header of CSV names the dotted path
      auto c = run_cli({"scan", fx.file, "-c", "s.inner.y", "-n", "1", "-f", "csv"});
      REQUIRE(c.exit_code == 0);
      CHECK(c.out == "s.inner.y\n\n");  // row 0: s is null
    }
  }
  for (const auto& table : {"nested_structs", "v20_nested_structs"}) {
    for (const auto& fx : fixtures_of(table)) {
      DYNAMIC_SECTION(fx.name) { check_projection(fx, {"deep.inner.x", "deep.id", "deep.inner.tags", "s.b"}); }
    }
  }
}

TEST_CASE("take with a dotted-path column", "[nested][projection]") {
  for (const auto& fx : fixtures_of("nested2_structs")) {
    DYNAMIC_SECTION(fx.name) {
      auto want = golden_rows(fx);
      auto r = run_cli({"take", fx.file, "--rows", "7,0,199,7,2", "-c", "s.inner.y,l_s", "-f", "jsonl"});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      auto got = lines(r.out);
      const std::vector<size_t> rows = {7, 0, 199, 7, 2};
      REQUIRE(got.size() == rows.size());
      for (size_t i = 0; i < rows.size(); ++i) {
        json g = json::parse(got[i]);
        CHECK(g["s.inner.y"] == at_path(want[rows[i]], "s.inner.y"));
        CHECK(g["l_s"] == want[rows[i]]["l_s"]);
      }
    }
  }
}

TEST_CASE("a dotted path reads only the leaf columns under it", "[nested][projection]") {
  auto fxs = fixtures_of("nested2_structs");
  REQUIRE(!fxs.empty());
  auto file = open_file(fxs.front().file);
  auto sel = lance::read::resolve_column_paths(file->schema(), {"s.inner.y"});
  REQUIRE(sel.size() == 1);
  CHECK(sel[0].path == std::vector<size_t>{1, 0});
  CHECK(sel[0].name == "s.inner.y");
  lance::read::FileRowReader reader(file, sel);
  REQUIRE(reader.fields().size() == 1);
  CHECK(reader.fields()[0]->name == "s.inner.y");
  CHECK(reader.fields()[0]->type->id == lance::TypeId::float64);
  auto batch = reader.read_range(0, reader.num_rows());
  REQUIRE(batch.columns.size() == 1);
  CHECK(batch.columns[0]->type->id == lance::TypeId::float64);
  CHECK(batch.columns[0]->length == static_cast<int64_t>(reader.num_rows()));
  CHECK_FALSE(batch.columns[0]->is_valid(0));  // s is null in row 0

  // Bytes read for the sub-field versus the whole struct (fresh files: no cached pages).
  auto bytes_for = [&](const std::string& column) {
    auto f = open_file(fxs.front().file);
    lance::read::FileRowReader r(f, lance::read::resolve_column_paths(f->schema(), {column}));
    const uint64_t before = f->io().stats().bytes_read;
    r.read_range(0, r.num_rows());
    return f->io().stats().bytes_read - before;
  };
  const uint64_t sub = bytes_for("s.inner.y"), whole = bytes_for("s"), z = bytes_for("s.inner.z");
  CHECK(sub > 0);
  CHECK(sub + z <= whole);
}

TEST_CASE("dotted paths that select nothing are usage errors", "[nested][projection]") {
  auto fxs = fixtures_of("nested2_structs");
  REQUIRE(!fxs.empty());
  const auto& f = fxs.front().file;
  auto r = run_cli({"scan", f, "-c", "s.inner.q"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("s.inner.q") != std::string::npos);
  CHECK(r.err.find("did you mean 's.inner.y'") != std::string::npos);
  auto l = run_cli({"scan", f, "-c", "l_s.a"});
  CHECK(l.exit_code == 2);
  CHECK(l.err.find("only select fields of structs") != std::string::npos);
  auto x = run_cli({"scan", f, "-c", "s.x.y"});
  CHECK(x.exit_code == 2);
}
