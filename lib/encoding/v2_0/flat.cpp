// Flat (docs/format.md §4.3): `num_rows` values of `bits_per_value` bits back to back; 1 bit is
// an LSB-first bitmap. With `compression` set, the whole buffer is one zstd or lz4 frame
// (framing as in map 6.12) holding those bytes.
#include "encoding/flat.h"
#include "encoding/general.h"
#include "encoding/sizes.h"
#include "encoding/v2_0/decoders.h"

namespace lance::encoding::v2_0 {

Decoded decode_flat(const pb::Flat& flat, const Buffers& buffers, uint64_t num_rows) {
  const uint64_t bits = flat.bits_per_value();
  check_corrupt(bits > 0, "Flat: values of 0 bits");
  if (bits != 1 && bits % 8 != 0) throw_unsupported("Flat: {}-bit values (only 1 or whole bytes)", bits);
  check_corrupt(flat.has_buffer(), "Flat: no buffer");
  ByteView raw = buffers.get(flat.buffer());
  const std::string scheme = flat.has_compression() ? flat.compression().scheme() : std::string();
  Decoded out;
  if (scheme.empty() || scheme == "none") {
    out.values = encoding::decode_flat(raw, bits, num_rows);
  } else if (scheme == "zstd" || scheme == "lz4") {
    Bytes plain = with_context(
        [&] { return fmt::format("Flat({} compression)", scheme); },
        [&] { return general_decompress(scheme == "zstd" ? GeneralScheme::zstd : GeneralScheme::lz4, raw); });
    const uint64_t need = checked_value_bytes(num_rows, bits, "Flat values");
    check_corrupt(plain.size() >= need, "Flat: {} values of {} bits need {} bytes, the {} frame holds {}", num_rows,
                  bits, need, scheme, plain.size());
    plain.resize(need);
    out.values.num_values = num_rows;
    out.values.bits_per_value = bits;
    out.values.data = std::move(plain);
  } else {
    throw_unsupported("Flat: compression scheme '{}'", scheme);
  }
  return out;
}

}  // namespace lance::encoding::v2_0
