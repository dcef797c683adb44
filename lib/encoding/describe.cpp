// `describe`: a readable one-line rendering of a `CompressiveEncoding` tree, from each
// encoding's row of the registry (registry.h).
//
// Wrappers with one child print "Name(params) › child"; encodings with several children
// name them: "Rle(values: Flat(32), run_lengths: Flat(8))".
#include <string>

#include "encoding/decompress.h"
#include "encoding/registry.h"

namespace lance::encoding {

std::string describe(const pb::CompressiveEncoding& enc) {
  if (const EncodingRow* row = find_encoding(enc.compression_case())) return row->describe(enc);
  return enc.compression_case() == pb::CompressiveEncoding::COMPRESSION_NOT_SET ? "(unset)" : "(unknown)";
}

std::string describe_child(bool present, const pb::CompressiveEncoding& enc) { return present ? describe(enc) : "?"; }

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

std::string describe_dictionary(const pb::CompressiveEncoding& enc) {
  const pb::Dictionary& d = enc.dictionary();
  return fmt::format("Dictionary({} items, indices: {}, items: {})", d.num_dictionary_items(),
                     describe_child(d.has_indices(), d.indices()), describe_child(d.has_items(), d.items()));
}

std::string describe_range(const pb::CompressiveEncoding& enc) {
  const pb::Range& r = enc.range();
  return fmt::format("Range({}, start={}, step={})", r.uncompressed_bits_per_value(), r.start(), r.step());
}

std::string describe_delta(const pb::CompressiveEncoding& enc) {
  const pb::Delta& d = enc.delta();
  return fmt::format("Delta({}, base={}, deltas: {})", d.uncompressed_bits_per_value(), d.base(),
                     describe_child(d.has_deltas(), d.deltas()));
}

}  // namespace lance::encoding
