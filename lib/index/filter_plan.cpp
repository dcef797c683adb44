#include "index/filter_plan.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <spdlog/spdlog.h>

#include "common/error.h"
#include "expr/text.h"
#include "index/scalar_index.h"
#include "io/remote/uri.h"

namespace lance::index {

namespace {

using expr::Bound;
using expr::Op;

/// An index usable by this version's filter: its reader and the fragments it covers.
struct UsableIndex {
  std::string label;  // "BTREE id_idx on id"
  std::unique_ptr<ScalarIndex> reader;
  std::vector<uint32_t> fragments;  // covered fragments the dataset holds, ascending
};

/// A partial answer: over `fragments` (ascending), by `used` indices.
struct Partial {
  Answer answer;
  std::vector<uint32_t> fragments;
  std::set<std::string> used;
};

void columns_of(const Bound& b, std::set<std::string>& out, bool& nested) {
  if (b.op == Op::column) {
    out.insert(b.path[0]);
    nested = nested || b.path.size() > 1;
  }
  for (const auto& c : b.children) columns_of(*c, out, nested);
}

RowSet restrict(const RowSet& s, const std::vector<uint32_t>& fragments) {
  RowSet out;
  for (const uint32_t f : fragments)
    if (const auto it = s.find(f); it != s.end()) out.emplace(f, it->second);
  return out;
}

class Planner {
 public:
  Planner(const dataset::Dataset& ds, const std::vector<dataset::IndexInfo>& infos) : ds_(ds) {
    for (const auto& f : ds.fragments())
      physical_[static_cast<uint32_t>(f.id)] = static_cast<uint32_t>(f.physical_rows);
    for (const auto& info : infos) add_index(info);
  }

  bool has_indices() const { return !by_column_.empty(); }

  /// The answer of a conjunct, when its indices answer it; `need_nulls` under NOT.
  std::optional<Partial> answer(const Bound& node, bool need_nulls) {
    switch (node.op) {
      case Op::and_:
        if (auto whole = leaf(node, need_nulls)) return whole;  // a range of one BTREE column
        [[fallthrough]];
      case Op::or_:
        if (node.kind == expr::Kind::boolean) return combine(node, need_nulls);
        break;
      case Op::not_:
        if (node.kind == expr::Kind::boolean) {
          auto child = answer(*node.children[0], true);
          if (!child || !child->answer.nulls_known) return std::nullopt;
          return negate(std::move(*child));
        }
        break;
      default:
        break;
    }
    return leaf(node, need_nulls);
  }

  const std::map<uint32_t, uint32_t>& physical() const { return physical_; }

 private:
  void add_index(const dataset::IndexInfo& info) {
    if (info.type != "BTREE" && info.type != "BITMAP" && info.type != "LABEL_LIST") return;
    if (info.field_ids.empty() || info.has_base_id) return;
    const auto& fields = ds_.schema().fields;
    const auto f = std::find_if(fields.begin(), fields.end(), [&](const auto& x) { return x.id == info.field_ids[0]; });
    if (f == fields.end() || by_column_.count(f->name)) return;  // a nested field, or a second index
    IndexLocation where;
    where.dir = io::join_path(io::join_path(ds_.path(), dataset::kIndicesDir), info.uuid);
    where.what = fmt::format("index '{}' ({} on {})", info.name, info.type, f->name);
    where.store = &ds_.store();
    where.options = ds_.reader_options();
    where.physical_rows = [this](uint32_t id) {
      const auto it = physical_.find(id);
      return it == physical_.end() ? 0u : it->second;
    };
    UsableIndex u;
    u.label = fmt::format("{} {} on {}", info.type, info.name, f->name);
    u.reader = open_scalar_index(info, f->name, std::move(where));
    for (const uint32_t id : info.fragment_ids)
      if (physical_.count(id)) u.fragments.push_back(id);
    if (u.reader && !u.fragments.empty()) by_column_.emplace(f->name, std::move(u));
  }

  std::optional<Partial> leaf(const Bound& node, bool need_nulls) {
    if (node.kind != expr::Kind::boolean) return std::nullopt;
    std::set<std::string> cols;
    bool nested = false;
    columns_of(node, cols, nested);
    if (cols.size() != 1 || nested) return std::nullopt;
    const auto it = by_column_.find(*cols.begin());
    if (it == by_column_.end()) return std::nullopt;
    UsableIndex& ix = it->second;
    if (!ix.reader->answers(node)) return node.op == Op::and_ ? std::nullopt : negated_leaf(node);
    Partial p;
    try {
      p.answer = ix.reader->answer(node, need_nulls);
    } catch (const Error& e) {
      // A value the leaf cannot take (a cast of NaN, say) may be one only deleted rows hold:
      // the scan decides.
      if (e.kind() != ErrorKind::usage) throw;
      spdlog::debug("{}: not answered by {}: {}", expr::to_text(node), ix.label, e.what());
      return std::nullopt;
    }
    p.answer.true_rows = restrict(p.answer.true_rows, ix.fragments);
    p.answer.null_rows = restrict(p.answer.null_rows, ix.fragments);
    p.fragments = ix.fragments;
    p.used.insert(ix.label);
    return p;
  }

  /// `a != b`, NOT BETWEEN, NOT IN, IS NOT NULL, NOT LIKE: NOT of the positive form.
  std::optional<Partial> negated_leaf(const Bound& node) {
    auto positive = std::make_shared<Bound>(node);
    if (node.op == Op::compare && (node.name == "!=" || node.name == "<>"))
      positive->name = std::string(1, '=');
    else if (node.negated && (node.op == Op::between || node.op == Op::in_list || node.op == Op::is_null))
      positive->negated = false;
    else
      return std::nullopt;
    auto child = leaf(*positive, true);
    if (!child || !child->answer.nulls_known) return std::nullopt;
    return negate(std::move(*child));
  }

  std::optional<Partial> combine(const Bound& node, bool need_nulls) {
    auto a = answer(*node.children[0], need_nulls);
    if (!a) return std::nullopt;
    auto b = answer(*node.children[1], need_nulls);
    if (!b) return std::nullopt;
    Partial out;
    out.fragments = intersect(a->fragments, b->fragments);
    out.used = a->used;
    out.used.insert(b->used.begin(), b->used.end());
    const RowSet t1 = restrict(a->answer.true_rows, out.fragments), t2 = restrict(b->answer.true_rows, out.fragments);
    const RowSet n1 = restrict(a->answer.null_rows, out.fragments), n2 = restrict(b->answer.null_rows, out.fragments);
    Answer& r = out.answer;
    r.nulls_known = a->answer.nulls_known && b->answer.nulls_known;
    if (node.op == Op::and_) {
      r.true_rows = intersect(t1, t2);
      // null: neither side false, not both true
      if (r.nulls_known) r.null_rows = unite(intersect(n1, unite(t2, n2)), intersect(n2, t1));
    } else {
      r.true_rows = unite(t1, t2);
      if (r.nulls_known) r.null_rows = subtract(unite(n1, n2), r.true_rows);
    }
    return out;
  }

  Partial negate(Partial p) const {
    RowSet universe;
    for (const uint32_t f : p.fragments) universe[f] = all_offsets(physical_.at(f));
    p.answer.true_rows = subtract(subtract(universe, p.answer.true_rows), p.answer.null_rows);
    return p;
  }

  const dataset::Dataset& ds_;
  std::map<uint32_t, uint32_t> physical_;
  std::map<std::string, UsableIndex> by_column_;
};

void split_and(const expr::BoundPtr& b, std::vector<expr::BoundPtr>& out) {
  if (b->op == Op::and_ && b->kind == expr::Kind::boolean) {
    split_and(b->children[0], out);
    split_and(b->children[1], out);
  } else {
    out.push_back(b);
  }
}

/// The filter's top-level conjuncts, those reading the same single column joined into one
/// AND (so that `id >= 10 AND id < 20` is one BTREE range), in the order of their first.
std::vector<expr::BoundPtr> conjuncts(const expr::BoundPtr& root) {
  std::vector<expr::BoundPtr> parts, out;
  split_and(root, parts);
  std::map<std::string, size_t> by_column;
  for (const auto& p : parts) {
    std::set<std::string> cols;
    bool nested = false;
    columns_of(*p, cols, nested);
    if (cols.size() != 1 || nested) {
      out.push_back(p);
      continue;
    }
    const auto [it, fresh] = by_column.emplace(*cols.begin(), out.size());
    if (fresh) {
      out.push_back(p);
      continue;
    }
    auto both = std::make_shared<Bound>();
    both->op = Op::and_;
    both->kind = expr::Kind::boolean;
    both->children = {out[it->second], p};
    out[it->second] = both;
  }
  return out;
}

/// Physical offsets → visible row numbers of the fragment (deleted rows left out).
std::vector<uint64_t> visible_rows(const std::vector<uint32_t>& offsets, const dataset::DeletionVector& dv) {
  std::vector<uint64_t> out;
  out.reserve(offsets.size());
  const auto& del = dv.deleted();
  size_t d = 0;
  for (const uint32_t o : offsets) {
    while (d < del.size() && del[d] < o) ++d;
    if (d < del.size() && del[d] == o) continue;
    out.push_back(o - d);
  }
  return out;
}

}  // namespace

FilterPlan plan_filter(const expr::Filter& filter, const dataset::Dataset& ds,
                       const std::vector<dataset::IndexInfo>& indices) {
  FilterPlan plan;
  plan.fragments.resize(ds.fragments().size());
  Planner planner(ds, indices);
  if (!planner.has_indices()) return plan;
  const std::vector<expr::BoundPtr> parts = conjuncts(filter.root);
  const auto& stats = ds.reader_options().stats;
  std::vector<Partial> answered;
  size_t unanswered = 0;
  for (const auto& c : parts) {
    const uint64_t before = stats ? stats->bytes_read.load() : 0;
    auto p = planner.answer(*c, false);
    if (!p) {
      ++unanswered;
      continue;
    }
    IndexUse use;
    use.predicate = expr::to_text(*c);
    use.indices.assign(p->used.begin(), p->used.end());
    use.fragments = p->fragments.size();
    for (const uint32_t f : p->fragments) use.rows_covered += planner.physical().at(f);
    use.rows_matched = count_rows(p->answer.true_rows);
    use.bytes_read = stats ? stats->bytes_read.load() - before : 0;
    std::set<std::string> cols;
    bool nested = false;
    columns_of(*c, cols, nested);
    use.columns.assign(cols.begin(), cols.end());
    plan.uses.push_back(std::move(use));
    answered.push_back(std::move(*p));
  }
  for (size_t i = 0; i < ds.fragments().size(); ++i) {
    const auto id = static_cast<uint32_t>(ds.fragments()[i].id);
    std::optional<std::vector<uint32_t>> rows;
    size_t covering = 0;
    for (const auto& p : answered) {
      if (!std::binary_search(p.fragments.begin(), p.fragments.end(), id)) continue;
      ++covering;
      const auto it = p.answer.true_rows.find(id);
      static const std::vector<uint32_t> kNone;
      const auto& t = it == p.answer.true_rows.end() ? kNone : it->second;
      rows = rows ? intersect(*rows, t) : t;
    }
    if (!rows) continue;
    FragmentPlan& fp = plan.fragments[i];
    fp.mode = unanswered == 0 && covering == answered.size() ? FragmentMode::exact : FragmentMode::check;
    fp.rows = visible_rows(*rows, ds.fragments()[i].deletion ? ds.deletion_vector(i) : dataset::DeletionVector{});
  }
  return plan;
}

}  // namespace lance::index
