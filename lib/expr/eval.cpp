#include "expr/eval.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <type_traits>

#include "common/bytes.h"
#include "common/error.h"
#include "common/float16.h"
#include "expr/like.h"

namespace lance::expr {

namespace {

// ---------------------------------------------------------------------------------------
// Columns
// ---------------------------------------------------------------------------------------

template <typename T>
T load(const ArrayData& a, size_t i) {
  T v;
  std::memcpy(&v, a.buffers.at(0)->data() + i * sizeof(T), sizeof(T));
  return v;
}

double decimal128(const ArrayData& a, size_t i) {
  int64_t hi;
  uint64_t lo;
  std::memcpy(&lo, a.buffers[0]->data() + i * 16, 8);
  std::memcpy(&hi, a.buffers[0]->data() + i * 16 + 8, 8);
  return (static_cast<double>(hi) * 18446744073709551616.0 + static_cast<double>(lo)) / std::pow(10.0, a.type->scale);
}

int64_t unit_to_ns(TimeUnit u) {
  switch (u) {
    case TimeUnit::second:
      return 1000000000;
    case TimeUnit::milli:
      return 1000000;
    case TimeUnit::micro:
      return 1000;
    case TimeUnit::nano:
      return 1;
  }
  return 1;
}

/// Calls `f.template operator()<T>()` with `T` the C++ type of integer column type `id`
/// (int64_t for any other).
template <typename F>
decltype(auto) with_integer_type(TypeId id, F&& f) {
  switch (id) {
    case TypeId::int8:
      return f.template operator()<int8_t>();
    case TypeId::int16:
      return f.template operator()<int16_t>();
    case TypeId::int32:
      return f.template operator()<int32_t>();
    case TypeId::uint8:
      return f.template operator()<uint8_t>();
    case TypeId::uint16:
      return f.template operator()<uint16_t>();
    case TypeId::uint32:
      return f.template operator()<uint32_t>();
    case TypeId::uint64:
      return f.template operator()<uint64_t>();
    default:
      return f.template operator()<int64_t>();
  }
}

int64_t integer_at(const ArrayData& a, size_t i) {
  return with_integer_type(a.type->id, [&]<typename T>() { return static_cast<int64_t>(load<T>(a, i)); });
}

/// v.ints / v.floats from a buffer of `T` (long enough for every row): one loop per type.
template <typename T, typename Out>
void fill_typed(const Vec& v, const ArrayData& a, std::vector<Out>& out) {
  const uint8_t* base = a.buffers[0]->data();
  for (size_t i = 0; i < out.size(); ++i) {
    T x;
    std::memcpy(&x, base + i * sizeof(T), sizeof(T));
    out[i] = v.valid[i] ? static_cast<Out>(x) : Out{};
  }
}

/// The common fixed-width columns, when the values buffer covers every row; false otherwise.
bool fill_fast(Vec& v, const ArrayData& a) {
  const size_t n = static_cast<size_t>(a.length);
  if (a.buffers.empty() || !a.buffers[0]) return false;
  const size_t have = a.buffers[0]->size();
  auto fits = [&](size_t width) { return have / width >= n; };
  if (v.kind == Kind::integer)
    return with_integer_type(a.type->id,
                             [&]<typename T>() { return fits(sizeof(T)) && (fill_typed<T>(v, a, v.ints), true); });
  if (v.kind == Kind::floating) {
    if (a.type->id == TypeId::float32) return fits(4) && (fill_typed<float>(v, a, v.floats), true);
    if (a.type->id == TypeId::float64) return fits(8) && (fill_typed<double>(v, a, v.floats), true);
  }
  return false;
}

void fill_values(Vec& v, const ArrayData& a) {
  const size_t n = static_cast<size_t>(a.length);
  const TypeId id = a.type->id;
  if (fill_fast(v, a)) return;
  for (size_t i = 0; i < n; ++i) {
    if (!v.valid[i]) continue;
    switch (v.kind) {
      case Kind::boolean:
        v.ints[i] = get_bit(a.buffers[0]->data(), i);
        break;
      case Kind::integer:
        v.ints[i] = integer_at(a, i);
        break;
      case Kind::floating:
        v.floats[i] = id == TypeId::float16   ? half_to_float(load<uint16_t>(a, i))
                      : id == TypeId::float32 ? load<float>(a, i)
                      : id == TypeId::float64 ? load<double>(a, i)
                                              : decimal128(a, i);
        break;
      case Kind::string:
      case Kind::binary: {
        if (id == TypeId::fixed_size_binary) {
          const auto w = static_cast<size_t>(a.type->byte_width);
          v.strs[i] = {reinterpret_cast<const char*>(a.buffers[0]->data()) + i * w, w};
          break;
        }
        const bool large = a.type->is_large_offsets();
        const int64_t b = large ? a.values<int64_t>(0)[i] : a.values<int32_t>(0)[i];
        const int64_t e = large ? a.values<int64_t>(0)[i + 1] : a.values<int32_t>(0)[i + 1];
        v.strs[i] = {reinterpret_cast<const char*>(a.buffers[1]->data()) + b, static_cast<size_t>(e - b)};
        break;
      }
      case Kind::date:
        v.ints[i] = id == TypeId::date32 ? load<int32_t>(a, i) : load<int64_t>(a, i) / 86400000;
        break;
      case Kind::timestamp:
        v.ints[i] = load<int64_t>(a, i) * unit_to_ns(a.type->unit);
        break;
      default:
        break;
    }
  }
}

/// Calls f(index) with index(i) row i's index into dictionary array `a`'s dictionary
/// (negative indices become too large ones), one instantiation per index width. Throws
/// Error(corrupt) when the index buffer does not cover every row.
template <typename F>
decltype(auto) with_dictionary_indices(const ArrayData& a, F&& f) {
  const size_t n = static_cast<size_t>(a.length);
  const TypeId id = a.type->index_type ? a.type->index_type->id : TypeId::null;
  check_corrupt(!a.buffers.empty() && a.buffers[0] && a.dictionary && a.type->index_type->is_integer(),
                "a dictionary array without indices or dictionary");
  const uint8_t* base = a.buffers[0]->data();
  const size_t have = a.buffers[0]->size();
  return with_integer_type(id, [&]<typename T>() {
    check_corrupt(have / sizeof(T) >= n, "dictionary indices too short for {} rows", n);
    return f([base](size_t i) { return static_cast<uint64_t>(static_cast<int64_t>(load_at<T>(base, i))); });
  });
}

Vec load_array(const ArrayData& a, const std::vector<uint8_t>* outer_valid);

/// A dictionary array's rows as the values they name: the dictionary loaded once, gathered
/// per row (views into the dictionary's buffers, which the batch keeps).
Vec load_dictionary(const ArrayData& a, const std::vector<uint8_t>* outer_valid) {
  const size_t n = static_cast<size_t>(a.length);
  check_corrupt(a.dictionary != nullptr, "a dictionary array without a dictionary");
  const Vec d = load_array(*a.dictionary, nullptr);
  check_internal(d.kind != Kind::list, "filter: a dictionary of lists");
  Vec v = null_vec(d.kind, n);
  v.owned = d.owned;
  with_dictionary_indices(a, [&](auto index) {
    for (size_t i = 0; i < n; ++i) {
      if (!a.is_valid(static_cast<int64_t>(i)) || (outer_valid && !(*outer_valid)[i])) continue;
      const uint64_t k = index(i);
      check_corrupt(k < d.size(), "dictionary index {} of {} items", k, d.size());
      v.valid[i] = d.valid[k];
      if (!v.ints.empty()) v.ints[i] = d.ints[k];
      if (!v.floats.empty()) v.floats[i] = d.floats[k];
      if (!v.strs.empty()) v.strs[i] = d.strs[k];
    }
  });
  return v;
}

Vec load_array(const ArrayData& a, const std::vector<uint8_t>* outer_valid) {
  if (a.type->id == TypeId::dictionary) return load_dictionary(a, outer_valid);
  const size_t n = static_cast<size_t>(a.length);
  Vec v = null_vec(kind_of(*a.type), n);
  if (!a.validity && !outer_valid && a.type->id != TypeId::null)
    std::fill(v.valid.begin(), v.valid.end(), uint8_t{1});
  else
    for (size_t i = 0; i < n; ++i)
      v.valid[i] = a.is_valid(static_cast<int64_t>(i)) && (!outer_valid || (*outer_valid)[i]);
  if (v.kind == Kind::list) {
    const ArrayData& child = *a.children.at(0);
    const TypeId id = a.type->id;
    for (size_t i = 0; i <= n; ++i)
      v.offsets[i] = id == TypeId::fixed_size_list ? static_cast<int64_t>(i) * a.type->list_size
                     : id == TypeId::large_list    ? a.values<int64_t>(0)[i]
                                                   : a.values<int32_t>(0)[i];
    v.items = std::make_shared<Vec>(load_array(child, nullptr));
    return v;
  }
  fill_values(v, a);
  return v;
}

// ---------------------------------------------------------------------------------------
// Operators
// ---------------------------------------------------------------------------------------

/// An order-preserving key of a double: IEEE total order (-NaN < -inf < … < -0 < 0 < … < NaN).
int64_t total_key(double d) {
  int64_t bits;
  std::memcpy(&bits, &d, 8);
  return bits < 0 ? bits ^ std::numeric_limits<int64_t>::max() : bits;
}

Kind meet(Kind a, Kind b) {
  if (a == b || b == Kind::null) return a;
  if (a == Kind::null) return b;
  if (a == Kind::floating || b == Kind::floating) return Kind::floating;
  if (a == Kind::timestamp || b == Kind::timestamp) return Kind::timestamp;
  if (a == Kind::binary || b == Kind::binary) return Kind::binary;
  return a;
}

/// A comparison operator, resolved once per vector (not per row).
enum class CmpOp { eq, ne, lt, le, gt, ge };

CmpOp cmp_op(const std::string& op) {
  if (op == "=") return CmpOp::eq;
  if (op == "!=") return CmpOp::ne;
  if (op == "<") return CmpOp::lt;
  if (op == "<=") return CmpOp::le;
  if (op == ">") return CmpOp::gt;
  return CmpOp::ge;
}

/// Calls run(pred) with `op` as a comparison functor, so that the caller's loop is compiled
/// once per operator (no per-row dispatch).
template <typename Run>
void with_predicate(CmpOp op, Run&& run) {
  switch (op) {
    case CmpOp::eq:
      return run([](auto a, auto b) { return a == b; });
    case CmpOp::ne:
      return run([](auto a, auto b) { return a != b; });
    case CmpOp::lt:
      return run([](auto a, auto b) { return a < b; });
    case CmpOp::le:
      return run([](auto a, auto b) { return a <= b; });
    case CmpOp::gt:
      return run([](auto a, auto b) { return a > b; });
    default:
      return run([](auto a, auto b) { return a >= b; });
  }
}

/// out[i] = x[i] op y[i] where both are valid.
template <typename T, typename Key>
void compare_rows(CmpOp op, const Vec& l, const Vec& r, const std::vector<T>& x, const std::vector<T>& y, Key key,
                  Vec& out) {
  const size_t n = l.size();
  with_predicate(op, [&](auto pred) {
    for (size_t i = 0; i < n; ++i) {
      const uint8_t ok = l.valid[i] & r.valid[i];
      out.valid[i] = ok;
      out.ints[i] = ok && pred(key(x[i]), key(y[i]));
    }
  });
}

/// `v` as `kind`: `v` itself when no conversion is needed (no copy), else `tmp`, converted.
const Vec& as_kind(const Vec& v, Kind kind, Vec& tmp) {
  if (keeps_kind(v.kind, kind)) return v;
  tmp = convert(v, kind);
  return tmp;
}

Vec compare(const std::string& op, const Vec& l0, const Vec& r0) {
  const Kind k = meet(l0.kind, r0.kind);
  Vec lt, rt;
  const Vec& l = as_kind(l0, k, lt);
  const Vec& r = as_kind(r0, k, rt);
  Vec out = null_vec(Kind::boolean, l.size());
  const CmpOp o = cmp_op(op);
  auto same = [](auto v) { return v; };
  if (k == Kind::floating)
    compare_rows(o, l, r, l.floats, r.floats, total_key, out);  // IEEE total order
  else if (k == Kind::string || k == Kind::binary)
    compare_rows(o, l, r, l.strs, r.strs, same, out);  // bytewise
  else
    compare_rows(o, l, r, l.ints, r.ints, same, out);
  return out;
}

/// The batch's top-level column `name` (the last of that name), null when it has none.
const ArrayData* column_of(const RecordBatch& batch, const std::string& name) {
  const ArrayData* a = nullptr;
  for (size_t c = 0; c < batch.fields.size(); ++c)
    if (batch.fields[c]->name == name) a = batch.columns[c].get();
  return a;
}

/// `op` with its operands swapped: `5 < x` is `x > 5`.
CmpOp mirrored(CmpOp op) {
  switch (op) {
    case CmpOp::lt:
      return CmpOp::gt;
    case CmpOp::le:
      return CmpOp::ge;
    case CmpOp::gt:
      return CmpOp::lt;
    case CmpOp::ge:
      return CmpOp::le;
    default:
      return op;
  }
}

/// Where an in-place comparison writes its rows: a boolean Vec (a value and its validity per
/// row) for evaluate(), or a mask of the TRUE rows for a filter (filter_mask()).
struct VecSink {
  Vec out;
  void begin(size_t n) { out = null_vec(Kind::boolean, n); }
  void set(size_t i, bool valid, bool is_true) {
    out.valid[i] = valid;
    out.ints[i] = is_true;
  }
};
struct MaskSink {
  std::vector<uint8_t> out;
  void begin(size_t n) { out.resize(n); }
  void set(size_t i, bool, bool is_true) { out[i] = is_true; }
};

/// value(i) op literal for every row of `a` (null rows: not valid, not true) into `sink`.
template <typename Value, typename Key, typename Sink>
void compare_to_constant(CmpOp op, const ArrayData& a, Value value, Key literal, Sink& sink) {
  const auto n = static_cast<size_t>(a.length);
  sink.begin(n);
  with_predicate(op, [&](auto pred) {
    if constexpr (std::is_same_v<Sink, MaskSink>) {
      if (!a.validity) {  // no nulls: one comparison a row, stored where nothing else points
        uint8_t* __restrict out = sink.out.data();
        for (size_t i = 0; i < n; ++i) out[i] = pred(value(i), literal);
        return;
      }
    }
    if (!a.validity) {  // no nulls: one comparison a row
      for (size_t i = 0; i < n; ++i) sink.set(i, true, pred(value(i), literal));
      return;
    }
    for (size_t i = 0; i < n; ++i) {
      const bool ok = a.is_valid(static_cast<int64_t>(i));
      sink.set(i, ok, ok && pred(value(i), literal));
    }
  });
}

template <typename Sink>
bool compare_array_to_literal(CmpOp op, const ArrayData* a, const Vec& lit, Sink& out);
template <typename Sink>
bool compare_dictionary_to_literal(CmpOp op, const ArrayData& a, const Vec& lit, Sink& out);

/// `column op literal` (or `literal op column`) over a top-level integer, float or string
/// column and a non-null literal of its kind (or an integer literal against floats), compared
/// in place into `sink`: neither the column's values nor the literal are spread into per-row
/// vectors. The same rows as compare() of both sides. False, with `sink` untouched, for any
/// other shape (the caller then evaluates both sides).
template <typename Sink>
bool compare_column_to_literal(const Bound& node, const RecordBatch& batch, Sink& out) {
  const Bound* column = node.children[0].get();
  const Bound* literal = node.children[1].get();
  CmpOp op = cmp_op(node.name);
  if (column->op == Op::literal && literal->op == Op::column) {
    std::swap(column, literal);
    op = mirrored(op);
  }
  if (column->op != Op::column || literal->op != Op::literal || column->path.size() != 1) return false;
  const Vec& lit = literal->literal;
  if (lit.size() != 1 || !lit.valid[0]) return false;
  const ArrayData* a = column_of(batch, column->path[0]);
  if (!a || !a->type) return false;
  if (a->type->id == TypeId::dictionary) return compare_dictionary_to_literal(op, *a, lit, out);
  return compare_array_to_literal(op, a, lit, out);
}

/// compare_column_to_literal's comparison of array `a` (not a dictionary) with `lit`.
template <typename Sink>
bool compare_array_to_literal(CmpOp op, const ArrayData* a, const Vec& lit, Sink& out) {
  if (a->buffers.empty() || !a->buffers[0]) return false;
  const auto n = static_cast<size_t>(a->length);
  const TypeId id = a->type->id;
  const Kind ck = kind_of(*a->type);
  const uint8_t* base = a->buffers[0]->data();
  const size_t have = a->buffers[0]->size();
  if (ck == Kind::integer && lit.kind == Kind::integer) {
    if (!a->type->is_integer()) return false;
    return with_integer_type(id, [&]<typename T>() {
      if (have / sizeof(T) < n) return false;
      compare_to_constant(
          op, *a, [&](size_t i) { return static_cast<int64_t>(load_at<T>(base, i)); }, lit.ints[0], out);
      return true;
    });
  }
  if (ck == Kind::floating && (lit.kind == Kind::floating || lit.kind == Kind::integer) &&
      (id == TypeId::float32 || id == TypeId::float64)) {
    const double l = lit.kind == Kind::floating ? lit.floats[0] : static_cast<double>(lit.ints[0]);
    if (id == TypeId::float32) {
      if (have / 4 < n) return false;
      compare_to_constant(
          op, *a, [&](size_t i) { return total_key(load_at<float>(base, i)); }, total_key(l), out);
    } else {
      if (have / 8 < n) return false;
      compare_to_constant(
          op, *a, [&](size_t i) { return total_key(load_at<double>(base, i)); }, total_key(l), out);
    }
    return true;
  }
  const bool strings =
      (ck == Kind::string && lit.kind == Kind::string && (id == TypeId::utf8 || id == TypeId::large_utf8)) ||
      (ck == Kind::binary && lit.kind == Kind::binary && (id == TypeId::binary || id == TypeId::large_binary));
  if (!strings || a->buffers.size() < 2 || !a->buffers[1]) return false;
  const bool large = a->type->is_large_offsets();
  if (have / (large ? 8 : 4) < n + 1) return false;
  const auto* data = reinterpret_cast<const char*>(a->buffers[1]->data());
  const auto offset = [&](size_t i) {
    return large ? load_at<int64_t>(base, i) : static_cast<int64_t>(load_at<int32_t>(base, i));
  };
  // Offsets that do not rise within the data (a damaged array) take the general path.
  if (offset(0) < 0 || offset(n) > static_cast<int64_t>(a->buffers[1]->size())) return false;
  for (size_t i = 0; i < n; ++i)
    if (offset(i + 1) < offset(i)) return false;
  compare_to_constant(
      op, *a,
      [&](size_t i) {
        const int64_t b = offset(i);
        return std::string_view(data + b, static_cast<size_t>(offset(i + 1) - b));
      },
      lit.strs[0], out);
  return true;
}

/// compare_column_to_literal over a dictionary array (a string column read with
/// read::ReaderOptions::keep_dictionaries): each dictionary entry is compared once, and each
/// row takes its entry's answer. False when the entries cannot be compared in place.
template <typename Sink>
bool compare_dictionary_to_literal(CmpOp op, const ArrayData& a, const Vec& lit, Sink& out) {
  if (!a.dictionary || a.dictionary->type->id == TypeId::dictionary) return false;
  VecSink entries;
  if (!compare_array_to_literal(op, a.dictionary.get(), lit, entries)) return false;
  const size_t n = static_cast<size_t>(a.length), m = entries.out.size();
  // Per entry: 1 TRUE, 0 FALSE; 2 NULL (a null entry).
  std::vector<uint8_t> answer(m);
  for (size_t k = 0; k < m; ++k) answer[k] = entries.out.valid[k] ? static_cast<uint8_t>(entries.out.ints[k] != 0) : 2;
  out.begin(n);
  with_dictionary_indices(a, [&](auto index) {
    if constexpr (std::is_same_v<Sink, MaskSink>) {
      if (!a.validity) {  // no null rows: one lookup a row, the bounds checked once at the end
        uint8_t* __restrict mask = out.out.data();
        bool outside = false;
        for (size_t i = 0; i < n; ++i) {
          const uint64_t k = index(i);
          outside |= k >= m;
          mask[i] = k < m && answer[k] == 1;
        }
        if (outside)
          for (size_t i = 0; i < n; ++i) check_corrupt(index(i) < m, "dictionary index {} of {} items", index(i), m);
        return;
      }
    }
    for (size_t i = 0; i < n; ++i) {
      const uint64_t k = index(i);
      const bool row = a.is_valid(static_cast<int64_t>(i));
      if (!row) {
        out.set(i, false, false);
        continue;
      }
      check_corrupt(k < m, "dictionary index {} of {} items", k, m);
      out.set(i, answer[k] != 2, answer[k] == 1);
    }
  });
  return true;
}

Vec arith(const std::string& op, const Vec& l0, const Vec& r0, Kind kind) {
  Vec lt, rt;
  const Vec& l = as_kind(l0, kind, lt);
  const Vec& r = as_kind(r0, kind, rt);
  Vec out = null_vec(kind, l.size());
  const char o = op[0];
  for (size_t i = 0; i < l.size(); ++i) {
    if (!l.valid[i] || !r.valid[i]) continue;
    if (kind == Kind::floating) {
      const double x = l.floats[i], y = r.floats[i];
      out.floats[i] = o == '+' ? x + y : o == '-' ? x - y : o == '*' ? x * y : o == '/' ? x / y : std::fmod(x, y);
    } else {
      const auto x = static_cast<uint64_t>(l.ints[i]), y = static_cast<uint64_t>(r.ints[i]);
      if ((o == '/' || o == '%') && y == 0) throw_usage("filter: division by zero");
      if (o == '/' || o == '%') {
        const int64_t a = l.ints[i], b = r.ints[i];
        out.ints[i] = b == -1 ? (o == '/' ? static_cast<int64_t>(0 - x) : 0) : (o == '/' ? a / b : a % b);
      } else {
        out.ints[i] = static_cast<int64_t>(o == '+' ? x + y : o == '-' ? x - y : x * y);  // wraps, as Arrow's kernels
      }
    }
    out.valid[i] = 1;
  }
  return out;
}

Vec logic(bool is_and, const Vec& a, const Vec& b) {
  Vec out = null_vec(Kind::boolean, a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const bool av = a.valid[i], bv = b.valid[i];
    const bool at = av && a.ints[i], bt = bv && b.ints[i];
    const bool af = av && !a.ints[i], bf = bv && !b.ints[i];
    if (is_and) {
      if (af || bf)
        out.valid[i] = 1, out.ints[i] = 0;
      else if (at && bt)
        out.valid[i] = 1, out.ints[i] = 1;
    } else {
      if (at || bt)
        out.valid[i] = 1, out.ints[i] = 1;
      else if (af && bf)
        out.valid[i] = 1, out.ints[i] = 0;
    }
  }
  return out;
}

Vec negate_bool(Vec v) {
  for (size_t i = 0; i < v.size(); ++i) v.ints[i] = !v.ints[i];
  return v;
}

Vec broadcast(const Vec& one, size_t n) {
  Vec v = null_vec(one.kind, n);
  v.owned = one.owned;
  for (size_t i = 0; i < n; ++i) {
    v.valid[i] = one.valid[0];
    if (!v.ints.empty()) v.ints[i] = one.ints[0];
    if (!v.floats.empty()) v.floats[i] = one.floats[0];
    if (!v.strs.empty()) v.strs[i] = one.strs[0];
  }
  return v;
}

Vec in_list(const Bound& node, const RecordBatch& batch) {
  const Vec v = evaluate(*node.children[0], batch);
  Vec out = null_vec(Kind::boolean, v.size());
  std::vector<uint8_t> saw_null(v.size(), 0);
  for (size_t i = 0; i < v.size(); ++i) out.valid[i] = v.valid[i];
  for (size_t c = 1; c < node.children.size(); ++c) {
    const Vec eq = compare("=", v, evaluate(*node.children[c], batch));
    for (size_t i = 0; i < v.size(); ++i) {
      if (!eq.valid[i])
        saw_null[i] = 1;
      else if (eq.ints[i])
        out.ints[i] = 1;
    }
  }
  for (size_t i = 0; i < v.size(); ++i) {
    if (!out.ints[i] && saw_null[i]) out.valid[i] = 0;  // x IN (…, NULL) without a match is unknown
    if (node.negated && out.valid[i]) out.ints[i] = !out.ints[i];
  }
  return out;
}

Vec like(const Bound& node, const RecordBatch& batch) {
  const Vec s = evaluate(*node.children[0], batch), p = evaluate(*node.children[1], batch);
  Vec out = null_vec(Kind::boolean, s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (!s.valid[i] || !p.valid[i]) continue;
    out.valid[i] = 1;
    out.ints[i] = like_match(s.strs[i], p.strs[i], node.case_insensitive) != node.negated;
  }
  return out;
}

/// A list literal: every row holds the same items (repeated, the literal is short).
Vec list_literal(const Bound& node, size_t n) {
  Kind k = Kind::null;
  for (const auto& c : node.children) k = meet(k, c->kind);
  const size_t m = node.children.size();
  Vec items = null_vec(k, n * m);
  for (size_t j = 0; j < m; ++j) {
    const Vec x = convert(node.children[j]->literal, k);
    for (size_t i = 0; i < n; ++i) {
      const size_t at = i * m + j;
      items.valid[at] = x.valid[0];
      if (!items.ints.empty()) items.ints[at] = x.ints[0];
      if (!items.floats.empty()) items.floats[at] = x.floats[0];
      if (!items.strs.empty()) items.strs[at] = x.strs[0];
    }
  }
  Vec v = null_vec(Kind::list, n);
  for (size_t i = 0; i < n; ++i) {
    v.valid[i] = 1;
    v.offsets[i + 1] = static_cast<int64_t>((i + 1) * m);
  }
  v.items = std::make_shared<Vec>(std::move(items));
  return v;
}

}  // namespace

Vec load_column(const RecordBatch& batch, const std::vector<std::string>& path) {
  const ArrayData* a = column_of(batch, path[0]);
  check_internal(a != nullptr, "filter column {} is not in the batch", path[0]);
  std::vector<uint8_t> valid(static_cast<size_t>(a->length), 1);
  for (size_t k = 1; k < path.size(); ++k) {
    for (size_t i = 0; i < valid.size(); ++i) valid[i] = valid[i] && a->is_valid(static_cast<int64_t>(i));
    const ArrayData* child = nullptr;
    for (size_t c = 0; c < a->type->children.size(); ++c)
      if (a->type->children[c]->name == path[k]) child = a->children[c].get();
    check_internal(child != nullptr, "struct field {} is not in the batch", path[k]);
    a = child;
  }
  return load_array(*a, &valid);
}

Vec evaluate(const Bound& node, const RecordBatch& batch) {
  const auto n = static_cast<size_t>(batch.num_rows);
  auto child = [&](size_t i) { return evaluate(*node.children[i], batch); };
  switch (node.op) {
    case Op::literal:
      return broadcast(node.literal, n);
    case Op::column:
      return load_column(batch, node.path);
    case Op::not_: {
      Vec v = child(0);
      return node.kind == Kind::boolean ? negate_bool(std::move(v)) : v;
    }
    case Op::neg: {
      Vec v = child(0);
      for (size_t i = 0; i < v.size(); ++i) {
        if (v.kind == Kind::floating)
          v.floats[i] = -v.floats[i];
        else if (!v.ints.empty())
          v.ints[i] = static_cast<int64_t>(0 - static_cast<uint64_t>(v.ints[i]));
      }
      return v;
    }
    case Op::and_:
    case Op::or_:
      return logic(node.op == Op::and_, child(0), child(1));
    case Op::compare:
      if (VecSink in_place; compare_column_to_literal(node, batch, in_place)) return std::move(in_place.out);
      return compare(node.name, child(0), child(1));
    case Op::arith:
      return arith(node.name, child(0), child(1), node.kind == Kind::null ? Kind::integer : node.kind);
    case Op::is_null: {
      const Vec v = child(0);
      Vec out = null_vec(Kind::boolean, n);
      for (size_t i = 0; i < n; ++i) out.valid[i] = 1, out.ints[i] = (v.valid[i] == 0) != node.negated;
      return out;
    }
    case Op::is_bool: {
      const Vec v = child(0);
      const bool want = node.name == "TRUE";
      Vec out = null_vec(Kind::boolean, n);
      for (size_t i = 0; i < n; ++i)
        out.valid[i] = 1, out.ints[i] = (v.valid[i] && (v.ints[i] != 0) == want) != node.negated;
      return out;
    }
    case Op::between: {
      const Vec v = child(0);
      Vec r = logic(true, compare(">=", v, child(1)), compare("<=", v, child(2)));
      return node.negated ? negate_bool(std::move(r)) : r;
    }
    case Op::in_list:
      return in_list(node, batch);
    case Op::like:
      return like(node, batch);
    case Op::function: {
      std::vector<Vec> args;
      for (size_t i = 0; i < node.children.size(); ++i) args.push_back(child(i));
      return call_function(node, std::move(args), n);
    }
    case Op::cast:
      return convert(child(0), node.kind);
    case Op::array:
      return list_literal(node, n);
  }
  throw_internal("filter: unknown node");
}

namespace {

/// The rows where `node` is TRUE (1; FALSE and NULL: 0). AND and OR combine their sides'
/// masks (SQL's three values agree: a row is TRUE for `a AND b` when both are, for `a OR b`
/// when either is); a column compared with a literal writes its mask directly; anything
/// else is evaluated.
std::vector<uint8_t> filter_mask(const Bound& node, const RecordBatch& batch) {
  if (node.op == Op::and_ || node.op == Op::or_) {
    std::vector<uint8_t> a = filter_mask(*node.children[0], batch);
    const std::vector<uint8_t> b = filter_mask(*node.children[1], batch);
    check_internal(a.size() == b.size(), "filter: sides of {} and {} rows", a.size(), b.size());
    if (node.op == Op::and_)
      for (size_t i = 0; i < a.size(); ++i) a[i] &= b[i];
    else
      for (size_t i = 0; i < a.size(); ++i) a[i] |= b[i];
    return a;
  }
  if (node.op == Op::compare)
    if (MaskSink in_place; compare_column_to_literal(node, batch, in_place)) return std::move(in_place.out);
  const Vec v = evaluate(node, batch);
  std::vector<uint8_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = v.valid[i] && v.ints[i];
  return out;
}

}  // namespace

std::vector<uint8_t> evaluate_filter(const Filter& filter, const RecordBatch& batch) {
  return filter_mask(*filter.root, batch);
}

}  // namespace lance::expr
