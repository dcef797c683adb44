// inspect schema: the field tree with ids, types, nullability, metadata and columns.
#include <unordered_map>

#include "inspect/inspect.h"

namespace lance::inspect {

namespace {

SchemaNode describe_field(const format::LanceField& f, const std::string& prefix,
                          const std::unordered_map<const format::LanceField*, std::vector<uint32_t>>& cols) {
  SchemaNode n;
  n.id = f.id;
  n.parent_id = f.parent_id;
  n.name = f.name;
  n.path = prefix.empty() ? f.name : prefix + "." + f.name;
  n.logical_type = f.logical_type;
  n.arrow_type = f.arrow && f.arrow->type ? f.arrow->type->to_string() : "";
  n.nullable = f.nullable;
  n.metadata = f.metadata;
  if (auto it = cols.find(&f); it != cols.end()) n.columns = it->second;
  for (const auto& c : f.children) n.children.push_back(describe_field(c, n.path, cols));
  return n;
}

}  // namespace

SchemaInfo inspect_schema(const format::Schema& schema, const std::vector<ColumnField>* columns) {
  std::unordered_map<const format::LanceField*, std::vector<uint32_t>> cols;
  if (columns)
    for (const auto& c : *columns)
      if (c.field) cols[c.field].push_back(c.column);
  SchemaInfo info;
  for (const auto& f : schema.fields) info.fields.push_back(describe_field(f, "", cols));
  info.metadata = schema.metadata;
  return info;
}

SchemaInfo inspect_schema(const format::FileReader& file) {
  const auto columns = map_columns(file);
  SchemaInfo info = inspect_schema(file.schema(), &columns);
  info.path = file.path();
  info.format_version = file.version().to_string();
  return info;
}

}  // namespace lance::inspect
