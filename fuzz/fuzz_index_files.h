// Shared by the scalar index fuzz targets (fuzz_btree_index.cpp, fuzz_bitmap_index.cpp): a
// scratch index folder the input's files are written into (in /dev/shm when it exists,
// removed at exit), and the leaves each target asks its index reader (lib/index/).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "expr/bind.h"
#include "fuzz_input.h"
#include "index/scalar_index.h"
#include "io/object_store.h"

namespace lance::fuzz {

class ScratchIndexDir {
 public:
  ScratchIndexDir() { dir_ = make_scratch_dir("lance-fuzz-index"); }
  ~ScratchIndexDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  void put(const std::string& name, const uint8_t* data, size_t size) const {
    std::ofstream(dir_ / name, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  /// Writes an input made of two files, [u32 n][n bytes: `first`][the rest: `second`];
  /// false for an input too short to say.
  bool put_two(const uint8_t* data, size_t size, const std::string& first, const std::string& second) const {
    uint32_t n = 0;
    if (size < 4) return false;
    std::memcpy(&n, data, 4);
    if (n > size - 4) return false;
    put(first, data + 4, n);
    put(second, data + 4 + n, size - 4 - n);
    return true;
  }
  /// Where the readers find the files: fragments 0 and 1 of 80 and 70 rows, as in
  /// data/filters/2_1_indexed.
  index::IndexLocation location() const {
    index::IndexLocation where;
    where.dir = dir_.string();
    where.what = "index 'fuzz'";
    where.store = &io::local_store();
    where.physical_rows = [](uint32_t f) -> uint32_t { return f == 0 ? 80 : f == 1 ? 70 : 0; };
    return where;
  }

 private:
  std::filesystem::path dir_;
};

inline FieldPtr fuzz_field(const char* name, TypePtr t) {
  auto f = std::make_shared<Field>();
  f->name = name;
  f->type = std::move(t);
  return f;
}

/// Asks a fresh reader of `type` on column `column` of `fields` every leaf of `exprs`, with
/// and without null rows; a damaged file must be an Error, never a crash.
inline void ask_leaves(const index::IndexLocation& where, const std::string& type, const std::string& column,
                       const std::vector<FieldPtr>& fields, const std::vector<const char*>& exprs) {
  dataset::IndexInfo info;
  info.type = type;
  auto reader = index::open_scalar_index(info, column, where);
  for (const char* e : exprs) {
    const expr::Filter f = expr::compile_filter(e, fields);
    if (!reader->answers(*f.root)) continue;
    for (const bool nulls : {false, true}) expect_error_or_success([&] { (void)reader->answer(*f.root, nulls); });
  }
}

}  // namespace lance::fuzz
