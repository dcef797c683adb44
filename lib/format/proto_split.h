// Parsing a protobuf-lite message without copying its one large length-delimited field.
#pragma once

#include <cstdint>
#include <string>

#include "common/bytes.h"

namespace lance {

/// The wire bytes of a message, split in two: the payload of field `field` (a bytes, string or
/// embedded-message field), as a view into `message` (no copy), and the wire bytes of every
/// other field, appended to `rest` for the message's own parser. protobuf-lite copies a bytes
/// field into a std::string when it parses; for a megabyte tensor (an IVF index's centroids, a
/// PQ codebook: `Tensor.data`, `IVF.centroids_tensor` in Lance's protos/index.proto) that copy
/// is as costly as the read, in fresh pages the process has not touched yet.
///
/// When the field occurs more than once, the last occurrence is returned (protobuf's rule for a
/// singular bytes field; Lance writes these fields once). An absent field is an empty view.
/// Throws a corrupt-file Error naming `what` when the wire bytes are malformed (a truncated
/// varint or length, a group, a length past the end).
ByteView split_field(ByteView message, uint32_t field, std::string& rest, const std::string& what);

}  // namespace lance
