// Files written by Lance 8.0 with encodings forced through field metadata (fixtures
// enc_*, scripts/fixtures/forced.mjs): scan equals Lance's reading, and each file really
// holds the encoding its column asks for (so a fixture that silently fell back to a default
// fails here). Also: page layouts and encodings Lance 8.0 never writes (sparse layout,
// Range, Delta, unknown oneof members) are refused with exit code 3 and a message naming
// the encoding, column and page.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <unistd.h>

#include "cli_runner.h"
#include "encoding/decompress.h"
#include "file2.pb.h"
#include "fixtures.h"
#include "format/file_reader.h"
#include "io/file.h"
#include "read/row_reader.h"
#include "structural/assemble.h"
#include "structural/blob.h"
#include "structural/leaf_data.h"
#include "structural/miniblock.h"
#include "structural/packed_struct.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using nlohmann::json;
namespace pb = ::lance::encodings21;

namespace {

// ---------------------------------------------------------------------------------------
// Fixtures and layouts
// ---------------------------------------------------------------------------------------

using EncFixture = lance::testing::FileFixture;

/// The forced-encoding fixtures (tables enc_*), every format version.
const std::vector<EncFixture>& enc_fixtures() {
  static const std::vector<EncFixture> all = lance::testing::file_fixtures_with_table_prefix("enc_");
  return all;
}

std::string describe_layout(const pb::PageLayout& layout);

std::string describe_miniblock(const pb::MiniBlockLayout& m) {
  using lance::encoding::describe;
  std::string s = "mini-block(values: " + describe(m.value_compression());
  if (m.has_rep_compression()) s += "; rep: " + describe(m.rep_compression());
  if (m.has_def_compression()) s += "; def: " + describe(m.def_compression());
  if (m.has_dictionary())
    s += "; dictionary[" + std::to_string(m.num_dictionary_items()) + "]: " + describe(m.dictionary());
  return s + ")";
}

std::string describe_fullzip(const pb::FullZipLayout& z) {
  std::string s = "full-zip(values: " + lance::encoding::describe(z.value_compression());
  s += fmt::format("; bits_rep={} bits_def={}", z.bits_rep(), z.bits_def());
  if (z.details_case() == pb::FullZipLayout::kBitsPerValue) s += fmt::format(" bits_per_value={}", z.bits_per_value());
  if (z.details_case() == pb::FullZipLayout::kBitsPerOffset)
    s += fmt::format(" bits_per_offset={}", z.bits_per_offset());
  return s + ")";
}

/// One line per layout, e.g. "mini-block(values: General(zstd) › Variable(offsets: Flat(32)); def: …)"
/// (`has_large_chunk` is left out: it follows the file version and is checked on its own).
std::string describe_layout(const pb::PageLayout& layout) {
  switch (layout.layout_case()) {
    case pb::PageLayout::kMiniBlockLayout:
      return describe_miniblock(layout.mini_block_layout());
    case pb::PageLayout::kFullZipLayout:
      return describe_fullzip(layout.full_zip_layout());
    case pb::PageLayout::kConstantLayout: {
      const auto& c = layout.constant_layout();
      if (c.has_inline_value()) return fmt::format("constant(inline {} bytes)", c.inline_value().size());
      return "constant(no inline value)";
    }
    case pb::PageLayout::kBlobLayout: {
      const auto& b = layout.blob_layout();
      const bool nullable = b.layers_size() > 0 && b.layers(0) == pb::REPDEF_NULLABLE_ITEM;
      return fmt::format("blob({}inner: {})", nullable ? "nullable, " : "", describe_layout(b.inner_layout()));
    }
    default:
      return "other layout";
  }
}

/// The column index of the `leaf`-th leaf column of top-level field `field`.
uint32_t column_of(const lance::format::FileReader& file, const std::string& field, size_t leaf) {
  const auto& fields = file.schema().fields;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name != field) continue;
    const auto& cols = file.field_columns().at(i);
    REQUIRE(leaf < cols.size());
    return cols[leaf];
  }
  FAIL("no field " << field);
  return 0;
}

/// Layout descriptions of every page of the `leaf`-th column of top-level field `field`
/// (constant pages also say how many buffers they have: 1 or 3 = a value buffer).
std::vector<std::string> page_layouts(const lance::format::FileReader& file, const std::string& field, size_t leaf) {
  std::vector<std::string> out;
  for (const auto& page : file.columns().at(column_of(file, field, leaf)).pages) {
    std::string d = describe_layout(*page.layout);
    if (page.layout->has_constant_layout()) d += fmt::format(" {} buffers", page.buffers.size());
    out.push_back(d);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// What each column must hold
// ---------------------------------------------------------------------------------------

enum Versions { all, v21, v22plus };

struct Expect {
  std::string table, column;
  Versions versions;
  std::vector<std::string> present;  // substrings of every page's description
  std::vector<std::string> absent = {};
  size_t leaf = 0;  // which leaf column of the field
};

bool applies(Versions v, const std::string& version) {
  return v == all || (v == v21 && version == "2.1") || (v == v22plus && version != "2.1");
}

// The encodings Lance 8.0 wrote for the forced knobs (checked against the files).
const std::vector<Expect>& expectations() {
  static const std::vector<Expect> e = {
      // --- general compression on mini-block chunks (ints need 4 KiB of values) ---
      {"enc_general_ints", "i32_zstd", all, {"mini-block(values: General(zstd) › ByteStreamSplit › Flat(32); def: "}},
      {"enc_general_ints", "i32_lz4", all, {"mini-block(values: General(lz4) › ByteStreamSplit › Flat(32))"}},
      {"enc_general_ints", "i64_zstd", all, {"mini-block(values: General(zstd level 7) › ByteStreamSplit › Flat(64))"}},
      // compression=none: no bit-packing, no FSST
      {"enc_general_ints", "i32_none", all, {"mini-block(values: Flat(32); def: "}},
      {"enc_general_strings", "s_zstd", all, {"mini-block(values: General(zstd) › Variable(offsets: Flat(32)); def: "}},
      {"enc_general_strings", "s_lz4", all, {"mini-block(values: General(lz4) › Variable(offsets: Flat(32)); def: "}},
      {"enc_general_strings", "b_zstd", all, {"mini-block(values: General(zstd) › Variable(offsets: Flat(32)); def: "}},
      {"enc_general_strings", "b_lz4", all, {"mini-block(values: General(lz4) › Variable(offsets: Flat(64)); def: "}},
      {"enc_general_strings", "s_none", all, {"mini-block(values: Variable(offsets: Flat(32)); def: "}},
      {"enc_general_strings",
       "l_i32_zstd",
       all,
       {"mini-block(values: General(zstd) › ByteStreamSplit › Flat(32); rep: "}},
      {"enc_general_strings", "l_s_lz4", all, {"mini-block(values: General(lz4) › Variable(offsets: Flat(32)); rep: "}},
      // --- general compression per full-zip value: always zstd, even for compression=lz4 ---
      {"enc_general_fullzip",
       "s_zstd",
       all,
       {"full-zip(values: General(zstd level 0) › Variable(offsets: Flat(32)); bits_rep=0 bits_def=1"}},
      {"enc_general_fullzip",
       "b_lz4",
       all,
       {"full-zip(values: General(zstd level 0) › Variable(offsets: Flat(32)); bits_rep=0 bits_def=1"}},
      {"enc_general_fullzip",
       "ls_zstd",
       all,
       {"full-zip(values: General(zstd level 0) › Variable(offsets: Flat(64)); bits_rep=1 bits_def=2"}},
      // --- byte-stream-split ---
      {"enc_bss_f32", "on_z", all, {"mini-block(values: General(zstd) › ByteStreamSplit › Flat(32))"}},
      {"enc_bss_f32", "on_l", all, {"mini-block(values: General(lz4) › ByteStreamSplit › Flat(32))"}},
      {"enc_bss_f32", "off_z", all, {"mini-block(values: General(zstd) › Flat(32))"}},
      {"enc_bss_f32", "off_l", all, {"mini-block(values: Flat(32))"}},  // lz4 did not help: dropped
      {"enc_bss_f32", "auto_z", all, {"mini-block(values: General(zstd) › ByteStreamSplit › Flat(32))"}},
      {"enc_bss_f32", "auto_l", all, {"mini-block(values: General(lz4) › ByteStreamSplit › Flat(32))"}},
      {"enc_bss_f32", "on_none", all, {"mini-block(values: Flat(32))"}},  // bss needs a compression scheme
      {"enc_bss_f32", "noisy", all, {"mini-block(values: General(zstd) › ByteStreamSplit › Flat(32); def: "}},
      {"enc_bss_f64", "on_z", all, {"mini-block(values: General(zstd) › ByteStreamSplit › Flat(64))"}},
      {"enc_bss_f64", "on_l", all, {"mini-block(values: General(lz4) › ByteStreamSplit › Flat(64))"}},
      {"enc_bss_f64", "off_z", all, {"mini-block(values: General(zstd) › Flat(64))"}},
      {"enc_bss_f64", "off_l", all, {"mini-block(values: General(lz4) › Flat(64))"}},
      {"enc_bss_f64", "auto_z", all, {"mini-block(values: General(zstd) › ByteStreamSplit › Flat(64))"}},
      {"enc_bss_f64", "auto_l", all, {"mini-block(values: General(lz4) › ByteStreamSplit › Flat(64))"}},
      {"enc_bss_f64", "on_none", all, {"mini-block(values: Flat(64))"}},
      {"enc_bss_f64", "noisy", all, {"mini-block(values: General(zstd) › ByteStreamSplit › Flat(64); def: "}},
      // --- RLE thresholds (0 is too strict for runs of 1-8) ---
      {"enc_rle", "t0", all, {"mini-block(values: InlineBitpacking(32))"}, {"Rle"}},
      {"enc_rle", "t03", all, {"mini-block(values: Rle(values: Flat(32), run_lengths: Flat(8)))"}},
      {"enc_rle", "i8", all, {"mini-block(values: Rle(values: Flat(8), run_lengths: Flat(8)))"}},
      {"enc_rle", "nr", all, {"mini-block(values: Rle(values: Flat(64), run_lengths: Flat(8)); def: "}},
      {"enc_rle", "nr_short", all, {"mini-block(values: Rle(values: Flat(32), run_lengths: Flat(8)); def: "}},
      {"enc_rle", "lr", all, {"mini-block(values: Rle(values: Flat(64), run_lengths: Flat(8)))"}},
      // --- FSST forced; < 32 KiB of text is stored raw ---
      {"enc_fsst", "s", all, {"mini-block(values: Fsst(n_symbols=", "Variable(offsets: Flat(32)); def: "}},
      {"enc_fsst", "ls", all, {"mini-block(values: Fsst(n_symbols=", "Variable(offsets: Flat(64)); def: "}},
      {"enc_fsst", "b", all, {"mini-block(values: Fsst(n_symbols=", "Variable(offsets: Flat(32)); def: "}},
      {"enc_fsst", "raw", all, {"mini-block(values: Fsst(raw) › Variable(offsets: Flat(32)); def: "}},
      // --- dictionaries: 2.1 never compresses the values and has no int64 dictionaries ---
      {"enc_dict", "s", v21, {"dictionary[41]: Variable(offsets: Flat(32)))"}},
      {"enc_dict", "s", v22plus, {"dictionary[41]: General(lz4) › Variable(offsets: Flat(32))"}},
      {"enc_dict", "s_div50", all, {"mini-block(values: Variable(offsets: Flat(32))"}, {"dictionary"}},
      {"enc_dict", "s_ratio01", all, {"mini-block(values: Variable(offsets: Flat(32))"}, {"dictionary"}},
      {"enc_dict", "s_zstd", v21, {"dictionary[41]: Variable(offsets: Flat(32)))"}},
      {"enc_dict", "s_zstd", v22plus, {"dictionary[41]: General(zstd) › Variable(offsets: Flat(32))"}},
      {"enc_dict", "s_zstd9", v21, {"dictionary[41]: Variable(offsets: Flat(32)))"}},
      {"enc_dict", "s_zstd9", v22plus, {"dictionary[41]: General(zstd level 9) › Variable(offsets: Flat(32))"}},
      {"enc_dict", "s_none", all, {"dictionary[41]: Variable(offsets: Flat(32)))"}},
      {"enc_dict", "i64", v21, {"mini-block(values: Flat(64))"}},
      {"enc_dict", "i64", v22plus, {"dictionary[49]: General(lz4) › Flat(64)"}},
      {"enc_dict", "i64_zstd", v21, {"mini-block(values: Flat(64))"}},
      {"enc_dict", "i64_zstd", v22plus, {"dictionary[49]: General(zstd) › Flat(64)"}},
      {"enc_dict", "i64_none", v21, {"mini-block(values: Flat(64))"}},
      {"enc_dict", "i64_none", v22plus, {"dictionary[49]: Flat(64))"}},
      {"enc_dict", "fsb", v21, {"dictionary[31]: Flat(128))"}},
      {"enc_dict", "fsb", v22plus, {"dictionary[31]: General(lz4) › Flat(128)"}},
      {"enc_dict", "fsb_zstd", v21, {"dictionary[31]: Flat(128))"}},
      {"enc_dict", "fsb_zstd", v22plus, {"dictionary[31]: General(zstd) › Flat(128)"}},
      {"enc_dict", "fsb_none", all, {"dictionary[31]: Flat(128))"}},
      // --- forced full-zip on narrow values ---
      {"enc_fullzip", "i32", all, {"full-zip(values: Flat(32); bits_rep=0 bits_def=1 bits_per_value=32)"}},
      {"enc_fullzip", "u8", all, {"full-zip(values: Flat(8); bits_rep=0 bits_def=0 bits_per_value=8)"}},
      {"enc_fullzip",
       "s",
       all,
       {"full-zip(values: Variable(offsets: Flat(32)); bits_rep=0 bits_def=1 bits_per_offset=32)"}},
      {"enc_fullzip", "l_i32", all, {"full-zip(values: Flat(32); bits_rep=1 bits_def=2 bits_per_value=32)"}},
      {"enc_fullzip",
       "fsl",
       all,
       {"full-zip(values: FixedSizeList(3, item validity) › Flat(32); bits_rep=0 bits_def=1"}},
      {"enc_fullzip", "st", all, {"full-zip(values: Flat(32); bits_rep=0 bits_def=2 bits_per_value=32)"}},
      {"enc_fullzip", "st", all, {"full-zip(values: Variable(offsets: Flat(32)); bits_rep=0 bits_def=2"}, {}, 1},
      {"enc_fullzip", "l_l", all, {"full-zip(values: Flat(32); bits_rep=2 bits_def=3 bits_per_value=32)"}},
      // --- forced mini-block on wide values ---
      {"enc_miniblock_wide", "s", all, {"mini-block(values: Variable(offsets: Flat(32)); def: "}},
      {"enc_miniblock_wide", "s_zstd", all, {"mini-block(values: General(zstd) › Variable(offsets: Flat(32)); def: "}},
      {"enc_miniblock_wide", "s_none", all, {"mini-block(values: Variable(offsets: Flat(32)); def: "}},
      {"enc_miniblock_wide", "fsl64", all, {"mini-block(values: FixedSizeList(64, item validity) › Flat(32); def: "}},
      {"enc_miniblock_wide", "fsb260", all, {"mini-block(values: Flat(2080))"}},
      // --- minichunk-size=512 (chunk sizes checked separately) ---
      {"enc_minichunk", "s", all, {"mini-block(values: Variable(offsets: Flat(32)); def: "}},
      {"enc_minichunk", "b", all, {"mini-block(values: Variable(offsets: Flat(32)); def: "}},
      {"enc_minichunk", "s_none", all, {"mini-block(values: Variable(offsets: Flat(64)); def: "}},
      // --- packed structs ---
      {"enc_packed", "ps", all, {"mini-block(values: PackedStruct(bits: 32+64+8) › Flat(104))"}},
      {"enc_packed", "ps_nn", all, {"mini-block(values: PackedStruct(bits: 16+64+128) › Flat(208))"}},
      {"enc_packed", "ps_legacy_key", all, {"mini-block(values: PackedStruct(bits: 32+32) › Flat(64))"}},
      {"enc_packed", "l_ps", all, {"mini-block(values: PackedStruct(bits: 16+32) › Flat(48); rep: "}},
      {"enc_packed_var",
       "vps",
       v22plus,
       {"full-zip(values: VariablePackedStruct(Flat(32) [32 bits], Variable(offsets: Flat(32)) [32-bit length], "
        "Flat(32) [32 bits])"}},
      {"enc_packed_var",
       "vps_kv",
       v22plus,
       {"full-zip(values: VariablePackedStruct(Variable(offsets: Flat(64)) [64-bit length], Variable(offsets: "
        "Flat(32)) [32-bit length])"}},
      {"enc_packed_var",
       "vps_fsl",
       v22plus,
       {"full-zip(values: VariablePackedStruct(Flat(32) [32 bits], FixedSizeList(2) › Flat(32) [64 bits])"}},
      // --- constant layout (2.2+): inline value, or a value buffer (1 or 3 buffers) ---
      {"enc_constant", "i64", v22plus, {"constant(inline 8 bytes) 0 buffers"}},
      {"enc_constant", "i32_nulls", v22plus, {"constant(inline 4 bytes) 2 buffers"}},
      {"enc_constant", "f64", v22plus, {"constant(inline 8 bytes) 0 buffers"}},
      {"enc_constant", "b", v22plus, {"constant(inline 1 bytes) 0 buffers"}},
      {"enc_constant", "dec", v22plus, {"constant(inline 16 bytes) 0 buffers"}},
      {"enc_constant", "fsb16", v22plus, {"constant(inline 16 bytes) 0 buffers"}},
      {"enc_constant", "l_i32", v22plus, {"constant(inline 4 bytes) 2 buffers"}},
      {"enc_constant", "s_short", v22plus, {"constant(no inline value) 1 buffers"}},
      {"enc_constant", "s_long", v22plus, {"constant(no inline value) 1 buffers"}},
      {"enc_constant", "ls_long", v22plus, {"constant(no inline value) 1 buffers"}},
      {"enc_constant", "s_nulls", v22plus, {"constant(no inline value) 3 buffers"}},
      {"enc_constant", "bin", v22plus, {"constant(no inline value) 1 buffers"}},
      {"enc_constant", "fsb40", v22plus, {"constant(no inline value) 1 buffers"}},
      {"enc_constant", "st", v22plus, {"constant(inline 4 bytes) 2 buffers"}},
      {"enc_constant", "st", v22plus, {"constant(no inline value) 3 buffers"}, {}, 1},
      // (2.1 writes these as RLE / dictionaries / flat mini-block pages)
      {"enc_constant", "i64", v21, {"mini-block(values: Rle("}},
      {"enc_constant", "i32_nulls", v21, {"mini-block(values: Rle("}},
      {"enc_constant", "f64", v21, {"mini-block(values: Rle("}},
      {"enc_constant", "b", v21, {"mini-block(values: Flat(1))"}},
      {"enc_constant", "dec", v21, {"dictionary[1]: Flat(128)"}},
      {"enc_constant", "fsb16", v21, {"dictionary[1]: Flat(128)"}},
      {"enc_constant", "l_i32", v21, {"mini-block(values: Rle("}},
      {"enc_constant", "s_short", v21, {"dictionary[1]: Variable"}},
      {"enc_constant", "s_long", v21, {"dictionary[1]: Variable"}},
      {"enc_constant", "ls_long", v21, {"dictionary[1]: Variable(offsets: Flat(64))"}},
      {"enc_constant", "s_nulls", v21, {"dictionary[2]: Variable"}},
      {"enc_constant", "bin", v21, {"dictionary[1]: Variable"}},
      {"enc_constant", "fsb40", v21, {"mini-block(values: Flat(320))"}},
      {"enc_constant", "st", v21, {"mini-block(values: InlineBitpacking(32); def: "}},
      {"enc_constant", "st", v21, {"dictionary[2]: Variable"}, {}, 1},
      // --- legacy blobs (2.1 only) ---
      {"enc_blob", "blob", v21, {"blob(nullable, inner: mini-block(values: PackedStruct(bits: 64+64) › Flat(128)))"}},
      {"enc_blob", "blob_nn", v21, {"blob(inner: mini-block(values: PackedStruct(bits: 64+64) › Flat(128)))"}},
  };
  return e;
}

/// The chunks of a mini-block page, from its chunk metadata (columns without repetition).
std::vector<lance::structural::MiniBlockChunkInfo> miniblock_chunks(const lance::format::FileReader& file,
                                                                    uint32_t column, size_t page_index = 0) {
  const auto& page = file.columns().at(column).pages.at(page_index);
  REQUIRE(page.layout->has_mini_block_layout());
  const auto& mb = page.layout->mini_block_layout();
  REQUIRE(mb.repetition_index_depth() == 0);
  lance::Bytes meta = file.io().read_range(page.buffers.at(0));
  return lance::structural::parse_miniblock_chunks(meta, mb.has_large_chunk(), mb.num_items(),
                                                   page.buffers.at(1).length, lance::ByteView(), 0, page.num_rows);
}

/// Column `column` of every row of a jsonl golden.
std::vector<json> golden_column(const std::string& golden_prefix, const std::string& column) {
  std::vector<json> out;
  std::istringstream in(read_text(golden_prefix + ".jsonl"));
  std::string line;
  while (std::getline(in, line)) out.push_back(json::parse(line).at(column));
  return out;
}

// ---------------------------------------------------------------------------------------
// Hand-built pages: a real file with one page's layout replaced
// ---------------------------------------------------------------------------------------

lance::Bytes read_bytes(const std::string& path) {
  std::string text = read_text(path);
  return lance::Bytes(text.begin(), text.end());
}

/// `file` (a 2.1+ data file) with the layout of page `page` of column `column` replaced by
/// `mutate(layout)`: the column metadata, both offset tables and the footer are rewritten
/// after the unchanged data, schema and global buffers.
lance::Bytes with_page_layout(const lance::Bytes& file, uint32_t column, int page,
                              const std::function<void(pb::PageLayout&)>& mutate) {
  lance::ByteView v(file);
  const uint64_t footer = file.size() - lance::format::kFooterSize;
  const uint64_t meta_start = v.read<uint64_t>(footer);
  const uint64_t gbo_start = v.read<uint64_t>(footer + 16);
  const uint32_t num_global = v.read<uint32_t>(footer + 24);
  const uint32_t num_columns = v.read<uint32_t>(footer + 28);
  const uint64_t cmo_start = v.read<uint64_t>(footer + 8);
  lance::Bytes out(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(meta_start));
  std::vector<std::pair<uint64_t, uint64_t>> entries;
  for (uint32_t c = 0; c < num_columns; ++c) {
    const uint64_t pos = v.read<uint64_t>(cmo_start + 16 * c), len = v.read<uint64_t>(cmo_start + 16 * c + 8);
    ::lance::file::v2::ColumnMetadata meta;
    REQUIRE(meta.ParseFromArray(file.data() + pos, static_cast<int>(len)));
    if (c == column) {
      auto* enc = meta.mutable_pages(page)->mutable_encoding()->mutable_direct();
      ::lance::wire::AnyMessage any;
      REQUIRE(any.ParseFromString(enc->encoding()));
      pb::PageLayout layout;
      REQUIRE(layout.ParseFromString(any.value()));
      mutate(layout);
      any.set_value(layout.SerializeAsString());
      enc->set_encoding(any.SerializeAsString());
    }
    const std::string bytes = meta.SerializeAsString();
    entries.emplace_back(out.size(), bytes.size());
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  const uint64_t new_cmo = out.size();
  for (auto [pos, len] : entries) {
    lance::append_le<uint64_t>(out, pos);
    lance::append_le<uint64_t>(out, len);
  }
  const uint64_t new_gbo = out.size();
  out.insert(out.end(), file.begin() + static_cast<std::ptrdiff_t>(gbo_start),
             file.begin() + static_cast<std::ptrdiff_t>(gbo_start + 16 * num_global));
  lance::append_le<uint64_t>(out, entries.front().first);
  lance::append_le<uint64_t>(out, new_cmo);
  lance::append_le<uint64_t>(out, new_gbo);
  out.insert(out.end(), file.begin() + static_cast<std::ptrdiff_t>(footer + 24), file.end());  // counts, version, magic
  return out;
}

/// Reads every row of every field of an in-memory file; returns the error it throws.
std::optional<lance::Error> read_error(const lance::Bytes& bytes) {
  try {
    auto file = lance::format::FileReader::open(std::make_shared<lance::io::MemoryFile>("hand-built.lance", bytes));
    std::vector<size_t> fields(file->schema().fields.size());
    for (size_t i = 0; i < fields.size(); ++i) fields[i] = i;
    lance::read::FileRowReader reader(file, fields);
    reader.read_range(0, reader.num_rows());
  } catch (const lance::Error& e) {
    return e;
  }
  return std::nullopt;
}

/// A temporary file holding `bytes`, removed when destroyed.
struct TempFile {
  std::string path;
  explicit TempFile(const lance::Bytes& bytes) {
    char name[] = "/tmp/lance-forced-XXXXXX";
    int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
    close(fd);
    path = name;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

pb::CompressiveEncoding flat_encoding(uint64_t bits) {
  pb::CompressiveEncoding e;
  e.mutable_flat()->set_bits_per_value(bits);
  return e;
}

}  // namespace

TEST_CASE("forced-encoding fixtures: print the layouts", "[.forced-dump]") {
  for (const auto& fx : enc_fixtures()) {
    auto file = lance::format::FileReader::open(fx.file);
    for (const auto& field : file->schema().fields) {
      std::vector<const lance::format::LanceField*> leaves;
      lance::format::structural_leaves(field, leaves);
      for (size_t l = 0; l < leaves.size(); ++l)
        for (const auto& d : page_layouts(*file, field.name, l))
          std::printf("%s %s[%zu] %s\n", fx.name.c_str(), field.name.c_str(), l, d.c_str());
      if ((fx.table == "enc_minichunk" || fx.table == "enc_rle" || fx.table == "enc_general_strings") &&
          field.name.rfind("l_", 0) != 0) {
        auto chunks = miniblock_chunks(*file, column_of(*file, field.name, 0));
        std::printf("  chunks:");
        for (const auto& c : chunks)
          std::printf(" %llu/%llu", (unsigned long long)c.size, (unsigned long long)c.num_values);
        std::printf("\n");
      }
    }
  }
}

TEST_CASE("forced encodings: every enc_ column holds the encoding it forces", "[forced]") {
  REQUIRE(!enc_fixtures().empty());
  std::set<size_t> used;
  for (const auto& fx : enc_fixtures()) {
    auto file = lance::format::FileReader::open(fx.file);
    for (const auto& field : file->schema().fields) {
      std::vector<const lance::format::LanceField*> leaves;
      lance::format::structural_leaves(field, leaves);
      for (size_t leaf = 0; leaf < leaves.size(); ++leaf) {
        INFO(fx.name << " " << field.name << "[" << leaf << "]");
        const auto pages = page_layouts(*file, field.name, leaf);
        REQUIRE(!pages.empty());
        size_t matched = 0;
        for (size_t k = 0; k < expectations().size(); ++k) {
          const Expect& e = expectations()[k];
          if (e.table != fx.table || e.column != field.name || e.leaf != leaf || !applies(e.versions, fx.version))
            continue;
          ++matched;
          used.insert(k);
          for (const auto& d : pages) {
            INFO("layout: " << d);
            for (const auto& p : e.present) CHECK(d.find(p) != std::string::npos);
            for (const auto& a : e.absent) CHECK(d.find(a) == std::string::npos);
          }
        }
        INFO("every forced column needs an expectation in this file");
        CHECK(matched > 0);
        // Large mini-block chunks follow the version: never in 2.1, always in 2.2+.
        for (const auto& page : file->columns().at(column_of(*file, field.name, leaf)).pages) {
          const auto* layout = page.layout.get();
          if (layout->has_blob_layout()) layout = &layout->blob_layout().inner_layout();
          if (layout->has_mini_block_layout())
            CHECK(layout->mini_block_layout().has_large_chunk() == (fx.version != "2.1"));
        }
      }
    }
  }
  for (size_t k = 0; k < expectations().size(); ++k) {
    INFO("expectation for " << expectations()[k].table << "." << expectations()[k].column << " matched no file");
    CHECK(used.count(k) == 1);
  }
}

TEST_CASE("forced encodings: scan and take equal Lance's reading", "[forced]") {
  for (const auto& fx : enc_fixtures()) {
    DYNAMIC_SECTION(fx.name << " scan") {
      for (std::string fmt : {"jsonl", "csv"}) {
        auto r = run_cli({"scan", fx.file, "-f", fmt});
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        CHECK(r.out == read_text(fx.golden + "." + fmt));
      }
    }
    DYNAMIC_SECTION(fx.name << " take") {
      // Rows at chunk boundaries of the default chunk sizes and of the RLE fixture, the
      // last row, repeats and reverse order.
      std::vector<uint64_t> rows;
      for (uint64_t r : {0ull, 1ull, 15ull, 16ull, 127ull, 128ull, 1023ull, 1024ull, 2047ull, 2048ull})
        if (r < fx.num_rows) rows.push_back(r);
      rows.push_back(fx.num_rows - 1);
      rows.push_back(fx.num_rows / 2);
      rows.push_back(0);
      std::string arg;
      for (auto r : rows) arg += (arg.empty() ? "" : ",") + std::to_string(r);
      auto r = run_cli({"take", fx.file, "--rows", arg, "-f", "jsonl"});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      std::vector<std::string> want;
      std::istringstream in(read_text(fx.golden + ".jsonl"));
      for (std::string line; std::getline(in, line);) want.push_back(line);
      std::string expect;
      for (auto row : rows) expect += want.at(row) + "\n";
      CHECK(r.out == expect);
    }
  }
}

TEST_CASE("forced encodings: minichunk-size=512 makes small mini-block chunks", "[forced]") {
  size_t checked = 0;
  for (const auto& fx : enc_fixtures()) {
    if (fx.table != "enc_minichunk" && fx.table != "enc_general_strings") continue;
    auto file = lance::format::FileReader::open(fx.file);
    for (const std::string column : {"s", "b", "s_none"}) {
      if (fx.table == "enc_general_strings" && column != "s_none") continue;
      DYNAMIC_SECTION(fx.name << " " << column) {
        auto chunks = miniblock_chunks(*file, column_of(*file, column, 0));
        uint64_t max_size = 0;
        for (const auto& c : chunks) max_size = std::max(max_size, c.size);
        if (fx.table == "enc_minichunk") {
          // ~500-byte chunks of 16 values (the default aims at 4 KiB: 128-value chunks of ~3 KiB)
          CHECK(chunks.size() >= 20);
          CHECK(max_size <= 1024);
        } else {
          CHECK(max_size > 2048);
        }
        ++checked;
      }
    }
  }
  CHECK(checked > 0);
}

TEST_CASE("forced encodings: RLE runs of values and of nulls cross mini-block chunk boundaries", "[forced]") {
  size_t checked = 0;
  for (const auto& fx : enc_fixtures()) {
    if (fx.table != "enc_rle") continue;
    auto file = lance::format::FileReader::open(fx.file);
    for (const std::string column : {"lr", "nr"}) {
      DYNAMIC_SECTION(fx.name << " " << column) {
        auto chunks = miniblock_chunks(*file, column_of(*file, column, 0));
        REQUIRE(chunks.size() >= 2);
        const auto values = golden_column(fx.golden, column);
        REQUIRE(values.size() == fx.num_rows);
        size_t crossing = 0;
        uint64_t boundary = 0;
        for (size_t c = 0; c + 1 < chunks.size(); ++c) {
          boundary += chunks[c].num_values;
          if (values.at(boundary - 1) == values.at(boundary)) {
            ++crossing;
            if (column == "nr") CHECK(values.at(boundary).is_null());
            // take the two rows on either side of the boundary, alone
            auto r = run_cli({"take", fx.file, "-c", column, "--rows",
                              std::to_string(boundary - 1) + "-" + std::to_string(boundary), "-f", "jsonl"});
            REQUIRE(r.exit_code == 0);
            json v = json{{column, values.at(boundary)}};
            CHECK(r.out == v.dump() + "\n" + v.dump() + "\n");
          }
        }
        CHECK(crossing >= 1);
        ++checked;
      }
    }
  }
  CHECK(checked > 0);
}

TEST_CASE("forced encodings: what Lance 8.0 refused is recorded", "[forced]") {
  const json& index = lance::testing::fixture_index();
  std::map<std::string, std::string> seen;  // "fixture version column" -> error
  for (const auto& r : index["rejected"])
    seen[r["fixture"].get<std::string>() + " " + r["version"].get<std::string>() + " " +
         r["column"].get<std::string>()] = r["error"];
  for (const std::string v : {"2.2", "2.3"}) {
    for (const std::string c : {"blob", "blob_nn"}) {
      INFO("enc_blob " << v << " " << c);
      REQUIRE(seen.count("enc_blob " + v + " " + c));
      CHECK(seen["enc_blob " + v + " " + c].find("Legacy blob columns") != std::string::npos);
    }
  }
  for (const std::string c : {"vps", "vps_kv", "vps_fsl"}) {
    INFO("enc_packed_var 2.1 " << c);
    REQUIRE(seen.count("enc_packed_var 2.1 " + c));
    CHECK(seen["enc_packed_var 2.1 " + c].find("Variable packed struct encoding requires Lance file version 2.2") !=
          std::string::npos);
  }
}

TEST_CASE("layouts and encodings Lance 8.0 does not write: exit 3 naming the encoding, column and page",
          "[forced][unsupported]") {
  // enc_general_ints-v2.2: column 0 = field 'i32_zstd', one mini-block page; 'i32_none'
  // (column 3) is a plain Flat(32) page. enc_fullzip-v2.2: column 0 = 'i32', full-zip.
  const lance::Bytes ints = read_bytes(source_path("data/fixtures/enc_general_ints-v2.2.lance"));
  const lance::Bytes fullzip = read_bytes(source_path("data/fixtures/enc_fullzip-v2.2.lance"));
  struct Case {
    std::string what;
    const lance::Bytes* file;
    uint32_t column;
    std::function<void(pb::PageLayout&)> mutate;
    std::string message;  // the detail, after "…: column C (field 'F'): page 0: …"
    std::string field;
  };
  const std::vector<Case> cases = {
      // Sparse pages are read (Lance 12's 2.3); a fixed-size-list layer in one is not yet.
      {"sparse layout with a fixed-size-list layer", &ints, 0,
       [](pb::PageLayout& l) {
         auto* s = l.mutable_sparse_layout();
         s->mutable_value_compression()->mutable_flat()->set_bits_per_value(32);
         s->add_structural_layers()->mutable_fixed_size_list()->set_dimension(2);
       },
       "sparse pages with fixed-size-list layers are not supported", "i32_zstd"},
      {"unknown PageLayout member", &ints, 0,
       [](pb::PageLayout& l) {
         l.Clear();
         REQUIRE(l.ParseFromString(std::string("\x32\x00", 2)));  // only field 6 (length-delimited, empty): unknown
       },
       "unknown page layout (field 6 of PageLayout) is not supported", "i32_zstd"},
      {"Range values", &ints, 3,
       [](pb::PageLayout& l) {
         auto* r = l.mutable_mini_block_layout()->mutable_value_compression()->mutable_range();
         r->set_uncompressed_bits_per_value(32);
         r->set_start(1);
         r->set_step(2);
       },
       "Range encoding in a mini-block chunk is not supported", "i32_none"},
      {"Delta values", &ints, 3,
       [](pb::PageLayout& l) {
         auto* d = l.mutable_mini_block_layout()->mutable_value_compression()->mutable_delta();
         d->set_uncompressed_bits_per_value(32);
         *d->mutable_deltas() = flat_encoding(8);
       },
       "Delta encoding in a mini-block chunk is not supported", "i32_none"},
      {"Range definition levels", &ints, 3,
       [](pb::PageLayout& l) {
         l.mutable_mini_block_layout()->mutable_def_compression()->mutable_range()->set_uncompressed_bits_per_value(16);
       },
       "Range encoding in a block buffer is not supported", "i32_none"},
      {"unknown CompressiveEncoding member", &ints, 3,
       [](pb::PageLayout& l) {
         auto* v = l.mutable_mini_block_layout()->mutable_value_compression();
         v->Clear();
         REQUIRE(
             v->ParseFromString(std::string("\x82\x01\x00", 3)));  // only field 16 (length-delimited, empty): unknown
       },
       "unknown encoding (field 16 of CompressiveEncoding) in a mini-block chunk is not supported", "i32_none"},
      {"Delta per full-zip value", &fullzip, 0,
       [](pb::PageLayout& l) {
         auto* d = l.mutable_full_zip_layout()->mutable_value_compression()->mutable_delta();
         d->set_uncompressed_bits_per_value(32);
         *d->mutable_deltas() = flat_encoding(8);
       },
       "Delta encoding in a fixed-width full-zip value is not supported", "i32"},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.what) {
      const lance::Bytes bytes = with_page_layout(*c.file, c.column, 0, c.mutate);
      // The library: an unsupported error with file, column and page context.
      auto err = read_error(bytes);
      REQUIRE(err.has_value());
      INFO(err->what());
      CHECK(err->kind() == lance::ErrorKind::unsupported);
      const std::string where = fmt::format("column {} (field '{}'): page 0: ", c.column, c.field);
      CHECK(std::string(err->what()).find(where) != std::string::npos);
      CHECK(std::string(err->what()).find(c.message) != std::string::npos);
      // The CLI: exit code 3, one line on stderr with the same message.
      TempFile tmp(bytes);
      std::vector<std::string> args = {"scan", tmp.path, "-f", "jsonl"};
      if (c.column != 0) args = {"scan", tmp.path, "-c", c.field, "-f", "jsonl"};
      auto r = run_cli(args);
      INFO(r.err);
      CHECK(r.exit_code == 3);
      CHECK(r.err.find(where) != std::string::npos);
      CHECK(r.err.find(c.message) != std::string::npos);
      CHECK(r.out.empty());
    }
  }
}

// ---------------------------------------------------------------------------------------
// Hand-made buffers: blob descriptors, packed struct rows, appending packed values
// ---------------------------------------------------------------------------------------

namespace {

lance::encoding::DataBlock fixed_block(uint64_t bits, std::vector<uint64_t> values) {
  lance::encoding::DataBlock b;
  b.num_values = values.size();
  b.bits_per_value = bits;
  for (auto v : values) {
    for (uint64_t k = 0; k < bits / 8; ++k) b.data.push_back(static_cast<uint8_t>(k < 8 ? v >> (8 * k) : 0));
  }
  return b;
}

lance::encoding::DataBlock variable_block32(const std::vector<std::string>& values) {
  lance::encoding::DataBlock b;
  b.num_values = values.size();
  b.bits_per_offset = 32;
  lance::append_le<uint32_t>(b.offsets, 0);
  for (const auto& v : values) {
    b.data.insert(b.data.end(), v.begin(), v.end());
    lance::append_le<uint32_t>(b.offsets, static_cast<uint32_t>(b.data.size()));
  }
  return b;
}

lance::FieldPtr arrow_field(const std::string& name, lance::TypePtr type) {
  auto f = std::make_shared<lance::Field>();
  f->name = name;
  f->type = std::move(type);
  return f;
}

}  // namespace

TEST_CASE("blob descriptors from packed rows and from struct children", "[forced][unit]") {
  using lance::structural::blob_descriptors;
  // PackedStruct{64, 64} rows: (position, size) pairs back to back.
  lance::encoding::DataBlock rows;
  rows.num_values = 3;
  rows.bits_per_value = 128;
  rows.packed_child_bits = {64, 64};
  for (uint64_t v : {4096ull, 10ull, 0ull, 0ull, 0x10000ull, 0ull}) lance::append_le<uint64_t>(rows.data, v);
  auto d = blob_descriptors(rows);
  REQUIRE(d.size() == 3);
  CHECK((d[0].position == 4096 && d[0].size == 10));
  CHECK((d[1].position == 0 && d[1].size == 0));        // empty blob
  CHECK((d[2].position == 0x10000 && d[2].size == 0));  // placeholder: def 1 << 16
  // The same as a struct block with two u64 children.
  lance::encoding::DataBlock st;
  st.num_values = 2;
  st.children = {fixed_block(64, {7, 8}), fixed_block(64, {1, 2})};
  d = blob_descriptors(st);
  CHECK((d[1].position == 8 && d[1].size == 2));
  // Anything else is corrupt.
  CHECK_THROWS_AS(blob_descriptors(fixed_block(64, {1, 2})), lance::Error);
  rows.packed_child_bits = {32, 96};
  CHECK_THROWS_AS(blob_descriptors(rows), lance::Error);
  st.children.pop_back();
  CHECK_THROWS_AS(blob_descriptors(st), lance::Error);
}

TEST_CASE("packed struct rows split into children and assemble into a struct array", "[forced][unit]") {
  // Rows {u16 a, i32 b}: 6 bytes each, row-major.
  lance::encoding::DataBlock rows;
  rows.num_values = 2;
  rows.bits_per_value = 48;
  rows.packed_child_bits = {16, 32};
  rows.data = {0x01, 0x00, 0xff, 0xff, 0xff, 0xff, 0x02, 0x01, 0x05, 0x00, 0x00, 0x00};
  auto kids = lance::structural::split_packed_rows(rows);
  REQUIRE(kids.size() == 2);
  CHECK(kids[0].data == lance::Bytes{0x01, 0x00, 0x02, 0x01});
  CHECK(kids[1].data == lance::Bytes{0xff, 0xff, 0xff, 0xff, 0x05, 0x00, 0x00, 0x00});

  auto type = lance::make_struct({arrow_field("a", lance::make_type(lance::TypeId::uint16)),
                                  arrow_field("b", lance::make_type(lance::TypeId::int32))});
  auto array = lance::structural::values_to_array(type, lance::encoding::DataBlock(rows), {1, 0});
  REQUIRE(array->length == 2);
  CHECK(array->null_count == 1);
  CHECK(array->children.at(0)->values<uint16_t>()[1] == 0x0102);
  CHECK(array->children.at(1)->values<int32_t>()[0] == -1);

  // A bool child (1 bit, written as no bytes by Lance 8.0) is unsupported, a width
  // mismatch corrupt.
  rows.packed_child_bits = {16, 31, 1};
  try {
    lance::structural::split_packed_rows(rows);
    FAIL("expected an error");
  } catch (const lance::Error& e) {
    CHECK(e.kind() == lance::ErrorKind::unsupported);
  }
  rows.packed_child_bits = {16, 16};
  CHECK_THROWS_AS(lance::structural::split_packed_rows(rows), lance::Error);

  // VariablePackedStruct values: one block per field.
  lance::encoding::DataBlock vps;
  vps.num_values = 2;
  vps.children = {fixed_block(32, {7, 9}), variable_block32({"x", "yz"})};
  auto vtype = lance::make_struct({arrow_field("id", lance::make_type(lance::TypeId::int32)),
                                   arrow_field("name", lance::make_type(lance::TypeId::utf8))});
  auto varray = lance::structural::values_to_array(vtype, std::move(vps), {});
  REQUIRE(varray->children.size() == 2);
  CHECK(varray->children[1]->length == 2);
  CHECK(varray->children[1]->values<int32_t>(0)[2] == 3);  // offsets [0, 1, 3]
}

TEST_CASE("appending VariablePackedStruct values field by field, widening 32-bit offsets", "[forced][unit]") {
  lance::encoding::DataBlock a;
  a.num_values = 2;
  a.children = {fixed_block(32, {1, 2}), variable_block32({"a", "bc"})};
  lance::encoding::DataBlock b;
  b.num_values = 2;
  b.children = {fixed_block(32, {3, 4}), variable_block32({"", "def"})};
  // A destination taken over whole (32-bit offsets), then appended to.
  lance::encoding::DataBlock dst = a;
  lance::structural::append_values(dst, b, 1, 2);
  REQUIRE(dst.num_values == 3);
  REQUIRE(dst.children.size() == 2);
  CHECK(dst.children[0].data == fixed_block(32, {1, 2, 4}).data);
  const auto& names = dst.children[1];
  CHECK(names.bits_per_offset == 64);
  CHECK(std::string(names.data.begin(), names.data.end()) == "abcdef");
  CHECK(names.offset(2) == 3);
  CHECK(names.offset(3) == 6);
  // Packed values never mix with plain ones.
  lance::encoding::DataBlock plain = fixed_block(32, {5});
  CHECK_THROWS_AS(lance::structural::append_values(plain, b, 0, 1), lance::Error);
}

TEST_CASE("blob pages: descriptors outside the file are corrupt, blobs in lists unsupported", "[forced][unit]") {
  const std::string path = source_path("data/fixtures/enc_blob-v2.1.lance");
  const lance::Bytes original = read_bytes(path);
  auto file = lance::format::FileReader::open(path);
  const auto& page = file->columns().at(0).pages.at(0);
  REQUIRE(page.layout->has_blob_layout());
  // The inner page is one uncompressed 2.1 mini-block chunk: a 4-byte header padded to 8,
  // then 16-byte {position, size} rows. Row 0 is a real blob: make its size absurd.
  lance::Bytes bytes = original;
  const uint64_t row0 = page.buffers.at(1).offset + 8;
  REQUIRE(lance::ByteView(bytes).read<uint64_t>(row0 + 8) > 0);
  const uint64_t huge = uint64_t{1} << 40;
  std::memcpy(bytes.data() + row0 + 8, &huge, 8);
  auto err = read_error(bytes);
  REQUIRE(err.has_value());
  CHECK(err->kind() == lance::ErrorKind::corrupt);
  CHECK(std::string(err->what()).find("lies outside the") != std::string::npos);

  // A list layer around the blob: its rows would need the descriptors' repetition levels.
  lance::Bytes listed = with_page_layout(
      original, 0, 0, [](pb::PageLayout& l) { l.mutable_blob_layout()->add_layers(pb::REPDEF_NULLABLE_LIST); });
  err = read_error(listed);
  REQUIRE(err.has_value());
  CHECK(err->kind() == lance::ErrorKind::unsupported);
  CHECK(std::string(err->what()).find("blob columns inside lists are not supported") != std::string::npos);
}

TEST_CASE("full-zip takes: a repetition index that moves a row between two row ranges is corrupt", "[forced][unit]") {
  // ls_zstd (list<large_string>, General zstd per value) is one full-zip page with a 2-byte
  // repetition index: entry r is where row r's bytes start in the zipped values. Point entry 5
  // at row 6 and entry 6 at row 7: the bytes of rows [4, 5) then hold rows 4 and 5, those of
  // [6, 7) nothing. A take of rows 4 and 6 still finds two rows in all, so only the check of
  // each range's own rows sees it.
  const std::string path = source_path("data/fixtures/enc_general_fullzip-v2.1.lance");
  lance::Bytes bytes = read_bytes(path);
  auto file = lance::format::FileReader::open(path);
  size_t field = 0;
  while (field < file->schema().fields.size() && file->schema().fields[field].name != "ls_zstd") ++field;
  REQUIRE(field < file->schema().fields.size());
  const uint32_t leaf = file->field_columns().at(field).back();
  const auto& page = file->columns().at(leaf).pages.at(0);
  REQUIRE(page.layout->has_full_zip_layout());
  REQUIRE(page.buffers.size() >= 2);
  const auto& index = page.buffers.at(1);
  REQUIRE(index.length == (page.num_rows + 1) * 2);
  auto entry = [&](uint64_t r) { return lance::ByteView(bytes).read<uint16_t>(index.offset + 2 * r); };
  const uint16_t row6 = entry(6), row7 = entry(7);
  REQUIRE(entry(5) < row6);
  REQUIRE(row6 < row7);
  std::memcpy(bytes.data() + index.offset + 2 * 5, &row6, 2);
  std::memcpy(bytes.data() + index.offset + 2 * 6, &row7, 2);

  auto take = [&](const lance::Bytes& b, std::vector<uint64_t> rows) {
    auto f = lance::format::FileReader::open(std::make_shared<lance::io::MemoryFile>("shifted.lance", b));
    lance::read::FileRowReader reader(f, std::vector<size_t>{field});
    return reader.take(rows);
  };
  CHECK(take(read_bytes(path), {4, 6}).num_rows == 2);  // the file as written
  try {
    take(bytes, {4, 6});
    FAIL("the shifted repetition index was not noticed");
  } catch (const lance::Error& e) {
    CHECK(e.kind() == lance::ErrorKind::corrupt);
    CHECK(std::string(e.what()).find("full-zip data of rows [4, 5) holds 2 rows") != std::string::npos);
  }
}
