// Lance schema: the flat, pre-ordered field list of `lance.file.Schema` turned into a
// tree of Arrow fields, and the field → column mapping of each format version
// (docs/format.md sections 3.1–3.4).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "array/types.h"
#include "file.pb.h"

namespace lance::format {

/// One Lance field with its children resolved.
struct LanceField {
  int32_t id = 0;
  int32_t parent_id = -1;
  std::string name;
  std::string logical_type;  ///< as stored, e.g. "timestamp:us:UTC", "fixed_size_list:float:128"
  bool nullable = true;
  std::map<std::string, std::string> metadata;
  std::vector<LanceField> children;
  FieldPtr arrow;  ///< the Arrow field built from this subtree

  bool is_packed_struct() const;
  bool is_blob() const;
};

/// The schema of a file or dataset: the top-level fields in order.
struct Schema {
  std::vector<LanceField> fields;
  std::map<std::string, std::string> metadata;

  /// Top-level field by name, or null.
  const LanceField* find(const std::string& name) const;
  std::vector<std::string> names() const;
};

/// Parses a Lance logical type string into an Arrow type. Children of struct/list/map
/// types come from `children`. Throws Error(unsupported) for an unknown type string.
TypePtr parse_logical_type(const std::string& logical_type, const std::vector<LanceField>& children);

/// Builds the field tree from the pre-ordered protobuf list. Throws Error(corrupt) on
/// dangling parents or duplicate ids.
Schema schema_from_proto(const ::lance::file::Schema& proto);
Schema schema_from_fields(const google::protobuf::RepeatedPtrField<::lance::file::Field>& fields,
                          const google::protobuf::Map<std::string, std::string>* metadata);

/// 2.1+: the leaf columns of a field in column order (a struct/list/map has none of its
/// own; packed structs and blobs are one column). Appends field pointers.
void structural_leaves(const LanceField& field, std::vector<const LanceField*>& out);

}  // namespace lance::format
