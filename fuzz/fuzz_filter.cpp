// Fuzz target: a filter expression (`scan --filter`), parsed, bound against a table of every
// kind of column and evaluated over a small batch of nulls. Lance's filter language:
// lance-datafusion/src/planner.rs upstream; ours: lib/expr/.
#include <string>

#include "expr/bind.h"
#include "expr/eval.h"
#include "fuzz_input.h"

using namespace lance;

namespace {

RecordBatch table() {
  auto field = [](const char* name, TypePtr t) {
    auto f = std::make_shared<Field>();
    f->name = name;
    f->type = std::move(t);
    return FieldPtr(f);
  };
  std::vector<FieldPtr> fields{
      field("i", make_type(TypeId::int32)),
      field("u", make_type(TypeId::uint8)),
      field("f", make_type(TypeId::float64)),
      field("s", make_type(TypeId::utf8)),
      field("b", make_type(TypeId::boolean)),
      field("d", make_type(TypeId::date32)),
      field("t", make_temporal(TypeId::timestamp, TimeUnit::micro)),
      field("l", make_list(TypeId::list, field("item", make_type(TypeId::utf8)))),
      field("st", make_struct({field("a", make_type(TypeId::int32)), field("c", make_type(TypeId::utf8))}))};
  RecordBatch b{fields, {}, 3};
  for (const auto& f : fields) b.columns.push_back(make_null_array(f->type, 3));
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const RecordBatch batch = table();
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::expect_error_or_success([&] {
    const expr::Filter f = expr::compile_filter(text, batch.fields);
    if (expr::evaluate_filter(f, batch).size() != 3) __builtin_trap();
  });
  return 0;
}
