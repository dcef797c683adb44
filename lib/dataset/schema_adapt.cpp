#include "dataset/schema_adapt.h"

namespace lance::dataset {

bool same_field_tree(const format::LanceField& a, const format::LanceField& b) {
  if (a.id != b.id || a.name != b.name || a.logical_type != b.logical_type || a.children.size() != b.children.size())
    return false;
  for (size_t i = 0; i < a.children.size(); ++i)
    if (!same_field_tree(a.children[i], b.children[i])) return false;
  return true;
}

void collect_field_ids(const format::LanceField& field, std::vector<int32_t>& out) {
  out.push_back(field.id);
  for (const auto& c : field.children) collect_field_ids(c, out);
}

ArrayPtr adapt_to_table_field(const ArrayPtr& array, const format::LanceField& stored, const format::LanceField& table,
                              const FieldPtr& out) {
  if (same_field_tree(stored, table)) return array;
  if (stored.logical_type != table.logical_type)
    throw_unsupported("column '{}' (field id {}) is stored as {} in this data file but the table schema says {}",
                      table.name, table.id, stored.logical_type, table.logical_type);
  const auto& out_children = out->type->children;
  // Types whose Lance children are their Arrow children one to one: struct, list, large_list, map.
  const bool mapped_children = !table.children.empty() && table.children.size() == out_children.size() &&
                               array->children.size() == stored.children.size();
  if (!mapped_children) {
    // Same logical type and no child fields to reconcile (e.g. a renamed leaf): only the
    // name differs, and names live in the output field, not in the array.
    if (table.children.empty() && stored.children.empty()) return array;
    throw_unsupported(
        "column '{}' (field id {}) has a nested layout in this data file that differs from the table schema",
        table.name, table.id);
  }
  auto copy = std::make_shared<ArrayData>(*array);
  copy->type = out->type;
  copy->children.clear();
  if (out->type->id == TypeId::struct_) {
    // Children by field id: a child the file lacks (added later) reads as nulls, a child the
    // table dropped is left out.
    for (size_t i = 0; i < table.children.size(); ++i) {
      const auto& want = table.children[i];
      size_t j = 0;
      while (j < stored.children.size() && stored.children[j].id != want.id) ++j;
      if (j == stored.children.size()) {
        copy->children.push_back(make_null_array(out_children[i]->type, array->length));
      } else {
        copy->children.push_back(adapt_to_table_field(array->children[j], stored.children[j], want, out_children[i]));
      }
    }
  } else {
    // list / large_list / map: the one child (item or entries) keeps its position.
    for (size_t i = 0; i < table.children.size(); ++i) {
      if (stored.children[i].id != table.children[i].id)
        throw_unsupported("column '{}': child '{}' has field id {} in this data file but {} in the table schema",
                          table.name, table.children[i].name, stored.children[i].id, table.children[i].id);
      copy->children.push_back(
          adapt_to_table_field(array->children[i], stored.children[i], table.children[i], out_children[i]));
    }
  }
  return copy;
}

}  // namespace lance::dataset
