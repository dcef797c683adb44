// inspect meta|schema|pages on the golden fixtures: the JSON must report what the fixture
// generator asked Lance to write (layouts, encodings, page counts, schema fields), and the
// container numbers must agree with the generator's own parse of each file (index.json).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <sstream>

#include "cli_runner.h"
#include "fixtures.h"
#include "missing_component.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using nlohmann::json;

namespace {

const json& index_json() { return lance::testing::fixture_index(); }

/// Index entries of data-file fixtures (every version, 2.0 included when present).
std::vector<json> file_fixtures() {
  std::vector<json> out;
  for (const auto& f : index_json()["fixtures"])
    if (f.value("kind", "file") == "file") out.push_back(f);
  return out;
}

/// The index entry of fixture `name` (e.g. "ints-v2.2"), or nullopt when not generated.
std::optional<json> fixture(const std::string& name) {
  for (const auto& f : index_json()["fixtures"])
    if (f["name"] == name && std::filesystem::exists(source_path("data/" + f["file"].get<std::string>()))) return f;
  return std::nullopt;
}

std::string file_of(const json& f) { return source_path("data/" + f["file"].get<std::string>()); }

json run_json(const std::vector<std::string>& args) {
  auto r = run_cli(args);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

json pages_of(const std::string& fixture_name) {
  auto f = fixture(fixture_name);
  INFO("fixture " << fixture_name);
  REQUIRE(f.has_value());
  return run_json({"inspect", "pages", file_of(*f), "--json"});
}

/// The column object of `pages` whose path is `path`.
json column(const json& pages, const std::string& path) {
  for (const auto& c : pages["columns"])
    if (c["path"] == path) return c;
  FAIL("no column " << path << " in " << pages["path"]);
  return {};
}

/// The layout object of page `p` of column `path` (e.g. pages.columns[i].pages[0].mini_block).
json first_page(const json& pages, const std::string& path) { return column(pages, path)["pages"][0]; }

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

const std::vector<std::string> kVersions = {"2.1", "2.2", "2.3"};

}  // namespace

TEST_CASE("inspect meta: counts agree with the generator and the bytes add up to the file size", "[inspect]") {
  auto fixtures = file_fixtures();
  REQUIRE(!fixtures.empty());
  for (const auto& f : fixtures) {
    DYNAMIC_SECTION(f["name"].get<std::string>()) {
      json m = run_json({"inspect", "meta", file_of(f), "--json"});
      CHECK(m["kind"] == "file");
      CHECK(m["format_version"] == f["version"]);
      CHECK(m["footer_version"]["major"] == f["footer_version"][0]);
      CHECK(m["footer_version"]["minor"] == f["footer_version"][1]);
      CHECK(m["num_rows"] == f["num_rows"]);
      CHECK(m["file_size"] == f["bytes"]);
      CHECK(m["num_columns"] == f["num_leaf_columns"]);
      uint64_t pages = 0;
      for (const auto& col : f["leaf_column_pages"]) pages += col.size();
      CHECK(m["num_pages"] == pages);

      const json& b = m["bytes"];
      uint64_t sum = 0;
      for (auto it = b.begin(); it != b.end(); ++it)
        if (it.key() != "total") sum += it.value().get<uint64_t>();
      CHECK(sum == b["total"].get<uint64_t>());
      CHECK(b["total"] == f["bytes"]);
      CHECK(b["footer"] == 40);
      CHECK(b["offset_tables"] == 16 * (m["num_columns"].get<uint64_t>() + m["global_buffers"].size()));
      CHECK(b["other"].get<uint64_t>() < b["total"].get<uint64_t>());
      REQUIRE(m["global_buffers"].size() >= 1);
      CHECK(m["global_buffers"][0]["index"] == 0);

      uint64_t column_bytes = 0;
      REQUIRE(m["columns"].size() == f["leaf_column_pages"].size());
      for (size_t c = 0; c < m["columns"].size(); ++c) {
        const json& col = m["columns"][c];
        column_bytes += col["bytes"].get<uint64_t>();
        CHECK(col["num_pages"] == f["leaf_column_pages"][c].size());
      }
      CHECK(column_bytes == b["page_buffers"].get<uint64_t>() + b["column_buffers"].get<uint64_t>());
    }
  }
}

TEST_CASE("inspect pages: page row counts equal the generator's, first rows are cumulative", "[inspect]") {
  for (const auto& f : file_fixtures()) {
    DYNAMIC_SECTION(f["name"].get<std::string>()) {
      json p = run_json({"inspect", "pages", file_of(f), "--json"});
      REQUIRE(p["columns"].size() == f["leaf_column_pages"].size());
      uint64_t bytes = 0;
      for (size_t c = 0; c < p["columns"].size(); ++c) {
        const json& col = p["columns"][c];
        CHECK(col["column"] == c);
        const json& want = f["leaf_column_pages"][c];
        REQUIRE(col["pages"].size() == want.size());
        uint64_t row = 0;
        for (size_t i = 0; i < want.size(); ++i) {
          const json& page = col["pages"][i];
          CHECK(page["num_rows"] == want[i]);
          CHECK(page["first_row"] == row);
          row += page["num_rows"].get<uint64_t>();
          uint64_t sum = 0;
          for (const auto& buf : page["buffers"]) sum += buf["size"].get<uint64_t>();
          CHECK(page["bytes"] == sum);
          CHECK(!page.contains("error"));
          if (page.contains("compression_ratio"))
            CHECK(page["compression_ratio"].get<double>() ==
                  Approx(page["decoded_bytes"].get<double>() / page["bytes"].get<double>()));
          // 2.0 pages carry the array-encoding tree, 2.1+ a structural layout
          if (f["version"] == "2.0")
            CHECK(page["layout"] == "array-encoding");
          else
            CHECK(page["layout"] != "array-encoding");
          bytes += sum;
        }
      }
      (void)bytes;
    }
  }
}

TEST_CASE("inspect pages: integer columns are mini-block - has_large_chunk is false in 2.1, true in 2.2+",
          "[inspect]") {
  for (const auto& v : kVersions) {
    DYNAMIC_SECTION("ints-v" << v) {
      json p = pages_of("ints-v" + v);
      REQUIRE(p["columns"].size() == 11);
      for (const auto& col : p["columns"]) {
        INFO(col["path"]);
        const json& page = col["pages"][0];
        REQUIRE(page["layout"] == "mini-block");
        const json& mb = page["mini_block"];
        CHECK(mb["has_large_chunk"] == (v != "2.1"));
        CHECK(mb["num_items"] == 1000);
        CHECK(mb["repetition_index_depth"] == 0);
        CHECK(mb["dictionary"].is_null());
        // chunk metadata was read: the chunks hold every value
        REQUIRE(mb.contains("chunks"));
        const json& ch = mb["chunks"];
        CHECK(ch["count"].get<double>() * ch["values"]["avg"].get<double>() == Approx(1000));
        CHECK(ch["bytes"]["max"].get<uint64_t>() % 8 == 0);
        // fixed-width: the decoded size is known
        CHECK(page.contains("decoded_bytes"));
      }
      // small ranges are bit-packed, the sorted column too
      CHECK(starts_with(first_page(p, "u8_small")["mini_block"]["value_compression"], "InlineBitpacking(8)"));
      CHECK(starts_with(first_page(p, "i64_sorted")["mini_block"]["value_compression"], "InlineBitpacking(64)"));
      CHECK(first_page(p, "i32")["decoded_bytes"] == 4000);
    }
  }
}

TEST_CASE("inspect pages: long strings are full-zip, medium ones FSST-compressed", "[inspect]") {
  for (const auto& v : kVersions) {
    DYNAMIC_SECTION("strings_long-v" << v) {
      json p = pages_of("strings_long-v" + v);
      json medium = first_page(p, "medium");
      REQUIRE(medium["layout"] == "full-zip");
      CHECK(starts_with(medium["full_zip"]["value_compression"], "Fsst("));
      CHECK(medium["full_zip"]["bits_per_offset"] == 32);
      CHECK(medium["full_zip"]["bits_per_value"].is_null());
      CHECK(medium["full_zip"]["num_visible_items"] == 80);
      CHECK(medium["buffers"][1]["role"] == "repetition index");
      json longer = first_page(p, "long");
      REQUIRE(longer["layout"] == "full-zip");
      CHECK(starts_with(longer["full_zip"]["value_compression"], "General(zstd"));
      CHECK(longer["full_zip"]["bits_def"] == 1);    // nulls: a 1-bit definition in each control word
      CHECK(!longer.contains("compression_ratio"));  // variable width: decoded size unknown
    }
  }
}

TEST_CASE("inspect pages: constant float columns (RLE in 2.1, ConstantLayout in 2.2+)", "[inspect]") {
  for (const auto& v : kVersions) {
    DYNAMIC_SECTION("floats-v" << v) {
      json p = pages_of("floats-v" + v);
      for (auto [name, width] : {std::pair<std::string, int>{"f32_const", 4}, {"f64_const", 8}}) {
        json page = first_page(p, name);
        INFO(name);
        if (v == "2.1") {
          REQUIRE(page["layout"] == "mini-block");
          CHECK(starts_with(page["mini_block"]["value_compression"], "Rle("));
        } else {
          REQUIRE(page["layout"] == "constant");
          CHECK(page["constant"]["inline_value_bytes"] == width);
          CHECK(page["buffers"].empty());
          CHECK(page["bytes"] == 0);
          CHECK(page["decoded_bytes"] == 800 * width);
          CHECK(!page.contains("compression_ratio"));
        }
      }
      json f16 = first_page(p, "f16_null");
      REQUIRE(f16["layout"] == "mini-block");
      CHECK(f16["mini_block"]["layers"] == json::array({"NULLABLE_ITEM"}));
      CHECK(!f16["mini_block"]["def_compression"].is_null());
      CHECK(f16["mini_block"]["rep_compression"].is_null());
    }
  }
}

TEST_CASE("inspect pages: FSST for unique strings, a dictionary for low-cardinality ones", "[inspect]") {
  for (const auto& v : kVersions) {
    DYNAMIC_SECTION("strings-v" << v) {
      json p = pages_of("strings-v" + v);
      json unique = first_page(p, "s_unique");
      REQUIRE(unique["layout"] == "mini-block");
      CHECK(starts_with(unique["mini_block"]["value_compression"], "Fsst(n_symbols="));
      CHECK(unique["mini_block"]["dictionary"].is_null());
      json dict = first_page(p, "s_dict");
      REQUIRE(dict["layout"] == "mini-block");
      const json& d = dict["mini_block"]["dictionary"];
      REQUIRE(d.is_object());
      CHECK(d["num_items"] == 8);
      CHECK(dict["buffers"][2]["role"] == "dictionary");
      CHECK(d["bytes"] == dict["buffers"][2]["size"]);
      // 2.2+ compresses dictionary values with lz4 by default; 2.1 does not
      if (v == "2.1")
        CHECK(starts_with(d["encoding"], "Variable("));
      else
        CHECK(starts_with(d["encoding"], "General(lz4) › Variable("));
      CHECK(first_page(p, "fsb16")["decoded_bytes"] == 1500 * 16);
    }
  }
}

TEST_CASE("inspect pages: all-null and constant columns of misc", "[inspect]") {
  for (const auto& v : kVersions) {
    DYNAMIC_SECTION("misc-v" << v) {
      json p = pages_of("misc-v" + v);
      for (const char* name : {"null_i32", "null_utf8", "null_type"}) {
        json page = first_page(p, name);
        CHECK(page["layout"] == "all-null");
        CHECK(page["constant"]["inline_value_bytes"].is_null());
      }
      json c = first_page(p, "const_i64");
      json s = first_page(p, "const_utf8");
      if (v == "2.1") {
        CHECK(c["layout"] == "mini-block");
        CHECK(s["layout"] == "mini-block");
      } else {
        CHECK(c["layout"] == "constant");
        CHECK(c["constant"]["inline_value_bytes"] == 8);
        CHECK(s["layout"] == "constant");
        CHECK(s["constant"]["inline_value_bytes"].is_null());
        REQUIRE(s["buffers"].size() == 1);
        CHECK(s["buffers"][0]["role"] == "scalar");
      }
    }
  }
}

TEST_CASE("inspect pages: lists have repetition levels and a repetition index, FSL<f32,128> is full-zip", "[inspect]") {
  for (const auto& v : kVersions) {
    DYNAMIC_SECTION("nested v" << v) {
      json lists = pages_of("nested_lists-v" + v);
      json item = first_page(lists, "l_i32.item");
      REQUIRE(item["layout"] == "mini-block");
      CHECK(!item["mini_block"]["rep_compression"].is_null());
      CHECK(item["mini_block"]["repetition_index_depth"] == 1);
      CHECK(item["buffers"].back()["role"] == "repetition index");
      CHECK(item["mini_block"]["layers"].size() == 2);
      CHECK(column(lists, "l_l_i32.item.item")["pages"][0]["mini_block"]["layers"].size() == 3);

      json fsl = pages_of("nested_fsl-v" + v);
      json v128 = first_page(fsl, "v128");
      REQUIRE(v128["layout"] == "full-zip");
      CHECK(starts_with(v128["full_zip"]["value_compression"], "FixedSizeList(128"));
      CHECK(!v128["full_zip"]["bits_per_value"].is_null());
      CHECK(v128["decoded_bytes"] == 100 * 128 * 4);
      json v4 = first_page(fsl, "v4");
      CHECK(v4["layout"] == "mini-block");
      CHECK(v4["decoded_bytes"] == 100 * 4 * 4);
    }
  }
}

TEST_CASE("inspect schema: ids, parents, types and nullability equal the fields Lance stored", "[inspect]") {
  for (const auto& f : file_fixtures()) {
    DYNAMIC_SECTION(f["name"].get<std::string>()) {
      json s = run_json({"inspect", "schema", file_of(f), "--json"});
      // flatten the tree in pre-order, the order of the stored field list
      std::vector<json> flat;
      std::function<void(const json&)> walk = [&](const json& n) {
        flat.push_back(n);
        for (const auto& c : n["children"]) walk(c);
      };
      for (const auto& n : s["fields"]) walk(n);
      const json& want = f["lance_fields"];
      REQUIRE(flat.size() == want.size());
      for (size_t i = 0; i < flat.size(); ++i) {
        INFO(want[i].dump());
        CHECK(flat[i]["name"] == want[i]["name"]);
        CHECK(flat[i]["id"] == want[i]["id"]);
        CHECK(flat[i]["parent_id"] == want[i]["parent_id"]);
        CHECK(flat[i]["logical_type"] == want[i]["logical_type"]);
        CHECK(flat[i]["nullable"] == want[i]["nullable"]);
        CHECK(!flat[i]["arrow_type"].get<std::string>().empty());
      }
      // every top-level field's Arrow type is the one Lance read back (DataType::to_string
      // leaves out Arrow C++'s " not null" on children and ", ordered=0" on dictionaries)
      auto arrow_cpp_style = [](std::string t) {
        for (const std::string drop : {" not null", ", ordered=0"})
          for (size_t p; (p = t.find(drop)) != std::string::npos;) t.erase(p, drop.size());
        return t;
      };
      REQUIRE(s["fields"].size() == f["columns"].size());
      for (size_t i = 0; i < s["fields"].size(); ++i) {
        if (f["name"].get<std::string>().rfind("nested2_large_list", 0) == 0) break;  // read back cast to list
        CHECK(s["fields"][i]["arrow_type"] == arrow_cpp_style(f["columns"][i]["arrow_type"]));
      }
    }
  }
}

TEST_CASE("inspect schema: nested_structs tree with paths and leaf columns", "[inspect]") {
  for (const auto& v : kVersions) {
    DYNAMIC_SECTION("nested_structs-v" << v) {
      auto f = fixture("nested_structs-v" + v);
      REQUIRE(f);
      json s = run_json({"inspect", "schema", file_of(*f), "--json"});
      const json& st = s["fields"][0];
      CHECK(st["name"] == "s");
      CHECK(st["parent_id"] == -1);
      CHECK(st["logical_type"] == "struct");
      CHECK(st["columns"].empty());  // 2.1+: a struct has no column of its own
      REQUIRE(st["children"].size() == 2);
      CHECK(st["children"][0]["path"] == "s.a");
      CHECK(st["children"][0]["parent_id"] == st["id"]);
      CHECK(st["children"][0]["columns"] == json::array({0}));
      CHECK(st["children"][1]["columns"] == json::array({1}));
      const json& deep = s["fields"][1];
      CHECK(deep["children"][1]["children"][1]["path"] == "deep.inner.tags");
      CHECK(deep["children"][1]["children"][1]["children"][0]["path"] == "deep.inner.tags.item");
    }
  }
}

TEST_CASE("inspect pages -c and --page select columns and pages", "[inspect]") {
  auto nested = fixture("nested_structs-v2.2");
  REQUIRE(nested);
  json p = run_json({"inspect", "pages", file_of(*nested), "-c", "s", "--json"});
  REQUIRE(p["columns"].size() == 2);
  CHECK(p["columns"][0]["path"] == "s.a");
  CHECK(p["columns"][1]["path"] == "s.b");
  p = run_json({"inspect", "pages", file_of(*nested), "-c", "deep.inner,s.b", "--json"});
  REQUIRE(p["columns"].size() == 3);
  CHECK(p["columns"][0]["path"] == "s.b");
  CHECK(p["columns"][1]["path"] == "deep.inner.x");
  CHECK(p["columns"][2]["path"] == "deep.inner.tags.item");

  auto multi = fixture("multipage-v2.1");
  REQUIRE(multi);
  const json& want = (*multi)["leaf_column_pages"][0];  // column "id"
  REQUIRE(want.size() >= 2);
  p = run_json({"inspect", "pages", file_of(*multi), "-c", "id", "--page", "1", "--json"});
  REQUIRE(p["columns"].size() == 1);
  CHECK(p["columns"][0]["num_pages"] == want.size());
  REQUIRE(p["columns"][0]["pages"].size() == 1);
  CHECK(p["columns"][0]["pages"][0]["page"] == 1);
  CHECK(p["columns"][0]["pages"][0]["first_row"] == want[0]);
  CHECK(p["columns"][0]["pages"][0]["num_rows"] == want[1]);

  auto r = run_cli({"inspect", "pages", file_of(*multi), "-c", "nope"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no column 'nope'") != std::string::npos);
  r = run_cli({"inspect", "pages", file_of(*multi), "--page", "100000"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("page 100000") != std::string::npos);
  r = run_cli({"inspect", "pages", file_of(*multi), "--page", "-1"});
  CHECK(r.exit_code == 2);
}

TEST_CASE("inspect text output: aligned, human sizes or exact bytes, no colour when piped", "[inspect]") {
  const std::string sample = source_path("data/sample/products.lance");
  auto meta = run_cli({"inspect", "meta", sample});
  REQUIRE(meta.exit_code == 0);
  CHECK(meta.out.find("format        2.2 (footer 2.2)") != std::string::npos);
  CHECK(meta.out.find("rows          2000") != std::string::npos);
  CHECK(meta.out.find("KiB") != std::string::npos);
  CHECK(meta.out.find("file descriptor") != std::string::npos);
  CHECK(meta.out.find('\x1b') == std::string::npos);

  auto exact = run_cli({"inspect", "meta", sample, "-b"});
  REQUIRE(exact.exit_code == 0);
  const std::string size = std::to_string(std::filesystem::file_size(sample));
  CHECK(exact.out.find("file size     " + size + " B") != std::string::npos);
  CHECK(exact.out.find("KiB") == std::string::npos);

  auto schema = run_cli({"inspect", "schema", sample});
  REQUIRE(schema.exit_code == 0);
  CHECK(schema.out.find("timestamp:us:UTC") != std::string::npos);
  CHECK(schema.out.find("timestamp[us, tz=UTC]") != std::string::npos);

  auto pages = run_cli({"inspect", "pages", sample});
  REQUIRE(pages.exit_code == 0);
  CHECK(pages.out.find("column 1 · name · string") != std::string::npos);
  CHECK(pages.out.find("mini-block") != std::string::npos);
  CHECK(pages.out.find("chunk metadata") != std::string::npos);
  CHECK(pages.out.find("dictionary") != std::string::npos);
  // readable at 100 columns
  std::istringstream in(meta.out + schema.out + pages.out);
  for (std::string line; std::getline(in, line);) {
    size_t cols = 0;
    for (unsigned char c : line) cols += (c & 0xC0) != 0x80;
    INFO(line);
    CHECK(cols <= 100);
  }

  auto nested = fixture("nested_structs-v2.1");
  REQUIRE(nested);
  auto tree = run_cli({"inspect", "schema", file_of(*nested)});
  REQUIRE(tree.exit_code == 0);
  CHECK(tree.out.find("├─ a") != std::string::npos);
  CHECK(tree.out.find("└─ b") != std::string::npos);
}

TEST_CASE("inspect --help shows examples - a directory or missing file is an error", "[inspect]") {
  for (const char* sub : {"meta", "schema", "pages"}) {
    auto r = run_cli({"inspect", sub, "--help"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("Examples:") != std::string::npos);
    CHECK(r.out.find("--json") != std::string::npos);
  }
  auto r = run_cli({"inspect", "--help"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("pages") != std::string::npos);
  r = run_cli({"inspect", "meta", source_path("data/no-such-file.lance")});
  CHECK(r.exit_code == 1);
  r = run_cli({"inspect", "schema", source_path("README.md")});
  CHECK(r.exit_code == 4);
}

TEST_CASE("inspect pages on 2.0 files: the array-encoding tree and buffer roles", "[inspect]") {
  auto lists = fixture("v20_nested_lists-v2.0");
  auto compression = fixture("v20_compression-v2.0");
  auto blob = fixture("v20_blob-v2.0");
  if (!lists || !compression || !blob) {
    LANCE_MISSING_COMPONENT("2.0 fixtures not generated");
  }
  json p = run_json({"inspect", "pages", file_of(*lists), "--json"});
  // 2.0: list offsets and items are separate columns
  json offsets = first_page(p, "l_i32");
  CHECK(starts_with(offsets["array_encoding"], "List("));
  CHECK(offsets["buffers"][0]["role"] == "list offsets");
  json items = first_page(p, "l_i32.item");
  CHECK(starts_with(items["array_encoding"], "Nullable("));
  CHECK(items.contains("decoded_bytes"));

  p = run_json({"inspect", "pages", file_of(*compression), "--json"});
  CHECK(first_page(p, "s_zstd")["array_encoding"].get<std::string>().find("Flat(8, zstd)") != std::string::npos);
  CHECK(first_page(p, "s_zstd_l9")["array_encoding"].get<std::string>().find("zstd level 9") != std::string::npos);
  CHECK(first_page(p, "s_lz4")["array_encoding"].get<std::string>().find("Flat(8, lz4)") != std::string::npos);
  CHECK(starts_with(first_page(p, "s_fsst")["array_encoding"], "Fsst("));

  p = run_json({"inspect", "pages", file_of(*blob), "--json"});
  CHECK(column(p, "blob")["column_encoding"] == "blob");
  CHECK(column(p, "id")["column_encoding"] == "values");
}

TEST_CASE("inspect pages on forced encodings (fixtures of the encodings suite, when present)", "[inspect]") {
  auto has = [](const std::string& n) { return fixture(n).has_value(); };
  for (const auto& v : kVersions) {
    if (has("enc_fullzip-v" + v)) {
      json p = pages_of("enc_fullzip-v" + v);
      for (const auto& col : p["columns"]) CHECK(col["pages"][0]["layout"] == "full-zip");
    }
    if (has("enc_miniblock_wide-v" + v)) {
      json p = pages_of("enc_miniblock_wide-v" + v);
      for (const auto& col : p["columns"]) CHECK(col["pages"][0]["layout"] == "mini-block");
    }
    if (has("enc_general_ints-v" + v)) {
      json p = pages_of("enc_general_ints-v" + v);
      CHECK(starts_with(first_page(p, "i32_zstd")["mini_block"]["value_compression"], "General(zstd)"));
      CHECK(starts_with(first_page(p, "i32_lz4")["mini_block"]["value_compression"], "General(lz4)"));
      CHECK(starts_with(first_page(p, "i64_zstd")["mini_block"]["value_compression"], "General(zstd level 7)"));
    }
    if (has("enc_bss_f32-v" + v)) {
      json p = pages_of("enc_bss_f32-v" + v);
      CHECK(first_page(p, "on_z")["mini_block"]["value_compression"] == "General(zstd) › ByteStreamSplit › Flat(32)");
      CHECK(first_page(p, "off_z")["mini_block"]["value_compression"] == "General(zstd) › Flat(32)");
    }
    if (has("enc_minichunk-v" + v)) {
      json p = pages_of("enc_minichunk-v" + v);
      for (const auto& col : p["columns"]) CHECK(col["pages"][0]["mini_block"]["chunks"]["count"].get<int>() > 10);
    }
    if (has("enc_dict-v" + v)) {
      json p = pages_of("enc_dict-v" + v);
      CHECK(first_page(p, "s")["mini_block"]["dictionary"].is_object());
      CHECK(first_page(p, "s_div50")["mini_block"]["dictionary"].is_null());
      CHECK(first_page(p, "s_ratio01")["mini_block"]["dictionary"].is_null());
      if (v != "2.1") {
        CHECK(starts_with(first_page(p, "s_zstd")["mini_block"]["dictionary"]["encoding"], "General(zstd)"));
        CHECK(starts_with(first_page(p, "s_none")["mini_block"]["dictionary"]["encoding"], "Variable("));
      }
    }
    if (v != "2.1" && has("enc_constant-v" + v)) {
      json p = pages_of("enc_constant-v" + v);
      for (const auto& col : p["columns"]) CHECK(col["pages"][0]["layout"] == "constant");
    }
    if (v != "2.1" && has("enc_packed_var-v" + v)) {
      json p = pages_of("enc_packed_var-v" + v);
      for (const auto& col : p["columns"]) {
        CHECK(col["pages"][0]["layout"] == "full-zip");
        CHECK(starts_with(col["pages"][0]["full_zip"]["value_compression"], "VariablePackedStruct("));
      }
    }
  }
  if (has("enc_blob-v2.1")) {
    json p = pages_of("enc_blob-v2.1");
    json page = first_page(p, "blob");
    REQUIRE(page["layout"] == "blob");
    CHECK(page["blob"]["inner"]["layout"] == "mini-block");
    CHECK(starts_with(page["blob"]["inner"]["mini_block"]["value_compression"], "PackedStruct(bits: 64+64)"));
    CHECK(page["blob"]["inner"]["mini_block"].contains("chunks"));
  }
}

TEST_CASE("inspect meta on dataset directories: fragments, deletions, versions as Lance wrote them", "[inspect]") {
  const std::string index_path = source_path("data/datasets/index.json");
  if (!std::filesystem::exists(index_path)) {
    LANCE_MISSING_COMPONENT("dataset fixtures not generated");
  }
  const json index = json::parse(read_text(index_path));
  for (const auto& ds : index["datasets"]) {
    const std::string dir = source_path("data/" + ds["dir"].get<std::string>());
    for (const auto& v : ds["versions"]) {
      DYNAMIC_SECTION(ds["name"].get<std::string>() << " version " << v["version"]) {
        json m =
            run_json({"inspect", "meta", dir, "--version", std::to_string(v["version"].get<uint64_t>()), "--json"});
        CHECK(m["kind"] == "dataset");
        CHECK(m["version"] == v["version"]);
        CHECK(m["num_rows"] == v["num_rows"]);
        CHECK(m["versions"].back() == ds["latest_version"]);
        CHECK(m["data_storage_version"] == ds["storage_version"]);
        const json& want = v["fragments"];
        REQUIRE(m["fragments"].size() == want.size());
        uint64_t deleted = 0;
        for (size_t i = 0; i < want.size(); ++i) {
          const json& f = m["fragments"][i];
          INFO("fragment " << want[i].dump());
          CHECK(f["id"] == want[i]["id"]);
          CHECK(f["physical_rows"] == want[i]["physical_rows"]);
          CHECK(f["deleted_rows"] == want[i]["deleted_rows"]);
          CHECK(f["num_rows"].get<uint64_t>() + f["deleted_rows"].get<uint64_t>() ==
                f["physical_rows"].get<uint64_t>());
          CHECK(f["data_files"].size() == want[i]["data_files"]);
          if (want[i]["deletion_file"].is_null())
            CHECK(f["deletion_file"].is_null());
          else
            CHECK(f["deletion_file"]["kind"] ==
                  (want[i]["deletion_file"] == "bin" ? "bitmap" : want[i]["deletion_file"]));
          deleted += f["deleted_rows"].get<uint64_t>();
        }
        CHECK(m["num_deleted_rows"] == deleted);
      }
    }
    DYNAMIC_SECTION(ds["name"].get<std::string>() << " latest, text and schema") {
      auto r = run_cli({"inspect", "meta", dir});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      CHECK(r.out.find("· dataset") != std::string::npos);
      CHECK(r.out.find("version       " + std::to_string(ds["latest_version"].get<uint64_t>())) != std::string::npos);
      json s = run_json({"inspect", "schema", dir, "--json"});
      CHECK(s["kind"] == "dataset");
      CHECK(s["fields"].size() == ds["versions"][0]["columns"].size());
      auto p = run_cli({"inspect", "pages", dir});
      CHECK(p.exit_code == 2);  // a usage error: pages reads one data file
      CHECK(p.err.find("dataset directory") != std::string::npos);
    }
  }
}

TEST_CASE("inspect schema shows the lance-encoding metadata the generator set", "[inspect]") {
  auto f = fixture("enc_dict-v2.2");
  if (!f) {
    LANCE_MISSING_COMPONENT("enc_dict fixture not generated");
  }
  json s = run_json({"inspect", "schema", file_of(*f), "--json"});
  CHECK(s["fields"][1]["name"] == "s_div50");
  CHECK(s["fields"][1]["metadata"]["lance-encoding:dict-divisor"] == "50");
  CHECK(s["fields"][4]["metadata"]["lance-encoding:dict-values-compression-level"] == "9");
  auto text = run_cli({"inspect", "schema", file_of(*f)});
  CHECK(text.out.find("  · lance-encoding:dict-divisor = 50\n") != std::string::npos);
}

TEST_CASE("the README's inspect examples are the current output", "[inspect]") {
  // The examples live in docs/inspect.md (moved there from the README; the test keeps its name).
  const std::string readme = read_text(source_path("docs/inspect.md"));
  for (const std::string cmd : {"inspect meta data/sample/products.lance", "inspect schema data/sample/products.lance",
                                "inspect pages data/sample/products.lance -c name,price"}) {
    DYNAMIC_SECTION(cmd) {
      const std::string marker = "$ lance-cli " + cmd + "\n";
      size_t start = readme.find(marker);
      REQUIRE(start != std::string::npos);
      start += marker.size();
      const std::string shown = readme.substr(start, readme.find("```", start) - start);
      std::vector<std::string> args;
      std::istringstream words(cmd);
      for (std::string w; words >> w;) args.push_back(w == "data/sample/products.lance" ? source_path(w) : w);
      auto r = run_cli(args);
      REQUIRE(r.exit_code == 0);
      // the first line names the file as given on the command line
      std::string out = r.out;
      for (size_t p; (p = out.find(source_path("data/sample/products.lance"))) != std::string::npos;)
        out.replace(p, source_path("data/sample/products.lance").size(), "data/sample/products.lance");
      CHECK(out == shown);
    }
  }
}
