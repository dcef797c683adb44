#include "dataset/shard_plan.h"

#include <algorithm>

#include "common/error.h"
#include "dataset/dataset.h"
#include "io/remote/uri.h"

namespace lance::dataset {

namespace {

void add(Shard& s, const FragmentExtent& f) {
  s.fragments.push_back(f.id);
  s.rows += f.rows;
  s.bytes += f.bytes;
}

}  // namespace

std::vector<Shard> plan_by_count(std::span<const FragmentExtent> fragments, uint64_t shards) {
  if (shards == 0) throw_usage("the number of shards must be at least 1");
  const size_t n = fragments.size();
  const size_t k = static_cast<size_t>(std::min<uint64_t>(shards, n));
  uint64_t remaining = 0;
  for (const auto& f : fragments) remaining += f.bytes;
  std::vector<Shard> out;
  out.reserve(k);
  size_t i = 0;
  for (size_t s = 0; s < k; ++s) {
    const size_t left = k - s;  // shards still to make, this one included
    Shard shard;
    if (left == 1) {
      for (; i < n; ++i) add(shard, fragments[i]);
      out.push_back(std::move(shard));
      break;
    }
    // Compared in doubles: byte counts far below 2^53 in practice, and only the choice
    // between two neighbouring cut points depends on it.
    const double target = static_cast<double>(remaining) / static_cast<double>(left);
    add(shard, fragments[i++]);
    const bool alone = static_cast<double>(shard.bytes) > target;
    while (!alone && i < n && n - i > left - 1) {
      const double b = static_cast<double>(fragments[i].bytes);
      if (b > target) break;  // a big fragment starts the next shard, and is alone there
      const double cur = static_cast<double>(shard.bytes), next = cur + b;
      if (next > target && next - target >= target - cur) break;
      add(shard, fragments[i++]);
    }
    remaining -= shard.bytes;
    out.push_back(std::move(shard));
  }
  return out;
}

std::vector<Shard> plan_by_bytes(std::span<const FragmentExtent> fragments, uint64_t target_bytes) {
  if (target_bytes == 0) throw_usage("the shard size must be at least 1 byte");
  std::vector<Shard> out;
  Shard shard;
  for (const auto& f : fragments) {
    if (!shard.fragments.empty() && shard.bytes + f.bytes > target_bytes) {  // also closes before a big one
      out.push_back(std::move(shard));
      shard = Shard{};
    }
    add(shard, f);
  }
  if (!shard.fragments.empty()) out.push_back(std::move(shard));
  return out;
}

std::vector<FragmentExtent> fragment_extents(const Dataset& ds) {
  std::vector<FragmentExtent> out;
  out.reserve(ds.fragments().size());
  for (size_t i = 0; i < ds.fragments().size(); ++i) {
    const Fragment& f = ds.fragments()[i];
    FragmentExtent e{f.id, ds.live_rows()[i], 0};
    for (const auto& file : f.files) {
      uint64_t size = file.size_bytes;
      if (size == 0) {  // not recorded (older writers): ask the store
        const std::string p = ds.data_file_path(file);
        const auto found = ds.store().size_of(p);
        if (!found) throw_io("{}: data file of fragment {} does not exist", io::display_location(p), f.id);
        size = *found;
      }
      e.bytes += size;
    }
    out.push_back(e);
  }
  return out;
}

}  // namespace lance::dataset
