// Format 2.0 fields (footer 0.3 / 2.0): one column per schema node (docs/format.md §3.4).
//
// A field becomes a tree of nodes that mirrors its type:
// - ValueNode: one column of values (primitives, strings, fixed-size lists, dictionaries,
//   packed structs); pages decode with encoding/v2_0 and are converted to arrays;
// - StructNode: a header column (no data) followed by one node per child; Lance 2.0 stores
//   no struct validity, so a struct is never null (a null struct reads as a struct of
//   null children, as Lance reads it);
// - ListNode: an offsets column (`List` pages) followed by the item node; the item
//   column's pages need not line up with the offsets pages: each offsets page says how
//   many items it references (`num_items`), which places it in the item column;
// - BlobNode: a blob column (`ColumnEncoding.blob`): descriptors {position, size} point
//   at the value bytes elsewhere in the file (map 5.6).
// Rows of a node are its column's entries: top-level rows at the top, items below a list.
// A batch touches only the pages that hold its rows (for lists, only the item pages the
// selected lists reference), and reads them like 2.1+ pages (read/staged_reads.h): list
// offsets and blob descriptors in metadata rounds with the other fields of the file, then
// the value pages in batched data requests; a page shared by two batches is read once
// (read/v2_0_page_slots.h).
#include <algorithm>

#include "read/field_reader.h"
#include "read/staged_reads.h"
#include "read/v2_0_page_slots.h"
#include "structural/assemble.h"

namespace lance::read {

namespace {

namespace v2_0 = encoding::v2_0;
namespace pb = ::lance::encodings;

/// Array of `type` (an output type) from a decoded page.
ArrayPtr to_array(const TypePtr& type, v2_0::Decoded&& d) {
  if (type->id != TypeId::struct_) return structural::values_to_array(type, std::move(d.values), d.valid);
  // Packed struct: one block per child, no child validity.
  auto a = std::make_shared<ArrayData>();
  a->type = type;
  a->length = static_cast<int64_t>(d.values.num_values);
  check_corrupt(d.values.children.size() == type->children.size(), "packed struct decoded {} children, the type has {}",
                d.values.children.size(), type->children.size());
  for (size_t i = 0; i < type->children.size(); ++i)
    a->children.push_back(structural::values_to_array(type->children[i]->type, std::move(d.values.children[i]), {}));
  a->validity = d.has_nulls() ? make_validity(d.valid, &a->null_count) : nullptr;
  return a;
}

/// Collects the parts of a read and concatenates them.
ArrayPtr concat(const TypePtr& type, std::vector<ArrayPtr>&& parts) {
  if (parts.empty()) return make_null_array(type, 0);
  return concat_arrays(type, parts);
}

class V2_0Node {
 public:
  explicit V2_0Node(TypePtr out_type) : out_type_(std::move(out_type)) {}
  virtual ~V2_0Node() = default;
  /// Entries of this node (its column's rows).
  virtual uint64_t num_rows() const = 0;
  /// Plans entries `ranges` (sorted, non-overlapping, within num_rows()): asks `reads` for
  /// their bytes; the result builds them, in order, as one array of the output type.
  virtual DeferredPtr plan(std::span<const RowRange> ranges, StagedReads& reads) = 0;
  /// Drops the pages kept for later batches (this node's and its children's).
  virtual void forget() = 0;
  const TypePtr& out_type() const { return out_type_; }

 protected:
  TypePtr out_type_;
};

uint64_t total_rows(std::span<const RowRange> ranges) {
  uint64_t n = 0;
  for (const auto& r : ranges) n += r.size();
  return n;
}

class ValueNode final : public V2_0Node {
 public:
  ValueNode(std::shared_ptr<format::FileReader> file, uint32_t column, TypePtr stored, TypePtr out)
      : V2_0Node(std::move(out)), column_(std::move(file), column), stored_(std::move(stored)), slots_(column_) {}

  uint64_t num_rows() const override { return column_.num_rows(); }
  void forget() override { slots_.forget(); }

  DeferredPtr plan(std::span<const RowRange> ranges, StagedReads& reads) override {
    return with_context([&] { return column_.name(); },
                        [&] {
                          auto parts = page_parts(column_, ranges);
                          auto slots = slots_.plan(parts, reads, /*now=*/false);
                          return make_deferred([this, parts = std::move(parts), slots = std::move(slots)]() mutable {
                            return with_context([&] { return column_.name(); },
                                                [&] { return build(parts, std::move(slots)); });
                          });
                        });
  }

  /// Entries `ranges` as metadata: `then` is handed them during the metadata rounds (blob
  /// descriptors, which say what to read next).
  void plan_now(std::span<const RowRange> ranges, StagedReads& reads, std::function<void(ArrayPtr)> then) {
    with_context([&] { return column_.name(); },
                 [&] {
                   auto parts = page_parts(column_, ranges);
                   slots_.plan(
                       parts, reads, /*now=*/true,
                       [this, parts, then = std::move(then)](const std::vector<PageSlots<ArrayPtr>::SlotPtr>& s) {
                         then(with_context([&] { return column_.name(); }, [&] { return build(parts, s); }));
                       });
                 });
  }

 private:
  /// The parts' rows as one array. Drops each slot once its part is copied out, so a page
  /// no later part, batch or kept slot holds is freed as the loop goes on.
  ArrayPtr build(const std::vector<PagePart>& parts, std::vector<PageSlots<ArrayPtr>::SlotPtr> slots) {
    std::vector<ArrayPtr> arrays;
    for (size_t k = 0; k < parts.size(); ++k) {
      const PagePart& part = parts[k];
      with_context([&] { return fmt::format("page {}", part.page); },
                   [&] {
                     const ArrayPtr& page = slots_.get(*slots[k], part.page, [&](size_t p, std::vector<Bytes>&& b) {
                       return decode_page(p, std::move(b));
                     });
                     arrays.push_back(slice_array(page, static_cast<int64_t>(part.first),
                                                  static_cast<int64_t>(part.last - part.first)));
                   });
      slots[k].reset();
    }
    return concat(out_type_, std::move(arrays));
  }

  ArrayPtr decode_page(size_t p, std::vector<Bytes>&& bytes) const {
    const auto& enc = column_.encoding(p);
    const uint64_t rows = column_.page_rows(p);
    return with_context([&] { return v2_0::describe_array_encoding(enc); },
                        [&] {
                          LoadedPage loaded = column_.loaded(p, std::move(bytes));
                          v2_0::Decoded d = v2_0::decode_array(enc, loaded.buffers(), stored_, rows);
                          check_corrupt(d.values.num_values == rows, "decoded {} values for a page of {} rows",
                                        d.values.num_values, rows);
                          ArrayPtr a = to_array(out_type_, std::move(d));
                          check_corrupt(static_cast<uint64_t>(a->length) == rows, "decoded {} rows for a page of {}",
                                        a->length, rows);
                          return a;
                        });
  }

  V2_0Column column_;
  TypePtr stored_;
  PageSlots<ArrayPtr> slots_;
};

class StructNode final : public V2_0Node {
 public:
  StructNode(std::shared_ptr<format::FileReader> file, uint32_t header, TypePtr out,
             std::vector<std::unique_ptr<V2_0Node>> children, const std::string& name)
      : V2_0Node(std::move(out)), header_(std::move(file), header), children_(std::move(children)) {
    for (size_t p = 0; p < header_.num_pages(); ++p)
      check_corrupt(header_.encoding(p).has_struct_(), "struct '{}': header {} page {} is {}, not a struct header",
                    name, header_.name(), p, v2_0::array_encoding_name(header_.encoding(p)));
    for (const auto& c : children_)
      check_corrupt(c->num_rows() == num_rows(), "struct '{}' has {} rows but a child has {}", name, num_rows(),
                    c->num_rows());
  }

  uint64_t num_rows() const override { return header_.num_rows(); }
  void forget() override {
    for (auto& c : children_) c->forget();
  }

  DeferredPtr plan(std::span<const RowRange> ranges, StagedReads& reads) override {
    std::vector<DeferredPtr> children;
    for (size_t i = 0; i < children_.size(); ++i)
      children.push_back(
          with_context([&] { return child_name(i); }, [&] { return children_[i]->plan(ranges, reads); }));
    const int64_t rows = static_cast<int64_t>(total_rows(ranges));
    return make_deferred([this, rows, children = std::move(children)] {
      auto a = std::make_shared<ArrayData>();
      a->type = out_type_;
      a->length = rows;
      for (size_t i = 0; i < children.size(); ++i)
        a->children.push_back(with_context([&] { return child_name(i); }, [&] { return children[i]->get(); }));
      return ArrayPtr(a);
    });
  }

 private:
  std::string child_name(size_t i) const { return fmt::format("child '{}'", out_type_->children[i]->name); }

  V2_0Column header_;
  std::vector<std::unique_ptr<V2_0Node>> children_;
};

class ListNode final : public V2_0Node {
 public:
  /// `as_binary`: an old-style 2.0 string/binary column stored as a list of u8 items.
  ListNode(std::shared_ptr<format::FileReader> file, uint32_t offsets, TypePtr out, std::unique_ptr<V2_0Node> items,
           const std::string& name, bool as_binary = false)
      : V2_0Node(std::move(out)),
        offsets_(std::move(file), offsets),
        items_(std::move(items)),
        as_binary_(as_binary),
        slots_(offsets_) {
    uint64_t item = 0;
    for (size_t p = 0; p < offsets_.num_pages(); ++p) {
      const auto& enc = offsets_.encoding(p);
      check_corrupt(enc.has_list(), "list '{}': {} page {} is {}, not list offsets", name, offsets_.name(), p,
                    v2_0::array_encoding_name(enc));
      item_starts_.push_back(item);
      item += enc.list().num_items();
    }
    item_starts_.push_back(item);
    check_corrupt(item == items_->num_rows(), "list '{}': the offsets reference {} items, the item column has {}", name,
                  item, items_->num_rows());
  }

  uint64_t num_rows() const override { return offsets_.num_rows(); }
  void forget() override {
    slots_.forget();
    items_->forget();
  }

  /// The offsets pages go out as metadata: their item ranges are planned when they arrive.
  DeferredPtr plan(std::span<const RowRange> ranges, StagedReads& reads) override {
    auto out = std::make_shared<Deferred>();
    with_context([&] { return offsets_.name(); },
                 [&] {
                   auto parts = page_parts(offsets_, ranges);
                   slots_.plan(parts, reads, /*now=*/true,
                               [this, out, parts, &reads](const std::vector<PageSlots<v2_0::ListOffsets>::SlotPtr>& s) {
                                 with_context([&] { return offsets_.name(); },
                                              [&] { plan_items(parts, s, reads, *out); });
                               });
                 });
    return out;
  }

 private:
  /// With the offsets pages here: the lists' offsets and validity, and the plan of their items.
  void plan_items(const std::vector<PagePart>& parts, const std::vector<PageSlots<v2_0::ListOffsets>::SlotPtr>& slots,
                  StagedReads& reads, Deferred& out) {
    std::vector<uint64_t> offsets{0};
    std::vector<uint8_t> valid;
    std::vector<RowRange> item_ranges;  // item rows, merged
    for (size_t k = 0; k < parts.size(); ++k) {
      const PagePart& part = parts[k];
      with_context([&] { return fmt::format("page {}", part.page); },
                   [&] {
                     const v2_0::ListOffsets& page =
                         slots_.get(*slots[k], part.page,
                                    [&](size_t p, std::vector<Bytes>&& b) { return decode_page(p, std::move(b)); });
                     const uint64_t start = part.first == 0 ? 0 : page.ends[part.first - 1];
                     uint64_t prev = start;
                     for (uint64_t r = part.first; r < part.last; ++r) {
                       offsets.push_back(offsets.back() + (page.ends[r] - prev));
                       valid.push_back(page.valid[r]);
                       prev = page.ends[r];
                     }
                     if (prev > start) {
                       const uint64_t b = item_starts_[part.page] + start, e = item_starts_[part.page] + prev;
                       if (!item_ranges.empty() && item_ranges.back().end == b)
                         item_ranges.back().end = e;
                       else
                         item_ranges.push_back({b, e});
                     }
                   });
    }
    DeferredPtr items = item_ranges.empty() ? nullptr : items_->plan(item_ranges, reads);
    out.set([this, offsets = std::move(offsets), valid = std::move(valid), items] {
      return with_context(
          [&] { return offsets_.name(); },
          [&] { return build(offsets, valid, items ? items->get() : make_null_array(items_->out_type(), 0)); });
    });
  }

  ArrayPtr build(const std::vector<uint64_t>& offsets, const std::vector<uint8_t>& valid, ArrayPtr items) const {
    check_corrupt(static_cast<uint64_t>(items->length) == offsets.back(),
                  "list offsets end at {} but {} items were read", offsets.back(), items->length);
    auto a = std::make_shared<ArrayData>();
    a->type = out_type_;
    a->length = static_cast<int64_t>(valid.size());
    a->validity = make_validity(valid, &a->null_count);
    auto buf = std::make_shared<Bytes>();
    if (out_type_->is_large_offsets()) {
      for (auto o : offsets) append_le<int64_t>(*buf, static_cast<int64_t>(o));
    } else {
      check_corrupt(offsets.back() <= INT32_MAX, "more than 2^31 list items in one batch; use a large type");
      for (auto o : offsets) append_le<int32_t>(*buf, static_cast<int32_t>(o));
    }
    a->buffers.push_back(buf);
    if (as_binary_) {
      check_corrupt(items->type->id == TypeId::uint8 && items->null_count == 0, "binary items are not bytes");
      a->buffers.push_back(items->buffers.at(0));
    } else {
      a->children.push_back(items);
    }
    return a;
  }

  v2_0::ListOffsets decode_page(size_t p, std::vector<Bytes>&& bytes) const {
    const auto& enc = offsets_.encoding(p);
    return with_context([&] { return v2_0::describe_array_encoding(enc); },
                        [&] {
                          LoadedPage loaded = offsets_.loaded(p, std::move(bytes));
                          return v2_0::decode_list_offsets(enc.list(), loaded.buffers(), offsets_.page_rows(p));
                        });
  }

  V2_0Column offsets_;
  std::unique_ptr<V2_0Node> items_;
  bool as_binary_;
  std::vector<uint64_t> item_starts_;  // first item of each offsets page, then the total
  PageSlots<v2_0::ListOffsets> slots_;
};

/// The descriptor struct of a 2.0 blob column.
TypePtr blob_descriptor_type() {
  static const TypePtr t = [] {
    auto field = [](const char* name) {
      auto f = std::make_shared<Field>();
      f->name = name;
      f->type = make_type(TypeId::uint64);
      f->nullable = false;
      return FieldPtr(f);
    };
    return make_struct({field("position"), field("size")});
  }();
  return t;
}

class BlobNode final : public V2_0Node {
 public:
  BlobNode(std::shared_ptr<format::FileReader> file, uint32_t column, TypePtr out)
      : V2_0Node(std::move(out)),
        file_(file),
        descriptors_(std::move(file), column, blob_descriptor_type(), blob_descriptor_type()) {
    check_corrupt(out_type_->is_binary_like(), "blob column of type {}", out_type_->to_string());
  }

  uint64_t num_rows() const override { return descriptors_.num_rows(); }
  void forget() override { descriptors_.forget(); }

  /// The descriptors go out as metadata; the values they point at as data.
  DeferredPtr plan(std::span<const RowRange> ranges, StagedReads& reads) override {
    auto out = std::make_shared<Deferred>();
    std::vector<uint64_t> rows;  // the row of each entry, for errors
    for (const auto& r : ranges)
      for (uint64_t i = r.begin; i < r.end; ++i) rows.push_back(i);
    descriptors_.plan_now(ranges, reads, [this, out, rows = std::move(rows), &reads](ArrayPtr desc) {
      plan_values(*desc, rows, reads, *out);
    });
    return out;
  }

 private:
  void plan_values(const ArrayData& desc, const std::vector<uint64_t>& rows, StagedReads& reads, Deferred& out) {
    const auto* position = desc.children.at(0)->values<uint64_t>();
    const auto* size = desc.children.at(1)->values<uint64_t>();
    const uint64_t n = static_cast<uint64_t>(desc.length);
    check_corrupt(n == rows.size(), "{} blob descriptors for {} rows", n, rows.size());
    std::vector<uint8_t> valid(n, 1);
    std::vector<io::ByteRange> ranges;
    std::vector<uint64_t> range_of(n, UINT64_MAX);
    for (uint64_t i = 0; i < n; ++i) {
      // (1, 0) marks a null value, (0, 0) an empty one (Lance's legacy blob encoder).
      if (size[i] == 0) {
        valid[i] = position[i] != 1;
        continue;
      }
      check_corrupt(position[i] <= file_->file_size() && size[i] <= file_->file_size() - position[i],
                    "blob {} at [{}, +{}) lies outside the file", rows[i], position[i], size[i]);
      range_of[i] = ranges.size();
      ranges.push_back({position[i], size[i]});
    }
    auto values = reads.later(std::move(ranges));
    out.set([this, values, valid = std::move(valid), range_of = std::move(range_of)] {
      return build(values->take(), valid, range_of);
    });
  }

  ArrayPtr build(std::vector<Bytes>&& bytes, const std::vector<uint8_t>& valid,
                 const std::vector<uint64_t>& range_of) const {
    const uint64_t n = valid.size();
    auto a = std::make_shared<ArrayData>();
    a->type = out_type_;
    a->length = static_cast<int64_t>(n);
    auto offsets = std::make_shared<Bytes>();
    auto data = std::make_shared<Bytes>();
    const bool large = out_type_->is_large_offsets();
    auto put = [&](uint64_t o) {
      if (large)
        append_le<int64_t>(*offsets, static_cast<int64_t>(o));
      else {
        check_corrupt(o <= INT32_MAX, "blob values over 2 GiB in one batch");
        append_le<int32_t>(*offsets, static_cast<int32_t>(o));
      }
    };
    put(0);
    for (uint64_t i = 0; i < n; ++i) {
      if (range_of[i] != UINT64_MAX) {
        const Bytes& b = bytes.at(range_of[i]);
        check_alloc(data->size() + b.size(), "blob values");
        data->insert(data->end(), b.begin(), b.end());
      }
      put(data->size());
    }
    a->buffers = {offsets, data};
    a->validity = make_validity(valid, &a->null_count);
    return a;
  }

  std::shared_ptr<format::FileReader> file_;
  ValueNode descriptors_;
};

/// Builds the node tree of a field, taking its columns in order from `next`.
class NodeBuilder {
 public:
  explicit NodeBuilder(std::shared_ptr<format::FileReader> file) : file_(std::move(file)) {}

  /// Takes the columns of `field` without building anything (fields before the one read).
  void skip(const format::LanceField& field) {
    const uint32_t column = take(field);
    if (is_blob_column(column)) return;
    const TypeId id = field.arrow->type->id;
    if (id == TypeId::struct_ && !field.is_packed_struct() &&
        !first_page_is(column, pb::ArrayEncoding::kPackedStruct)) {
      for (const auto& c : field.children) skip(c);
    } else if (id == TypeId::list || id == TypeId::large_list || id == TypeId::map) {
      for (const auto& c : field.children) skip(c);
    } else if (field.arrow->type->is_binary_like() && first_page_is(column, pb::ArrayEncoding::kList)) {
      take(field);
    }
  }

  std::unique_ptr<V2_0Node> build(const format::LanceField& field, const TypePtr& out) {
    const TypePtr& stored = field.arrow->type;
    const uint32_t column = take(field);
    return with_context([&] { return fmt::format("field '{}' (column {})", field.name, column); },
                        [&]() -> std::unique_ptr<V2_0Node> {
                          if (is_blob_column(column)) {
                            if (stored->is_binary_like()) return std::make_unique<BlobNode>(file_, column, out);
                            throw_unsupported("a legacy blob column of type {}", stored->to_string());
                          }
                          switch (stored->id) {
                            case TypeId::struct_: {
                              if (field.is_packed_struct() || first_page_is(column, pb::ArrayEncoding::kPackedStruct))
                                return std::make_unique<ValueNode>(file_, column, stored, out);
                              std::vector<std::unique_ptr<V2_0Node>> children;
                              check_corrupt(field.children.size() == out->children.size(),
                                            "struct '{}' children differ from its type", field.name);
                              for (size_t i = 0; i < field.children.size(); ++i)
                                children.push_back(build(field.children[i], out->children[i]->type));
                              return std::make_unique<StructNode>(file_, column, out, std::move(children), field.name);
                            }
                            case TypeId::list:
                            case TypeId::large_list: {
                              check_corrupt(field.children.size() == 1, "list '{}' needs one child field", field.name);
                              auto items = build(field.children[0], out->children.at(0)->type);
                              return std::make_unique<ListNode>(file_, column, out, std::move(items), field.name);
                            }
                            case TypeId::map:
                              throw_unsupported("map fields in a 2.0 file (Lance writes maps only in 2.2+)");
                            default:
                              if (stored->is_binary_like() && first_page_is(column, pb::ArrayEncoding::kList)) {
                                // Older 2.0 writers: a string/binary field as list offsets plus a u8 item column.
                                const uint32_t items_column = take(field);
                                auto items = std::make_unique<ValueNode>(file_, items_column, make_type(TypeId::uint8),
                                                                         make_type(TypeId::uint8));
                                return std::make_unique<ListNode>(file_, column, out, std::move(items), field.name,
                                                                  /*as_binary=*/true);
                              }
                              return std::make_unique<ValueNode>(file_, column, stored, out);
                          }
                        });
  }

 private:
  uint32_t take(const format::LanceField& field) {
    check_corrupt(next_ < file_->columns().size(), "field '{}' needs column {} but the file has {} columns", field.name,
                  next_, file_->columns().size());
    return next_++;
  }
  bool is_blob_column(uint32_t column) const { return file_->columns()[column].encoding.has_blob(); }
  bool first_page_is(uint32_t column, pb::ArrayEncoding::ArrayEncodingCase c) const {
    const auto& pages = file_->columns()[column].pages;
    return !pages.empty() && pages[0].array_encoding && pages[0].array_encoding->array_encoding_case() == c;
  }

  std::shared_ptr<format::FileReader> file_;
  uint32_t next_ = 0;
};

class V2_0FieldReader final : public FieldReader {
 public:
  V2_0FieldReader(std::shared_ptr<format::FileReader> file, size_t field_index, const ReaderOptions& options)
      : file_(std::move(file)), field_(&file_->schema().fields.at(field_index)), budget_(options.page_batch_bytes) {
    output_ = structural::output_field(field_->arrow);
    with_context(file_->path(), [&] {
      // Walk the fields before this one to find its first column: the columns of a field
      // depend on its pages (old two-column strings), not only on its type.
      NodeBuilder builder(file_);
      for (size_t i = 0; i < field_index; ++i) builder.skip(file_->schema().fields[i]);
      root_ = builder.build(*field_, output_->type);
      check_corrupt(root_->num_rows() == file_->num_rows(), "field '{}' has {} rows but the file has {}", field_->name,
                    root_->num_rows(), file_->num_rows());
    });
  }

  const FieldPtr& output_field() const override { return output_; }

  ArrayPtr read(uint64_t begin, uint64_t end) override { return read_planned(*this, file_->io(), begin, end); }

  std::unique_ptr<Pending> plan(std::span<const RowRange> ranges, MetadataRounds& rounds) override {
    auto b = std::make_unique<Batch>(ranges);
    b->rows = total_rows(ranges);
    b->on_abandon = [root = root_.get()] { root->forget(); };
    b->array = with_context([&] { return label(); }, [&] { return root_->plan(ranges, b->reads); });
    b->reads.add_to(rounds, [this] { return label(); });
    return b;
  }

  void submit(Pending& pending) override { StagedPending::submit(pending, file_->io(), budget_); }

  ArrayPtr finish(std::unique_ptr<Pending> pending) override {
    auto& b = static_cast<Batch&>(*pending);
    b.finished = true;
    return with_context([&] { return label(); },
                        [&] {
                          ArrayPtr a = b.array->get();
                          check_corrupt(static_cast<uint64_t>(a->length) == b.rows, "read {} rows, expected {}",
                                        a->length, b.rows);
                          return a;
                        });
  }

 private:
  /// One batch: its reads, and the array they build. Dropped unfinished, it makes the nodes
  /// forget the pages they kept (they may never receive its bytes).
  struct Batch final : StagedPending {
    using StagedPending::StagedPending;
    DeferredPtr array;
    uint64_t rows = 0;
  };

  std::string label() const { return fmt::format("{}: field '{}'", file_->path(), field_->name); }

  std::shared_ptr<format::FileReader> file_;
  const format::LanceField* field_;
  uint64_t budget_;
  FieldPtr output_;
  std::unique_ptr<V2_0Node> root_;
};

}  // namespace

std::unique_ptr<FieldReader> make_v2_0_field_reader(std::shared_ptr<format::FileReader> file, size_t field_index,
                                                    const ReaderOptions& options) {
  return std::make_unique<V2_0FieldReader>(std::move(file), field_index, options);
}

}  // namespace lance::read
