// format/proto_split.h: one length-delimited field as a view, the other fields' wire bytes kept.
#include <catch2/catch.hpp>

#include "common/error.h"
#include "format/proto_split.h"

namespace {

using lance::Bytes;
using lance::ByteView;

// Wire bytes of a message with: field 1 varint 150, field 2 bytes "abc", field 3 fixed32 7.
Bytes sample_message() {
  return Bytes{0x08, 0x96, 0x01,               // field 1, varint 150
               0x12, 0x03, 'a',  'b',  'c',    // field 2, length 3
               0x1d, 0x07, 0x00, 0x00, 0x00};  // field 3, fixed32 7
}

std::string as_string(ByteView v) { return std::string(reinterpret_cast<const char*>(v.data()), v.size()); }

lance::ErrorKind kind_of(const Bytes& message) {
  std::string rest;
  try {
    lance::split_field(ByteView(message), 2, rest, "test message");
  } catch (const lance::Error& e) {
    CHECK(std::string(e.what()).find("test message") != std::string::npos);
    return e.kind();
  }
  FAIL("expected an error");
  return lance::ErrorKind::internal;
}

}  // namespace

TEST_CASE("proto_split: the field is a view, the other fields are kept in order", "[proto]") {
  const Bytes message = sample_message();
  std::string rest;
  const ByteView field = lance::split_field(ByteView(message), 2, rest, "test message");
  CHECK(as_string(field) == "abc");
  CHECK(field.data() == message.data() + 5);  // no copy
  CHECK(rest == std::string("\x08\x96\x01\x1d\x07\x00\x00\x00", 8));
}

TEST_CASE("proto_split: an absent field is empty and every byte stays in rest", "[proto]") {
  const Bytes message = sample_message();
  std::string rest;
  CHECK(lance::split_field(ByteView(message), 9, rest, "test message").size() == 0);
  CHECK(rest.size() == message.size());
  rest.clear();
  CHECK(lance::split_field(ByteView(), 2, rest, "test message").size() == 0);
  CHECK(rest.empty());
}

TEST_CASE("proto_split: a repeated field gives its last occurrence", "[proto]") {
  const Bytes message{0x12, 0x01, 'x', 0x12, 0x02, 'y', 'z'};
  std::string rest;
  CHECK(as_string(lance::split_field(ByteView(message), 2, rest, "test message")) == "yz");
  CHECK(rest.empty());
}

TEST_CASE("proto_split: malformed wire bytes are corrupt-file errors", "[proto]") {
  Bytes message = sample_message();
  message.resize(6);  // the bytes field's length passes the end
  CHECK(kind_of(message) == lance::ErrorKind::corrupt);
  CHECK(kind_of(Bytes{0x08}) == lance::ErrorKind::corrupt);                                // a varint value missing
  CHECK(kind_of(Bytes{0x08, 0x01, 0x00, 0x08}) == lance::ErrorKind::corrupt);              // a zero tag
  CHECK(kind_of(Bytes{0x12}) == lance::ErrorKind::corrupt);                                // a length missing
  CHECK(kind_of(Bytes{0x12, 0xff, 0xff, 0xff, 0xff, 0x0f}) == lance::ErrorKind::corrupt);  // 4 GiB
  CHECK(kind_of(Bytes{0x0b, 0x08, 0x01}) == lance::ErrorKind::corrupt);                    // an unterminated group
}
