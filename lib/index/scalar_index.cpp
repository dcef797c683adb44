#include "index/scalar_index.h"

#include "common/error.h"
#include "index/readers.h"

namespace lance::index {

std::unique_ptr<ScalarIndex> open_scalar_index(const dataset::IndexInfo& info, const std::string& column,
                                               IndexLocation where) {
  if (info.type == "BTREE") return make_btree_index(column, std::move(where));
  if (info.type == "BITMAP") return make_bitmap_index(column, std::move(where), false);
  if (info.type == "LABEL_LIST") return make_bitmap_index(column, std::move(where), true);
  return nullptr;
}

RecordBatch column_as(const RecordBatch& batch, size_t index, const std::string& name) {
  auto field = std::make_shared<Field>(*batch.fields.at(index));
  field->name = name;
  return RecordBatch{{field}, {batch.columns.at(index)}, batch.num_rows};
}

namespace {

const TypePtr* column_type(const expr::Bound& b, const std::string& column) {
  if (b.op == expr::Op::column && b.path.size() == 1 && b.path[0] == column) return &b.arrow_type;
  for (const auto& c : b.children)
    if (const auto* t = column_type(*c, column)) return t;
  return nullptr;
}

}  // namespace

void check_stored_kind(const expr::Bound& leaf, const std::string& column, const Field& stored, bool items,
                       const std::string& what) {
  const TypePtr* t = column_type(leaf, column);
  if (!t || !*t) throw_internal("index: leaf without column {}", column);
  const DataType* want = t->get();
  if (items) {
    check_corrupt(!want->children.empty(), "{}: column {} is not a list", what, column);
    want = want->children[0]->type.get();
  }
  const expr::Kind a = expr::kind_of(*stored.type), b = expr::kind_of(*want);
  check_corrupt(a == b && a != expr::Kind::other, "{}: stores {} values for column {} of {} values", what,
                expr::kind_name(a), column, expr::kind_name(b));
}

bool non_null_literal(const expr::Bound& node) {
  return node.op == expr::Op::literal && node.kind != expr::Kind::null && node.literal.size() == 1 &&
         node.literal.is_valid(0);
}

}  // namespace lance::index
