// `describe`: a readable one-line rendering of a `CompressiveEncoding` tree.
//
// Wrappers with one child print "Name(params) › child"; encodings with several children
// name them: "Rle(values: Flat(32), run_lengths: Flat(8))".
#include <string>

#include <fmt/ranges.h>

#include "encoding/decompress.h"
#include "encoding/fsst.h"

namespace lance::encoding {
namespace {

using Case = pb::CompressiveEncoding::CompressionCase;

std::string child(bool present, const pb::CompressiveEncoding& enc) { return present ? describe(enc) : "?"; }

std::string scheme_name(const pb::BufferCompression& bc) {
  std::string s;
  switch (bc.scheme()) {
    case pb::COMPRESSION_ALGORITHM_LZ4:
      s = "lz4";
      break;
    case pb::COMPRESSION_ALGORITHM_ZSTD:
      s = "zstd";
      break;
    case pb::COMPRESSION_ALGORITHM_UNSPECIFIED:
      s = "unspecified";
      break;
    default:
      s = fmt::format("scheme {}", static_cast<int>(bc.scheme()));
      break;
  }
  if (bc.has_level()) s += fmt::format(" level {}", bc.level());
  return s;
}

std::string buffer_compression_suffix(bool present, const pb::BufferCompression& bc) {
  return present ? ", " + scheme_name(bc) : "";
}

std::string describe_fsst(const pb::Fsst& fsst) {
  std::string head;
  try {
    const std::string& st = fsst.symbol_table();
    const FsstSymbolTable table =
        parse_fsst_symbol_table(ByteView(reinterpret_cast<const uint8_t*>(st.data()), st.size()));
    head = table.compressed ? fmt::format("Fsst(n_symbols={})", table.n_symbols) : "Fsst(raw)";
  } catch (const Error&) {
    head = "Fsst(invalid symbol table)";
  }
  return head + " › " + child(fsst.has_values(), fsst.values());
}

}  // namespace

std::string describe(const pb::CompressiveEncoding& enc) {
  switch (enc.compression_case()) {
    case Case::kFlat:
      return fmt::format("Flat({}{})", enc.flat().bits_per_value(),
                         buffer_compression_suffix(enc.flat().has_data(), enc.flat().data()));
    case Case::kVariable: {
      const pb::Variable& v = enc.variable();
      return fmt::format("Variable(offsets: {}{})", child(v.has_offsets(), v.offsets()),
                         buffer_compression_suffix(v.has_values(), v.values()));
    }
    case Case::kConstant:
      return enc.constant().has_value() ? fmt::format("Constant({} bytes)", enc.constant().value().size())
                                        : "Constant(null)";
    case Case::kOutOfLineBitpacking: {
      const pb::OutOfLineBitpacking& o = enc.out_of_line_bitpacking();
      return fmt::format("OutOfLineBitpacking({}, values: {})", o.uncompressed_bits_per_value(),
                         child(o.has_values(), o.values()));
    }
    case Case::kInlineBitpacking: {
      const pb::InlineBitpacking& ib = enc.inline_bitpacking();
      return fmt::format("InlineBitpacking({}{})", ib.uncompressed_bits_per_value(),
                         buffer_compression_suffix(ib.has_values(), ib.values()));
    }
    case Case::kFsst:
      return describe_fsst(enc.fsst());
    case Case::kDictionary: {
      const pb::Dictionary& d = enc.dictionary();
      return fmt::format("Dictionary({} items, indices: {}, items: {})", d.num_dictionary_items(),
                         child(d.has_indices(), d.indices()), child(d.has_items(), d.items()));
    }
    case Case::kRle: {
      const pb::Rle& r = enc.rle();
      return fmt::format("Rle(values: {}, run_lengths: {})", child(r.has_values(), r.values()),
                         child(r.has_run_lengths(), r.run_lengths()));
    }
    case Case::kByteStreamSplit: {
      const pb::ByteStreamSplit& b = enc.byte_stream_split();
      return "ByteStreamSplit › " + child(b.has_values(), b.values());
    }
    case Case::kGeneral: {
      const pb::General& g = enc.general();
      const std::string scheme = g.has_compression() ? scheme_name(g.compression()) : "?";
      return fmt::format("General({}) › {}", scheme, child(g.has_values(), g.values()));
    }
    case Case::kFixedSizeList: {
      const pb::FixedSizeList& f = enc.fixed_size_list();
      return fmt::format("FixedSizeList({}{}) › {}", f.items_per_value(), f.has_validity() ? ", item validity" : "",
                         child(f.has_values(), f.values()));
    }
    case Case::kPackedStruct: {
      const pb::PackedStruct& p = enc.packed_struct();
      return fmt::format("PackedStruct(bits: {}) › {}", fmt::join(p.bits_per_value(), "+"),
                         child(p.has_values(), p.values()));
    }
    case Case::kVariablePackedStruct: {
      std::string fields;
      for (const auto& f : enc.variable_packed_struct().fields()) {
        if (!fields.empty()) fields += ", ";
        const std::string layout = f.layout_case() == pb::VariablePackedStruct::FieldEncoding::kBitsPerValue
                                       ? fmt::format("{} bits", f.bits_per_value())
                                   : f.layout_case() == pb::VariablePackedStruct::FieldEncoding::kBitsPerLength
                                       ? fmt::format("{}-bit length", f.bits_per_length())
                                       : std::string("no layout");
        fields += fmt::format("{} [{}]", child(f.has_value(), f.value()), layout);
      }
      return fmt::format("VariablePackedStruct({})", fields);
    }
    case Case::kRange: {
      const pb::Range& r = enc.range();
      return fmt::format("Range({}, start={}, step={})", r.uncompressed_bits_per_value(), r.start(), r.step());
    }
    case Case::kDelta: {
      const pb::Delta& d = enc.delta();
      return fmt::format("Delta({}, base={}, deltas: {})", d.uncompressed_bits_per_value(), d.base(),
                         child(d.has_deltas(), d.deltas()));
    }
    case pb::CompressiveEncoding::COMPRESSION_NOT_SET:
      return "(unset)";
  }
  return "(unknown)";
}

}  // namespace lance::encoding
