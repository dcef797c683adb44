// The pages of one 2.0 column as the batches of a read share them: a page planned by one
// batch and needed by the next (2.0 pages hold many batches' rows) is read and decoded
// once. Used by the 2.0 field reader (v2_0_field_reader.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "read/staged_reads.h"
#include "read/v2_0_column.h"

namespace lance::read {

/// The part [first, last) (page-relative rows) of page `page` that a read needs.
struct PagePart {
  size_t page = 0;
  uint64_t first = 0;
  uint64_t last = 0;
  bool operator==(const PagePart&) const = default;
};

/// The parts of the pages holding `ranges` (column rows; sorted, non-empty, a repeated row as a
/// range of its own) of `col`, in row order: split_rows_by_page (read/page_batch_planner.h),
/// flattened. Empty pages are left out; throws corrupt for a range past the last row.
std::vector<PagePart> page_parts(const V2_0Column& col, std::span<const RowRange> ranges);

/// `T`: what a page decodes to (an array, list offsets).
template <typename T>
class PageSlots {
 public:
  struct Slot {
    std::mutex mu;
    std::shared_ptr<DataBytes> later;  ///< the page's bytes as data; null: they came as metadata
    std::vector<Bytes> now;            ///< the page's bytes as metadata
    std::optional<T> value;            ///< the decoded page
  };
  using SlotPtr = std::shared_ptr<Slot>;

  explicit PageSlots(V2_0Column& col) : col_(col) {}

  using Arrived = std::function<void(const std::vector<SlotPtr>&)>;
  /// The slot of each part's page (parts of one page share it). Pages not kept from the
  /// batch before (only its last page is kept, decoded, for the next) are asked of `reads`:
  /// as data, or with `now` as metadata, and then `arrived` is handed the slots once their
  /// bytes are here (at once when none is missing).
  std::vector<SlotPtr> plan(std::span<const PagePart> parts, StagedReads& reads, bool now, Arrived arrived = {});

  /// The decoded page of `slot` (page `page`): decode(page, bytes) on first use.
  template <typename Decode>
  const T& get(Slot& slot, size_t page, Decode&& decode) {
    std::lock_guard lock(slot.mu);
    if (!slot.value) {
      std::vector<Bytes> bytes = slot.later ? slot.later->take() : std::move(slot.now);
      slot.later.reset();
      slot.value = decode(page, std::move(bytes));
    }
    return *slot.value;
  }

  /// Forgets the kept pages (a batch was planned but never finished: its slots may never
  /// receive their bytes).
  void forget() {
    std::lock_guard lock(mu_);
    kept_.clear();
  }

 private:
  V2_0Column& col_;
  std::mutex mu_;
  std::map<size_t, SlotPtr> kept_;
};

template <typename T>
std::vector<typename PageSlots<T>::SlotPtr> PageSlots<T>::plan(std::span<const PagePart> parts, StagedReads& reads,
                                                               bool now, Arrived arrived) {
  std::vector<SlotPtr> slots;
  std::vector<size_t> missing;  // pages to ask for
  std::map<size_t, SlotPtr> touched;
  {
    std::lock_guard lock(mu_);
    for (const auto& part : parts) {
      SlotPtr& s = touched[part.page];
      if (!s) {
        auto it = kept_.find(part.page);
        if (it != kept_.end()) {
          s = it->second;
        } else {
          s = std::make_shared<Slot>();
          missing.push_back(part.page);
        }
      }
      slots.push_back(s);
    }
    // A forward scan (and a take in ascending groups) needs at most the last page again.
    kept_.clear();
    if (!parts.empty()) kept_.emplace(parts.back().page, touched.at(parts.back().page));
  }
  // As metadata: one need for every missing page, its shared buffers first.
  std::vector<io::ByteRange> now_ranges;
  std::vector<std::pair<std::vector<SharedBufferRef>, size_t>>
      now_counts;  // per missing page: shared refs, page ranges
  for (size_t p : missing) {
    with_context([&] { return fmt::format("page {}", p); },
                 [&] {
                   std::vector<SharedBufferRef> refs;
                   std::vector<io::ByteRange> shared = col_.shared_ranges(p, refs);
                   std::vector<io::ByteRange> ranges = col_.page_ranges(p);
                   if (now) {
                     now_ranges.insert(now_ranges.end(), shared.begin(), shared.end());
                     now_ranges.insert(now_ranges.end(), ranges.begin(), ranges.end());
                     now_counts.emplace_back(std::move(refs), ranges.size());
                     return;
                   }
                   if (!shared.empty())
                     reads.now(std::move(shared),
                               [this, refs](std::vector<Bytes>&& b) { col_.keep_shared(refs, std::move(b)); });
                   touched[p]->later = reads.later(std::move(ranges));
                 });
  }
  if (!now) return slots;
  reads.now(std::move(now_ranges), [this, slots, missing, touched, now_counts,
                                    arrived = std::move(arrived)](std::vector<Bytes>&& bytes) {
    size_t next = 0;
    for (size_t k = 0; k < missing.size(); ++k) {
      const auto& [refs, n] = now_counts[k];
      auto from = bytes.begin() + static_cast<std::ptrdiff_t>(next);
      col_.keep_shared(refs,
                       std::vector<Bytes>(std::make_move_iterator(from),
                                          std::make_move_iterator(from + static_cast<std::ptrdiff_t>(refs.size()))));
      next += refs.size();
      from = bytes.begin() + static_cast<std::ptrdiff_t>(next);
      touched.at(missing[k])
          ->now.assign(std::make_move_iterator(from), std::make_move_iterator(from + static_cast<std::ptrdiff_t>(n)));
      next += n;
    }
    if (arrived) arrived(slots);
  });
  return slots;
}

}  // namespace lance::read
