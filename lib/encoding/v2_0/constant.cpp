// Constant (docs/format.md §4.2, field 13): every row is the message's `value` bytes. Not
// written by Lance's 2.0 writer; decoded for completeness.
#include "encoding/constant.h"
#include "encoding/v2_0/decoders.h"

namespace lance::encoding::v2_0 {

Decoded decode_constant(const pb::Constant& constant, uint64_t num_rows) {
  const auto& value = constant.value();
  check_corrupt(!value.empty(), "Constant: empty value");
  Decoded out;
  out.values = expand_constant(ByteView(reinterpret_cast<const uint8_t*>(value.data()), value.size()), num_rows);
  return out;
}

}  // namespace lance::encoding::v2_0
