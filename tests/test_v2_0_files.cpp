// Format 2.0 files written by Lance 8.0 (fixtures v20_*, scripts/fixtures/v2_0.mjs): each
// really is a 2.0 file holding the encodings its fixture asks for (so a fixture that
// silently fell back to something else fails here); row ranges read only the pages they
// need; damaged files raise errors instead of crashing. (scan output versus Lance's reading
// is tests/test_scan_golden.cpp, which covers these fixtures too.)
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstring>
#include <random>
#include <set>

#include "cli_runner.h"
#include "encoding/v2_0/array_decoder.h"
#include "format/file_reader.h"
#include "io/file.h"
#include "read/field_reader.h"
#include "read/row_reader.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using nlohmann::json;
namespace v20 = lance::encoding::v2_0;

namespace {

std::string fixture(const std::string& name) { return source_path("data/fixtures/" + name + "-v2.0.lance"); }

std::shared_ptr<lance::format::FileReader> open(const std::string& name) {
  return lance::format::FileReader::open(fixture(name));
}

/// The columns of top-level field `name` (one per schema node, pre-order).
const std::vector<uint32_t>& columns_of(const lance::format::FileReader& f, const std::string& name) {
  const auto names = f.schema().names();
  auto it = std::find(names.begin(), names.end(), name);
  REQUIRE(it != names.end());
  return f.field_columns().at(static_cast<size_t>(it - names.begin()));
}

/// Descriptions of every page encoding of a column.
std::vector<std::string> encodings_of(const lance::format::FileReader& f, uint32_t column) {
  std::vector<std::string> out;
  for (const auto& p : f.columns().at(column).pages) {
    REQUIRE(p.array_encoding);
    out.push_back(v20::describe_array_encoding(*p.array_encoding));
  }
  return out;
}

bool any_contains(const std::vector<std::string>& list, const std::string& part) {
  return std::any_of(list.begin(), list.end(), [&](const std::string& s) { return s.find(part) != std::string::npos; });
}

std::vector<std::string> jsonl_lines(const std::string& s) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < s.size()) {
    size_t nl = s.find('\n', at);
    out.push_back(s.substr(at, nl - at));
    at = nl + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("every v20 fixture is a format 2.0 file", "[v2_0]") {
  json index = json::parse(read_text(source_path("data/fixtures/index.json")));
  int seen = 0;
  for (const auto& f : index["fixtures"]) {
    const std::string table = f["table"];
    if (table.rfind("v20_", 0) != 0) continue;
    ++seen;
    INFO(table);
    CHECK(f["version"] == "2.0");
    CHECK(f["footer_version"] == json::array({0, 3}));
    auto file = lance::format::FileReader::open(source_path("data/" + f["file"].get<std::string>()));
    CHECK(file->version().is_legacy_v2_0());
    CHECK(file->version().to_string() == "2.0");
  }
  CHECK(seen >= 15);
}

TEST_CASE("2.0 fixtures hold the encodings they were written for", "[v2_0]") {
  SECTION("zstd / lz4 string bytes, forced FSST") {
    auto f = open("v20_compression");
    CHECK(any_contains(encodings_of(*f, columns_of(*f, "s_zstd")[0]), "bytes: Flat(8, zstd)"));
    CHECK(any_contains(encodings_of(*f, columns_of(*f, "ls_zstd")[0]), "bytes: Flat(8, zstd)"));
    CHECK(any_contains(encodings_of(*f, columns_of(*f, "bin_zstd")[0]), "bytes: Flat(8, zstd)"));
    CHECK(any_contains(encodings_of(*f, columns_of(*f, "s_lz4")[0]), "bytes: Flat(8, lz4)"));
    CHECK(any_contains(encodings_of(*f, columns_of(*f, "s_fsst")[0]), "Fsst("));
    CHECK(any_contains(encodings_of(*f, columns_of(*f, "bin_fsst")[0]), "Fsst("));
  }
  SECTION("dictionaries: the writer's own (u8) and Arrow dictionary fields") {
    auto f = open("v20_dict");
    CHECK(any_contains(encodings_of(*f, columns_of(*f, "s_low")[0]), "Dictionary("));
    // An all-null string page: a dictionary whose indices are all 0 (null).
    CHECK(any_contains(encodings_of(*f, columns_of(*f, "s_null")[0]), "Dictionary("));
    CHECK(any_contains(encodings_of(*f, columns_of(*f, "d_i16")[0]), "Dictionary("));
    const auto& l = columns_of(*f, "l_low");
    REQUIRE(l.size() == 2);
    CHECK(any_contains(encodings_of(*f, l[0]), "List("));
    CHECK(any_contains(encodings_of(*f, l[1]), "Dictionary("));
    auto s = open("v20_strings");
    CHECK(any_contains(encodings_of(*s, columns_of(*s, "s_dict")[0]), "Dictionary("));
    CHECK(any_contains(encodings_of(*s, columns_of(*s, "s_mixed")[0]), "Binary("));
  }
  SECTION("packed structs are one column") {
    auto f = open("v20_packed");
    for (const char* name : {"p", "p_legacy_key"}) {
      const auto& cols = columns_of(*f, name);
      REQUIRE(cols.size() == 1);
      CHECK(any_contains(encodings_of(*f, cols[0]), "PackedStruct("));
    }
  }
  SECTION("blob columns are marked in the column encoding") {
    auto f = open("v20_blob");
    const uint32_t c = columns_of(*f, "blob")[0];
    CHECK(f->columns()[c].encoding.has_blob());
    CHECK(any_contains(encodings_of(*f, c), "PackedStruct("));
  }
  SECTION("structs: a header column, then the children; nulls in all forms") {
    auto f = open("v20_nested_structs");
    const auto& s = columns_of(*f, "s");
    REQUIRE(s.size() == 3);
    CHECK(encodings_of(*f, s[0]) == std::vector<std::string>{"SimpleStruct"});
    auto m = open("v20_misc");
    CHECK(any_contains(encodings_of(*m, columns_of(*m, "null_i32")[0]), "Nullable(all_nulls)"));
    CHECK(any_contains(encodings_of(*m, columns_of(*m, "b_null")[0]), "Nullable(some_nulls, Flat(1))"));
  }
  SECTION("many pages; list items paged apart from their offsets") {
    auto f = open("v20_pages");
    CHECK(f->columns()[columns_of(*f, "s")[0]].pages.size() >= 40);
    const auto& l = columns_of(*f, "l");
    CHECK(f->columns()[l[0]].pages.size() == 1);
    CHECK(f->columns()[l[1]].pages.size() >= 40);
    // Several offsets pages, each referencing items spread over several item pages.
    auto m = open("v20_list_pages");
    for (const char* name : {"l", "ll", "ls", "l_st"}) {
      INFO(name);
      const auto& ml = columns_of(*m, name);
      const auto& offsets = m->columns()[ml[0]].pages;
      const auto& items = m->columns()[ml.back()].pages;
      REQUIRE(offsets.size() >= 3);
      std::set<uint64_t> item_page_ends;
      uint64_t at = 0;
      for (const auto& p : items) item_page_ends.insert(at += p.num_rows);
      // Item page boundaries strictly inside an offsets page's item range.
      uint64_t referenced = 0;
      int inside = 0;
      for (const auto& p : offsets) {
        const uint64_t b = referenced;
        referenced += p.array_encoding->list().num_items();
        for (auto e : item_page_ends) inside += e > b && e < referenced;
      }
      if (std::string(name) != "ll") CHECK(inside >= 3);  // ll's items are the inner offsets column
      CHECK(items.size() > offsets.size());
    }
  }
}

TEST_CASE("2.0 row ranges read only the pages holding the rows", "[v2_0]") {
  auto file = open("v20_pages");
  const auto names = file->schema().names();
  const size_t l = static_cast<size_t>(std::find(names.begin(), names.end(), "l") - names.begin());
  const auto& cols = file->field_columns().at(l);
  uint64_t item_bytes = 0;
  for (const auto& p : file->columns()[cols[1]].pages)
    for (const auto& b : p.buffers) item_bytes += b.length;
  uint64_t offsets_bytes = 0;
  for (const auto& p : file->columns()[cols[0]].pages)
    for (const auto& b : p.buffers) offsets_bytes += b.length;

  auto whole = lance::read::make_field_reader(file, l)->read(0, file->num_rows());
  auto reader = lance::read::make_field_reader(file, l);
  const uint64_t before = file->io().stats().bytes_read;
  auto part = reader->read(500, 503);
  const uint64_t read = file->io().stats().bytes_read - before;
  INFO("read " << read << " bytes; item column " << item_bytes << ", offsets " << offsets_bytes);
  CHECK(read < offsets_bytes + item_bytes / 10);
  // Same values as the whole read.
  auto expect = lance::slice_array(whole, 500, 3);
  REQUIRE(part->length == 3);
  for (int64_t i = 0; i < 3; ++i) CHECK(part->is_valid(i) == expect->is_valid(i));
  const auto* po = part->values<int32_t>(0);
  const auto* eo = expect->values<int32_t>(0);
  for (int64_t i = 0; i <= 3; ++i) CHECK(po[i] == eo[i]);
  REQUIRE(part->children[0]->length == expect->children[0]->length);
  for (int64_t i = 0; i < part->children[0]->length; ++i) {
    CHECK(part->children[0]->is_valid(i) == expect->children[0]->is_valid(i));
    if (expect->children[0]->is_valid(i))
      CHECK(part->children[0]->values<int64_t>()[i] == expect->children[0]->values<int64_t>()[i]);
  }
}

TEST_CASE("2.0 take returns Lance's rows in the order asked", "[v2_0]") {
  for (const char* name : {"v20_pages", "v20_list_pages", "v20_nested_structs", "v20_dict", "v20_blob"}) {
    json index = json::parse(read_text(source_path("data/fixtures/index.json")));
    std::string golden;
    for (const auto& f : index["fixtures"])
      if (f["table"] == name) golden = source_path("data/" + f["golden_prefix"].get<std::string>() + ".jsonl");
    REQUIRE(!golden.empty());
    const auto want = jsonl_lines(read_text(golden));
    std::vector<uint64_t> rows;
    std::mt19937 rng(17);
    for (int i = 0; i < 30; ++i) rows.push_back(rng() % want.size());
    rows.push_back(rows.front());
    std::string arg;
    for (auto r : rows) arg += (arg.empty() ? "" : ",") + std::to_string(r);
    DYNAMIC_SECTION(name) {
      auto r = run_cli({"take", fixture(name), "--rows", arg, "-f", "jsonl"});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      const auto got = jsonl_lines(r.out);
      REQUIRE(got.size() == rows.size());
      for (size_t i = 0; i < rows.size(); ++i) CHECK(got[i] == want[rows[i]]);
    }
  }
}

TEST_CASE("damaged 2.0 files raise errors, never crash", "[v2_0]") {
  SECTION("a Binary end offset past the bytes is corrupt, naming column and page") {
    const std::string path = fixture("v20_strings");
    auto file = lance::format::FileReader::open(path);
    auto local = lance::io::LocalFile::open(path);
    lance::Bytes bytes(local->size());
    local->read_at(0, bytes.size(), bytes.data());
    const uint32_t c = columns_of(*file, "s_mixed")[0];
    const auto& page = file->columns()[c].pages.at(0);
    // Binary(indices: Nullable(no_nulls, Flat(64)), bytes): buffer 0 holds the u64 ends.
    const uint64_t at = page.buffers.at(0).offset;
    const uint64_t huge = uint64_t{1} << 40;
    std::memcpy(bytes.data() + at, &huge, 8);
    auto damaged = lance::format::FileReader::open(std::make_shared<lance::io::MemoryFile>("damaged.lance", bytes));
    lance::read::FileRowReader reader(damaged, lance::read::resolve_projection(damaged->schema(), {"s_mixed"}));
    try {
      reader.read_range(0, 10);
      FAIL("no error");
    } catch (const lance::Error& e) {
      CHECK(e.kind() == lance::ErrorKind::corrupt);
      CHECK(std::string(e.what()).find("column " + std::to_string(c)) != std::string::npos);
      CHECK(std::string(e.what()).find("page 0") != std::string::npos);
    }
  }
  SECTION("random byte flips in the page data") {
    for (const char* name : {"v20_nested_structs", "v20_dict", "v20_packed", "v20_compression"}) {
      const std::string path = fixture(name);
      auto local = lance::io::LocalFile::open(path);
      lance::Bytes original(local->size());
      local->read_at(0, original.size(), original.data());
      auto file = lance::format::FileReader::open(path);
      const uint64_t data_end = file->global_buffers().at(0).offset;  // page data lies before the schema
      std::mt19937_64 rng(1234);
      int errors = 0;
      for (int iter = 0; iter < 60; ++iter) {
        lance::Bytes bytes = original;
        for (int k = 0; k < 8; ++k) bytes[rng() % data_end] ^= static_cast<uint8_t>(1u << (rng() % 8));
        try {
          auto f = lance::format::FileReader::open(std::make_shared<lance::io::MemoryFile>(name, bytes));
          lance::read::FileRowReader reader(f, lance::read::resolve_projection(f->schema(), {}));
          reader.read_range(0, f->num_rows());
        } catch (const lance::Error& e) {
          ++errors;
          CHECK((e.kind() == lance::ErrorKind::corrupt || e.kind() == lance::ErrorKind::unsupported));
        }
      }
      INFO(name << ": " << errors << " of 60 damaged copies raised errors");
      SUCCEED();
    }
  }
}
