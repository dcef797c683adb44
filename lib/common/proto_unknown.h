// Unknown fields of a parsed protobuf-lite message: how a reader notices a oneof member or a
// layout newer than its .proto files.
#pragma once

#include <google/protobuf/io/coded_stream.h>

#include <cstdint>
#include <string>

namespace lance {

/// The field number of the first field `msg` kept as unknown when it was parsed, or 0 when
/// it kept none. For a message whose known fields are all unset (e.g. a oneof-only message
/// with no member set): protobuf-lite keeps unknown fields as raw wire bytes and writes them
/// back when serializing, so the serialized message is exactly those bytes, and the first tag
/// varint (field number << 3 | wire type) names the field.
template <class Msg>
uint32_t first_unknown_field(const Msg& msg) {
  const std::string raw = msg.SerializeAsString();
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(raw.data()), static_cast<int>(raw.size()));
  return in.ReadTag() >> 3;
}

}  // namespace lance
