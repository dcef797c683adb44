#include "read/page_batch_planner.h"

#include <algorithm>

namespace lance::read {

std::vector<PageRows> split_rows_by_page(std::span<const uint64_t> page_starts, std::span<const RowRange> ranges) {
  std::vector<PageRows> out;
  const uint64_t total = page_starts.empty() ? 0 : page_starts.back();
  for (const auto& r : ranges) {
    check_corrupt(r.begin < r.end && r.end <= total, "rows [{}, {}) but the column has {} rows", r.begin, r.end, total);
    size_t page = 0;
    if (!out.empty() && page_starts[out.back().page] <= r.begin && r.begin < page_starts[out.back().page + 1])
      page = out.back().page;  // sorted ranges: most start in the page the last one ended in
    else
      page =
          static_cast<size_t>(std::upper_bound(page_starts.begin(), page_starts.end(), r.begin) - page_starts.begin()) -
          1;
    for (uint64_t row = r.begin; row < r.end; ++page) {
      const uint64_t ps = page_starts[page], pe = page_starts[page + 1];
      if (pe <= row) continue;  // an empty page
      const uint64_t e = std::min(r.end, pe);
      if (out.empty() || out.back().page != page) out.push_back({page, {}});
      out.back().local.push_back({row - ps, e - ps});
      row = e;
    }
  }
  return out;
}

BatchPlan plan_page_batches(std::span<const std::vector<io::ByteRange>> page_ranges, uint64_t budget) {
  BatchPlan plan;
  std::vector<io::ByteRange> batch;
  uint64_t batch_bytes = 0;
  auto flush = [&] {
    if (batch.empty()) return;
    plan.requests.push_back(std::move(batch));
    batch.clear();
    batch_bytes = 0;
  };
  for (const auto& d : page_ranges) {
    uint64_t bytes = 0;
    for (const auto& r : d) bytes += r.length;
    if (!batch.empty() && (budget == 0 || batch_bytes + bytes > budget)) flush();
    plan.pages.push_back({plan.requests.size(), batch.size(), d.size()});
    batch.insert(batch.end(), d.begin(), d.end());
    batch_bytes += bytes;
  }
  flush();
  return plan;
}

void MetadataRounds::add(structural::PageDecoder& decoder, std::span<const RowRange> rows,
                         std::function<std::string()> label) {
  structural::PageDecoder* d = &decoder;
  Task t;
  t.first = [d, rows] { return d->metadata_ranges(rows); };
  t.next = [d, rows](std::vector<Bytes>&& parts) {
    d->load_metadata(rows, std::move(parts));
    return d->more_metadata_ranges(rows);
  };
  if (!rows.empty()) {
    t.likely = [d, rows]() -> std::vector<io::ByteRange> {
      auto likely = d->likely_data_ranges(rows);
      if (rows.size() <= kLikelyMaxRanges) return likely;
      uint64_t bytes = 0;
      for (const auto& r : likely) bytes += r.length;
      if (bytes > kScatteredLikelyMaxBytes) return {};
      return likely;
    };
  }
  t.label = std::move(label);
  tasks_.push_back(std::move(t));
}

void MetadataRounds::add(std::vector<io::ByteRange> first, Continue next, std::function<std::string()> label) {
  Task t;
  t.first = [first = std::move(first)]() mutable { return std::move(first); };
  t.next = std::move(next);
  t.label = std::move(label);
  tasks_.push_back(std::move(t));
}

void MetadataRounds::run(io::IoScheduler& io, uint64_t priority, bool likely_data) {
  // Per task: its ranges of the current round (empty: done).
  std::vector<std::vector<io::ByteRange>> want(tasks_.size());
  std::vector<io::ByteRange> likely;
  for (size_t i = 0; i < tasks_.size(); ++i) {
    auto& t = tasks_[i];
    want[i] = with_context(t.label, t.first);
    if (likely_data && t.likely) {
      auto l = with_context(t.label, t.likely);
      likely.insert(likely.end(), l.begin(), l.end());
    }
  }
  if (!likely.empty()) io.file().will_read(likely);
  for (;;) {
    std::vector<io::ByteRange> request;
    for (const auto& w : want) request.insert(request.end(), w.begin(), w.end());
    if (request.empty()) return;
    auto parts = io.read(std::move(request), priority);
    ++rounds_;
    size_t next = 0;
    for (size_t i = 0; i < tasks_.size(); ++i) {
      if (want[i].empty()) continue;
      auto& t = tasks_[i];
      std::vector<Bytes> mine(
          std::make_move_iterator(parts.begin() + static_cast<std::ptrdiff_t>(next)),
          std::make_move_iterator(parts.begin() + static_cast<std::ptrdiff_t>(next + want[i].size())));
      next += want[i].size();
      want[i] = with_context(t.label, [&] { return t.next(std::move(mine)); });
    }
  }
}

structural::LeafData read_page_rows(structural::PageDecoder& decoder, io::IoScheduler& io, uint64_t begin, uint64_t end,
                                    uint64_t priority) {
  if (begin == end) return decoder.decode({}, {});
  RowRange r{begin, end};
  std::span<const RowRange> rows(&r, 1);
  MetadataRounds rounds;
  rounds.add(decoder, rows, [] { return std::string(); });
  rounds.run(io, priority + begin);
  auto data = decoder.data_ranges(rows);
  return decoder.decode(rows, data.empty() ? std::vector<Bytes>{} : io.read(std::move(data), priority + begin));
}

}  // namespace lance::read
