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
// `read(begin, end)` touches only the pages that hold those rows (for lists, only the
// item pages the selected lists reference).
#include <algorithm>

#include "read/field_reader.h"
#include "read/legacy_column.h"
#include "structural/assemble.h"

namespace lance::read {

namespace {

namespace v2_0 = encoding::v2_0;
namespace pb = ::lance::encodings;

class LegacyNode {
 public:
  explicit LegacyNode(TypePtr out_type) : out_type_(std::move(out_type)) {}
  virtual ~LegacyNode() = default;
  /// Entries of this node (its column's rows).
  virtual uint64_t num_rows() const = 0;
  /// Entries [begin, end) as one array of the output type (begin ≤ end ≤ num_rows()).
  virtual ArrayPtr read(uint64_t begin, uint64_t end) = 0;
  const TypePtr& out_type() const { return out_type_; }

 protected:
  TypePtr out_type_;
};

/// Like `with_context`, but builds the context text only when an error passes (reads of
/// many small ranges, as `take` makes, would otherwise format it for every range).
template <typename Ctx, typename Fn>
auto with_lazy_context(Ctx&& ctx, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (Error& e) {
    e.with_context(ctx());
    throw;
  }
}

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

/// Reads pages of one column lazily, remembering the last page it decoded (a forward scan
/// in batches revisits it). `Page` is what a page decodes to.
template <typename Page>
class PageCache {
 public:
  template <typename Decode>
  const Page& get(size_t page, Decode&& decode) {
    if (!has_ || page_ != page) {
      has_ = false;
      value_ = decode(page);
      page_ = page;
      has_ = true;
    }
    return value_;
  }

 private:
  bool has_ = false;
  size_t page_ = 0;
  Page value_{};
};

/// Calls fn(page, first, last) for the part [first, last) of each page holding rows
/// [begin, end) of `col` (page-relative rows), in order.
template <typename Fn>
void for_each_page(const LegacyColumn& col, uint64_t begin, uint64_t end, Fn&& fn) {
  if (begin >= end) return;
  check_corrupt(end <= col.num_rows(), "rows [{}, {}) but {} has {} rows", begin, end, col.name(), col.num_rows());
  for (size_t p = col.page_of(begin); p < col.num_pages() && col.page_start(p) < end; ++p) {
    const uint64_t ps = col.page_start(p), pe = ps + col.page_rows(p);
    if (pe <= begin || ps == pe) continue;
    with_lazy_context([&] { return fmt::format("page {}", p); },
                      [&] { fn(p, std::max(begin, ps) - ps, std::min(end, pe) - ps); });
  }
}

class ValueNode final : public LegacyNode {
 public:
  ValueNode(std::shared_ptr<format::FileReader> file, uint32_t column, TypePtr stored, TypePtr out)
      : LegacyNode(std::move(out)), column_(std::move(file), column), stored_(std::move(stored)) {}

  uint64_t num_rows() const override { return column_.num_rows(); }

  ArrayPtr read(uint64_t begin, uint64_t end) override {
    return with_lazy_context(
        [&] { return column_.name(); },
        [&] {
          std::vector<ArrayPtr> parts;
          for_each_page(column_, begin, end, [&](size_t p, uint64_t first, uint64_t last) {
            const ArrayPtr& page = cache_.get(p, [&](size_t q) { return decode_page(q); });
            parts.push_back(slice_array(page, static_cast<int64_t>(first), static_cast<int64_t>(last - first)));
          });
          return concat(out_type_, std::move(parts));
        });
  }

 private:
  ArrayPtr decode_page(size_t p) {
    const auto& enc = column_.encoding(p);
    const uint64_t rows = column_.page_rows(p);
    return with_lazy_context([&] { return v2_0::describe_array_encoding(enc); },
                             [&] {
                               LoadedPage loaded = column_.load(p);
                               v2_0::Decoded d = v2_0::decode_array(enc, loaded.buffers(), stored_, rows);
                               check_corrupt(d.values.num_values == rows, "decoded {} values for a page of {} rows",
                                             d.values.num_values, rows);
                               ArrayPtr a = to_array(out_type_, std::move(d));
                               check_corrupt(static_cast<uint64_t>(a->length) == rows,
                                             "decoded {} rows for a page of {}", a->length, rows);
                               return a;
                             });
  }

  LegacyColumn column_;
  TypePtr stored_;
  PageCache<ArrayPtr> cache_;
};

class StructNode final : public LegacyNode {
 public:
  StructNode(std::shared_ptr<format::FileReader> file, uint32_t header, TypePtr out,
             std::vector<std::unique_ptr<LegacyNode>> children, const std::string& name)
      : LegacyNode(std::move(out)), header_(std::move(file), header), children_(std::move(children)) {
    for (size_t p = 0; p < header_.num_pages(); ++p)
      check_corrupt(header_.encoding(p).has_struct_(), "struct '{}': header {} page {} is {}, not a struct header",
                    name, header_.name(), p, v2_0::array_encoding_name(header_.encoding(p)));
    for (const auto& c : children_)
      check_corrupt(c->num_rows() == num_rows(), "struct '{}' has {} rows but a child has {}", name, num_rows(),
                    c->num_rows());
  }

  uint64_t num_rows() const override { return header_.num_rows(); }

  ArrayPtr read(uint64_t begin, uint64_t end) override {
    auto a = std::make_shared<ArrayData>();
    a->type = out_type_;
    a->length = static_cast<int64_t>(end - begin);
    for (size_t i = 0; i < children_.size(); ++i) {
      a->children.push_back(with_lazy_context([&] { return fmt::format("child '{}'", out_type_->children[i]->name); },
                                              [&] { return children_[i]->read(begin, end); }));
    }
    return a;
  }

 private:
  LegacyColumn header_;
  std::vector<std::unique_ptr<LegacyNode>> children_;
};

class ListNode final : public LegacyNode {
 public:
  /// `as_binary`: an old-style 2.0 string/binary column stored as a list of u8 items.
  ListNode(std::shared_ptr<format::FileReader> file, uint32_t offsets, TypePtr out, std::unique_ptr<LegacyNode> items,
           const std::string& name, bool as_binary = false)
      : LegacyNode(std::move(out)),
        offsets_(std::move(file), offsets),
        items_(std::move(items)),
        as_binary_(as_binary) {
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

  ArrayPtr read(uint64_t begin, uint64_t end) override {
    std::vector<uint64_t> offsets{0};
    std::vector<uint8_t> valid;
    std::vector<std::pair<uint64_t, uint64_t>> item_ranges;  // global item ranges, merged
    with_lazy_context([&] { return offsets_.name(); },
                      [&] {
                        for_each_page(offsets_, begin, end, [&](size_t p, uint64_t first, uint64_t last) {
                          const v2_0::ListOffsets& page = cache_.get(p, [&](size_t q) { return decode_page(q); });
                          const uint64_t start = first == 0 ? 0 : page.ends[first - 1];
                          uint64_t prev = start;
                          for (uint64_t r = first; r < last; ++r) {
                            offsets.push_back(offsets.back() + (page.ends[r] - prev));
                            valid.push_back(page.valid[r]);
                            prev = page.ends[r];
                          }
                          if (prev > start) {
                            const uint64_t b = item_starts_[p] + start, e = item_starts_[p] + prev;
                            if (!item_ranges.empty() && item_ranges.back().second == b)
                              item_ranges.back().second = e;
                            else
                              item_ranges.emplace_back(b, e);
                          }
                        });
                      });
    std::vector<ArrayPtr> parts;
    for (auto [b, e] : item_ranges) parts.push_back(items_->read(b, e));
    ArrayPtr items = concat(items_->out_type(), std::move(parts));
    check_corrupt(static_cast<uint64_t>(items->length) == offsets.back(),
                  "list offsets end at {} but {} items were read", offsets.back(), items->length);

    auto a = std::make_shared<ArrayData>();
    a->type = out_type_;
    a->length = static_cast<int64_t>(end - begin);
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

 private:
  v2_0::ListOffsets decode_page(size_t p) {
    const auto& enc = offsets_.encoding(p);
    return with_lazy_context([&] { return v2_0::describe_array_encoding(enc); },
                             [&] {
                               LoadedPage loaded = offsets_.load(p);
                               return v2_0::decode_list_offsets(enc.list(), loaded.buffers(), offsets_.page_rows(p));
                             });
  }

  LegacyColumn offsets_;
  std::unique_ptr<LegacyNode> items_;
  bool as_binary_;
  std::vector<uint64_t> item_starts_;  // first item of each offsets page, then the total
  PageCache<v2_0::ListOffsets> cache_;
};

/// The descriptor struct of a legacy blob column.
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

class BlobNode final : public LegacyNode {
 public:
  BlobNode(std::shared_ptr<format::FileReader> file, uint32_t column, TypePtr out)
      : LegacyNode(std::move(out)),
        file_(file),
        descriptors_(std::move(file), column, blob_descriptor_type(), blob_descriptor_type()) {
    check_corrupt(out_type_->is_binary_like(), "blob column of type {}", out_type_->to_string());
  }

  uint64_t num_rows() const override { return descriptors_.num_rows(); }

  ArrayPtr read(uint64_t begin, uint64_t end) override {
    ArrayPtr desc = descriptors_.read(begin, end);
    const auto* position = desc->children.at(0)->values<uint64_t>();
    const auto* size = desc->children.at(1)->values<uint64_t>();
    const uint64_t n = end - begin;
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
                    "blob {} at [{}, +{}) lies outside the file", begin + i, position[i], size[i]);
      range_of[i] = ranges.size();
      ranges.push_back({position[i], size[i]});
    }
    std::vector<Bytes> bytes;
    if (!ranges.empty()) bytes = file_->io().read(std::move(ranges), begin);
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
        const Bytes& b = bytes[range_of[i]];
        check_alloc(data->size() + b.size(), "blob values");
        data->insert(data->end(), b.begin(), b.end());
      }
      put(data->size());
    }
    a->buffers = {offsets, data};
    a->validity = make_validity(valid, &a->null_count);
    return a;
  }

 private:
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

  std::unique_ptr<LegacyNode> build(const format::LanceField& field, const TypePtr& out) {
    const TypePtr& stored = field.arrow->type;
    const uint32_t column = take(field);
    return with_context([&] { return fmt::format("field '{}' (column {})", field.name, column); },
                        [&]() -> std::unique_ptr<LegacyNode> {
                          if (is_blob_column(column)) {
                            if (stored->is_binary_like()) return std::make_unique<BlobNode>(file_, column, out);
                            throw_unsupported("a legacy blob column of type {}", stored->to_string());
                          }
                          switch (stored->id) {
                            case TypeId::struct_: {
                              if (field.is_packed_struct() || first_page_is(column, pb::ArrayEncoding::kPackedStruct))
                                return std::make_unique<ValueNode>(file_, column, stored, out);
                              std::vector<std::unique_ptr<LegacyNode>> children;
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

class LegacyFieldReader final : public FieldReader {
 public:
  LegacyFieldReader(std::shared_ptr<format::FileReader> file, size_t field_index)
      : file_(std::move(file)), field_(&file_->schema().fields.at(field_index)) {
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

  ArrayPtr read(uint64_t begin, uint64_t end) override {
    return with_lazy_context([&] { return fmt::format("{}: field '{}'", file_->path(), field_->name); },
                             [&] {
                               ArrayPtr a = root_->read(begin, end);
                               check_corrupt(static_cast<uint64_t>(a->length) == end - begin,
                                             "read {} rows, expected {}", a->length, end - begin);
                               return a;
                             });
  }

 private:
  std::shared_ptr<format::FileReader> file_;
  const format::LanceField* field_;
  FieldPtr output_;
  std::unique_ptr<LegacyNode> root_;
};

}  // namespace

std::unique_ptr<FieldReader> make_legacy_field_reader(std::shared_ptr<format::FileReader> file, size_t field_index) {
  return std::make_unique<LegacyFieldReader>(std::move(file), field_index);
}

}  // namespace lance::read
