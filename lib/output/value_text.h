// The text of one value of an Arrow-layout array, shared by every text format
// (docs/output-format.md): a JSON token for json/jsonl and nested values, and the plain
// cell text for csv/tsv.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "array/array.h"

namespace lance::output {

/// Whether value `i` of `a` is null: its validity bit is clear, the array is of the null
/// type, or it is a dictionary value whose index points at a null dictionary entry.
bool is_null_value(const ArrayData& a, int64_t i);

/// Appends value `i` of `a` as a JSON token: `null`, a bare number or bool, a string, or
/// for list/large_list/fixed_size_list/map an array and for struct an object (compact, no
/// spaces). Dictionary values are rendered as their value type.
/// Throws a corrupt Error for a dictionary index outside the dictionary.
void append_json_value(std::string& out, const ArrayData& a, int64_t i);

/// Appends the plain text of non-null value `i` of `a` for a csv/tsv cell: the same text
/// as the JSON token without string quotes or escapes (strings raw, base64 for binary,
/// ISO-8601 temporals, exact decimals), and nested values as their JSON text.
/// The caller quotes or escapes the cell and handles nulls (see `is_null_value`).
void append_cell_text(std::string& out, const ArrayData& a, int64_t i);

/// Appends `text` as a JSON string: `"` and `\` escaped, control characters below 0x20 as
/// `\b \f \n \r \t` or `\u00xx` (lower-case hex), all other bytes (UTF-8) unchanged.
void append_json_string(std::string& out, std::string_view text);

/// Appends standard base64 (RFC 4648 alphabet, `=` padding) of `bytes`.
void append_base64(std::string& out, std::string_view bytes);

}  // namespace lance::output
