#include "structural/assemble.h"

#include <algorithm>
#include <cstring>

#include "structural/dictionary.h"
#include "structural/packed_struct.h"
#include "structural/repdef.h"

namespace lance::structural {

using encoding::DataBlock;

TypePtr output_type(const TypePtr& t) {
  if (t->id == TypeId::dictionary) return output_type(t->value_type);
  if (t->children.empty()) return t;
  auto copy = std::make_shared<DataType>(*t);
  for (auto& c : copy->children) c = output_field(c);
  return copy;
}

FieldPtr output_field(const FieldPtr& f) {
  auto t = output_type(f->type);
  if (t == f->type) return f;
  auto copy = std::make_shared<Field>(*f);
  copy->type = t;
  return copy;
}

namespace {

BytesPtr validity_from(const std::vector<uint8_t>& valid, int64_t* nulls) {
  if (valid.empty()) {
    *nulls = 0;
    return nullptr;
  }
  return make_validity(valid, nulls);
}

template <typename Offset>
BytesPtr narrow_offsets(const DataBlock& b) {
  auto out = std::make_shared<Bytes>((b.num_values + 1) * sizeof(Offset));
  auto* dst = reinterpret_cast<Offset*>(out->data());
  const uint64_t base = b.num_values ? b.offset(0) : (b.offsets.empty() ? 0 : b.offset(0));
  for (uint64_t i = 0; i <= b.num_values; ++i) {
    uint64_t o = b.offsets.empty() ? 0 : b.offset(i) - base;
    if constexpr (sizeof(Offset) == 4)
      check_corrupt(o <= static_cast<uint64_t>(INT32_MAX), "value data over 2 GiB in one batch; use a large type");
    dst[i] = static_cast<Offset>(o);
  }
  return out;
}

/// The unsigned integer type of `bits` (8, 16, 32 or 64) dictionary indices.
TypePtr index_type_of(uint64_t bits) {
  switch (bits) {
    case 8:
      return make_type(TypeId::uint8);
    case 16:
      return make_type(TypeId::uint16);
    case 32:
      return make_type(TypeId::uint32);
    case 64:
      return make_type(TypeId::uint64);
    default:
      throw_corrupt("dictionary indices of {} bits", bits);
  }
}

/// Arrow's dictionary array of `value_type` values: `indices` (one per row, each checked to be
/// below the dictionary's length) and `dictionary` (copied: a page's dictionary serves many
/// batches).
ArrayPtr dictionary_to_array(const TypePtr& value_type, const DataBlock& dictionary, DataBlock&& indices,
                             const std::vector<uint8_t>& valid) {
  check_corrupt(!indices.is_variable(), "dictionary indices must be fixed width");
  const TypePtr index_type = index_type_of(indices.bits_per_value);
  const uint64_t n = indices.num_values, width = indices.bits_per_value / 8;
  uint64_t highest = 0;
  with_typed_indices(indices, [&](auto index) {
    for (uint64_t i = 0; i < n; ++i) highest = std::max(highest, index(i));
  });
  check_corrupt(n == 0 || highest < dictionary.num_values, "dictionary index {} but the dictionary has {} items",
                highest, dictionary.num_values);
  auto a = std::make_shared<ArrayData>();
  a->type = make_dictionary(index_type, value_type);
  a->length = static_cast<int64_t>(n);
  check_corrupt(valid.empty() || valid.size() == n, "{} validity flags for {} values", valid.size(), n);
  a->validity = validity_from(valid, &a->null_count);
  indices.data.resize(n * width);
  a->buffers.push_back(std::make_shared<Bytes>(std::move(indices.data)));
  a->dictionary = values_to_array(value_type, DataBlock(dictionary), {});
  return a;
}

}  // namespace

ArrayPtr values_to_array(const TypePtr& type, DataBlock&& values, const std::vector<uint8_t>& valid) {
  // A struct reaching a leaf is a packed struct: its values are whole rows.
  if (type->id == TypeId::struct_) return packed_struct_to_array(type, std::move(values), valid);
  auto a = std::make_shared<ArrayData>();
  a->type = type;
  a->length = static_cast<int64_t>(values.num_values);
  check_corrupt(valid.empty() || valid.size() == values.num_values, "{} validity flags for {} values", valid.size(),
                values.num_values);
  a->validity = validity_from(valid, &a->null_count);
  const DataType& t = *type;
  if (t.id == TypeId::null) {
    a->null_count = a->length;
    a->validity = nullptr;
    return a;
  }
  if (t.is_binary_like()) {
    check_corrupt(values.is_variable() || values.num_values == 0, "{} column decoded to fixed-width values",
                  t.to_string());
    if (!values.is_variable()) values.bits_per_offset = 64;
    if (values.offsets.empty()) append_le<uint64_t>(values.offsets, 0);
    uint64_t b = values.offset(0), e = values.offset(values.num_values);
    check_corrupt(b <= e && e <= values.data.size(), "value offsets [{}, {}) outside {} bytes", b, e,
                  values.data.size());
    a->buffers.push_back(t.is_large_offsets() ? narrow_offsets<int64_t>(values) : narrow_offsets<int32_t>(values));
    if (b == 0 && e == values.data.size())
      a->buffers.push_back(std::make_shared<Bytes>(std::move(values.data)));
    else
      a->buffers.push_back(std::make_shared<Bytes>(values.data.begin() + b, values.data.begin() + e));
    return a;
  }
  check_corrupt(!values.is_variable(), "{} column decoded to variable-width values", t.to_string());
  if (t.id == TypeId::fixed_size_list) {
    // Flattened items; one FSL layer per dim (outer first) with optional item validity.
    const auto& item_field = t.children[0];
    // The items take the values' buffer over (no copy); dims and validity are re-set below.
    DataBlock items;
    items.bits_per_value = values.bits_per_value;
    items.bits_per_offset = values.bits_per_offset;
    items.packed_child_bits = values.packed_child_bits;
    items.data = std::move(values.data);
    items.offsets = std::move(values.offsets);
    items.children = std::move(values.children);
    items.all_null = values.all_null;
    items.num_values = values.num_values * static_cast<uint64_t>(t.list_size);
    std::vector<uint8_t> item_valid;
    if (!values.fsl_dims.empty()) {
      check_corrupt(values.fsl_dims[0] == static_cast<uint64_t>(t.list_size),
                    "fixed-size list of {} items stored with {}", t.list_size, values.fsl_dims[0]);
      items.fsl_dims.assign(values.fsl_dims.begin() + 1, values.fsl_dims.end());
      if (!values.fsl_validity.empty()) {
        items.fsl_validity.assign(values.fsl_validity.begin() + 1, values.fsl_validity.end());
        const Bytes& bits = values.fsl_validity[0];
        if (!bits.empty()) {
          check_corrupt(bits.size() * 8 >= items.num_values, "item validity too short");
          item_valid.resize(items.num_values);
          for (uint64_t i = 0; i < items.num_values; ++i) item_valid[i] = get_bit(bits.data(), i);
        }
      }
    }
    a->children.push_back(values_to_array(item_field->type, std::move(items), item_valid));
    return a;
  }
  if (t.id == TypeId::boolean) {
    check_corrupt(values.bits_per_value == 1, "bool column decoded to {}-bit values", values.bits_per_value);
    check_corrupt(values.data.size() * 8 >= values.num_values, "bool bitmap too short");
    values.data.resize((values.num_values + 7) / 8);
    a->buffers.push_back(std::make_shared<Bytes>(std::move(values.data)));
    return a;
  }
  const int bits = t.bit_width();
  check_corrupt(bits > 0, "type {} has no fixed width", t.to_string());
  check_corrupt(values.bits_per_value == static_cast<uint64_t>(bits), "{} column decoded to {}-bit values",
                t.to_string(), values.bits_per_value);
  const uint64_t need = values.num_values * static_cast<uint64_t>(bits / 8);
  check_corrupt(values.data.size() >= need, "{} values need {} bytes, got {}", values.num_values, need,
                values.data.size());
  values.data.resize(need);
  a->buffers.push_back(std::make_shared<Bytes>(std::move(values.data)));
  return a;
}

namespace {

struct LeafState {
  LeafData* data;
  std::vector<LayerSlots> layers;  // outermost first
};

class Assembler {
 public:
  Assembler(std::vector<LeafData>& leaves, LevelPlans* plans) {
    for (size_t i = 0; i < leaves.size(); ++i) {
      LeafData& l = leaves[i];
      LeafState s{&l, {}};
      s.layers = plans ? unravel(*plans->get(i, l.layers), l.rep, l.def, l.num_levels())
                       : unravel(l.layers, l.rep, l.def, l.num_levels());
      states_.push_back(std::move(s));
    }
  }

  ArrayPtr build(const format::LanceField& field, const TypePtr& out_type, size_t depth) {
    const size_t first_leaf = next_;
    const auto id = field.arrow->type->id;
    const bool container = (id == TypeId::struct_ && !field.is_packed_struct() && !field.children.empty()) ||
                           id == TypeId::list || id == TypeId::large_list || id == TypeId::map;
    if (!container || field.is_blob()) {
      check_corrupt(next_ < states_.size(), "field '{}' has no column", field.name);
      LeafState& s = states_[next_++];
      check_corrupt(depth + 1 == s.layers.size(), "column of field '{}' has {} layers, the schema needs {}", field.name,
                    s.layers.size(), depth + 1);
      const LayerSlots& item = s.layers[depth];
      check_corrupt(item.num_slots == s.data->values.num_values, "field '{}': {} value slots but {} values", field.name,
                    item.num_slots, s.data->values.num_values);
      if (s.data->dictionary) {
        if (depth == 0 && out_type->is_binary_like())
          return dictionary_to_array(out_type, *s.data->dictionary, std::move(s.data->values), item.valid);
        expand_dictionary(*s.data);
      }
      return values_to_array(out_type, std::move(s.data->values), item.valid);  // empty: no nulls
    }
    auto a = std::make_shared<ArrayData>();
    a->type = out_type;
    std::vector<ArrayPtr> children;
    for (size_t i = 0; i < field.children.size(); ++i)
      children.push_back(build(field.children[i], out_type->children[i]->type, depth + 1));
    check_corrupt(first_leaf < states_.size(), "field '{}' has no column", field.name);
    const LayerSlots& layer = states_[first_leaf].layers.at(depth);
    a->length = static_cast<int64_t>(layer.num_slots);
    a->validity = validity_from(layer.valid, &a->null_count);  // empty: no nulls
    if (id == TypeId::struct_) {
      check_corrupt(!layer.is_list, "struct '{}' stored as a list layer", field.name);
      for (const auto& c : children)
        check_corrupt(c->length == a->length, "struct '{}' children have {} and {} rows", field.name, c->length,
                      a->length);
      a->children = std::move(children);
      return a;
    }
    check_corrupt(layer.is_list, "list '{}' stored without a list layer", field.name);
    check_corrupt(children.size() == 1, "list '{}' needs one child", field.name);
    check_corrupt(layer.offsets.back() == children[0]->length, "list '{}' offsets end at {} but it has {} items",
                  field.name, layer.offsets.back(), children[0]->length);
    std::shared_ptr<Bytes> offsets;
    if (id == TypeId::large_list) {
      offsets = std::make_shared<Bytes>(layer.offsets.size() * sizeof(int64_t));
      std::memcpy(offsets->data(), layer.offsets.data(), offsets->size());
    } else {
      check_corrupt(layer.offsets.back() <= INT32_MAX, "list '{}' has more than 2^31 items in one batch", field.name);
      offsets = std::make_shared<Bytes>(layer.offsets.size() * sizeof(int32_t));
      auto* dst = reinterpret_cast<int32_t*>(offsets->data());
      for (size_t i = 0; i < layer.offsets.size(); ++i) dst[i] = static_cast<int32_t>(layer.offsets[i]);
    }
    a->buffers.push_back(offsets);
    a->children = std::move(children);
    return a;
  }

  size_t consumed() const { return next_; }

 private:
  std::vector<LeafState> states_;
  size_t next_ = 0;
};

}  // namespace

std::shared_ptr<const LevelPlan> LevelPlans::get(size_t leaf, const std::vector<RepDefLayer>& layers) {
  {
    std::lock_guard lock(mutex_);
    if (leaf < plans_.size() && plans_[leaf] && plans_[leaf]->inner_first == layers) return plans_[leaf];
  }
  // Built outside the lock: two batches that both miss build the same plan, one is kept.
  auto plan = std::make_shared<const LevelPlan>(layers);
  std::lock_guard lock(mutex_);
  if (leaf >= plans_.size()) plans_.resize(leaf + 1);
  plans_[leaf] = plan;
  return plan;
}

ArrayPtr assemble_field(const format::LanceField& field, std::vector<LeafData>& leaves, uint64_t num_rows,
                        LevelPlans* plans) {
  Assembler asm_(leaves, plans);
  ArrayPtr a = asm_.build(field, output_type(field.arrow->type), 0);
  check_corrupt(asm_.consumed() == leaves.size(), "field '{}' used {} of {} columns", field.name, asm_.consumed(),
                leaves.size());
  check_corrupt(static_cast<uint64_t>(a->length) == num_rows, "field '{}' assembled {} rows, expected {}", field.name,
                a->length, num_rows);
  return a;
}

}  // namespace lance::structural
