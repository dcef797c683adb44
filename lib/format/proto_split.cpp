#include "format/proto_split.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "common/error.h"

namespace lance {

ByteView split_field(ByteView message, uint32_t field, std::string& rest, const std::string& what) {
  using google::protobuf::internal::WireFormatLite;
  check_corrupt(message.size() <= static_cast<size_t>(INT32_MAX), "{}: a message of {} bytes", what, message.size());
  google::protobuf::io::CodedInputStream in(message.data(), static_cast<int>(message.size()));
  ByteView found;
  for (;;) {
    const int start = in.CurrentPosition();
    const uint32_t tag = in.ReadTag();
    if (tag == 0) {
      // The end of the bytes, or a zero tag (or a truncated varint) before it.
      check_corrupt(static_cast<size_t>(in.CurrentPosition()) == message.size() && start == in.CurrentPosition(),
                    "{}: malformed protobuf at byte {}", what, start);
      return found;
    }
    if (WireFormatLite::GetTagFieldNumber(tag) == static_cast<int>(field) &&
        WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      uint32_t length = 0;
      check_corrupt(in.ReadVarint32(&length), "{}: truncated length of field {} at byte {}", what, field, start);
      const int at = in.CurrentPosition();
      check_corrupt(in.Skip(static_cast<int>(length)), "{}: field {} of {} bytes at byte {} passes the end ({} bytes)",
                    what, field, length, at, message.size());
      found = message.slice(static_cast<uint64_t>(at), length);
      continue;
    }
    check_corrupt(WireFormatLite::SkipField(&in, tag), "{}: malformed field {} at byte {}", what,
                  WireFormatLite::GetTagFieldNumber(tag), start);
    rest.append(reinterpret_cast<const char*>(message.data()) + start,
                static_cast<size_t>(in.CurrentPosition() - start));
  }
}

}  // namespace lance
