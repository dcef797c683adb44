// "Did you mean …?" hints for unknown names (columns, nested paths).
#pragma once

#include <string>
#include <vector>

namespace lance {

/// The candidate closest to `name` by edit distance (Levenshtein), or "" when none is within
/// max(2, |name| / 3) edits. Ties go to the earliest candidate.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace lance
