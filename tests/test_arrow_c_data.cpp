// The Arrow C Data / C Stream Interface export: formats, zero-copy buffers, ownership and
// release callbacks (run under ASan with -DLANCE_CLI_SANITIZE=ON to see leaks), streams.
#include <catch2/catch.hpp>

#include <cerrno>
#include <cstring>

#include "capi/c_export.h"
#include "capi/lance_c.h"
#include "common/error.h"
#include "test_arrow_helpers.h"

using namespace lance;
using namespace lance::test;
using lance::testing::source_path;

namespace {

/// Decodes C data interface metadata into pairs.
std::map<std::string, std::string> decode_metadata(const char* md) {
  std::map<std::string, std::string> out;
  if (!md) return out;
  auto i32 = [&] {
    int32_t v;
    std::memcpy(&v, md, 4);
    md += 4;
    return v;
  };
  const int32_t n = i32();
  for (int32_t k = 0; k < n; ++k) {
    const int32_t kl = i32();
    std::string key(md, static_cast<size_t>(kl));
    md += kl;
    const int32_t vl = i32();
    out[key] = std::string(md, static_cast<size_t>(vl));
    md += vl;
  }
  return out;
}

class VectorSource : public capi::BatchSource {
 public:
  VectorSource(std::vector<RecordBatch> batches, bool fail_at_end)
      : batches_(std::move(batches)), fail_at_end_(fail_at_end) {}
  const std::vector<FieldPtr>& fields() const override { return batches_.at(0).fields; }
  std::map<std::string, std::string> metadata() const override { return {{"k", "v"}}; }
  std::optional<RecordBatch> next() override {
    if (next_ < batches_.size()) return batches_[next_++];
    if (fail_at_end_) throw_corrupt("page 3 is broken");
    return std::nullopt;
  }

 private:
  std::vector<RecordBatch> batches_;
  bool fail_at_end_;
  size_t next_ = 0;
};

}  // namespace

TEST_CASE("C data interface: schema formats, names, flags, metadata", "[arrow][c-data]") {
  const RecordBatch b = every_type_batch(0);
  ArrowSchema s;
  capi::export_schema(b.fields, &s, {{"origin", "test"}});
  REQUIRE(s.release != nullptr);
  CHECK(std::string(s.format) == "+s");
  CHECK(decode_metadata(s.metadata) == std::map<std::string, std::string>{{"origin", "test"}});
  REQUIRE(s.n_children == static_cast<int64_t>(b.fields.size()));
  std::map<std::string, std::string> formats;
  for (int64_t i = 0; i < s.n_children; ++i) formats[s.children[i]->name] = s.children[i]->format;
  const std::map<std::string, std::string> want{{"i8", "c"},
                                                {"i16", "s"},
                                                {"i32", "i"},
                                                {"i64", "l"},
                                                {"u8", "C"},
                                                {"u16", "S"},
                                                {"u32", "I"},
                                                {"u64", "L"},
                                                {"f16", "e"},
                                                {"f32", "f"},
                                                {"f64", "g"},
                                                {"b", "b"},
                                                {"s", "u"},
                                                {"ls", "U"},
                                                {"bin", "z"},
                                                {"lbin", "Z"},
                                                {"fsb", "w:3"},
                                                {"d32", "tdD"},
                                                {"d64", "tdm"},
                                                {"t32", "tts"},
                                                {"t32ms", "ttm"},
                                                {"t64us", "ttu"},
                                                {"t64", "ttn"},
                                                {"ts", "tsu:UTC"},
                                                {"ts_naive", "tss:"},
                                                {"ts_ny", "tsn:America/New_York"},
                                                {"dur", "tDm"},
                                                {"dec", "d:10,2"},
                                                {"dec256", "d:40,5,256"},
                                                {"list", "+l"},
                                                {"llist", "+L"},
                                                {"fsl", "+w:2"},
                                                {"st", "+s"},
                                                {"map", "+m"},
                                                {"dict", "c"},
                                                {"nul", "n"}};
  CHECK(formats == want);
  const ArrowSchema* i32 = s.children[2];
  CHECK(i32->flags == 0);  // not nullable
  CHECK(decode_metadata(i32->metadata) == std::map<std::string, std::string>{{"lance:x", "y"}, {"unit", "cm"}});
  CHECK(s.children[0]->flags == ARROW_FLAG_NULLABLE);
  CHECK(s.children[0]->metadata == nullptr);
  const ArrowSchema* map = s.children[33];
  REQUIRE(map->n_children == 1);
  CHECK(std::string(map->children[0]->name) == "entries");
  CHECK(std::string(map->children[0]->format) == "+s");
  CHECK(map->children[0]->flags == 0);
  REQUIRE(map->children[0]->n_children == 2);
  CHECK(std::string(map->children[0]->children[0]->name) == "key");
  const ArrowSchema* dict = s.children[34];
  REQUIRE(dict->dictionary != nullptr);
  CHECK(std::string(dict->dictionary->format) == "u");
  // Moving a child out: the consumer copies it and marks the original released.
  ArrowSchema moved = *s.children[1];
  s.children[1]->release = nullptr;
  s.release(&s);
  CHECK(s.release == nullptr);
  CHECK(std::string(moved.name) == "i16");
  moved.release(&moved);
  CHECK(moved.release == nullptr);
}

TEST_CASE("C data interface: arrays are zero-copy and hold their buffers until released", "[arrow][c-data]") {
  const RecordBatch b = every_type_batch(0);
  const ArrayPtr s = b.columns[12];     // utf8 with a null
  const ArrayPtr list = b.columns[29];  // list<int32>
  const ArrayPtr dict = b.columns[34];  // dictionary<int8, utf8>
  const long s_refs = s.use_count();
  const long list_child_refs = list->children[0].use_count();
  ArrowArray a;
  capi::export_batch(b, &a);
  REQUIRE(a.release != nullptr);
  CHECK(a.length == 4);
  CHECK(a.null_count == 0);
  CHECK(a.n_buffers == 1);
  CHECK(a.buffers[0] == nullptr);
  REQUIRE(a.n_children == static_cast<int64_t>(b.columns.size()));
  CHECK(s.use_count() == s_refs + 1);
  CHECK(list->children[0].use_count() == list_child_refs + 1);

  const ArrowArray* sa = a.children[12];
  CHECK(sa->length == 4);
  CHECK(sa->null_count == 1);
  REQUIRE(sa->n_buffers == 3);
  CHECK(sa->buffers[0] == s->validity->data());
  CHECK(sa->buffers[1] == s->buffers[0]->data());
  CHECK(sa->buffers[2] == s->buffers[1]->data());

  const ArrowArray* i16 = a.children[1];  // no nulls: validity NULL
  REQUIRE(i16->n_buffers == 2);
  CHECK(i16->buffers[0] == nullptr);
  CHECK(i16->null_count == 0);

  const ArrowArray* da = a.children[34];
  REQUIRE(da->dictionary != nullptr);
  CHECK(da->dictionary->length == 3);
  CHECK(da->dictionary->buffers[2] == dict->dictionary->buffers[1]->data());

  const ArrowArray* nul = a.children[35];
  CHECK(nul->n_buffers == 0);
  CHECK(nul->null_count == 4);

  const ArrowArray* la = a.children[29];
  REQUIRE(la->n_children == 1);
  CHECK(la->children[0]->buffers[1] == list->children[0]->buffers[0]->data());

  // Move the list column out, release the batch: the moved column (and its child) survive.
  ArrowArray moved = *a.children[29];
  a.children[29]->release = nullptr;
  a.release(&a);
  CHECK(a.release == nullptr);
  CHECK(s.use_count() == s_refs);
  CHECK(list->children[0].use_count() == list_child_refs + 1);
  CHECK(reinterpret_cast<const int32_t*>(moved.buffers[1])[4] == 5);  // offsets {0,2,2,2,5}
  moved.release(&moved);
  CHECK(list->children[0].use_count() == list_child_refs);
}

TEST_CASE("C data interface: an empty utf8 array exports a valid offsets buffer", "[arrow][c-data]") {
  auto a = std::make_shared<ArrayData>();
  a->type = make_type(TypeId::utf8);
  a->length = 0;
  a->buffers = {std::make_shared<Bytes>(), std::make_shared<Bytes>()};
  ArrowArray out;
  capi::export_array(a, &out);
  REQUIRE(out.n_buffers == 3);
  REQUIRE(out.buffers[1] != nullptr);
  CHECK(reinterpret_cast<const int32_t*>(out.buffers[1])[0] == 0);
  CHECK(out.buffers[2] != nullptr);
  out.release(&out);
}

TEST_CASE("C stream interface: batches, end of stream, errors, release order", "[arrow][c-data]") {
  const RecordBatch b0 = every_type_batch(0), b1 = every_type_batch(1);
  SECTION("two batches then the end") {
    ArrowArrayStream st;
    capi::export_stream(std::make_unique<VectorSource>(std::vector<RecordBatch>{b0, b1}, false), &st);
    ArrowSchema schema;
    REQUIRE(st.get_schema(&st, &schema) == 0);
    CHECK(schema.n_children == static_cast<int64_t>(b0.fields.size()));
    CHECK(decode_metadata(schema.metadata) == std::map<std::string, std::string>{{"k", "v"}});
    ArrowArray x, y, end;
    REQUIRE(st.get_next(&st, &x) == 0);
    REQUIRE(st.get_next(&st, &y) == 0);
    REQUIRE(st.get_next(&st, &end) == 0);
    CHECK(x.release != nullptr);
    CHECK(y.release != nullptr);
    CHECK(end.release == nullptr);
    st.release(&st);  // arrays stay valid after the stream is gone
    CHECK(st.release == nullptr);
    CHECK(x.length == 4);
    CHECK(reinterpret_cast<const int32_t*>(y.children[2]->buffers[1])[1] == 1);  // i32 row 1 = variant
    x.release(&x);
    y.release(&y);
    schema.release(&schema);
  }
  SECTION("an error from the source becomes an errno and a message") {
    ArrowArrayStream st;
    capi::export_stream(std::make_unique<VectorSource>(std::vector<RecordBatch>{b0}, true), &st);
    ArrowArray x;
    REQUIRE(st.get_next(&st, &x) == 0);
    x.release(&x);
    CHECK(st.get_last_error(&st) == nullptr);
    ArrowArray bad;
    CHECK(st.get_next(&st, &bad) == EIO);
    CHECK(std::string(st.get_last_error(&st)) == "page 3 is broken");
    st.release(&st);
  }
}

TEST_CASE("lance_scan_stream reads a Lance file through the C API", "[arrow][c-data]") {
  const std::string path = source_path("data/sample/products.lance");
  SECTION("all columns, offset and limit") {
    ArrowArrayStream st;
    REQUIRE(lance_scan_stream(path.c_str(), nullptr, 10, 1500, 600, &st) == 0);
    ArrowSchema schema;
    REQUIRE(st.get_schema(&st, &schema) == 0);
    REQUIRE(schema.n_children == 6);
    CHECK(std::string(schema.children[0]->name) == "id");
    CHECK(std::string(schema.children[0]->format) == "l");
    CHECK(std::string(schema.children[5]->format) == "tsu:UTC");
    std::vector<int64_t> lengths;
    int64_t first_id = -1;
    for (;;) {
      ArrowArray a;
      REQUIRE(st.get_next(&st, &a) == 0);
      if (!a.release) break;
      if (lengths.empty()) first_id = reinterpret_cast<const int64_t*>(a.children[0]->buffers[1])[0];
      lengths.push_back(a.length);
      a.release(&a);
    }
    CHECK(lengths == std::vector<int64_t>{600, 600, 300});
    CHECK(first_id == 100010);
    schema.release(&schema);
    st.release(&st);
  }
  SECTION("a projection") {
    const char* cols[] = {"price", "id", nullptr};
    ArrowArrayStream st;
    REQUIRE(lance_scan_stream(path.c_str(), cols, 0, -1, 0, &st) == 0);
    ArrowSchema schema;
    REQUIRE(st.get_schema(&st, &schema) == 0);
    REQUIRE(schema.n_children == 2);
    CHECK(std::string(schema.children[0]->name) == "price");
    ArrowArray a;
    REQUIRE(st.get_next(&st, &a) == 0);
    CHECK(a.length == 2000);
    a.release(&a);
    schema.release(&schema);
    st.release(&st);
  }
  SECTION("errors: kind and message") {
    ArrowArrayStream st{};
    CHECK(lance_scan_stream("/nonexistent/x.lance", nullptr, 0, -1, 0, &st) == 1);
    CHECK(std::string(lance_last_error()).find("/nonexistent/x.lance") != std::string::npos);
    CHECK(st.release == nullptr);
    const char* cols[] = {"nope", nullptr};
    CHECK(lance_scan_stream(path.c_str(), cols, 0, -1, 0, &st) == 2);
    CHECK(std::string(lance_last_error()).find("nope") != std::string::npos);
  }
}
