#include "read/column_reader.h"

#include <algorithm>
#include <chrono>

namespace lance::read {

using structural::LeafData;

ColumnReader::ColumnReader(std::shared_ptr<format::FileReader> file, uint32_t column, TypePtr leaf_type,
                           std::string field_name, const ReaderOptions& options)
    : file_(std::move(file)),
      column_(column),
      leaf_type_(std::move(leaf_type)),
      field_name_(std::move(field_name)),
      batch_budget_(options.page_batch_bytes),
      cache_rep_index_(options.cache_rep_index),
      keep_dictionaries_(options.keep_dictionaries) {
  const auto& pages = file_->columns().at(column_).pages;
  uint64_t row = 0;
  for (const auto& p : pages) {
    page_starts_.push_back(row);
    row += p.num_rows;
  }
  page_starts_.push_back(row);
}

ColumnReader::~ColumnReader() = default;

std::string ColumnReader::context() const {
  return fmt::format("{}: column {} (field '{}')", file_->path(), column_, field_name_);
}

structural::PageDecoder& ColumnReader::decoder_for(size_t page) {
  auto it = decoders_.find(page);
  if (it != decoders_.end()) return *it->second;
  file_->stats().pages_touched++;
  structural::PageContext ctx;
  ctx.page = &file_->columns()[column_].pages[page];
  ctx.version = file_->version();
  ctx.leaf_type = leaf_type_;
  ctx.file_size = file_->file_size();
  ctx.stats = &file_->stats();
  ctx.cache_rep_index = cache_rep_index_;
  ctx.keep_dictionary = keep_dictionaries_;
  // Callers wrap this in the "page N" context.
  auto dec = structural::make_page_decoder(ctx);
  return *decoders_.emplace(page, std::move(dec)).first->second;
}

void ColumnReader::release_before(uint64_t row) {
  for (auto it = decoders_.begin(); it != decoders_.end();) {
    if (page_starts_[it->first + 1] <= row)
      it = decoders_.erase(it);
    else
      ++it;
  }
}

std::unique_ptr<ColumnReader::Pending> ColumnReader::plan(std::span<const RowRange> ranges, MetadataRounds& rounds) {
  return with_context([&] { return context(); },
                      [&] {
                        auto pending = std::make_unique<Pending>();
                        pending->pages = split_rows_by_page(page_starts_, ranges);
                        for (const auto& r : ranges) pending->num_rows += r.size();
                        pending->priority = ranges.empty() ? 0 : ranges.front().begin;
                        for (const auto& p : pending->pages) {
                          const size_t page = p.page;
                          auto& dec = with_context([&] { return fmt::format("page {}", page); },
                                                   [&]() -> structural::PageDecoder& { return decoder_for(page); });
                          rounds.add(dec, p.local,
                                     [this, page] { return fmt::format("{}: page {}", context(), page); });
                        }
                        return pending;
                      });
}

void ColumnReader::submit(Pending& pending) {
  with_context([&] { return context(); },
               [&] {
                 std::vector<std::vector<io::ByteRange>> data;
                 data.reserve(pending.pages.size());
                 for (const auto& p : pending.pages)
                   data.push_back(with_context([&] { return fmt::format("page {}", p.page); },
                                               [&] { return decoder_for(p.page).data_ranges(p.local); }));
                 share_with_last_read(pending, data);
                 BatchPlan batches = plan_page_batches(data, batch_budget_);
                 pending.slots = std::move(batches.pages);
                 for (auto& req : batches.requests)
                   pending.futures.push_back(file_->io().submit(std::move(req), pending.priority));
               });
}

void ColumnReader::share_with_last_read(Pending& pending, std::vector<std::vector<io::ByteRange>>& data) {
  // A read only kept (FileRowReader::prefetch) is never finished: it shares nothing, and
  // the takes that follow find its bytes kept.
  if (pending.pages.empty() || file_->io().keeping_only()) return;
  std::optional<Tail> next;
  if (!data.back().empty() && decoder_for(pending.pages.back().page).edge_ranges_shared()) {
    next = Tail{pending.pages.back().page, data.back().back(), std::make_shared<std::optional<Bytes>>()};
    pending.keep_tail = next->bytes;
  }
  if (tail_ && tail_->page == pending.pages.front().page && !data.front().empty() &&
      data.front().front() == tail_->range) {
    pending.shared_head = tail_->bytes;
    pending.shared_head_range = tail_->range;
    data.front().erase(data.front().begin());
  }
  tail_ = std::move(next);
}

std::unique_ptr<ColumnReader::Pending> ColumnReader::start(std::span<const RowRange> ranges) {
  StageTimer timer(file_->stats().plan_ns, file_->stats().plan_wall);
  MetadataRounds rounds;
  auto pending = plan(ranges, rounds);
  rounds.run(file_->io(), pending->priority);
  submit(*pending);
  return pending;
}

namespace {

/// Reserves `room` in `out` (an estimate, so bounded like any decoded buffer).
void reserve_room(LeafData& out, const structural::DecodeSizeHint& room) {
  check_alloc(room.value_bytes, "column values");
  check_alloc(room.rep_levels * sizeof(uint16_t), "repetition levels");
  check_alloc(room.def_levels * sizeof(uint16_t), "definition levels");
  if (room.value_bytes) reserve_more(out.values.data, room.value_bytes);
  if (room.rep_levels) reserve_more(out.rep, room.rep_levels);
  if (room.def_levels) reserve_more(out.def, room.def_levels);
}

}  // namespace

LeafData ColumnReader::finish(std::unique_ptr<Pending> pending) {
  return with_context(
      [&] { return context(); },
      [&] {
        std::vector<std::vector<Bytes>> results;
        {
          StageTimer timer(file_->stats().io_wait_ns, file_->stats().io_wait_wall);
          for (auto& f : pending->futures) results.push_back(f.get());
        }
        StageTimer timer(file_->stats().decode_ns, file_->stats().decode_wall);
        check_internal(pending->slots.size() == pending->pages.size(), "column read finished before it was submitted");
        LeafData out;
        // Pages whose decoder returns a LeafData of its own wait here, and join `out` together
        // (structural::append_leaves: one copy, sized once).
        std::vector<LeafData> decoded;
        size_t first_decoded = 0;  // page number of decoded[0]
        auto join = [&](size_t last) {
          if (decoded.empty()) return;
          with_context([&] { return fmt::format("pages {}-{}", first_decoded, last); },
                       [&] { structural::append_leaves(out, std::move(decoded)); });
          decoded.clear();
        };
        // Each page's parts, in page order.
        std::vector<std::vector<Bytes>> page_parts(pending->pages.size());
        for (size_t i = 0; i < pending->pages.size(); ++i) {
          const auto& slot = pending->slots[i];
          std::vector<Bytes>& mine = page_parts[i];
          if (i == 0 && pending->shared_head) mine.push_back(shared_head_bytes(*pending));
          if (slot.num_parts) {
            auto& r = results.at(slot.request);
            mine.insert(
                mine.end(), std::make_move_iterator(r.begin() + static_cast<std::ptrdiff_t>(slot.first_part)),
                std::make_move_iterator(r.begin() + static_cast<std::ptrdiff_t>(slot.first_part + slot.num_parts)));
          }
          if (i + 1 == pending->pages.size() && pending->keep_tail && !mine.empty()) *pending->keep_tail = mine.back();
        }
        // The decoder is found under its page's name; earlier pages join outside it.
        auto decoder = [&](size_t i) -> structural::PageDecoder& {
          const size_t page = pending->pages[i].page;
          return with_context([&] { return fmt::format("page {}", page); },
                              [&]() -> structural::PageDecoder& { return decoder_for(page); });
        };
        // Room for what the pages that decode into `out` append, once. One such page sizes
        // its own appends (a scan's batch within a page): no hint needed.
        structural::DecodeSizeHint room;
        size_t in_place_pages = 0;
        for (size_t i = 0; i < pending->pages.size(); ++i) in_place_pages += decoder(i).decodes_in_place();
        for (size_t i = 0; i < pending->pages.size() && in_place_pages > 1; ++i) {
          structural::PageDecoder& dec = decoder(i);
          if (dec.decodes_in_place())
            room += with_context([&] { return fmt::format("page {}", pending->pages[i].page); },
                                 [&] {
                                   return with_context(dec.layout_name(), [&] {
                                     return dec.size_hint(pending->pages[i].local, page_parts[i]);
                                   });
                                 });
        }
        for (size_t i = 0; i < pending->pages.size(); ++i) {
          const auto& p = pending->pages[i];
          structural::PageDecoder& dec = decoder(i);
          const bool in_place = dec.decodes_in_place();
          if (in_place && i > 0) join(pending->pages[i - 1].page);
          if (in_place) {
            reserve_room(out, room);
            room = {};
          }
          if (!in_place && decoded.empty()) first_decoded = p.page;
          with_context([&] { return fmt::format("page {}", p.page); },
                       [&] {
                         with_context(dec.layout_name(), [&] {
                           if (in_place)
                             dec.decode_into(p.local, std::move(page_parts[i]), out);
                           else
                             decoded.push_back(dec.decode(p.local, std::move(page_parts[i])));
                         });
                       });
        }
        if (!pending->pages.empty()) join(pending->pages.back().page);
        return out;
      });
}

Bytes ColumnReader::shared_head_bytes(Pending& pending) {
  auto& slot = *pending.shared_head;
  if (slot) {
    Bytes b = std::move(*slot);
    slot.reset();
    return b;
  }
  // The read that was to leave these bytes was never finished (a scan stopped early, or
  // reads finished out of order): they are read now.
  auto parts = file_->io().read({pending.shared_head_range}, pending.priority);
  check_internal(parts.size() == 1, "a read of one range returned {} parts", parts.size());
  return std::move(parts.front());
}

LeafData ColumnReader::read_ranges(std::span<const RowRange> ranges) { return finish(start(ranges)); }

LeafData ColumnReader::read(uint64_t begin, uint64_t end) {
  RowRange r{begin, end};
  return read_ranges(std::span<const RowRange>(&r, 1));
}

}  // namespace lance::read
