#include "read/column_selection.h"

#include <algorithm>
#include <string_view>

#include <fmt/ranges.h>

#include "common/closest_name.h"
#include "common/error.h"

namespace lance::read {

namespace {

/// All dotted paths below struct fields of `f` (for hints).
void nested_paths(const format::LanceField& f, const std::string& prefix, std::vector<std::string>& out) {
  if (f.arrow->type->id != TypeId::struct_) return;
  for (const auto& c : f.children) {
    out.push_back(prefix + "." + c.name);
    nested_paths(c, out.back(), out);
  }
}

/// Matches `rest` (a dotted path) against the children of struct `f`, appending child
/// indices to `path`. A child whose name itself holds dots is matched as a whole. When the
/// path runs into a list or map, `not_struct` names it.
bool match_path(const format::LanceField& f, std::string_view rest, std::vector<size_t>& path,
                std::string& not_struct) {
  if (f.arrow->type->id != TypeId::struct_) {
    not_struct = fmt::format("'{}' is of type {}", f.name, f.arrow->type->to_string());
    return false;
  }
  for (size_t i = 0; i < f.children.size(); ++i) {
    const auto& c = f.children[i];
    if (rest == c.name) {
      path.push_back(i);
      return true;
    }
    if (rest.size() > c.name.size() && rest.substr(0, c.name.size()) == c.name && rest[c.name.size()] == '.') {
      path.push_back(i);
      if (match_path(c, rest.substr(c.name.size() + 1), path, not_struct)) return true;
      path.pop_back();
    }
  }
  return false;
}

}  // namespace

std::vector<ColumnSelection> resolve_column_paths(const format::Schema& schema,
                                                  const std::vector<std::string>& columns) {
  std::vector<ColumnSelection> out;
  if (columns.empty()) {
    for (size_t i = 0; i < schema.fields.size(); ++i) out.push_back({i, {}, schema.fields[i].name});
    return out;
  }
  const auto names = schema.names();
  for (const auto& c : columns) {
    auto it = std::find(names.begin(), names.end(), c);
    if (it != names.end()) {
      out.push_back({static_cast<size_t>(it - names.begin()), {}, c});
      continue;
    }
    bool found = false;
    std::string not_struct;
    for (size_t i = 0; i < schema.fields.size() && !found; ++i) {
      const auto& f = schema.fields[i];
      if (c.size() <= f.name.size() + 1 || c.compare(0, f.name.size(), f.name) != 0 || c[f.name.size()] != '.')
        continue;
      std::vector<size_t> path;
      if (match_path(f, std::string_view(c).substr(f.name.size() + 1), path, not_struct)) {
        out.push_back({i, std::move(path), c});
        found = true;
      }
    }
    if (found) continue;
    if (!not_struct.empty())
      throw_usage("no column '{}': {}, and a dotted path can only select fields of structs", c, not_struct);
    std::vector<std::string> candidates = names;
    if (c.find('.') != std::string::npos)
      for (const auto& f : schema.fields) nested_paths(f, f.name, candidates);
    std::string hint = closest_name(c, candidates);
    if (!hint.empty()) throw_usage("no column '{}'; did you mean '{}'?", c, hint);
    throw_usage("no column '{}'; columns are: {}", c, fmt::join(names, ", "));
  }
  return out;
}

std::vector<size_t> resolve_projection(const format::Schema& schema, const std::vector<std::string>& columns) {
  std::vector<size_t> out;
  for (const auto& sel : resolve_column_paths(schema, columns)) {
    if (!sel.path.empty())
      throw_usage("'{}' selects a field nested in a struct; that is only supported when reading a single data file",
                  sel.name);
    out.push_back(sel.field);
  }
  return out;
}

}  // namespace lance::read
