// Choosing some fragments of a dataset version (`--fragments 0,3,5-9`): the id lists users
// type, and their compact rendering in messages and in `lance-cli plan`.
//
// Fragment ids are the `DataFragment.id` values of the manifest (protos/table.proto in
// lance-format/lance); they are unique within a version but need not be contiguous (a
// fragment whose rows were all deleted is dropped from later manifests).
//
// Usage:
//   auto ranges = dataset::parse_id_ranges("0,3,5-9");      // {0,0} {3,3} {5,9}
//   auto part = ds->select_fragments(ranges);               // Dataset with those fragments only
//   std::string s = dataset::format_ids({0, 2, 3, 4, 9});   // "0,2-4,9"
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lance::dataset {

/// An inclusive range of ids, `first` ≤ `last`.
struct IdRange {
  uint64_t first = 0;
  uint64_t last = 0;
  bool operator==(const IdRange&) const = default;
};

/// Parses "0,3,5-9": comma- (or newline-) separated ids and inclusive ranges, blanks around
/// items ignored. Ranges are kept as ranges (never expanded). Throws Error(usage) naming
/// `option` for an empty list, a non-number, or a range whose end is before its start.
std::vector<IdRange> parse_id_ranges(std::string_view text, std::string_view option = "--fragments");

/// Sorted, unique ids rendered with runs collapsed: {0,2,3,4,9} → "0,2-4,9"; {} → "".
/// The output parses back with parse_id_ranges.
std::string format_ids(std::span<const uint64_t> ids);

}  // namespace lance::dataset
