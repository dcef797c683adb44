// 2.0 pages: a one-line rendering of the `ArrayEncoding` tree (docs/format.md §4) and
// the role of each page buffer it addresses.
//
// Wrappers with one child print "Name(params) › child"; nodes with several children name
// them: "Binary(indices: Flat(64), bytes: Flat(8))".
#include <fmt/format.h>

#include "inspect/internal.h"

namespace lance::inspect {

namespace {

namespace pb0 = ::lance::encodings;
using Case = pb0::ArrayEncoding::ArrayEncodingCase;

std::string child(bool present, const pb0::ArrayEncoding& enc) { return present ? describe_array_encoding(enc) : "?"; }

std::string buffer_suffix(bool present, const pb0::Buffer& b) {
  // Lance 8.0 addresses page buffers only; name the others since they are unusual.
  if (!present || b.buffer_type() == pb0::Buffer::page) return "";
  return fmt::format(", {} buffer {}", b.buffer_type() == pb0::Buffer::column ? "column" : "file", b.buffer_index());
}

}  // namespace

std::string describe_array_encoding(const pb0::ArrayEncoding& enc) {
  switch (enc.array_encoding_case()) {
    case Case::kFlat: {
      const auto& f = enc.flat();
      std::string compression;
      if (f.has_compression() && !f.compression().scheme().empty()) {
        compression = ", " + f.compression().scheme();
        if (f.compression().has_level()) compression += fmt::format(" level {}", f.compression().level());
      }
      return fmt::format("Flat({}{}{})", f.bits_per_value(), compression, buffer_suffix(f.has_buffer(), f.buffer()));
    }
    case Case::kNullable: {
      const auto& n = enc.nullable();
      switch (n.nullability_case()) {
        case pb0::Nullable::kNoNulls:
          return "Nullable(no_nulls) › " + child(n.no_nulls().has_values(), n.no_nulls().values());
        case pb0::Nullable::kSomeNulls:
          return "Nullable(some_nulls) › " + child(n.some_nulls().has_values(), n.some_nulls().values());
        case pb0::Nullable::kAllNulls:
          return "Nullable(all_nulls)";
        default:
          return "Nullable(?)";
      }
    }
    case Case::kFixedSizeList: {
      const auto& f = enc.fixed_size_list();
      return fmt::format("FixedSizeList({}{}) › {}", f.dimension(), f.has_validity() ? ", validity" : "",
                         child(f.has_items(), f.items()));
    }
    case Case::kList: {
      const auto& l = enc.list();
      return fmt::format("List({} items, offsets: {})", l.num_items(), child(l.has_offsets(), l.offsets()));
    }
    case Case::kStruct:
      return "SimpleStruct";
    case Case::kBinary: {
      const auto& b = enc.binary();
      return fmt::format("Binary(indices: {}, bytes: {})", child(b.has_indices(), b.indices()),
                         child(b.has_bytes(), b.bytes()));
    }
    case Case::kDictionary: {
      const auto& d = enc.dictionary();
      return fmt::format("Dictionary({} items, indices: {}, items: {})", d.num_dictionary_items(),
                         child(d.has_indices(), d.indices()), child(d.has_items(), d.items()));
    }
    case Case::kFsst: {
      const auto& f = enc.fsst();
      return fmt::format("Fsst(symbol table {} bytes) › {}", f.symbol_table().size(),
                         child(f.has_binary(), f.binary()));
    }
    case Case::kPackedStruct: {
      const auto& p = enc.packed_struct();
      std::string inner;
      for (const auto& i : p.inner()) inner += (inner.empty() ? "" : ", ") + describe_array_encoding(i);
      return fmt::format("PackedStruct({}{})", inner, buffer_suffix(p.has_buffer(), p.buffer()));
    }
    case Case::kBitpacked: {
      const auto& b = enc.bitpacked();
      return fmt::format("Bitpacked({} of {} bits{}{})", b.compressed_bits_per_value(), b.uncompressed_bits_per_value(),
                         b.signed_() ? ", signed" : "", buffer_suffix(b.has_buffer(), b.buffer()));
    }
    case Case::kFixedSizeBinary: {
      const auto& f = enc.fixed_size_binary();
      return fmt::format("FixedSizeBinary({}) › {}", f.byte_width(), child(f.has_bytes(), f.bytes()));
    }
    case Case::kBitpackedForNonNeg: {
      const auto& b = enc.bitpacked_for_non_neg();
      return fmt::format("BitpackedForNonNeg({} of {} bits{})", b.compressed_bits_per_value(),
                         b.uncompressed_bits_per_value(), buffer_suffix(b.has_buffer(), b.buffer()));
    }
    case Case::kConstant:
      return fmt::format("Constant({} bytes)", enc.constant().value().size());
    case Case::ARRAY_ENCODING_NOT_SET:
      return "(unset or unknown)";
  }
  return "(unknown)";
}

namespace {

void assign(std::vector<std::string>& roles, bool present, const pb0::Buffer& b, const std::string& role) {
  // An absent `buffer` message means page buffer 0 (proto3 default).
  const uint32_t index = present ? b.buffer_index() : 0;
  const bool page = !present || b.buffer_type() == pb0::Buffer::page;
  if (page && index < roles.size() && roles[index].empty()) roles[index] = role;
}

void walk(const pb0::ArrayEncoding& enc, const std::string& role, std::vector<std::string>& roles) {
  switch (enc.array_encoding_case()) {
    case Case::kFlat:
      assign(roles, enc.flat().has_buffer(), enc.flat().buffer(), role);
      break;
    case Case::kBitpacked:
      assign(roles, enc.bitpacked().has_buffer(), enc.bitpacked().buffer(), role);
      break;
    case Case::kBitpackedForNonNeg:
      assign(roles, enc.bitpacked_for_non_neg().has_buffer(), enc.bitpacked_for_non_neg().buffer(), role);
      break;
    case Case::kPackedStruct:
      assign(roles, enc.packed_struct().has_buffer(), enc.packed_struct().buffer(), role);
      break;
    case Case::kNullable: {
      const auto& n = enc.nullable();
      if (n.has_no_nulls()) walk(n.no_nulls().values(), role, roles);
      if (n.has_some_nulls()) {
        walk(n.some_nulls().validity(), role == "values" ? "validity" : role + " validity", roles);
        walk(n.some_nulls().values(), role, roles);
      }
      break;
    }
    case Case::kFixedSizeList:
      walk(enc.fixed_size_list().items(), role, roles);
      break;
    case Case::kList:
      walk(enc.list().offsets(), "list offsets", roles);
      break;
    case Case::kBinary:
      walk(enc.binary().indices(), role == "values" ? "offsets" : role + " offsets", roles);
      walk(enc.binary().bytes(), role == "values" ? "bytes" : role + " bytes", roles);
      break;
    case Case::kDictionary:
      walk(enc.dictionary().indices(), "indices", roles);
      walk(enc.dictionary().items(), "dictionary", roles);
      break;
    case Case::kFsst:
      walk(enc.fsst().binary(), role, roles);
      break;
    case Case::kFixedSizeBinary:
      walk(enc.fixed_size_binary().bytes(), role, roles);
      break;
    default:
      break;
  }
}

}  // namespace

std::vector<std::string> array_encoding_buffer_roles(const pb0::ArrayEncoding& enc, size_t num_buffers) {
  std::vector<std::string> roles(num_buffers);
  walk(enc, "values", roles);
  for (auto& r : roles)
    if (r.empty()) r = "buffer";
  return roles;
}

}  // namespace lance::inspect
