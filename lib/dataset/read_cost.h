// Estimates for planning reads from object stores before a data file's metadata is known:
// how many of a file's bytes a read needs, from the manifest alone (the file's size, its row
// count, the schema's types). DatasetRowReader uses them to choose between fetching a data
// file whole and fetching its tail first.
//
// Usage:
//   uint64_t need = take_bytes(rows, physical_rows, file.size_bytes, store.network_model().coalesce_gap);
//   need = need * projected_share(schema, projection, file);
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "array/types.h"
#include "dataset/manifest.h"

namespace lance::dataset {

/// Bits per row of a fixed-width type (fixed-size lists and structs of fixed-width children
/// included; bool = 1), 0 for variable-width ones (strings, binary, lists, maps, dictionaries).
uint64_t fixed_bits(const DataType& type);

/// Bytes of a data file of `size` bytes and `n` rows that reading the sorted rows `rows` (each
/// < n; a repeated row counts once) fetches over a network whose reads are coalesced across
/// holes up to `gap` bytes. Estimated with the file's bytes spread evenly over its rows: each row's own
/// share (size / n), plus the hole up to the next row, up to `gap`. Scattered rows of a file
/// with small rows thus cost all of it; a run of contiguous rows only its share. At most `size`.
uint64_t take_bytes(std::span<const uint64_t> rows, uint64_t n, uint64_t size, uint64_t gap);

/// The share (0..1) of `file`'s bytes the projected top-level fields (`projected`: indices into
/// schema.fields) hold: 1 when the file holds no other field; else projected / all bits per row
/// of the file's fields (variable-width projected fields count 0: a lower bound); 0 when a field
/// the file holds but the read skips has a variable width (its bytes cannot be estimated).
double projected_share(const format::Schema& schema, const std::vector<size_t>& projected, const DataFileRef& file);

/// How many leading `rows` ascend (repeats allowed) while below `end_row` (a fragment's
/// end): at least 1 when rows[0] < end_row, 0 when it is not. O(answer).
size_t ascending_run(std::span<const uint64_t> rows, uint64_t end_row);

/// A take whose distinct rows hold at most this many group budgets is one group: groups save
/// it little memory and cost a copy of every byte read (the read-ahead keeps the bytes, each
/// group copies its share out; the 2,048 contiguous rows of the nested_large bench table,
/// 13 MiB: 31 → 26 ms as one group, the same peak RSS).
inline constexpr uint64_t kWholeTakeBudgets = 4;

/// Splits `run` (ascending rows) into consecutive groups whose distinct rows hold about
/// `budget_bytes` at `bytes_per_row` each (the last group may hold less; repeats of a row stay
/// in its group): the group sizes, summing to run.size(). One group when bytes_per_row or
/// budget_bytes is 0, or when the distinct rows hold at most kWholeTakeBudgets budgets.
std::vector<size_t> take_groups(std::span<const uint64_t> run, double bytes_per_row, uint64_t budget_bytes);

/// Rows of one scan batch: `batch_size`, or fewer, so that a batch holds about `budget_bytes`
/// of file bytes at `bytes_per_row` each (at least 1 row). A table of large rows is then
/// decoded in batches that fit the caches and reuse each other's memory instead of growing
/// the heap. `batch_size` when bytes_per_row or budget_bytes is 0 (unknown, no budget).
uint64_t scan_batch_rows(uint64_t batch_size, double bytes_per_row, uint64_t budget_bytes);

}  // namespace lance::dataset
