// BITMAP and LABEL_LIST indices (readers.h). One file, `bitmap_page_lookup.lance`: column
// `keys` (each distinct value; a null key stands for the null rows) and column `bitmaps`
// (per key, a serialized RowAddrTreeMap of the rows holding it; decode_row_addr_map).
// A LABEL_LIST index is the same file over the items of a list column: a key's rows are
// the rows whose list holds the key.
// Upstream: rust/lance-index/src/scalar/bitmap.rs (BITMAP_LOOKUP_NAME, `BitmapIndex::load`),
// label_list.rs.
#include <algorithm>

#include "common/error.h"
#include "expr/eval.h"
#include "index/readers.h"

namespace lance::index {

namespace {

constexpr const char* kLookupFile = "bitmap_page_lookup.lance";

bool equal_at(const expr::Vec& a, size_t i, const expr::Vec& b, size_t j) {
  switch (a.kind) {
    case expr::Kind::string:
    case expr::Kind::binary:
      return a.strs[i] == b.strs[j];
    case expr::Kind::floating:
      return a.floats[i] == b.floats[j];
    default:
      return a.ints[i] == b.ints[j];
  }
}

bool is_list_function(const std::string& f) {
  return f == "array_has_any" || f == "array_has_all" || f == "array_contains" || f == "array_has";
}

class BitmapIndex final : public ScalarIndex {
 public:
  BitmapIndex(std::string column, IndexLocation where, bool label_list)
      : column_(std::move(column)), where_(std::move(where)), label_list_(label_list) {}

  bool answers(const expr::Bound& leaf) const override {
    if (!label_list_) return true;  // any predicate of the column: it is evaluated over the keys
    if (leaf.op != expr::Op::function || !is_list_function(leaf.name) || leaf.children.size() != 2) return false;
    const auto& list = *leaf.children[0];
    if (list.op != expr::Op::column || list.path.size() != 1) return false;
    const auto& probe = *leaf.children[1];
    if (probe.op != expr::Op::array) return leaf.name.rfind("array_has_", 0) != 0 && non_null_literal(probe);
    if (probe.children.empty()) return false;
    return std::all_of(probe.children.begin(), probe.children.end(),
                       [](const auto& c) { return non_null_literal(*c); });
  }

  Answer answer(const expr::Bound& leaf, bool /*need_nulls*/) override {
    load();
    check_stored_kind(leaf, column_, *keys_.fields.at(0), label_list_, file_->what());
    return label_list_ ? answer_labels(leaf) : answer_values(leaf);
  }

 private:
  /// Opens the file and reads its keys; a failure leaves the reader unloaded.
  void load() {
    if (loaded_) return;
    file_ = std::make_unique<IndexFile>(where_, kLookupFile);
    keys_ = column_as(file_->read({"keys"}, 0, file_->num_rows()), 0, column_);
    loaded_ = true;
  }

  /// BITMAP: the leaf evaluated over every key; true keys' rows are true, null keys' null.
  Answer answer_values(const expr::Bound& leaf) {
    const expr::Vec v = expr::evaluate(leaf, keys_);
    std::vector<uint64_t> true_keys, null_keys;
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v.is_valid(i))
        null_keys.push_back(i);
      else if (v.ints[i])
        true_keys.push_back(i);
    }
    Answer a;
    a.true_rows = rows_of(true_keys);
    a.null_rows = rows_of(null_keys);
    return a;
  }

  /// LABEL_LIST: the rows whose list holds any / all of the needles.
  Answer answer_labels(const expr::Bound& leaf) {
    const expr::Vec keys = expr::load_column(keys_, {column_});
    std::vector<const expr::Bound*> needles;
    if (leaf.children[1]->op == expr::Op::array)
      for (const auto& c : leaf.children[1]->children) needles.push_back(c.get());
    else
      needles.push_back(leaf.children[1].get());
    const bool all = leaf.name == "array_has_all";
    Answer a;
    a.nulls_known = false;
    bool first = true;
    for (const auto* needle : needles) {
      const expr::Vec value = expr::convert(needle->literal, keys.kind);
      std::vector<uint64_t> matching;
      for (size_t i = 0; i < keys.size(); ++i)
        if (keys.is_valid(i) && value.is_valid(0) && equal_at(keys, i, value, 0)) matching.push_back(i);
      RowSet rows = rows_of(matching);
      a.true_rows = first ? std::move(rows) : all ? intersect(a.true_rows, rows) : unite(a.true_rows, rows);
      first = false;
    }
    return a;
  }

  /// The union of the bitmaps of key rows `keys` (ascending).
  RowSet rows_of(const std::vector<uint64_t>& keys) {
    RowSet out;
    if (keys.empty()) return out;
    const RecordBatch b = file_->take({"bitmaps"}, keys);
    check_corrupt(expr::kind_of(*b.fields.at(0)->type) == expr::Kind::binary, "{}: bitmaps are not binary",
                  file_->what());
    const expr::Vec bitmaps = expr::load_column(b, {b.fields.at(0)->name});
    for (size_t i = 0; i < bitmaps.size(); ++i) {
      if (!bitmaps.is_valid(i)) continue;
      const auto s = bitmaps.strs[i];
      try {
        for (auto& [fragment, rows] : decode_row_addr_map(
                 ByteView(reinterpret_cast<const uint8_t*>(s.data()), s.size()), where_.physical_rows)) {
          auto& into = out[fragment];
          into.insert(into.end(), rows.begin(), rows.end());
        }
      } catch (Error& e) {
        e.with_context(fmt::format("{}: bitmap of key row {}", file_->what(), keys[i]));
        throw;
      }
    }
    for (auto& [fragment, rows] : out) {  // keys' bitmaps are disjoint in a sound index; a union all the same
      std::sort(rows.begin(), rows.end());
      rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    }
    return out;
  }

  std::string column_;
  IndexLocation where_;
  bool label_list_;
  std::unique_ptr<IndexFile> file_;
  RecordBatch keys_;
  bool loaded_ = false;
};

}  // namespace

std::unique_ptr<ScalarIndex> make_bitmap_index(const std::string& column, IndexLocation where, bool label_list) {
  return std::make_unique<BitmapIndex>(column, std::move(where), label_list);
}

}  // namespace lance::index
