// A nested sub-field as a column of its own (`-c s.inner.y`).
//
// 2.1+ files store every leaf of a struct as its own column, and each leaf's
// definition levels carry the validity of every struct above it. So reading a
// sub-field needs only the leaf columns under it: the top-level field is copied and
// pruned to the path (each struct on it keeps only the child on the path), that copy
// is assembled from those columns, and the result is walked down to the sub-field,
// folding each struct's validity into its child's. A packed struct is one column: it
// is read whole and walked down the same way. 2.0 files read the whole top-level field.
#include <span>

#include "read/field_reader.h"
#include "structural/assemble.h"

namespace lance::read {

namespace {

/// A struct whose children are columns of their own (what pruning can cut).
bool is_column_struct(const format::LanceField& f) {
  return f.arrow->type->id == TypeId::struct_ && !f.is_packed_struct() && !f.children.empty() && !f.is_blob();
}

/// Rebuilds the Arrow fields of the first `levels` structs of a pruned chain (one child each).
void rebuild_arrow(format::LanceField& f, size_t levels) {
  if (levels == 0) return;
  rebuild_arrow(f.children.at(0), levels - 1);
  auto copy = std::make_shared<Field>(*f.arrow);
  copy->type = make_struct({f.children[0].arrow});
  f.arrow = std::move(copy);
}

/// Child `child` of struct array `parent`, null wherever `parent` is null.
ArrayPtr child_of(const ArrayPtr& parent, size_t child) {
  check_corrupt(parent->type->id == TypeId::struct_ && child < parent->children.size(), "sub-field {} of a {} column",
                child, parent->type->to_string());
  const ArrayPtr& c = parent->children[child];
  check_corrupt(c->length == parent->length, "struct child of {} rows in a struct of {}", c->length, parent->length);
  if (parent->null_count == 0 || !parent->validity || c->type->id == TypeId::null) return c;
  std::vector<uint8_t> valid(static_cast<size_t>(c->length));
  for (int64_t i = 0; i < c->length; ++i) valid[i] = parent->is_valid(i) && c->is_valid(i);
  auto out = std::make_shared<ArrayData>(*c);
  out->validity = make_validity(valid, &out->null_count);
  return out;
}

class SubFieldReader final : public FieldReader {
 public:
  /// `inner` reads a (possibly pruned) top-level field; `steps` are the child indices that
  /// lead from its arrays to the sub-field.
  SubFieldReader(std::unique_ptr<FieldReader> inner, std::vector<size_t> steps, FieldPtr output)
      : inner_(std::move(inner)), steps_(std::move(steps)), output_(std::move(output)) {}

  const FieldPtr& output_field() const override { return output_; }
  ArrayPtr read(uint64_t begin, uint64_t end) override { return descend(inner_->read(begin, end)); }
  std::unique_ptr<Pending> plan(std::span<const RowRange> ranges, MetadataRounds& rounds) override {
    return inner_->plan(ranges, rounds);
  }
  void submit(Pending& pending) override { inner_->submit(pending); }
  ArrayPtr finish(std::unique_ptr<Pending> pending) override { return descend(inner_->finish(std::move(pending))); }

 private:
  ArrayPtr descend(ArrayPtr a) const {
    for (size_t s : steps_) a = child_of(a, s);
    return a;
  }

  std::unique_ptr<FieldReader> inner_;
  std::vector<size_t> steps_;
  FieldPtr output_;
};

}  // namespace

std::unique_ptr<FieldReader> make_sub_field_reader(std::shared_ptr<format::FileReader> file, size_t field_index,
                                                   const std::vector<size_t>& path, const std::string& name,
                                                   const ReaderOptions& options) {
  const format::LanceField& top = file->schema().fields.at(field_index);
  // The sub-field itself, for the output type.
  const format::LanceField* target = &top;
  for (size_t i : path) {
    if (target->arrow->type->id != TypeId::struct_ || i >= target->children.size())
      throw_usage("'{}' is not a field of a struct", name);
    target = &target->children[i];
  }
  auto output = std::make_shared<Field>(*structural::output_field(target->arrow));
  output->name = name;
  output->nullable = true;

  if (!file->version().is_structural())
    return std::make_unique<SubFieldReader>(make_field_reader(file, field_index), path, std::move(output));

  // Prune along the path while the structs have columns of their own.
  auto pruned = std::make_shared<format::LanceField>(top);
  format::LanceField* cur = pruned.get();
  const format::LanceField* orig = &top;
  size_t levels = 0;
  for (; levels < path.size() && is_column_struct(*cur); ++levels) {
    const size_t i = path[levels];
    format::LanceField child = std::move(cur->children.at(i));
    cur->children.clear();
    cur->children.push_back(std::move(child));
    cur = &cur->children[0];
    orig = &orig->children.at(i);
  }
  rebuild_arrow(*pruned, levels);
  std::vector<size_t> steps(levels, 0);
  steps.insert(steps.end(), path.begin() + static_cast<std::ptrdiff_t>(levels), path.end());

  // The leaves under the cut are a contiguous run of the top-level field's columns.
  std::vector<const format::LanceField*> all, kept;
  format::structural_leaves(top, all);
  format::structural_leaves(*orig, kept);
  const auto& cols = file->field_columns().at(field_index);
  check_corrupt(cols.size() == all.size(), "field '{}' maps to {} columns, expected {}", top.name, cols.size(),
                all.size());
  size_t first = 0;
  while (first < all.size() && all[first] != kept.front()) ++first;
  check_corrupt(first + kept.size() <= all.size(), "field '{}': sub-field columns not found", top.name);
  std::vector<uint32_t> sub_cols(cols.begin() + static_cast<std::ptrdiff_t>(first),
                                 cols.begin() + static_cast<std::ptrdiff_t>(first + kept.size()));
  auto inner = make_structural_field_reader(std::move(file), std::move(pruned), sub_cols, options);
  return std::make_unique<SubFieldReader>(std::move(inner), std::move(steps), std::move(output));
}

}  // namespace lance::read
