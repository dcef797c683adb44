// BTREE indices (readers.h). Two files: `page_data.lance`, every (value, row address) of the
// column sorted by value, in columns `values` and `ids`, cut into pages of `batch_size`
// rows (page k = rows [k × batch_size, (k + 1) × batch_size)); and `page_lookup.lance`, one
// row per page: `min` and `max` (its first and last value in sort order, nulls first: a
// page holding a null has a null min, as Lance 8.0's files show), `null_count` and `page_idx`, with `batch_size` in the
// schema metadata (4096 when absent). A leaf is answered by reading the pages whose [min, max] can hold a match (pages
// with nulls too when its null rows are needed) and evaluating the leaf over their values. Upstream:
// rust/lance-index/src/scalar/btree.rs (BTREE_LOOKUP_NAME, BTREE_PAGES_NAME, `BTreeLookup`, `train_btree_index`).
#include <algorithm>
#include <charconv>

#include "common/error.h"
#include "expr/eval.h"
#include "index/readers.h"

namespace lance::index {

namespace {

constexpr const char* kLookupFile = "page_lookup.lance";
constexpr const char* kPagesFile = "page_data.lance";
constexpr uint64_t kDefaultBatchSize = 4096;

using expr::Bound;
using expr::BoundPtr;
using expr::Op;

BoundPtr node(Op op, std::string name, std::vector<BoundPtr> children) {
  auto b = std::make_shared<Bound>();
  b->op = op;
  b->kind = expr::Kind::boolean;
  b->name = std::move(name);
  b->children = std::move(children);
  return b;
}

BoundPtr column(const std::string& name, expr::Kind kind) {
  auto b = std::make_shared<Bound>();
  b->op = Op::column;
  b->kind = kind;
  b->path = {name};
  return b;
}

bool is_column(const Bound& b, const std::string& name) {
  return b.op == Op::column && b.path.size() == 1 && b.path[0] == name;
}

/// `col op literal` with the column first: the operator as seen from the column.
std::string flipped(const std::string& op) {
  if (op == "<") return ">";
  if (op == "<=") return ">=";
  if (op == ">") return "<";
  if (op == ">=") return "<=";
  return op;
}

class BTreeIndex final : public ScalarIndex {
 public:
  BTreeIndex(std::string column, IndexLocation where) : column_(std::move(column)), where_(std::move(where)) {}

  bool answers(const Bound& leaf) const override {
    const auto& c = leaf.children;
    switch (leaf.op) {
      case Op::compare: {
        if (c.size() != 2 || leaf.name == "!=" || leaf.name == "<>") return false;
        return (is_column(*c[0], column_) && non_null_literal(*c[1])) ||
               (is_column(*c[1], column_) && non_null_literal(*c[0]));
      }
      case Op::between:
        return !leaf.negated && c.size() == 3 && is_column(*c[0], column_) && non_null_literal(*c[1]) &&
               non_null_literal(*c[2]);
      case Op::in_list:
        return !leaf.negated && c.size() >= 2 && is_column(*c[0], column_) &&
               std::all_of(c.begin() + 1, c.end(), [](const auto& x) { return non_null_literal(*x); });
      case Op::is_null:
        return !leaf.negated && c.size() == 1 && is_column(*c[0], column_);
      case Op::and_:  // `col >= a AND col < b`: one range, its pages read once
        return leaf.kind == expr::Kind::boolean && answers(*c[0]) && answers(*c[1]);
      default:
        return false;
    }
  }

  Answer answer(const Bound& leaf, bool need_nulls) override {
    load();
    for (size_t i = 0; i < 2; ++i) check_stored_kind(leaf, column_, *lookup_.fields.at(i), false, lookup_file_->what());
    std::vector<uint64_t> pages = pages_for(leaf, need_nulls);
    Answer a;
    for (size_t i = 0; i < pages.size();) {  // runs of consecutive pages, one read each
      size_t j = i + 1;
      while (j < pages.size() && pages[j] == pages[j - 1] + 1) ++j;
      const uint64_t begin = pages[i] * batch_size_;
      const uint64_t end = std::min(pages[j - 1] * batch_size_ + batch_size_, data_->num_rows());
      const RecordBatch rows = data_->read({"values", "ids"}, begin, end);
      check_stored_kind(leaf, column_, *rows.fields.at(0), false, data_->what());
      check_corrupt(expr::kind_of(*rows.fields.at(1)->type) == expr::Kind::integer, "{}: ids are not integers",
                    data_->what());
      add_matches(leaf, rows, a);
      i = j;
    }
    return a;
  }

 private:
  /// Opens and checks both files; a failure leaves the reader unloaded (the next call tries again).
  void load() {
    if (loaded_) return;
    batch_size_ = kDefaultBatchSize;
    lookup_file_ = std::make_unique<IndexFile>(where_, kLookupFile);
    data_ = std::make_unique<IndexFile>(where_, kPagesFile);
    const auto& meta = lookup_file_->schema().metadata;
    if (const auto it = meta.find("batch_size"); it != meta.end()) {
      const auto& s = it->second;
      batch_size_ = 0;
      const auto r = std::from_chars(s.data(), s.data() + s.size(), batch_size_);
      check_corrupt(r.ec == std::errc() && r.ptr == s.data() + s.size() && batch_size_ > 0,
                    "{}: batch_size '{}' is not a positive integer", lookup_file_->what(), s);
    }
    lookup_ = lookup_file_->read({"min", "max", "null_count", "page_idx"}, 0, lookup_file_->num_rows());
    for (size_t i = 2; i < 4; ++i)
      check_corrupt(expr::kind_of(*lookup_.fields.at(i)->type) == expr::Kind::integer,
                    "{}: {} is not an integer column", lookup_file_->what(), lookup_.fields.at(i)->name);
    const expr::Vec idx = expr::load_column(lookup_, {"page_idx"});
    const uint64_t num_pages = (data_->num_rows() + batch_size_ - 1) / batch_size_;
    for (size_t i = 0; i < idx.size(); ++i)
      check_corrupt(idx.is_valid(i) && idx.ints[i] >= 0 && static_cast<uint64_t>(idx.ints[i]) < num_pages,
                    "{}: page {} of {} pages", lookup_file_->what(), idx.is_valid(i) ? idx.ints[i] : -1, num_pages);
    loaded_ = true;
  }

  /// Over the lookup rows: which pages may hold a row where `leaf` is true.
  BoundPtr page_test(const Bound& leaf) const {
    if (leaf.op == Op::and_) return node(Op::and_, "", {page_test(*leaf.children[0]), page_test(*leaf.children[1])});
    if (leaf.op == Op::is_null) {
      auto zero = std::make_shared<Bound>();
      zero->kind = expr::Kind::integer;
      zero->literal = expr::null_vec(expr::Kind::integer, 1);
      zero->literal.valid[0] = 1;
      return node(Op::compare, ">", {column("null_count", expr::Kind::integer), zero});
    }
    const auto kind = leaf.children[0]->op == Op::column ? leaf.children[0]->kind : leaf.children[1]->kind;
    const BoundPtr min = column("min", kind), max = column("max", kind);
    // A page holding nulls has a null min (nulls sort first): its non-null values start anywhere.
    auto min_test = [&](const std::string& op, const BoundPtr& v) {
      return node(Op::or_, "", {node(Op::is_null, "", {min}), node(Op::compare, op, {min, v})});
    };
    auto may_equal = [&](const BoundPtr& v) {
      return node(Op::and_, "", {min_test("<=", v), node(Op::compare, ">=", {max, v})});
    };
    const auto& c = leaf.children;
    if (leaf.op == Op::compare) {
      const bool column_first = c[0]->op == Op::column;
      const std::string op = column_first ? leaf.name : flipped(leaf.name);
      const BoundPtr& v = column_first ? c[1] : c[0];
      if (op == "=") return may_equal(v);
      if (op == "<" || op == "<=") return min_test(op, v);
      return node(Op::compare, op, {max, v});
    }
    if (leaf.op == Op::between) return node(Op::and_, "", {node(Op::compare, ">=", {max, c[1]}), min_test("<=", c[2])});
    BoundPtr any = may_equal(c[1]);  // in_list
    for (size_t i = 2; i < c.size(); ++i) any = node(Op::or_, "", {any, may_equal(c[i])});
    return any;
  }

  std::vector<uint64_t> pages_for(const Bound& leaf, bool need_nulls) const {
    const expr::Vec nulls = expr::load_column(lookup_, {"null_count"});
    const expr::Vec idx = expr::load_column(lookup_, {"page_idx"});
    std::vector<uint8_t> take(idx.size(), 0);
    const expr::Vec may = expr::evaluate(*page_test(leaf), lookup_);
    for (size_t i = 0; i < may.size(); ++i) take[i] = may.is_valid(i) && may.ints[i];
    if (need_nulls)
      for (size_t i = 0; i < nulls.size(); ++i) take[i] |= nulls.is_valid(i) && nulls.ints[i] > 0;
    std::vector<uint64_t> pages;
    for (size_t i = 0; i < take.size(); ++i)
      if (take[i]) pages.push_back(static_cast<uint64_t>(idx.ints[i]));
    std::sort(pages.begin(), pages.end());
    pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
    return pages;
  }

  /// The leaf over one run of pages: its rows' addresses into `a`.
  void add_matches(const Bound& leaf, const RecordBatch& rows, Answer& a) const {
    const expr::Vec v = expr::evaluate(leaf, column_as(rows, 0, column_));
    const expr::Vec ids = expr::load_column(rows, {"ids"});
    std::vector<uint64_t> yes, null;
    for (size_t i = 0; i < v.size(); ++i) {
      check_corrupt(ids.is_valid(i), "{}: a null row address", data_->what());
      const auto addr = static_cast<uint64_t>(ids.ints[i]);
      if (!v.is_valid(i))
        null.push_back(addr);
      else if (v.ints[i])
        yes.push_back(addr);
    }
    a.true_rows = unite(a.true_rows, known(from_row_addresses(yes)));
    a.null_rows = unite(a.null_rows, known(from_row_addresses(null)));
  }

  /// `s` without rows of fragments the dataset lacks; a row past its fragment's end is corrupt.
  RowSet known(RowSet s) const {
    for (auto it = s.begin(); it != s.end();) {
      const uint32_t rows = where_.physical_rows(it->first);
      if (!rows) {
        it = s.erase(it);
        continue;
      }
      check_corrupt(it->second.back() < rows, "{}: row {} of fragment {}, which has {} rows", data_->what(),
                    it->second.back(), it->first, rows);
      ++it;
    }
    return s;
  }

  std::string column_;
  IndexLocation where_;
  std::unique_ptr<IndexFile> lookup_file_, data_;
  RecordBatch lookup_;
  uint64_t batch_size_ = kDefaultBatchSize;
  bool loaded_ = false;
};

}  // namespace

std::unique_ptr<ScalarIndex> make_btree_index(const std::string& column, IndexLocation where) {
  return std::make_unique<BTreeIndex>(column, std::move(where));
}

}  // namespace lance::index
