// Micro-benchmark of structural::unravel (rep/def levels → slots, validity, offsets).
//
//   cmake --build build --target bench_repdef && build/bench_repdef [levels]
//
// Times unravel on synthetic level sequences of the shapes Lance writes: a flat nullable
// column, list<int> with null and empty lists, list<list<int>>, and list<struct<list<int>>>.
// Prints nanoseconds per level entry (best of several runs). Not part of the test suite.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "structural/repdef.h"

namespace {

namespace pb = ::lance::encodings21;
using lance::structural::RepDefLayer;

struct Shape {
  std::string name;
  std::vector<RepDefLayer> layers;  // innermost first
  std::vector<uint16_t> rep, def;
  uint64_t levels = 0;
};

/// Random, well-formed levels for `layers`: rows are drawn as trees (a nullable layer is null
/// one time in ten, an emptyable list empty one time in ten, else a list has 1..4 elements)
/// and written out as Lance does, one entry per item, null, or null/empty list.
class LevelWriter {
 public:
  explicit LevelWriter(std::vector<RepDefLayer> inner_first) : layers_(inner_first.rbegin(), inner_first.rend()) {
    // def meanings per layer (outer first), counted from the innermost layer
    null_def_.assign(layers_.size(), -1);
    empty_def_.assign(layers_.size(), -1);
    depth_.assign(layers_.size(), 0);
    int cum = 0, depth = 0;
    for (size_t i = layers_.size(); i-- > 0;) {
      switch (layers_[i]) {
        case pb::REPDEF_NULLABLE_ITEM:
        case pb::REPDEF_NULLABLE_LIST:
          null_def_[i] = cum + 1;
          break;
        case pb::REPDEF_EMPTYABLE_LIST:
          empty_def_[i] = cum + 1;
          break;
        case pb::REPDEF_NULL_AND_EMPTY_LIST:
          null_def_[i] = cum + 1, empty_def_[i] = cum + 2;
          break;
        default:
          break;
      }
      cum += lance::structural::def_levels_of(layers_[i]);
      if (lance::structural::is_list_layer(layers_[i])) depth_[i] = ++depth;
    }
    max_rep_ = depth;
    has_def_ = cum > 0;
  }

  Shape write(std::string name, uint64_t min_levels) {
    Shape s{std::move(name), {layers_.rbegin(), layers_.rend()}, {}, {}, 0};
    while (rep_.size() < min_levels) row(0, static_cast<uint16_t>(max_rep_));
    if (max_rep_ > 0) s.rep = std::move(rep_);
    if (has_def_) s.def = std::move(def_);
    s.levels = std::max(s.rep.size(), s.def.size());
    return s;
  }

 private:
  void emit(uint16_t rep, int def) {
    rep_.push_back(rep);
    def_.push_back(static_cast<uint16_t>(def));
  }
  void row(size_t k, uint16_t rep) {
    if (k == layers_.size()) return emit(rep, 0);
    if (null_def_[k] >= 0 && rng_() % 10 == 0) return emit(rep, null_def_[k]);
    if (depth_[k] == 0) return row(k + 1, rep);
    if (empty_def_[k] >= 0 && rng_() % 10 == 0) return emit(rep, empty_def_[k]);
    const int n = 1 + static_cast<int>(rng_() % 4);
    for (int i = 0; i < n; ++i) row(k + 1, i == 0 ? rep : static_cast<uint16_t>(depth_[k] - 1));
  }

  std::vector<RepDefLayer> layers_;  // outer first
  std::vector<int> null_def_, empty_def_, depth_;
  int max_rep_ = 0;
  bool has_def_ = false;
  std::vector<uint16_t> rep_, def_;
  std::mt19937_64 rng_{42};
};

double time_ns_per_level(const Shape& s, int runs) {
  double best = 1e30;
  size_t sink = 0;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    auto out = lance::structural::unravel(s.layers, s.rep, s.def, s.levels);
    auto t1 = std::chrono::steady_clock::now();
    sink += out.back().num_slots;
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(s.levels));
  }
  if (sink == 0) std::printf("(no slots)\n");
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::max<uint64_t>(1, std::strtoull(argv[1], nullptr, 10)) : 1'000'000;
  std::vector<Shape> shapes;
  auto add = [&](const char* name, std::vector<RepDefLayer> layers) {
    shapes.push_back(LevelWriter(std::move(layers)).write(name, n));
  };
  add("int (nullable)", {pb::REPDEF_NULLABLE_ITEM});
  add("list<int> (all valid)", {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_ALL_VALID_LIST});
  add("list<int> (null+empty lists, null items)", {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST});
  add("list<list<int>>", {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST, pb::REPDEF_NULL_AND_EMPTY_LIST});
  add("list<struct<list<int>>>", {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST, pb::REPDEF_NULLABLE_ITEM,
                                  pb::REPDEF_NULL_AND_EMPTY_LIST});
  std::printf("unravel, at least %llu level entries per shape (best of 5)\n", static_cast<unsigned long long>(n));
  for (const auto& s : shapes) {
    try {
      std::printf("  %-45s %7.2f ns/level\n", s.name.c_str(), time_ns_per_level(s, 5));
    } catch (const std::exception& e) {
      std::printf("  %-45s error: %s\n", s.name.c_str(), e.what());
    }
  }
  return 0;
}
