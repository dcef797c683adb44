// csv / tsv / json / jsonl writers (docs/output-format.md, "Formats").
#include <catch2/catch.hpp>

#include "common/error.h"
#include "test_output_util.h"

using namespace lance;
using namespace lance::output;
using namespace lance::test;

namespace {

const std::vector<FieldPtr> kFields = {field("id", make_type(TypeId::int32)), field("s", make_type(TypeId::utf8))};

RecordBatch sample_batch() {
  return batch_of(kFields, {fixed<int32_t>(make_type(TypeId::int32), {1, 2, 3, 4, 5, 6, 7}, {1, 1, 1, 1, 1, 0, 1}),
                            utf8({"plain", "a,b", "say \"hi\"", "line\nbreak", "", std::nullopt, "cr\r\\t\tx"})});
}

/// Two columns with a list and a struct, two rows.
std::vector<FieldPtr> nested_fields() {
  auto int32 = make_type(TypeId::int32);
  return {field("l", make_list(TypeId::list, field("item", make_type(TypeId::utf8)))),
          field("st", make_struct({field("a", int32)}))};
}
RecordBatch nested_batch() {
  auto fields = nested_fields();
  auto list = list_like(fields[0]->type, {0, 2, 2}, utf8({"x\ty", "q\"\n"}));
  auto st = struct_of(fields[1]->type->children, {fixed<int32_t>(make_type(TypeId::int32), {1, 2})}, {1, 0});
  return batch_of(fields, {list, st});
}

}  // namespace

TEST_CASE("parse_output_format", "[output][writer]") {
  CHECK(parse_output_format("csv") == OutputFormat::csv);
  CHECK(parse_output_format("tsv") == OutputFormat::tsv);
  CHECK(parse_output_format("json") == OutputFormat::json);
  CHECK(parse_output_format("jsonl") == OutputFormat::jsonl);
  CHECK(parse_output_format("arrow") == OutputFormat::arrow);
  CHECK(parse_output_format("null") == OutputFormat::null);
  try {
    parse_output_format("xml");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK(e.detail() == "unknown output format 'xml' (valid: csv, tsv, json, jsonl, arrow, null)");
  }
  CHECK_THROWS_AS(parse_output_format("CSV"), Error);
  OutputSink sink(1);
  try {
    make_text_writer(OutputFormat::arrow, sink, {});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::unsupported);
  }
}

TEST_CASE("csv quoting, nulls and header", "[output][writer]") {
  const std::string rows =
      "1,plain\n"
      "2,\"a,b\"\n"
      "3,\"say \"\"hi\"\"\"\n"
      "4,\"line\nbreak\"\n"
      "5,\"\"\n"
      ",\n"
      "7,\"cr\r\\t\tx\"\n";
  CHECK(write_text(OutputFormat::csv, {}, kFields, {sample_batch()}) == "id,s\n" + rows);
  CHECK(write_text(OutputFormat::csv, {false, ""}, kFields, {sample_batch()}) == rows);
  CHECK(write_text(OutputFormat::csv, {true, "NULL"}, kFields, {sample_batch()}) ==
        "id,s\n1,plain\n2,\"a,b\"\n3,\"say \"\"hi\"\"\"\n4,\"line\nbreak\"\n5,\"\"\nNULL,NULL\n7,\"cr\r\\t\tx\"\n");
}

TEST_CASE("csv and tsv with a null text: a value written as that text is quoted, so only nulls read back as null",
          "[output][writer]") {
  std::vector<FieldPtr> fields = {field("s", make_type(TypeId::utf8)), field("i", make_type(TypeId::int32))};
  auto batch = batch_of(fields, {utf8({"NULL", std::nullopt, "a,b", "\\N", "NULL!"}),
                                 fixed<int32_t>(make_type(TypeId::int32), {0, 1, 2, 3, 0}, {1, 1, 0, 1, 1})});
  CHECK(write_text(OutputFormat::csv, {false, "NULL"}, fields, {batch}) ==
        "\"NULL\",0\nNULL,1\n\"a,b\",NULL\n\\N,3\nNULL!,0\n");
  CHECK(write_text(OutputFormat::tsv, {false, "NULL"}, fields, {batch}) ==
        "\"NULL\"\t0\nNULL\t1\na,b\tNULL\n\\\\N\t3\nNULL!\t0\n");
  // The text as written is compared: in tsv the string \N is written \\N, which is not `\N`.
  CHECK(write_text(OutputFormat::tsv, {false, "\\N"}, fields, {batch}) ==
        "NULL\t0\n\\N\t1\na,b\t\\N\n\\\\N\t3\nNULL!\t0\n");
  // A number equal to TEXT is quoted too; a text with a separator is quoted once.
  CHECK(write_text(OutputFormat::csv, {false, "0"}, fields, {batch}) ==
        "NULL,\"0\"\n0,1\n\"a,b\",0\n\\N,3\nNULL!,\"0\"\n");
}

TEST_CASE("csv header names are quoted like cells", "[output][writer]") {
  std::vector<FieldPtr> fields = {field("a,b", make_type(TypeId::int8)), field("", make_type(TypeId::int8)),
                                  field("q\"", make_type(TypeId::int8))};
  CHECK(write_text(OutputFormat::csv, {}, fields, {}) == "\"a,b\",\"\",\"q\"\"\"\n");
}

TEST_CASE("csv of nested, binary and numbers", "[output][writer]") {
  CHECK(write_text(OutputFormat::csv, {}, nested_fields(), {nested_batch()}) ==
        "l,st\n\"[\"\"x\\ty\"\",\"\"q\\\"\"\\n\"\"]\",\"{\"\"a\"\":1}\"\n[],\n");
  std::vector<FieldPtr> fields = {field("b", make_type(TypeId::binary)), field("f", make_type(TypeId::float64))};
  auto batch = batch_of(fields, {strings(make_type(TypeId::binary), {"", "foo", std::nullopt}),
                                 fixed<double>(make_type(TypeId::float64), {1e21, -0.0, 0.5}, {1, 1, 0})});
  CHECK(write_text(OutputFormat::csv, {}, fields, {batch}) == "b,f\n\"\",1e+21\nZm9v,-0\n,\n");
}

TEST_CASE("tsv escapes", "[output][writer]") {
  const std::string rows =
      "1\tplain\n"
      "2\ta,b\n"
      "3\tsay \"hi\"\n"
      "4\tline\\nbreak\n"
      "5\t\n"
      "\t\n"
      "7\tcr\\r\\\\t\\tx\n";
  CHECK(write_text(OutputFormat::tsv, {}, kFields, {sample_batch()}) == "id\ts\n" + rows);
  CHECK(write_text(OutputFormat::tsv, {false, "\\N"}, kFields, {sample_batch()}) ==
        "1\tplain\n2\ta,b\n3\tsay \"hi\"\n4\tline\\nbreak\n5\t\n\\N\t\\N\n7\tcr\\r\\\\t\\tx\n");
  std::vector<FieldPtr> fields = {field("tab\there", make_type(TypeId::int8))};
  CHECK(write_text(OutputFormat::tsv, {}, fields, {}) == "tab\\there\n");
  CHECK(write_text(OutputFormat::tsv, {}, nested_fields(), {nested_batch()}) ==
        "l\tst\n[\"x\\\\ty\",\"q\\\\\"\\\\n\"]\t{\"a\":1}\n[]\t\n");
}

TEST_CASE("json and jsonl", "[output][writer]") {
  const std::string objects[] = {
      R"({"id":1,"s":"plain"})",       R"({"id":2,"s":"a,b"})", R"({"id":3,"s":"say \"hi\""})",
      R"({"id":4,"s":"line\nbreak"})", R"({"id":5,"s":""})",    R"({"id":null,"s":null})",
      R"({"id":7,"s":"cr\r\\t\tx"})",
  };
  std::string jsonl, json = "[\n";
  for (size_t k = 0; k < 7; ++k) {
    jsonl += objects[k] + "\n";
    json += objects[k] + (k + 1 < 7 ? ",\n" : "\n]\n");
  }
  CHECK(write_text(OutputFormat::jsonl, {}, kFields, {sample_batch()}) == jsonl);
  CHECK(write_text(OutputFormat::json, {}, kFields, {sample_batch()}) == json);
  // Several batches, including an empty one, continue one array.
  RecordBatch empty = batch_of(kFields, {fixed<int32_t>(make_type(TypeId::int32), {}), utf8({})});
  CHECK(write_text(OutputFormat::json, {}, kFields, {sample_batch(), empty, sample_batch()}) ==
        json.substr(0, json.size() - 3) + ",\n" + json.substr(2));
  CHECK(write_text(OutputFormat::jsonl, {}, kFields, {empty, sample_batch(), sample_batch()}) == jsonl + jsonl);

  CHECK(write_text(OutputFormat::jsonl, {}, nested_fields(), {nested_batch()}) ==
        "{\"l\":[\"x\\ty\",\"q\\\"\\n\"],\"st\":{\"a\":1}}\n{\"l\":[],\"st\":null}\n");
}

TEST_CASE("zero rows", "[output][writer]") {
  RecordBatch empty = batch_of(kFields, {fixed<int32_t>(make_type(TypeId::int32), {}), utf8({})});
  CHECK(write_text(OutputFormat::json, {}, kFields, {}) == "[]\n");
  CHECK(write_text(OutputFormat::json, {}, kFields, {empty}) == "[]\n");
  CHECK(write_text(OutputFormat::jsonl, {}, kFields, {empty}).empty());
  CHECK(write_text(OutputFormat::csv, {}, kFields, {empty}) == "id,s\n");
  CHECK(write_text(OutputFormat::csv, {false, ""}, kFields, {}).empty());
  CHECK(write_text(OutputFormat::tsv, {}, kFields, {}) == "id\ts\n");
}

TEST_CASE("many rows go through the sink in chunks", "[output][writer]") {
  constexpr int kRows = 50'000;
  std::vector<int64_t> values(kRows);
  for (int k = 0; k < kRows; ++k) values[static_cast<size_t>(k)] = int64_t{k} * 1'000'003;
  std::vector<FieldPtr> fields = {field("v", make_type(TypeId::int64))};
  auto batch = batch_of(fields, {fixed<int64_t>(make_type(TypeId::int64), values)});
  std::string expect = "v\n";
  for (int64_t v : values) expect += std::to_string(v) + "\n";
  CHECK(write_text(OutputFormat::csv, {}, fields, {batch}) == expect);
}

TEST_CASE("a batch that does not match the fields is rejected", "[output][writer]") {
  OutputSink sink(1);
  auto writer = make_text_writer(OutputFormat::jsonl, sink, {});
  writer->begin(kFields);
  RecordBatch bad = sample_batch();
  bad.columns.pop_back();
  CHECK_THROWS_AS(writer->write(bad), std::logic_error);
  RecordBatch short_column = sample_batch();
  short_column.num_rows = 8;
  CHECK_THROWS_AS(writer->write(short_column), std::logic_error);
}
