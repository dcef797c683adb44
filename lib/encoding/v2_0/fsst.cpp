// Fsst (docs/format.md §4.3, 6.7): `binary` decodes to one FSST code stream per row (nulls
// included, as empty streams); each is expanded with `symbol_table`, which uses Lance's
// own serialization (encoding/fsst.h).
#include "encoding/fsst.h"
#include "encoding/sizes.h"
#include "encoding/v2_0/decoders.h"

namespace lance::encoding::v2_0 {

Decoded decode_fsst(const pb::Fsst& fsst, const Buffers& buffers, const TypePtr& type, uint64_t num_rows) {
  const auto& st = fsst.symbol_table();
  const FsstSymbolTable table =
      parse_fsst_symbol_table(ByteView(reinterpret_cast<const uint8_t*>(st.data()), st.size()));
  Decoded codes = with_context("Fsst codes", [&] { return decode_array(fsst.binary(), buffers, type, num_rows); });
  const DataBlock& c = codes.values;
  check_corrupt(c.is_variable() && c.num_values == num_rows, "Fsst: the codes are not {} variable-width values",
                num_rows);
  Decoded out;
  DataBlock& v = out.values;
  v.num_values = num_rows;
  v.bits_per_offset = 64;
  v.offsets.resize(checked_mul(num_rows + 1, 8, "Fsst offsets"));
  auto* offs = reinterpret_cast<uint64_t*>(v.offsets.data());
  offs[0] = 0;
  const ByteView data(c.data);
  FsstValueDecoder decoder(table, v.data, c.data.size());
  for (uint64_t i = 0; i < num_rows; ++i) {
    const uint64_t b = c.offset(i), e = c.offset(i + 1);
    check_corrupt(b <= e, "Fsst: code stream {} has a negative length", i);
    offs[i + 1] = decoder.append(data.slice(b, e - b));
  }
  decoder.finish();
  out.valid = std::move(codes.valid);
  return out;
}

}  // namespace lance::encoding::v2_0
