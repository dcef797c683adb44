// `inspect columns`: bytes on disk per column (against inspect pages and meta), and with
// --decode the values, nulls, min and max (against the same numbers taken from the rows of
// Lance's own reading, the goldens in data/golden).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "fixtures.h"
#include "inspect/value_stats.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using Json = nlohmann::json;

namespace {

Json columns_json(std::vector<std::string> args) {
  args.insert(args.begin(), {"inspect", "columns"});
  args.push_back("--json");
  auto r = run_cli(args);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return Json::parse(r.out);
}

const Json& column(const Json& report, const std::string& path) {
  for (const auto& c : report.at("columns"))
    if (c.at("path") == path) return c;
  FAIL("no column " << path);
  static const Json none;
  return none;
}

/// What the rows of a golden say about one field path ("a", "s.b", "l.item").
struct Expected {
  uint64_t values = 0, nulls = 0;
  std::optional<Json> min, max;
};

void visit(const Json& v, const std::string& path, std::map<std::string, Expected>& out) {
  Expected& e = out[path];
  e.values += 1;
  if (v.is_null()) {
    e.nulls += 1;
    return;
  }
  if (v.is_object()) {
    for (const auto& [k, child] : v.items()) visit(child, path + "." + k, out);
    return;
  }
  if (v.is_array()) {
    for (const auto& item : v) visit(item, path + ".item", out);
    return;
  }
  auto less = [](const Json& a, const Json& b) {
    if (a.is_string()) return a.get<std::string>() < b.get<std::string>();
    if (a.is_boolean()) return a.get<bool>() < b.get<bool>();
    return a.get<double>() < b.get<double>();
  };
  if (!e.min || less(v, *e.min)) e.min = v;
  if (!e.max || less(*e.max, v)) e.max = v;
}

std::map<std::string, Expected> expected_from_golden(const std::string& jsonl) {
  std::map<std::string, Expected> out;
  for (const auto& line : lance::testing::lines(read_text(source_path(jsonl)))) {
    const Json row = Json::parse(line);
    for (const auto& [k, v] : row.items()) visit(v, k, out);
  }
  return out;
}

/// Our min/max text against the golden's JSON value (numbers compared as numbers).
void check_extreme(const Json& ours, const std::optional<Json>& want) {
  REQUIRE(want);
  REQUIRE(ours.is_string());
  if (want->is_string())
    CHECK(ours.get<std::string>() == want->get<std::string>());
  else if (want->is_boolean())
    CHECK(ours.get<std::string>() == (want->get<bool>() ? "true" : "false"));
  else
    CHECK(std::stod(ours.get<std::string>()) == Approx(want->get<double>()));
}

void check_decoded_against_golden(const Json& report, const std::string& golden,
                                  const std::vector<std::string>& paths) {
  const auto want = expected_from_golden(golden);
  for (const auto& path : paths) {
    INFO(path);
    const Json& c = column(report, path);
    const Expected& e = want.at(path);
    CHECK(c.at("values") == e.values);
    CHECK(c.at("null_count") == e.nulls);
    if (e.min) {
      check_extreme(c.at("min"), e.min);
      check_extreme(c.at("max"), e.max);
    }
  }
}

}  // namespace

TEST_CASE("inspect columns: a file's bytes per column are its pages' bytes", "[inspect][columns]") {
  const auto file = source_path("data/sample/products.lance");
  const Json report = columns_json({file});
  const auto pages = Json::parse(run_cli({"inspect", "pages", file, "--json"}).out);
  const auto meta = Json::parse(run_cli({"inspect", "meta", file, "--json"}).out);
  CHECK(report.at("kind") == "file");
  CHECK(report.at("data_files") == 1);
  CHECK(report.at("data_bytes") == std::filesystem::file_size(file));
  CHECK(report.at("decoded") == false);
  REQUIRE(report.at("columns").size() == pages.at("columns").size());
  uint64_t sum = 0;
  for (size_t i = 0; i < pages.at("columns").size(); ++i) {
    const auto& p = pages.at("columns")[i];
    const auto& c = report.at("columns")[i];
    CHECK(c.at("path") == p.at("path"));
    CHECK(c.at("bytes") == p.at("bytes"));
    CHECK(c.at("pages") == p.at("num_pages"));
    CHECK(c.at("layouts") == Json::array({"mini-block"}));
    CHECK(!c.at("encodings").empty());
    CHECK(!c.contains("min"));
    sum += c.at("bytes").get<uint64_t>();
  }
  CHECK(sum ==
        meta.at("bytes").at("page_buffers").get<uint64_t>() + meta.at("bytes").at("column_buffers").get<uint64_t>());
}

TEST_CASE("inspect columns --decode: values, nulls, min and max as Lance's rows have them", "[inspect][columns]") {
  SECTION("2.2 file") {
    const Json r = columns_json({source_path("data/sample/products.lance"), "--decode"});
    CHECK(r.at("decoded") == true);
    check_decoded_against_golden(r, "data/golden/sample-products.jsonl",
                                 {"id", "name", "category", "price", "in_stock"});
    // int64 ids: 8 bytes a value, no validity
    CHECK(column(r, "id").at("decoded_bytes") == 2000 * 8);
    CHECK(column(r, "created").at("min").get<std::string>().rfind("2023-01-01T", 0) == 0);
  }
  SECTION("2.1 dataset of three fragments with deletions, a list column") {
    const Json r = columns_json({source_path("data/datasets/appends"), "--decode"});
    CHECK(r.at("kind") == "dataset");
    CHECK(r.at("data_files") == 3);
    CHECK(column(r, "id").at("files") == 3);
    check_decoded_against_golden(r, "data/golden/ds_appends.jsonl", {"id", "name", "score", "tags.item"});
  }
  SECTION("2.0 file: struct and list nodes are columns too") {
    const Json r = columns_json({source_path("data/fixtures/v20_nested_multipage-v2.0.lance"), "--decode"});
    CHECK(column(r, "l").at("layouts") == Json::array({"array-encoding"}));
    check_decoded_against_golden(r, "data/golden/v20_nested_multipage.jsonl", {"l", "l.item", "s.a", "s.b", "pad"});
  }
  SECTION("legacy v1 dataset: fixed-width pages are length x width") {
    const Json r = columns_json({source_path("data/writers/l0_10_nested"), "--decode"});
    CHECK(r.at("format_version").get<std::string>().rfind("legacy v1", 0) == 0);
    CHECK(column(r, "id").at("bytes") == 1100 * 4);
    CHECK(column(r, "v").at("bytes") == 1100 * 4 * 4);
    check_decoded_against_golden(r, "data/golden/w_l0_10_nested.jsonl", {"id", "l.item", "l_s.item", "s.a", "s.b"});
  }
}

TEST_CASE("inspect columns: -c selects columns, errors are usage errors", "[inspect][columns]") {
  const auto file = source_path("data/fixtures/v20_nested_multipage-v2.0.lance");
  const Json r = columns_json({file, "-c", "s"});
  REQUIRE(r.at("columns").size() == 3);  // s, s.a, s.b
  CHECK(r.at("columns")[1].at("path") == "s.a");
  const Json d = columns_json({file, "-c", "s.b", "--decode"});
  REQUIRE(d.at("columns").size() == 1);
  CHECK(d.at("columns")[0].contains("null_count"));
  auto bad = run_cli({"inspect", "columns", file, "-c", "nosuch"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("nosuch") != std::string::npos);
  CHECK(run_cli({"inspect", "columns", file, "--version", "1"}).exit_code == 2);
  auto text = run_cli({"inspect", "columns", file, "--decode"});
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("nulls") != std::string::npos);
  CHECK(text.out.find("s.b") != std::string::npos);
}

TEST_CASE("value stats: min and max per type across batches, NaN and nulls left out", "[inspect][columns]") {
  using namespace lance;
  auto f64 = make_type(TypeId::float64);
  auto batch_of = [&](std::vector<double> v, std::vector<uint8_t> valid) {
    auto a = std::make_shared<ArrayData>();
    a->type = f64;
    a->length = static_cast<int64_t>(v.size());
    a->buffers = {std::make_shared<Bytes>(reinterpret_cast<const uint8_t*>(v.data()),
                                          reinterpret_cast<const uint8_t*>(v.data() + v.size()))};
    a->validity = make_validity(valid, &a->null_count);
    auto fld = std::make_shared<Field>();
    fld->name = "x";
    fld->type = f64;
    fld->id = 3;
    return RecordBatch{{fld}, {a}, a->length};
  };
  inspect::ValueStats stats;
  stats.add(batch_of({2.5, NAN, -1.0, 100.0}, {1, 1, 1, 0}));  // 100 is null
  stats.add(batch_of({7.0, -3.5}, {1, 1}));
  const auto* x = stats.find(inspect::ValueStats::key(3, "x"));
  REQUIRE(x);
  CHECK(x->values == 6);
  CHECK(x->nulls == 1);
  REQUIRE(x->min);
  REQUIRE(x->max);
  CHECK(x->min->values<double>()[0] == -3.5);
  CHECK(x->max->values<double>()[0] == 7.0);
  // every value NaN or null: no min or max
  inspect::ValueStats none;
  none.add(batch_of({NAN, 1.0}, {1, 0}));
  CHECK(!none.find("#3")->min);
}
