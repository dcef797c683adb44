#include "format/schema.h"

#include <charconv>
#include <functional>
#include <unordered_map>

#include "common/error.h"

namespace lance::format {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) break;
    start = p + 1;
  }
  return out;
}

int32_t parse_int(const std::string& s, const std::string& whole) {
  int32_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) throw_corrupt("bad number '{}' in logical type '{}'", s, whole);
  return v;
}

TimeUnit parse_unit(const std::string& s, const std::string& whole) {
  if (s == "s") return TimeUnit::second;
  if (s == "ms") return TimeUnit::milli;
  if (s == "us") return TimeUnit::micro;
  if (s == "ns") return TimeUnit::nano;
  throw_unsupported("unknown time unit '{}' in logical type '{}'", s, whole);
}

const std::unordered_map<std::string, TypeId>& simple_types() {
  static const std::unordered_map<std::string, TypeId> m = {
      {"null", TypeId::null},
      {"bool", TypeId::boolean},
      {"int8", TypeId::int8},
      {"int16", TypeId::int16},
      {"int32", TypeId::int32},
      {"int64", TypeId::int64},
      {"uint8", TypeId::uint8},
      {"uint16", TypeId::uint16},
      {"uint32", TypeId::uint32},
      {"uint64", TypeId::uint64},
      {"halffloat", TypeId::float16},
      {"float", TypeId::float32},
      {"double", TypeId::float64},
      {"string", TypeId::utf8},
      {"large_string", TypeId::large_utf8},
      {"binary", TypeId::binary},
      {"large_binary", TypeId::large_binary},
      {"json", TypeId::large_binary},
  };
  return m;
}

FieldPtr make_field(std::string name, TypePtr type, bool nullable) {
  auto f = std::make_shared<Field>();
  f->name = std::move(name);
  f->type = std::move(type);
  f->nullable = nullable;
  return f;
}

}  // namespace

bool LanceField::is_packed_struct() const {
  if (logical_type != "struct") return false;
  auto it = metadata.find("lance-encoding:packed");
  if (it != metadata.end()) return it->second != "false";
  it = metadata.find("packed");
  return it != metadata.end() && it->second == "true";
}

bool LanceField::is_blob() const {
  auto it = metadata.find("lance-encoding:blob");
  return it != metadata.end() && it->second == "true";
}

TypePtr parse_logical_type(const std::string& lt, const std::vector<LanceField>& children) {
  const auto& simple = simple_types();
  if (auto it = simple.find(lt); it != simple.end()) return make_type(it->second);
  auto parts = split(lt, ':');
  const std::string& head = parts[0];
  auto child_field = [&](size_t i) -> FieldPtr {
    check_corrupt(i < children.size(), "logical type '{}' needs a child field", lt);
    return children[i].arrow;
  };
  if (head == "date32") return make_type(TypeId::date32);
  if (head == "date64") return make_type(TypeId::date64);
  if ((head == "time32" || head == "time64") && parts.size() == 2)
    return make_temporal(head == "time32" ? TypeId::time32 : TypeId::time64, parse_unit(parts[1], lt));
  if (head == "duration" && parts.size() == 2) return make_temporal(TypeId::duration, parse_unit(parts[1], lt));
  if (head == "timestamp" && parts.size() >= 2) {
    std::string tz;
    if (parts.size() >= 3) {
      // The zone may itself contain ':' (e.g. "+05:30"): everything after the unit.
      tz = lt.substr(head.size() + 1 + parts[1].size() + 1);
      if (tz == "-") tz.clear();
    }
    return make_temporal(TypeId::timestamp, parse_unit(parts[1], lt), tz);
  }
  if (head == "decimal" && parts.size() == 4) {
    TypeId id = parts[1] == "128" ? TypeId::decimal128 : parts[1] == "256" ? TypeId::decimal256 : TypeId::null;
    if (id == TypeId::null) throw_unsupported("unsupported decimal width in logical type '{}'", lt);
    return make_decimal(id, parse_int(parts[2], lt), parse_int(parts[3], lt));
  }
  if (head == "fixed_size_binary" && parts.size() == 2) {
    int32_t w = parse_int(parts[1], lt);
    check_corrupt(w > 0, "fixed_size_binary width {} in '{}'", w, lt);
    return make_fixed_size_binary(w);
  }
  if (head == "fixed_size_list" && parts.size() >= 3) {
    int32_t n = parse_int(parts.back(), lt);
    check_corrupt(n > 0, "fixed_size_list size {} in '{}'", n, lt);
    std::string inner = lt.substr(head.size() + 1, lt.size() - head.size() - 1 - parts.back().size() - 1);
    TypePtr item;
    if (inner == "lance.bfloat16")
      item = make_fixed_size_binary(2);
    else
      item = parse_logical_type(inner, children);
    return make_fixed_size_list(make_field("item", item, true), n);
  }
  if (head == "dict" && parts.size() >= 4) {
    // dict:{value}:{index}:{ordered}; the value type is everything between.
    std::string index = parts[parts.size() - 2];
    std::string value = lt.substr(5, lt.size() - 5 - parts.back().size() - 1 - index.size() - 1);
    return make_dictionary(parse_logical_type(index, {}), parse_logical_type(value, {}));
  }
  if (lt == "struct") {
    std::vector<FieldPtr> fs;
    for (const auto& c : children) fs.push_back(c.arrow);
    return make_struct(std::move(fs));
  }
  if (lt == "list" || lt == "list.struct" || lt == "large_list" || lt == "large_list.struct" || lt == "map")
    check_corrupt(children.size() == 1, "logical type '{}' needs exactly one child field, the schema gives it {}", lt,
                  children.size());
  if (lt == "list" || lt == "list.struct") return make_list(TypeId::list, child_field(0));
  if (lt == "large_list" || lt == "large_list.struct") return make_list(TypeId::large_list, child_field(0));
  if (lt == "map") return make_map(child_field(0));
  throw_unsupported("unknown logical type '{}'", lt);
}

namespace {

void build_arrow(LanceField& f) {
  for (auto& c : f.children) build_arrow(c);
  auto field = std::make_shared<Field>();
  field->name = f.name;
  field->nullable = f.nullable;
  field->id = f.id;
  field->metadata = f.metadata;
  field->type = with_context([&] { return fmt::format("field '{}'", f.name); },
                             [&] { return parse_logical_type(f.logical_type, f.children); });
  f.arrow = field;
}

}  // namespace

Schema schema_from_fields(const google::protobuf::RepeatedPtrField<::lance::file::Field>& fields,
                          const google::protobuf::Map<std::string, std::string>* metadata) {
  Schema schema;
  if (metadata)
    for (const auto& [k, v] : *metadata) schema.metadata[k] = v;
  // Pre-order list: a field's parent always comes before it. Build with an id → path map.
  std::unordered_map<int32_t, LanceField*> by_id;
  // Storage: children vectors may reallocate, so collect first, then link in a second pass.
  std::vector<LanceField> flat;
  flat.reserve(fields.size());
  for (const auto& pf : fields) {
    LanceField f;
    f.id = pf.id();
    f.parent_id = pf.parent_id();
    f.name = pf.name();
    f.logical_type = pf.logical_type();
    f.nullable = pf.nullable();
    for (const auto& [k, v] : pf.metadata()) f.metadata[k] = v;
    flat.push_back(std::move(f));
  }
  std::unordered_map<int32_t, size_t> index;
  std::vector<std::vector<size_t>> kids(flat.size());
  std::vector<size_t> roots;
  for (size_t i = 0; i < flat.size(); ++i) {
    check_corrupt(index.emplace(flat[i].id, i).second, "schema has duplicate field id {}", flat[i].id);
    if (flat[i].parent_id < 0) {
      roots.push_back(i);
    } else {
      auto it = index.find(flat[i].parent_id);
      check_corrupt(it != index.end(), "field '{}' (id {}) names parent id {}, which does not precede it", flat[i].name,
                    flat[i].id, flat[i].parent_id);
      kids[it->second].push_back(i);
    }
  }
  std::function<LanceField(size_t, int)> take = [&](size_t i, int depth) -> LanceField {
    check_corrupt(depth < 64, "schema nests deeper than 64 levels");
    LanceField f = flat[i];
    for (size_t k : kids[i]) f.children.push_back(take(k, depth + 1));
    return f;
  };
  for (size_t r : roots) {
    LanceField f = take(r, 0);
    build_arrow(f);
    schema.fields.push_back(std::move(f));
  }
  (void)by_id;
  return schema;
}

Schema schema_from_proto(const ::lance::file::Schema& proto) {
  return schema_from_fields(proto.fields(), &proto.metadata());
}

const LanceField* Schema::find(const std::string& name) const {
  for (const auto& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<std::string> Schema::names() const {
  std::vector<std::string> out;
  for (const auto& f : fields) out.push_back(f.name);
  return out;
}

void structural_leaves(const LanceField& field, std::vector<const LanceField*>& out) {
  const auto id = field.arrow->type->id;
  bool container = (id == TypeId::struct_ && !field.is_packed_struct() && !field.children.empty()) ||
                   id == TypeId::list || id == TypeId::large_list || id == TypeId::map;
  if (!container || field.is_blob()) {
    out.push_back(&field);
    return;
  }
  for (const auto& c : field.children) structural_leaves(c, out);
}

}  // namespace lance::format
