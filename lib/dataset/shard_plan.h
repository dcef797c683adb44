// Splitting a dataset version into shards for parallel scans (`lance-cli plan`).
//
// A shard is a run of consecutive fragments in manifest order; shard k's fragments all come
// before shard k+1's. So scanning every shard with `--version V --fragments <its ids>` and
// concatenating the outputs in shard order yields exactly the rows of one full scan of
// version V. Shards are balanced by bytes (data file sizes), the cost of a scan.
//
// Usage:
//   auto ds = dataset::Dataset::open(dir);
//   auto extents = dataset::fragment_extents(*ds);          // reads sizes (stat where needed)
//   auto shards = dataset::plan_by_count(extents, 8);        // ≤ 8 shards
//   auto shards2 = dataset::plan_by_bytes(extents, 64 << 20);  // ≤ 64 MiB each, bar big fragments
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace lance::dataset {

class Dataset;

/// What the planner needs to know of one fragment.
struct FragmentExtent {
  uint64_t id = 0;     ///< DataFragment.id
  uint64_t rows = 0;   ///< visible rows (deletions subtracted)
  uint64_t bytes = 0;  ///< sum of its data files' sizes
};

/// Consecutive fragments to scan as one unit of work.
struct Shard {
  std::vector<uint64_t> fragments;  ///< ids, in manifest order
  uint64_t rows = 0;                ///< visible rows of those fragments
  uint64_t bytes = 0;               ///< their data bytes
};

/// At most `shards` shards (exactly min(shards, fragments.size())), by greedy fill: each
/// shard aims at target = bytes not yet placed / shards still to make, takes the next
/// fragment while that brings it closer to the target, and leaves at least one fragment for
/// every later shard. A fragment larger than the current target is a shard of its own.
/// Pure; no fragments gives no shards. Throws Error(usage) for shards == 0.
std::vector<Shard> plan_by_count(std::span<const FragmentExtent> fragments, uint64_t shards);

/// Shards of at most `target_bytes` each, by greedy fill: a shard takes the next fragment
/// while its bytes stay ≤ target_bytes; a fragment larger than the target is a shard of its
/// own. Pure; no fragments gives no shards. Throws Error(usage) for target_bytes == 0.
std::vector<Shard> plan_by_bytes(std::span<const FragmentExtent> fragments, uint64_t target_bytes);

/// The fragments of `ds` in manifest order with their visible rows and data bytes: each
/// data file's size as the manifest records it (DataFile.file_size_bytes, protos/table.proto
/// in lance-format/lance; 0 = not recorded), else its size on the local file system.
/// Deletion files are not counted. Throws Error(io) naming a data file whose size cannot be read.
std::vector<FragmentExtent> fragment_extents(const Dataset& ds);

}  // namespace lance::dataset
