// Column → field table for inspect (docs/format.md §3.4), and small shared names.
#include <functional>
#include <unordered_map>

#include "inspect/inspect.h"

namespace lance::inspect {

std::vector<ColumnField> map_columns(const format::FileReader& file) {
  const auto& schema = file.schema();
  std::unordered_map<const format::LanceField*, std::string> paths;
  std::function<void(const format::LanceField&, const std::string&)> name_all = [&](const format::LanceField& f,
                                                                                    const std::string& prefix) {
    std::string p = prefix.empty() ? f.name : prefix + "." + f.name;
    paths[&f] = p;
    for (const auto& c : f.children) name_all(c, p);
  };
  for (const auto& f : schema.fields) name_all(f, "");

  std::vector<ColumnField> out(file.columns().size());
  for (uint32_t c = 0; c < out.size(); ++c) {
    out[c].column = c;
    out[c].path = "(column " + std::to_string(c) + ")";
  }
  const auto& field_columns = file.field_columns();
  for (size_t i = 0; i < schema.fields.size() && i < field_columns.size(); ++i) {
    const format::LanceField& top = schema.fields[i];
    std::vector<const format::LanceField*> stored;
    if (file.version().is_structural()) {
      format::structural_leaves(top, stored);
    } else {
      // 2.0: one column per node in pre-order; packed structs and blobs stop the walk.
      std::function<void(const format::LanceField&)> walk = [&](const format::LanceField& f) {
        stored.push_back(&f);
        if (f.is_packed_struct() || f.is_blob()) return;
        for (const auto& c : f.children) walk(c);
      };
      walk(top);
    }
    const auto& cols = field_columns[i];
    for (size_t k = 0; k < cols.size() && k < stored.size(); ++k) {
      if (cols[k] >= out.size()) continue;
      ColumnField& cf = out[cols[k]];
      cf.field = stored[k];
      cf.path = paths[stored[k]];
      cf.top_level = top.name;
    }
  }
  return out;
}

std::string layer_name(int layer) {
  switch (layer) {
    case ::lance::encodings21::REPDEF_ALL_VALID_ITEM:
      return "ALL_VALID_ITEM";
    case ::lance::encodings21::REPDEF_ALL_VALID_LIST:
      return "ALL_VALID_LIST";
    case ::lance::encodings21::REPDEF_NULLABLE_ITEM:
      return "NULLABLE_ITEM";
    case ::lance::encodings21::REPDEF_NULLABLE_LIST:
      return "NULLABLE_LIST";
    case ::lance::encodings21::REPDEF_EMPTYABLE_LIST:
      return "EMPTYABLE_LIST";
    case ::lance::encodings21::REPDEF_NULL_AND_EMPTY_LIST:
      return "NULL_AND_EMPTY_LIST";
    case ::lance::encodings21::REPDEF_UNSPECIFIED:
      return "UNSPECIFIED";
    default:
      return "LAYER_" + std::to_string(layer);
  }
}

}  // namespace lance::inspect
