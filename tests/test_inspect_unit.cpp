// lib/inspect unit tests: layouts built by hand (incl. ones the decoders cannot read),
// the 2.0 array-encoding rendering, damaged chunk metadata, size formatting.
#include <catch2/catch.hpp>

#include "cli_runner.h"
#include "format/file_reader.h"
#include "inspect/inspect.h"
#include "inspect/internal.h"
#include "inspect/render.h"
#include "io/file.h"

using namespace lance;
namespace pb = ::lance::encodings21;
namespace pb0 = ::lance::encodings;

TEST_CASE("format_bytes: human and exact sizes", "[inspect]") {
  CHECK(inspect::format_bytes(0, false) == "0 B");
  CHECK(inspect::format_bytes(1023, false) == "1023 B");
  CHECK(inspect::format_bytes(1024, false) == "1.0 KiB");
  CHECK(inspect::format_bytes(9523, false) == "9.3 KiB");
  CHECK(inspect::format_bytes(3 * 1024 * 1024 + 512 * 1024, false) == "3.5 MiB");
  CHECK(inspect::format_bytes(uint64_t{5} << 30, false) == "5.0 GiB");
  CHECK(inspect::format_bytes(9523, true) == "9523 B");
}

TEST_CASE("describe_layout names layouts the decoders cannot read", "[inspect]") {
  pb::PageLayout layout;
  auto* sparse = layout.mutable_sparse_layout();
  auto* range = sparse->mutable_value_compression()->mutable_range();
  range->set_uncompressed_bits_per_value(64);
  range->set_start(10);
  range->set_step(3);
  sparse->set_num_buffers(1);
  sparse->set_num_items(100);
  sparse->set_num_visible_items(90);
  sparse->set_has_large_chunk(true);
  auto d = inspect::describe_layout(layout, 3);
  CHECK(d.name == "sparse");
  REQUIRE(d.sparse);
  CHECK(d.sparse->value_compression == "Range(64, start=10, step=3)");
  CHECK(d.sparse->num_visible_items == 90);
  CHECK(inspect::layout_buffer_roles(d, 3) == std::vector<std::string>{"chunk metadata", "chunks", "position set"});

  // a mini-block page whose values use an encoding newer than Lance 8.0 (Delta)
  pb::PageLayout mb;
  auto* m = mb.mutable_mini_block_layout();
  m->mutable_value_compression()->mutable_delta()->set_uncompressed_bits_per_value(32);
  m->mutable_value_compression()->mutable_delta()->mutable_deltas()->mutable_flat()->set_bits_per_value(8);
  m->add_layers(pb::REPDEF_NULLABLE_ITEM);
  m->mutable_def_compression()->mutable_flat()->set_bits_per_value(16);
  m->set_num_buffers(1);
  m->set_repetition_index_depth(1);
  auto md = inspect::describe_layout(mb, 3);
  CHECK(md.name == "mini-block");
  REQUIRE(md.mini_block);
  CHECK(md.mini_block->value_compression == "Delta(32, base=0, deltas: Flat(8))");
  CHECK(md.mini_block->layers == std::vector<std::string>{"NULLABLE_ITEM"});
  CHECK(md.mini_block->def_compression == std::optional<std::string>("Flat(16)"));
  CHECK(!md.mini_block->rep_compression);
  CHECK(inspect::layout_buffer_roles(md, 3) ==
        std::vector<std::string>{"chunk metadata", "chunks", "repetition index"});

  // an empty PageLayout (e.g. a layout added after this reader was written)
  pb::PageLayout unknown;
  CHECK(inspect::describe_layout(unknown, 2).name == "unknown");
  CHECK(inspect::layout_buffer_roles(inspect::describe_layout(unknown, 2), 2) ==
        std::vector<std::string>{"buffer", "buffer"});
}

TEST_CASE("describe_layout: constant versus all-null by inline value and buffer count", "[inspect]") {
  pb::PageLayout layout;
  auto* c = layout.mutable_constant_layout();
  c->add_layers(pb::REPDEF_NULLABLE_ITEM);
  CHECK(inspect::describe_layout(layout, 0).name == "all-null");
  auto all_null_levels = inspect::describe_layout(layout, 2);
  CHECK(all_null_levels.name == "all-null");
  CHECK(inspect::layout_buffer_roles(all_null_levels, 2) == std::vector<std::string>{"repetition", "definition"});
  auto in_buffer = inspect::describe_layout(layout, 3);
  CHECK(in_buffer.name == "constant");
  CHECK(inspect::layout_buffer_roles(in_buffer, 3) == std::vector<std::string>{"scalar", "repetition", "definition"});
  c->set_inline_value(std::string("\x2a\0\0\0", 4));
  auto inl = inspect::describe_layout(layout, 0);
  CHECK(inl.name == "constant");
  REQUIRE(inl.constant);
  CHECK(inl.constant->inline_value_bytes == std::optional<uint64_t>(4));
}

TEST_CASE("describe_array_encoding renders the 2.0 tree and finds buffer roles", "[inspect]") {
  pb0::ArrayEncoding enc;
  auto* some = enc.mutable_nullable()->mutable_some_nulls();
  some->mutable_validity()->mutable_flat()->set_bits_per_value(1);
  some->mutable_validity()->mutable_flat()->mutable_buffer()->set_buffer_index(0);
  some->mutable_values()->mutable_flat()->set_bits_per_value(32);
  some->mutable_values()->mutable_flat()->mutable_buffer()->set_buffer_index(1);
  CHECK(inspect::describe_array_encoding(enc) == "Nullable(some_nulls) › Flat(32)");
  CHECK(inspect::array_encoding_buffer_roles(enc, 2) == std::vector<std::string>{"validity", "values"});

  pb0::ArrayEncoding bin;
  auto* b = bin.mutable_binary();
  b->mutable_indices()->mutable_nullable()->mutable_no_nulls()->mutable_values()->mutable_flat()->set_bits_per_value(
      64);
  auto* bytes = b->mutable_bytes()->mutable_flat();
  bytes->set_bits_per_value(8);
  bytes->mutable_buffer()->set_buffer_index(1);
  bytes->mutable_compression()->set_scheme("zstd");
  CHECK(inspect::describe_array_encoding(bin) ==
        "Binary(indices: Nullable(no_nulls) › Flat(64), bytes: Flat(8, zstd))");
  CHECK(inspect::array_encoding_buffer_roles(bin, 3) == std::vector<std::string>{"offsets", "bytes", "buffer"});

  pb0::ArrayEncoding unset;
  CHECK(inspect::describe_array_encoding(unset) == "(unset or unknown)");
}

TEST_CASE("inspect_pages keeps going when a page's chunk metadata is damaged", "[inspect]") {
  const std::string path = lance::testing::source_path("data/fixtures/ints-v2.2.lance");
  Bytes data;
  {
    std::string text = lance::testing::read_text(path);
    data.assign(text.begin(), text.end());
  }
  auto good = format::FileReader::open(std::make_shared<io::MemoryFile>("ints", data));
  const auto& meta_buf = good->columns().at(0).pages.at(0).buffers.at(0);
  REQUIRE(meta_buf.length >= 4);
  // a chunk metadata word claiming a chunk far larger than the chunk buffer
  for (uint64_t i = 0; i < meta_buf.length; ++i) data[meta_buf.offset + i] = 0xFF;
  auto bad = format::FileReader::open(std::make_shared<io::MemoryFile>("ints", data));
  inspect::PagesReport report;
  REQUIRE_NOTHROW(report = inspect::inspect_pages(*bad));
  REQUIRE(report.columns.size() == 11);
  const auto& page = report.columns[0].pages.at(0);
  REQUIRE(page.error);
  CHECK(page.error->find("chunk metadata") != std::string::npos);
  CHECK(!page.layout.mini_block->chunks);
  CHECK(page.layout.name == "mini-block");
  CHECK(report.columns[1].pages.at(0).layout.mini_block->chunks);  // the other columns are intact
  auto text = inspect::render_text(report);
  CHECK(text.find("error") != std::string::npos);
  auto json = inspect::to_json(report);
  CHECK(json["columns"][0]["pages"][0].contains("error"));
}

TEST_CASE("inspect_pages filter: unknown columns are usage errors", "[inspect]") {
  auto file = format::FileReader::open(lance::testing::source_path("data/fixtures/ints-v2.1.lance"));
  inspect::PageFilter filter;
  filter.columns = {"i8", "missing"};
  try {
    inspect::inspect_pages(*file, filter);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK(std::string(e.what()).find("missing") != std::string::npos);
  }
  filter.columns = {"i8"};
  filter.read_chunk_metadata = false;
  auto report = inspect::inspect_pages(*file, filter);
  REQUIRE(report.columns.size() == 1);
  CHECK(!report.columns[0].pages[0].layout.mini_block->chunks);
}
