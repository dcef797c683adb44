// A filter's string columns keep their pages' dictionaries (read::ReaderOptions::
// keep_dictionaries): the reader hands out Arrow dictionary arrays, and the evaluator compares
// each dictionary entry once. Pinned here on Lance's own dictionary-encoded pages: the arrays
// name the values Lance's reader returns, and `--filter` keeps exactly the golden rows whose
// value satisfies the predicate (worked out here from data/golden, the rows Lance read).
#include <catch2/catch.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "array/take.h"
#include "cli_runner.h"
#include "dataset/table_reader.h"
#include "expr/bind.h"
#include "expr/eval.h"
#include "fixtures.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using Json = nlohmann::json;

namespace {

/// A table with a string column Lance stored in dictionary-encoded mini-block pages.
struct DictCase {
  std::string path;    ///< relative to the checkout
  std::string golden;  ///< its scan golden (data/golden/*.jsonl), relative to the checkout
  std::string column;
};

const std::vector<DictCase>& dict_cases() {
  static const std::vector<DictCase> cases = {
      // two fragments, one dictionary page each, nulls and deletions
      {"data/datasets/dictionary", "data/golden/ds_dictionary.jsonl", "cat"},
      // several dictionary pages in one file: a batch can span two of them
      {"data/fixtures/multipage-v2.1.lance", "data/golden/multipage.jsonl", "cat"},
      {"data/fixtures/multipage-v2.2.lance", "data/golden/multipage.jsonl", "cat"},
      {"data/fixtures/multipage-v2.3.lance", "data/golden/multipage.jsonl", "cat"},
      // nullable, dictionaries compressed with LZ4 and zstd
      {"data/fixtures/enc_dict-v2.2.lance", "data/golden/enc_dict.jsonl", "s"},
      {"data/fixtures/enc_dict-v2.2.lance", "data/golden/enc_dict.jsonl", "s_zstd9"},
  };
  return cases;
}

/// The column's value in each golden row (nullopt: null).
std::vector<std::optional<std::string>> golden_values(const DictCase& c) {
  std::vector<std::optional<std::string>> out;
  for (const std::string& line : lance::testing::lines(read_text(source_path(c.golden)))) {
    const Json row = Json::parse(line);
    const Json& v = row.at(c.column);
    out.push_back(v.is_null() ? std::nullopt : std::optional<std::string>(v.get<std::string>()));
  }
  return out;
}

std::string sql_string(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("''") : std::string(1, ch);
  return out + "'";
}

std::string text_at(const lance::ArrayData& a, int64_t i) {
  const auto* off = a.values<int32_t>(0);
  return {reinterpret_cast<const char*>(a.buffers[1]->data()) + off[i], static_cast<size_t>(off[i + 1] - off[i])};
}

}  // namespace

TEST_CASE("filter dictionaries: a reader keeping dictionaries names the values of the plain read", "[filter]") {
  for (const DictCase& c : dict_cases()) {
    INFO(c.path << " " << c.column);
    lance::dataset::TableOptions options;
    options.columns = {c.column};
    auto plain = lance::dataset::open_table(source_path(c.path), options);
    auto keeping = plain->with_columns_keeping_dictionaries({c.column});
    std::vector<std::optional<std::string>> want, got;
    plain->scan(0, plain->num_rows(), 100, [&](lance::RecordBatch b) {
      const auto& a = *b.columns.at(0);
      REQUIRE(a.type->id == lance::TypeId::utf8);
      for (int64_t i = 0; i < a.length; ++i)
        want.push_back(a.is_valid(i) ? std::optional<std::string>(text_at(a, i)) : std::nullopt);
    });
    size_t dictionary_batches = 0;
    keeping->scan(0, keeping->num_rows(), 100, [&](lance::RecordBatch b) {
      lance::ArrayPtr a = b.columns.at(0);
      if (a->type->id == lance::TypeId::dictionary) {
        ++dictionary_batches;
        CHECK(a->type->value_type->id == lance::TypeId::utf8);
        a = lance::dictionary_values(a);
      }
      REQUIRE(a->type->id == lance::TypeId::utf8);
      for (int64_t i = 0; i < a->length; ++i)
        got.push_back(a->is_valid(i) ? std::optional<std::string>(text_at(*a, i)) : std::nullopt);
    });
    CHECK(dictionary_batches > 0);
    CHECK(got == want);
    CHECK(want == golden_values(c));
  }
}

TEST_CASE("filter dictionaries: --filter on a dictionary-encoded column keeps the golden rows that match", "[filter]") {
  using Pred = std::function<bool(const std::optional<std::string>&)>;
  for (const DictCase& c : dict_cases()) {
    const auto values = golden_values(c);
    const auto rows = lance::testing::lines(read_text(source_path(c.golden)));
    REQUIRE(values.size() == rows.size());
    // A value present, and one absent from the table.
    std::string v;
    for (const auto& x : values)
      if (x && !x->empty()) v = *x;
    REQUIRE(!v.empty());
    const std::string& col = c.column;
    const std::vector<std::pair<std::string, Pred>> preds = {
        {col + " = " + sql_string(v), [&](const auto& x) { return x && *x == v; }},
        {sql_string(v) + " = " + col, [&](const auto& x) { return x && *x == v; }},
        {col + " != " + sql_string(v), [&](const auto& x) { return x && *x != v; }},
        {col + " < " + sql_string(v), [&](const auto& x) { return x && *x < v; }},
        {col + " >= " + sql_string(v), [&](const auto& x) { return x && *x >= v; }},
        {col + " = 'no such value'", [](const auto&) { return false; }},
        {col + " IS NULL", [](const auto& x) { return !x; }},
        {col + " IS NOT NULL", [](const auto& x) { return x.has_value(); }},
        {col + " IN (" + sql_string(v) + ", '')", [&](const auto& x) { return x && (*x == v || x->empty()); }},
        {"NOT (" + col + " = " + sql_string(v) + ")", [&](const auto& x) { return x && *x != v; }},
        {col + " = " + sql_string(v) + " OR " + col + " IS NULL", [&](const auto& x) { return !x || *x == v; }},
        {col + " LIKE " + sql_string(v.substr(0, 1) + "%"), [&](const auto& x) { return x && x->rfind(v[0], 0) == 0; }},
    };
    for (const auto& [expr, pred] : preds) {
      INFO(c.path << ": " << expr);
      std::string want;
      uint64_t count = 0;
      for (size_t i = 0; i < rows.size(); ++i)
        if (pred(values[i])) want += rows[i] + "\n", ++count;
      const auto r = run_cli({"scan", source_path(c.path), "--filter", expr, "-f", "jsonl"});
      REQUIRE(r.exit_code == 0);
      CHECK(r.out == want);
      CHECK(run_cli({"count", source_path(c.path), "--filter", expr}).out == std::to_string(count) + "\n");
    }
  }
}

TEST_CASE("filter dictionaries: an index outside the dictionary is a corrupt-data error, not a read past it",
          "[filter]") {
  // A dictionary array whose row 1 names entry 3 of a dictionary of 2.
  auto dict = std::make_shared<lance::ArrayData>();
  dict->type = lance::make_type(lance::TypeId::utf8);
  dict->length = 2;
  const int32_t offsets[] = {0, 1, 2};
  dict->buffers = {std::make_shared<lance::Bytes>(reinterpret_cast<const uint8_t*>(offsets),
                                                  reinterpret_cast<const uint8_t*>(offsets) + sizeof(offsets)),
                   std::make_shared<lance::Bytes>(std::vector<uint8_t>{'a', 'b'})};
  auto a = std::make_shared<lance::ArrayData>();
  a->type = lance::make_dictionary(lance::make_type(lance::TypeId::uint8), dict->type);
  a->length = 2;
  a->buffers = {std::make_shared<lance::Bytes>(std::vector<uint8_t>{1, 3})};
  a->dictionary = dict;
  lance::RecordBatch batch{{std::make_shared<lance::Field>(lance::Field{"s", dict->type, true, -1, {}})}, {a}, 2};
  const auto schema = batch.fields;
  for (const std::string expr : {"s = 'b'", "s LIKE 'b%'"}) {
    INFO(expr);
    const auto filter = lance::expr::compile_filter(expr, schema);
    CHECK_THROWS_WITH(lance::expr::evaluate_filter(filter, batch), Catch::Contains("dictionary index 3 of 2 items"));
  }
  CHECK_THROWS_WITH(lance::dictionary_values(a), Catch::Contains("dictionary index 3 of 2 items"));
}
