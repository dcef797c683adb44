// The values a filter expression computes over one batch: a column of `size()` rows of one
// kind, with validity. Integers of every width are int64 here, floats double, dates days
// since the epoch, timestamps nanoseconds since the epoch (a zone does not change the
// instant), strings and binaries byte views (into the batch, or into `owned`).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lance::expr {

enum class Kind { null, boolean, integer, floating, string, binary, date, timestamp, list, other };

/// "boolean", "integer", …: for messages.
const char* kind_name(Kind k);

struct Vec {
  Kind kind = Kind::null;
  std::vector<uint8_t> valid;                      ///< 1 = a value, 0 = null; one per row
  std::vector<int64_t> ints;                       ///< boolean (0/1), integer, date, timestamp
  std::vector<double> floats;                      ///< floating
  std::vector<std::string_view> strs;              ///< string, binary
  std::shared_ptr<std::deque<std::string>> owned;  ///< storage of computed strings
  std::vector<int64_t> offsets;                    ///< list: rows' item ranges in `items` (size()+1)
  std::shared_ptr<Vec> items;                      ///< list: the items

  size_t size() const { return valid.size(); }
  bool is_valid(size_t i) const { return valid[i] != 0; }
  /// A string that lives as long as this Vec (and its copies).
  std::string_view own(std::string s) {
    if (!owned) owned = std::make_shared<std::deque<std::string>>();
    owned->push_back(std::move(s));
    return owned->back();
  }
};

/// A Vec of `n` rows of `kind`, all null, its value vectors sized.
Vec null_vec(Kind kind, size_t n);

}  // namespace lance::expr
