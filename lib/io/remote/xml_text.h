// The few XML reads the object-store listings need (S3 ListObjectsV2, Azure List Blobs): the
// text of elements found by tag name, entities decoded. Not a parser: no attributes, no
// namespaces, no nesting of an element inside one of the same name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lance::io {

/// `s` with XML's predefined entities (&amp; &lt; &gt; &quot; &apos;) and character references
/// (&#N; &#xH;, as UTF-8) decoded; anything else kept as it is.
std::string xml_unescape(std::string_view s);

/// The raw contents of every `<tag>…</tag>` inside `s`, in order (entities not decoded).
std::vector<std::string_view> xml_all(std::string_view s, std::string_view tag);

/// The decoded text of the first `<tag>…</tag>` inside `s`, or "" when there is none.
std::string xml_one(std::string_view s, std::string_view tag);

}  // namespace lance::io
