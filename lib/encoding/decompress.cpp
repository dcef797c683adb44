// Dispatch from a `CompressiveEncoding` tree to the per-encoding kernels, per context
// (docs/format.md §6.0). Protobuf is only read here; the kernels work on bytes.
#include "encoding/decompress.h"

#include <cstring>

#include <optional>

#include "common/cpu_pool.h"
#include "common/proto_unknown.h"
#include "encoding/bitpacking.h"
#include "encoding/byte_stream_split.h"
#include "encoding/constant.h"
#include "encoding/fixed_size_list.h"
#include "encoding/flat.h"
#include "encoding/fsst.h"
#include "encoding/general.h"
#include "encoding/packed_struct.h"
#include "encoding/rle.h"
#include "encoding/sizes.h"
#include "encoding/variable.h"

namespace lance::encoding {
namespace {

using Case = pb::CompressiveEncoding::CompressionCase;

enum class Context { miniblock, block, fixed_per_value, variable_per_value };

const char* context_phrase(Context c) {
  switch (c) {
    case Context::miniblock:
      return "a mini-block chunk";
    case Context::block:
      return "a block buffer";
    case Context::fixed_per_value:
      return "a fixed-width full-zip value";
    case Context::variable_per_value:
      return "a variable-width full-zip value";
  }
  return "an unknown context";
}

[[noreturn]] void unsupported_in(const pb::CompressiveEncoding& enc, Context ctx) {
  if (enc.compression_case() == pb::CompressiveEncoding::COMPRESSION_NOT_SET) {
    // A oneof member newer than our .proto parses as an unknown field.
    if (const uint32_t field = first_unknown_field(enc)) {
      throw_unsupported("unknown encoding (field {} of CompressiveEncoding) in {} is not supported", field,
                        context_phrase(ctx));
    }
    throw_corrupt("an encoding with no compression set in {}", context_phrase(ctx));
  }
  throw_unsupported("{} encoding in {} is not supported", encoding_name(enc), context_phrase(ctx));
}

/// The child encoding `child` of `parent`, or a corrupt-file error naming it.
const pb::CompressiveEncoding& require(bool present, const pb::CompressiveEncoding& child, const char* what) {
  check_corrupt(present, "{} is missing", what);
  return child;
}

/// The bit width of a child that must be `Flat`.
uint64_t flat_bits(const pb::CompressiveEncoding& enc, const char* what) {
  if (enc.compression_case() != Case::kFlat) {
    throw_unsupported("{} encoded as {} is not supported (only Flat)", what, encoding_name(enc));
  }
  return enc.flat().bits_per_value();
}

void reject_buffer_compression(bool present, const pb::BufferCompression& bc, const char* what) {
  if (present && bc.scheme() != pb::COMPRESSION_ALGORITHM_UNSPECIFIED) {
    throw_unsupported("{} with its own buffer compression is not supported", what);
  }
}

GeneralScheme general_scheme(const pb::General& general) {
  check_corrupt(general.has_compression(), "General encoding has no compression scheme");
  switch (general.compression().scheme()) {
    case pb::COMPRESSION_ALGORITHM_LZ4:
      return GeneralScheme::lz4;
    case pb::COMPRESSION_ALGORITHM_ZSTD:
      return GeneralScheme::zstd;
    default:
      throw_unsupported("General compression scheme {} is not supported",
                        static_cast<int>(general.compression().scheme()));
  }
}

unsigned word_bits_of(uint64_t bits, const char* what) {
  if (!is_word_width(bits)) throw_unsupported("{} of {}-bit values is not supported", what, bits);
  return static_cast<unsigned>(bits);
}

DataBlock fixed_block(uint64_t num_values, uint64_t bits, Bytes data) {
  DataBlock block;
  block.num_values = num_values;
  block.bits_per_value = bits;
  block.data = std::move(data);
  return block;
}

FslLayout fsl_layout(const pb::FixedSizeList& outer) {
  FslLayout layout;
  const pb::FixedSizeList* fsl = &outer;
  while (true) {
    check_corrupt(fsl->items_per_value() > 0, "FixedSizeList with 0 items per value");
    layout.dims.push_back(fsl->items_per_value());
    layout.has_validity.push_back(fsl->has_validity());
    const pb::CompressiveEncoding& inner = require(fsl->has_values(), fsl->values(), "FixedSizeList values encoding");
    if (inner.compression_case() == Case::kFixedSizeList) {
      fsl = &inner.fixed_size_list();
      continue;
    }
    layout.item_bits = flat_bits(inner, "FixedSizeList items");
    check_corrupt(layout.item_bits > 0, "FixedSizeList items of 0 bits");
    return layout;
  }
}

/// Applies an FSST table to every value of a variable block.
DataBlock fsst_decode_values(const FsstSymbolTable& table, const DataBlock& compressed) {
  DataBlock out;
  out.num_values = compressed.num_values;
  out.bits_per_offset = compressed.bits_per_offset;
  const uint64_t width = compressed.bits_per_offset / 8;
  out.offsets.reserve((compressed.num_values + 1) * width);
  check_alloc(fsst_max_decoded_bytes(compressed.data.size()), "Fsst output");
  out.data.reserve(table.compressed ? compressed.data.size() * 3 : compressed.data.size());
  ByteView bytes(compressed.data);
  auto push_offset = [&](uint64_t o) {
    if (width == 4) {
      check_corrupt(o <= UINT32_MAX, "Fsst: decompressed strings exceed 32-bit offsets");
      append_le<uint32_t>(out.offsets, static_cast<uint32_t>(o));
    } else {
      append_le<uint64_t>(out.offsets, o);
    }
  };
  push_offset(0);
  for (uint64_t i = 0; i < compressed.num_values; ++i) {
    const uint64_t start = compressed.offset(i);
    const uint64_t end = compressed.offset(i + 1);
    fsst_decode_append(table, bytes.slice(start, end - start), out.data);
    push_offset(out.data.size());
  }
  return out;
}

FsstSymbolTable fsst_table(const pb::Fsst& fsst) {
  const std::string& st = fsst.symbol_table();
  return parse_fsst_symbol_table(ByteView(reinterpret_cast<const uint8_t*>(st.data()), st.size()));
}

std::optional<ByteView> constant_scalar(const pb::Constant& c) {
  if (!c.has_value()) return std::nullopt;
  return ByteView(reinterpret_cast<const uint8_t*>(c.value().data()), c.value().size());
}

void check_buffer_count(std::span<const ByteView> buffers, size_t expected, const char* what) {
  check_corrupt(buffers.size() == expected, "{} expects {} buffer(s) per chunk, got {}", what, expected,
                buffers.size());
}

}  // namespace

const char* encoding_name(const pb::CompressiveEncoding& enc) {
  switch (enc.compression_case()) {
    case Case::kFlat:
      return "Flat";
    case Case::kVariable:
      return "Variable";
    case Case::kConstant:
      return "Constant";
    case Case::kOutOfLineBitpacking:
      return "OutOfLineBitpacking";
    case Case::kInlineBitpacking:
      return "InlineBitpacking";
    case Case::kFsst:
      return "Fsst";
    case Case::kDictionary:
      return "Dictionary";
    case Case::kRle:
      return "Rle";
    case Case::kByteStreamSplit:
      return "ByteStreamSplit";
    case Case::kGeneral:
      return "General";
    case Case::kFixedSizeList:
      return "FixedSizeList";
    case Case::kPackedStruct:
      return "PackedStruct";
    case Case::kVariablePackedStruct:
      return "VariablePackedStruct";
    case Case::kRange:
      return "Range";
    case Case::kDelta:
      return "Delta";
    case pb::CompressiveEncoding::COMPRESSION_NOT_SET:
      return "(unset)";
  }
  return "(unknown)";
}

DataBlock decode_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values);

namespace {

/// Compressed bytes below which a page's values are not worth splitting across threads: a
/// run of 256 KiB of zstd text is ~1-2 ms of work, a hand-off to the pool tens of microseconds.
constexpr uint64_t kFanOutMinBytes = 256 << 10;

/// Boundaries b_0 = 0 < b_1 < … < b_k = num_values of `block`'s values, in runs of about
/// equal total size, each at least `min_bytes`, at most `max_runs` of them; empty when the
/// block is too small for two runs.
std::vector<uint64_t> split_by_weight(const DataBlock& block, uint64_t min_bytes, size_t max_runs) {
  const uint64_t n = block.num_values;
  const uint64_t total = n ? block.offset(n) - block.offset(0) : 0;
  if (max_runs < 2 || total < 2 * min_bytes) return {};
  const uint64_t runs = std::min<uint64_t>(max_runs, total / min_bytes);
  const uint64_t target = (total + runs - 1) / runs;
  std::vector<uint64_t> bounds{0};
  const uint64_t base = block.offset(0);
  for (uint64_t i = 1; i < n; ++i)
    if (block.offset(i) - base >= target * bounds.size()) bounds.push_back(i);
  bounds.push_back(n);
  return bounds;
}

/// How many values a child buffer of `Rle` holds, when its encoding says so by its size
/// alone: `Flat` (bytes / width), also under `General`. Other children (bit-packing) do
/// not state their count.
std::optional<uint64_t> rle_child_count(const pb::CompressiveEncoding& enc, ByteView buffer) {
  switch (enc.compression_case()) {
    case Case::kFlat: {
      const uint64_t bits = enc.flat().bits_per_value();
      if (enc.flat().has_data() || !is_word_width(bits)) return std::nullopt;
      check_corrupt(buffer.size() % (bits / 8) == 0,
                    "Rle: a child buffer of {} bytes holds no whole number of {}-bit values", buffer.size(), bits);
      return buffer.size() / (bits / 8);
    }
    case Case::kGeneral: {
      const pb::General& general = enc.general();
      const Bytes plain = general_decompress(general_scheme(general), buffer);
      return rle_child_count(require(general.has_values(), general.values(), "General values encoding"),
                             ByteView(plain));
    }
    default:
      return std::nullopt;
  }
}

/// One child of `Rle` (run values or run lengths), any fixed-width encoding, decoded to
/// `count` words; `bits` receives their width.
Bytes decode_rle_child(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t count, unsigned& bits,
                       const char* what) {
  DataBlock block = decode_block(enc, buffer, count);
  check_corrupt(!block.all_null && !block.is_variable() && block.num_values == count,
                "Rle: {} did not decode to {} fixed-width values", what, count);
  bits = word_bits_of(block.bits_per_value, what);
  check_corrupt(block.data.size() >= count * (bits / 8), "Rle: {} decoded to {} bytes for {} values", what,
                block.data.size(), count);
  return std::move(block.data);
}

/// Expands `Rle` whose children are not both plain `Flat` (Lance 12 writes e.g. values
/// under OutOfLineBitpacking or General): the run count comes from whichever child states
/// it, then both children are decoded and the runs expanded.
/// Upstream: lance-format/lance rust/lance-encoding/src/encodings/physical/rle.rs.
DataBlock expand_rle_children(const pb::Rle& rle, ByteView values, ByteView lengths, uint64_t num_values,
                              bool clamp_overflow) {
  const auto& venc = require(rle.has_values(), rle.values(), "Rle values encoding");
  const auto& lenc = require(rle.has_run_lengths(), rle.run_lengths(), "Rle run-lengths encoding");
  std::optional<uint64_t> runs = rle_child_count(lenc, lengths);
  if (!runs) runs = rle_child_count(venc, values);
  if (!runs)
    throw_unsupported("Rle with values as {} and run lengths as {} (neither states the run count) is not supported",
                      encoding_name(venc), encoding_name(lenc));
  check_corrupt(*runs <= kMaxDecodedBufferBytes, "Rle: {} runs", *runs);
  unsigned vb = 0, lb = 0;
  const Bytes v = decode_rle_child(venc, values, *runs, vb, "Rle values");
  const Bytes l = decode_rle_child(lenc, lengths, *runs, lb, "Rle run lengths");
  if (num_values == 0) return fixed_block(0, vb, {});
  return fixed_block(num_values, vb,
                     rle_expand(ByteView(v).slice(0, *runs * (vb / 8)), ByteView(l).slice(0, *runs * (lb / 8)), vb, lb,
                                num_values, clamp_overflow));
}

bool rle_children_flat(const pb::Rle& rle) {
  return rle.values().compression_case() == Case::kFlat && rle.run_lengths().compression_case() == Case::kFlat;
}

}  // namespace

DataBlock decode_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers, uint64_t num_values) {
  switch (enc.compression_case()) {
    case Case::kFlat: {
      check_buffer_count(buffers, 1, "Flat");
      reject_buffer_compression(enc.flat().has_data(), enc.flat().data(), "Flat");
      return decode_flat(buffers[0], enc.flat().bits_per_value(), num_values);
    }
    case Case::kVariable: {
      const pb::Variable& v = enc.variable();
      check_buffer_count(buffers, 1, "Variable");
      reject_buffer_compression(v.has_values(), v.values(), "Variable");
      const uint64_t bits = flat_bits(require(v.has_offsets(), v.offsets(), "Variable offsets encoding"),
                                      "Variable offsets in a mini-block chunk");
      if (bits != 32 && bits != 64) throw_unsupported("Variable with {}-bit offsets is not supported", bits);
      return decode_variable_chunk(buffers[0], static_cast<unsigned>(bits), num_values);
    }
    case Case::kInlineBitpacking: {
      const pb::InlineBitpacking& ib = enc.inline_bitpacking();
      check_buffer_count(buffers, 1, "InlineBitpacking");
      reject_buffer_compression(ib.has_values(), ib.values(), "InlineBitpacking");
      const unsigned t = word_bits_of(ib.uncompressed_bits_per_value(), "InlineBitpacking");
      if (num_values == 0) return fixed_block(0, t, {});
      return fixed_block(num_values, t, unpack_inline_bitpacking(buffers[0], t, num_values, /*exact=*/true));
    }
    case Case::kFsst: {
      const pb::Fsst& fsst = enc.fsst();
      const FsstSymbolTable table = fsst_table(fsst);
      DataBlock compressed =
          decode_miniblock(require(fsst.has_values(), fsst.values(), "Fsst values encoding"), buffers, num_values);
      check_corrupt(compressed.is_variable(), "Fsst values decoded to fixed-width data");
      return fsst_decode_values(table, compressed);
    }
    case Case::kRle: {
      const pb::Rle& rle = enc.rle();
      if (rle.has_values() && rle.has_run_lengths() && !rle_children_flat(rle)) {
        check_buffer_count(buffers, 2, "Rle");
        return expand_rle_children(rle, buffers[0], buffers[1], num_values, /*clamp_overflow=*/true);
      }
      const uint64_t value_bits =
          flat_bits(require(rle.has_values(), rle.values(), "Rle values encoding"), "Rle values");
      const uint64_t length_bits =
          flat_bits(require(rle.has_run_lengths(), rle.run_lengths(), "Rle run-lengths encoding"), "Rle run lengths");
      const unsigned vb = word_bits_of(value_bits, "Rle");
      if (num_values == 0) return fixed_block(0, vb, {});
      check_buffer_count(buffers, 2, "Rle");
      return fixed_block(num_values, vb,
                         rle_expand(buffers[0], buffers[1], vb, word_bits_of(length_bits, "Rle run lengths"),
                                    num_values, /*clamp_overflow=*/true));
    }
    case Case::kByteStreamSplit: {
      const pb::ByteStreamSplit& bss = enc.byte_stream_split();
      const uint64_t bits = flat_bits(require(bss.has_values(), bss.values(), "ByteStreamSplit values encoding"),
                                      "ByteStreamSplit values");
      check_corrupt(bits > 0 && bits % 8 == 0, "ByteStreamSplit of {}-bit values", bits);
      check_buffer_count(buffers, 1, "ByteStreamSplit");
      return fixed_block(num_values, bits, byte_stream_unsplit(buffers[0], bits / 8, num_values));
    }
    case Case::kGeneral: {
      const pb::General& general = enc.general();
      const GeneralScheme scheme = general_scheme(general);
      const pb::CompressiveEncoding& inner = require(general.has_values(), general.values(), "General values encoding");
      check_corrupt(!buffers.empty(), "General expects at least one buffer per chunk");
      // Only the first buffer of a chunk is compressed; the others pass through.
      const Bytes first = general_decompress(scheme, buffers[0]);
      std::vector<ByteView> replaced(buffers.begin(), buffers.end());
      replaced[0] = ByteView(first);
      return decode_miniblock(inner, replaced, num_values);
    }
    case Case::kFixedSizeList:
      return decode_fsl_miniblock(fsl_layout(enc.fixed_size_list()), buffers, num_values);
    case Case::kPackedStruct: {
      const pb::PackedStruct& ps = enc.packed_struct();
      DataBlock rows =
          decode_miniblock(require(ps.has_values(), ps.values(), "PackedStruct values encoding"), buffers, num_values);
      return finish_packed_struct(std::move(rows),
                                  std::span<const uint64_t>(ps.bits_per_value().data(), ps.bits_per_value().size()));
    }
    default:
      unsupported_in(enc, Context::miniblock);
  }
}

DataBlock decode_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values) {
  switch (enc.compression_case()) {
    case Case::kFlat:
      reject_buffer_compression(enc.flat().has_data(), enc.flat().data(), "Flat");
      return decode_flat(buffer, enc.flat().bits_per_value(), num_values);
    case Case::kVariable:
      reject_buffer_compression(enc.variable().has_values(), enc.variable().values(), "Variable");
      // The block form states its own offset width; the offsets child is not consulted.
      return decode_variable_block(buffer, num_values);
    case Case::kConstant:
      return expand_constant(constant_scalar(enc.constant()), num_values);
    case Case::kOutOfLineBitpacking: {
      const pb::OutOfLineBitpacking& ool = enc.out_of_line_bitpacking();
      const unsigned t = word_bits_of(ool.uncompressed_bits_per_value(), "OutOfLineBitpacking");
      const uint64_t w = flat_bits(require(ool.has_values(), ool.values(), "OutOfLineBitpacking values encoding"),
                                   "OutOfLineBitpacking values");
      check_corrupt(w <= t, "OutOfLineBitpacking: packed width {} exceeds the {}-bit word", w, t);
      return fixed_block(num_values, t, unpack_out_of_line_bitpacking(buffer, t, static_cast<unsigned>(w), num_values));
    }
    case Case::kInlineBitpacking: {
      const pb::InlineBitpacking& ib = enc.inline_bitpacking();
      reject_buffer_compression(ib.has_values(), ib.values(), "InlineBitpacking");
      const unsigned t = word_bits_of(ib.uncompressed_bits_per_value(), "InlineBitpacking");
      if (num_values == 0) return fixed_block(0, t, {});
      return fixed_block(num_values, t, unpack_inline_bitpacking(buffer, t, num_values, /*exact=*/false));
    }
    case Case::kRle: {
      const pb::Rle& rle = enc.rle();
      if (rle.has_values() && rle.has_run_lengths() && !rle_children_flat(rle)) {
        if (num_values == 0 && buffer.empty()) return fixed_block(0, 0, {});
        const RleBlockParts parts = split_rle_block(buffer);
        return expand_rle_children(rle, parts.values, parts.run_lengths, num_values, /*clamp_overflow=*/false);
      }
      const uint64_t value_bits =
          flat_bits(require(rle.has_values(), rle.values(), "Rle values encoding"), "Rle values");
      const uint64_t length_bits =
          flat_bits(require(rle.has_run_lengths(), rle.run_lengths(), "Rle run-lengths encoding"), "Rle run lengths");
      const unsigned vb = word_bits_of(value_bits, "Rle");
      if (num_values == 0 && buffer.empty()) return fixed_block(0, vb, {});
      const RleBlockParts parts = split_rle_block(buffer);
      return fixed_block(num_values, vb,
                         rle_expand(parts.values, parts.run_lengths, vb, word_bits_of(length_bits, "Rle run lengths"),
                                    num_values, /*clamp_overflow=*/false));
    }
    case Case::kGeneral: {
      const pb::General& general = enc.general();
      const GeneralScheme scheme = general_scheme(general);
      const pb::CompressiveEncoding& inner = require(general.has_values(), general.values(), "General values encoding");
      const Bytes plain = general_decompress(scheme, buffer);
      return decode_block(inner, ByteView(plain), num_values);
    }
    case Case::kFixedSizeList:
      return decode_fsl_block(fsl_layout(enc.fixed_size_list()), buffer, num_values);
    default:
      unsupported_in(enc, Context::block);
  }
}

DataBlock decode_fixed_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped) {
  check_corrupt(!zipped.is_variable(), "fixed-width full-zip values arrived as variable-width data");
  switch (enc.compression_case()) {
    case Case::kFlat: {
      const uint64_t bits = enc.flat().bits_per_value();
      reject_buffer_compression(enc.flat().has_data(), enc.flat().data(), "Flat");
      check_corrupt(zipped.bits_per_value == bits, "Flat({}) full-zip values arrived as {}-bit values", bits,
                    zipped.bits_per_value);
      if (bits % 8 == 0 && zipped.data.size() == checked_value_bytes(zipped.num_values, bits, "Flat values")) {
        DataBlock block;  // the gathered bytes are the values: no copy
        block.num_values = zipped.num_values;
        block.bits_per_value = bits;
        block.data = std::move(zipped.data);
        return block;
      }
      return decode_flat(ByteView(zipped.data), bits, zipped.num_values);
    }
    case Case::kFixedSizeList: {
      const FslLayout layout = fsl_layout(enc.fixed_size_list());
      check_corrupt(zipped.bits_per_value == layout.zipped_bits_per_row(),
                    "FixedSizeList full-zip values are {} bits, the encoding implies {}", zipped.bits_per_value,
                    layout.zipped_bits_per_row());
      return unzip_fsl_per_value(layout, std::move(zipped.data), zipped.num_values);
    }
    case Case::kConstant:
      return expand_constant(constant_scalar(enc.constant()), zipped.num_values);
    default:
      unsupported_in(enc, Context::fixed_per_value);
  }
}

DataBlock decode_variable_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped) {
  check_corrupt(zipped.is_variable(), "variable-width full-zip values arrived as fixed-width data");
  validate_variable_block(zipped);
  switch (enc.compression_case()) {
    case Case::kVariable:
      return zipped;
    case Case::kFsst:
      return fsst_decode_values(fsst_table(enc.fsst()), zipped);
    case Case::kGeneral: {
      const GeneralScheme scheme = general_scheme(enc.general());
      DataBlock out;
      out.num_values = zipped.num_values;
      out.bits_per_offset = zipped.bits_per_offset;
      ByteView bytes(zipped.data);
      auto push_offset = [&](uint64_t o) {
        if (out.bits_per_offset == 32) {
          check_corrupt(o <= UINT32_MAX, "General: decompressed values exceed 32-bit offsets");
          append_le<uint32_t>(out.offsets, static_cast<uint32_t>(o));
        } else {
          append_le<uint64_t>(out.offsets, o);
        }
      };
      out.offsets.reserve((zipped.num_values + 1) * (out.bits_per_offset / 8));
      // Sizes first (from each value's length prefix), so the values decompress straight
      // into one buffer of the right size.
      std::vector<uint64_t> sizes(zipped.num_values, 0);
      uint64_t total = 0;
      bool all_known = true;
      for (uint64_t i = 0; i < zipped.num_values && all_known; ++i) {
        const uint64_t start = zipped.offset(i), end = zipped.offset(i + 1);
        if (end <= start) continue;  // an empty value (a null slot) stays empty
        auto n = general_decompressed_size(scheme, bytes.slice(start, end - start));
        if (!n) {
          all_known = false;
          break;
        }
        sizes[i] = *n;
        total += *n;
        check_alloc(total, "General output");
      }
      push_offset(0);
      if (all_known) {
        out.data.resize(total);
        uint64_t at = 0;
        for (uint64_t i = 0; i < zipped.num_values; ++i) push_offset(at += sizes[i]);
        auto decompress_values = [&](uint64_t lo, uint64_t hi) {
          for (uint64_t i = lo; i < hi; ++i) {
            const uint64_t start = zipped.offset(i), end = zipped.offset(i + 1);
            if (end > start)
              general_decompress_into(scheme, bytes.slice(start, end - start),
                                      std::span<uint8_t>(out.data.data() + out.offset(i), sizes[i]));
          }
        };
        // Every value is its own frame with a known place in the output, so a large page
        // (of a scan, or of a take: read::DecodeMode) splits across the CPU pool
        // (common/cpu_pool.h) in runs of about equal compressed size.
        const std::vector<uint64_t> runs = fan_out_allowed()
                                               ? split_by_weight(zipped, kFanOutMinBytes, 4 * cpu_pool_threads())
                                               : std::vector<uint64_t>{};
        if (runs.size() > 2) {
          parallel_for(runs.size() - 1, [&](size_t k) { decompress_values(runs[k], runs[k + 1]); });
        } else {
          decompress_values(0, zipped.num_values);
        }
        return out;
      }
      for (uint64_t i = 0; i < zipped.num_values; ++i) {
        const uint64_t start = zipped.offset(i);
        const uint64_t end = zipped.offset(i + 1);
        if (end > start) {
          const Bytes value = general_decompress(scheme, bytes.slice(start, end - start));
          check_alloc(out.data.size() + value.size(), "General output");
          out.data.insert(out.data.end(), value.begin(), value.end());
        }
        push_offset(out.data.size());
      }
      return out;
    }
    case Case::kVariablePackedStruct: {
      const pb::VariablePackedStruct& vps = enc.variable_packed_struct();
      std::vector<PackedField> fields;
      for (const auto& f : vps.fields()) {
        switch (f.layout_case()) {
          case pb::VariablePackedStruct::FieldEncoding::kBitsPerValue:
            fields.push_back(PackedField{false, f.bits_per_value()});
            break;
          case pb::VariablePackedStruct::FieldEncoding::kBitsPerLength:
            fields.push_back(PackedField{true, f.bits_per_length()});
            break;
          default:
            throw_corrupt("VariablePackedStruct field {} has no layout", fields.size());
        }
        check_corrupt(f.has_value(), "VariablePackedStruct field {} has no value encoding", fields.size() - 1);
      }
      std::vector<DataBlock> raw = split_variable_packed_rows(zipped, fields);
      DataBlock out;
      out.num_values = zipped.num_values;
      for (size_t i = 0; i < raw.size(); ++i) {
        const pb::CompressiveEncoding& child = vps.fields(static_cast<int>(i)).value();
        out.children.push_back(with_context([&] { return fmt::format("packed field {}", i); },
                                            [&] {
                                              return fields[i].variable
                                                         ? decode_variable_per_value(child, std::move(raw[i]))
                                                         : decode_fixed_per_value(child, std::move(raw[i]));
                                            }));
      }
      return out;
    }
    default:
      unsupported_in(enc, Context::variable_per_value);
  }
}

std::vector<uint16_t> decode_levels(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_levels) {
  const DataBlock block = decode_block(enc, buffer, num_levels);
  check_corrupt(!block.all_null && !block.is_variable(), "levels did not decode to fixed-width integers");
  check_corrupt(block.num_values == num_levels, "levels decoded {} values, expected {}", block.num_values, num_levels);
  const uint64_t bits = block.bits_per_value;
  if (!is_word_width(bits)) throw_unsupported("{}-bit levels are not supported", bits);
  const uint64_t width = bits / 8;
  check_corrupt(block.data.size() >= num_levels * width, "levels: {} bytes for {} levels of {} bits", block.data.size(),
                num_levels, bits);
  std::vector<uint16_t> levels(num_levels);
  if (width == 2) {  // the usual case: u16 levels, copied in one go
    if (num_levels) std::memcpy(levels.data(), block.data.data(), num_levels * 2);
    return levels;
  }
  if (width == 1) {
    for (uint64_t i = 0; i < num_levels; ++i) levels[i] = block.data[i];
    return levels;
  }
  ByteView data(block.data);
  for (uint64_t i = 0; i < num_levels; ++i) {
    uint64_t v = 0;
    switch (width) {
      case 1:
        v = block.data[i];
        break;
      case 2:
        v = data.read<uint16_t>(i * 2);
        break;
      case 4:
        v = data.read<uint32_t>(i * 4);
        break;
      default:
        v = data.read<uint64_t>(i * 8);
        break;
    }
    check_corrupt(v <= UINT16_MAX, "level {} is {}, above the u16 range", i, v);
    levels[i] = static_cast<uint16_t>(v);
  }
  return levels;
}

std::optional<uint64_t> infer_block_num_values(const pb::CompressiveEncoding& enc, ByteView buffer) {
  switch (enc.compression_case()) {
    case Case::kRle: {
      const pb::Rle& rle = enc.rle();
      const uint64_t length_bits =
          flat_bits(require(rle.has_run_lengths(), rle.run_lengths(), "Rle run-lengths encoding"), "Rle run lengths");
      if (buffer.empty()) return 0;
      return rle_total_length(split_rle_block(buffer).run_lengths, word_bits_of(length_bits, "Rle run lengths"));
    }
    case Case::kGeneral: {
      const pb::General& general = enc.general();
      const pb::CompressiveEncoding& inner = require(general.has_values(), general.values(), "General values encoding");
      if (inner.compression_case() != Case::kRle && inner.compression_case() != Case::kGeneral) return std::nullopt;
      const Bytes plain = general_decompress(general_scheme(general), buffer);
      return infer_block_num_values(inner, ByteView(plain));
    }
    default:
      return std::nullopt;
  }
}

}  // namespace lance::encoding
