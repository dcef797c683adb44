#include "read/column_reader.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "read/read_stats.h"

namespace lance::read {

using structural::LeafData;

ColumnReader::ColumnReader(std::shared_ptr<format::FileReader> file, uint32_t column, TypePtr leaf_type,
                           std::string field_name)
    : file_(std::move(file)), column_(column), leaf_type_(std::move(leaf_type)), field_name_(std::move(field_name)) {
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

namespace {

uint64_t elapsed_ns(std::chrono::steady_clock::time_point since) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - since).count());
}

}  // namespace

uint64_t page_batch_bytes() {
  static const uint64_t bytes = [] {
    const char* v = std::getenv("LANCE_CLI_PAGE_BATCH_BYTES");
    if (!v || !*v) return kPageBatchBytes;
    char* end = nullptr;
    unsigned long long x = std::strtoull(v, &end, 10);
    if (!end || *end) throw_usage("LANCE_CLI_PAGE_BATCH_BYTES={} is not a byte count", v);
    return static_cast<uint64_t>(x);
  }();
  return bytes;
}

structural::PageDecoder& ColumnReader::decoder_for(size_t page) {
  auto it = decoders_.find(page);
  if (it != decoders_.end()) return *it->second;
  ReadStats::global().pages_touched++;
  structural::PageContext ctx;
  ctx.page = &file_->columns()[column_].pages[page];
  ctx.io = &file_->io();
  ctx.version = file_->version();
  ctx.leaf_type = leaf_type_;
  ctx.file_size = file_->file_size();
  // Callers wrap this in the "page N" context.
  auto dec = structural::make_page_decoder(ctx);
  return *decoders_.emplace(page, std::move(dec)).first->second;
}

void ColumnReader::release_before(uint64_t row) {
  for (auto it = decoders_.begin(); it != decoders_.end();) {
    if (page_starts_[it->first + 1] <= row) it = decoders_.erase(it);
    else ++it;
  }
}

std::unique_ptr<ColumnReader::Pending> ColumnReader::start(std::span<const RowRange> ranges) {
  return with_context(context(), [&] {
    auto pending = std::make_unique<Pending>();
    // 1. Split the ranges by page.
    for (const auto& r : ranges) {
      check_corrupt(r.begin < r.end && r.end <= page_starts_.back(), "rows [{}, {}) but the column has {} rows",
                    r.begin, r.end, page_starts_.back());
      pending->num_rows += r.size();
      size_t page = static_cast<size_t>(std::upper_bound(page_starts_.begin(), page_starts_.end(), r.begin) -
                                        page_starts_.begin()) - 1;
      for (uint64_t row = r.begin; row < r.end; ++page) {
        const uint64_t ps = page_starts_[page], pe = page_starts_[page + 1];
        if (pe <= row) continue;
        const uint64_t e = std::min(r.end, pe);
        if (pending->pages.empty() || pending->pages.back().page != page)
          pending->pages.push_back({page, {}, 0, 0, 0});
        pending->pages.back().local.push_back({row - ps, e - ps});
        row = e;
      }
    }
    const uint64_t priority = ranges.empty() ? 0 : ranges.front().begin;
    const auto t0 = std::chrono::steady_clock::now();
    // 2. Metadata round: every new page's metadata in one request.
    {
      std::vector<io::ByteRange> meta;
      std::vector<std::pair<size_t, size_t>> slices;  // per page: first, count
      for (auto& p : pending->pages) {
        auto m = with_context(fmt::format("page {}", p.page), [&] { return decoder_for(p.page).metadata_ranges(p.local); });
        slices.emplace_back(meta.size(), m.size());
        meta.insert(meta.end(), m.begin(), m.end());
      }
      if (!meta.empty()) {
        auto parts = file_->io().read(std::move(meta), priority);
        for (size_t i = 0; i < pending->pages.size(); ++i) {
          auto& p = pending->pages[i];
          if (slices[i].second == 0) continue;
          std::vector<Bytes> mine(std::make_move_iterator(parts.begin() + slices[i].first),
                                  std::make_move_iterator(parts.begin() + slices[i].first + slices[i].second));
          with_context(fmt::format("page {}", p.page), [&] { decoder_for(p.page).load_metadata(p.local, std::move(mine)); });
        }
      }
    }
    // 3. Data round: consecutive pages' ranges grouped into requests of about
    //    page_batch_bytes() (0: one request per page).
    const uint64_t budget = batch_budget_;
    std::vector<io::ByteRange> batch;
    uint64_t batch_bytes = 0;
    auto flush = [&] {
      if (batch.empty()) return;
      pending->futures.push_back(file_->io().submit(std::move(batch), priority));
      batch.clear();
      batch_bytes = 0;
    };
    for (auto& p : pending->pages) {
      auto d = with_context(fmt::format("page {}", p.page), [&] { return decoder_for(p.page).data_ranges(p.local); });
      uint64_t bytes = 0;
      for (const auto& r : d) bytes += r.length;
      if (!batch.empty() && (budget == 0 || batch_bytes + bytes > budget)) flush();
      p.request = pending->futures.size();
      p.first_part = batch.size();
      p.num_parts = d.size();
      batch.insert(batch.end(), d.begin(), d.end());
      batch_bytes += bytes;
    }
    flush();
    ReadStats::global().plan_ns += elapsed_ns(t0);
    return pending;
  });
}

LeafData ColumnReader::finish(std::unique_ptr<Pending> pending) {
  return with_context(context(), [&] {
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::vector<Bytes>> results;
    for (auto& f : pending->futures) results.push_back(f.get());
    ReadStats::global().io_wait_ns += elapsed_ns(t0);
    t0 = std::chrono::steady_clock::now();
    LeafData out;
    for (auto& p : pending->pages) {
      std::vector<Bytes> mine;
      if (p.num_parts) {
        auto& r = results.at(p.request);
        mine.assign(std::make_move_iterator(r.begin() + p.first_part),
                    std::make_move_iterator(r.begin() + p.first_part + p.num_parts));
      }
      LeafData part = with_context(fmt::format("page {}", p.page), [&] {
        auto& dec = decoder_for(p.page);
        return with_context(dec.layout_name(), [&] { return dec.decode(p.local, std::move(mine)); });
      });
      structural::append_leaf(out, std::move(part));
    }
    ReadStats::global().decode_ns += elapsed_ns(t0);
    return out;
  });
}

LeafData ColumnReader::read_ranges(std::span<const RowRange> ranges) { return finish(start(ranges)); }

LeafData ColumnReader::read(uint64_t begin, uint64_t end) {
  RowRange r{begin, end};
  return read_ranges(std::span<const RowRange>(&r, 1));
}

}  // namespace lance::read
