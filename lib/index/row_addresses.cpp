#include "index/row_addresses.h"

#include <algorithm>

#include "common/error.h"

namespace lance::index {

RowAddresses::RowAddresses(const dataset::Dataset& ds) : ds_(ds) {
  uint64_t at = 0;
  for (size_t i = 0; i < ds.fragments().size(); ++i) {
    starts_.push_back(at);
    at += ds.live_rows()[i];
    by_id_[ds.fragments()[i].id] = i;
  }
  starts_.push_back(at);
}

const dataset::DeletionVector& RowAddresses::deletions(size_t index) const {
  {
    std::lock_guard lock(mutex_);
    if (const auto it = deletions_.find(index); it != deletions_.end()) return it->second;
  }
  dataset::DeletionVector dv;
  if (ds_.fragments()[index].deletion) dv = ds_.deletion_vector(index);
  std::lock_guard lock(mutex_);
  return deletions_.emplace(index, std::move(dv)).first->second;  // the first one read stays
}

uint64_t RowAddresses::address(uint64_t row) const {
  if (row >= starts_.back()) throw_usage("row {} is out of range: {} has {} rows", row, ds_.path(), starts_.back());
  const auto at = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), row) - starts_.begin() - 1);
  const uint64_t live = row - starts_[at];
  return ds_.fragments()[at].id << 32 | deletions(at).physical_row(live);
}

std::optional<size_t> RowAddresses::fragment_index(uint32_t id) const {
  const auto it = by_id_.find(id);
  if (it == by_id_.end()) return std::nullopt;
  return it->second;
}

std::optional<uint64_t> RowAddresses::row(uint64_t address) const {
  const auto index = fragment_index(static_cast<uint32_t>(address >> 32));
  if (!index) return std::nullopt;
  const uint64_t offset = address & 0xffffffffu;
  const dataset::DeletionVector& dv = deletions(*index);
  const uint64_t physical = ds_.live_rows()[*index] + dv.num_deleted();
  if (offset >= physical || dv.is_deleted(offset)) return std::nullopt;
  const auto& deleted = dv.deleted();
  const auto before = static_cast<uint64_t>(std::lower_bound(deleted.begin(), deleted.end(), offset) - deleted.begin());
  return starts_[*index] + offset - before;
}

}  // namespace lance::index
