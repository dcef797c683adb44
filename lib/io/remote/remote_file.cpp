#include "io/remote/remote_file.h"

#include <algorithm>
#include <cstring>
#include <future>
#include <system_error>
#include <thread>

#include "common/cancel.h"
#include "common/thread_start.h"

namespace lance::io {

namespace {

/// A unit (page buffer) this small is fetched only when a read asks (read_hole); one read whole
/// from the start needs no window.
constexpr uint64_t kSmallUnit = 1 << 20;

/// Reads keep this many times ReadAhead::ahead_bytes past them fetched or on the way
/// (fetch_ahead_of): 128 MiB for the stores' 32 MiB. Twice that was 0.08 s slower on the
/// vector scan above (0.57-0.74 s against 0.48-0.60 s); the unread-window bound caps memory.
constexpr uint64_t kAheadOfReads = 4;

}  // namespace

std::shared_ptr<RemoteFile> RemoteFile::open(std::shared_ptr<const HttpClient> client, std::string url,
                                             std::string display, uint64_t tail_bytes, ReadAhead read_ahead,
                                             uint64_t head_bytes) {
  auto f = std::shared_ptr<RemoteFile>(new RemoteFile());
  f->read_ahead_ = read_ahead;
  f->client_ = std::move(client);
  f->url_ = std::move(url);
  f->display_ = std::move(display);
  if (head_bytes > 0 && read_ahead.bytes > 0) {
    std::lock_guard lock(f->mutex_);
    for (uint64_t at = 0; at < head_bytes; at += read_ahead.bytes)
      f->prefetch_range(at, std::min(head_bytes, at + read_ahead.bytes), true);
  }
  HttpRequest req;
  req.url = f->url_;
  req.display = f->display_;
  req.range = "-" + std::to_string(tail_bytes);
  req.max_body = tail_bytes;
  HttpResponse resp = f->client_->perform(req);
  if (resp.status == 416) {
    // An empty object has no suffix to return: ask for its size.
    HttpRequest head;
    head.head = true;
    head.url = f->url_;
    head.display = f->display_;
    HttpResponse h = f->client_->perform(head);
    if (h.status != 200) f->client_->fail(head, h);
    f->size_ = h.content_length.value_or(0);
    f->tail_start_ = f->size_;
    check_corrupt(f->size_ == 0, "{}: the server refused the tail of a {}-byte file (HTTP 416)", f->display_, f->size_);
    f->tail_data_ = f->tail_.data();
    return f;
  }
  if (resp.status == 206) {
    if (!resp.content_range) throw_io("{}: HTTP 206 without a Content-Range", f->display_);
    const ContentRange& cr = *resp.content_range;
    if (cr.last + 1 != cr.total || cr.last - cr.first + 1 != resp.body.size())
      throw_io("{}: Content-Range {}-{}/{} does not describe the file's tail of {} bytes", f->display_, cr.first,
               cr.last, cr.total, resp.body.size());
    f->size_ = cr.total;
    f->tail_start_ = cr.first;
  } else if (resp.status == 200) {
    // The whole file (smaller than the suffix, or a server without Range support).
    f->size_ = resp.body.size();
    f->tail_start_ = 0;
  } else {
    f->client_->fail(req, resp);
  }
  f->tail_ = std::move(resp.body);
  f->tail_data_ = f->tail_.data();
  return f;
}

std::shared_ptr<RemoteFile> RemoteFile::open_whole(std::shared_ptr<const HttpClient> client, std::string url,
                                                   std::string display, uint64_t size, uint64_t part,
                                                   ReadAhead read_ahead) {
  part = std::max<uint64_t>(part, 64 * 1024);
  if (size <= part) {
    auto f = open(std::move(client), std::move(url), std::move(display), std::max<uint64_t>(size, 1), read_ahead);
    return f;
  }
  check_alloc(size, "whole-file read");
  const uint64_t pieces = (size + part - 1) / part;
  const uint64_t head = (pieces - 1) * part;  // bytes [0, head) in pieces of `part`, the rest as the last piece
  auto f = std::shared_ptr<RemoteFile>(new RemoteFile());
  f->client_ = client;
  f->url_ = url;
  f->display_ = display;
  f->size_ = size;
  f->read_ahead_ = read_ahead;
  // Not zero-filled: first-touch page faults cost ~3 ms per MiB on some hosts, and here they
  // happen inside the transfers (overlapping the wait for later bytes), not before the GETs.
  f->whole_ = std::make_shared_for_overwrite<uint8_t[]>(size);
  uint8_t* whole = f->whole_.get();
  std::vector<std::future<void>> running;
  {
    StopSignalsBlocked blocked;  // the fetching threads never take SIGINT/SIGTERM
    for (uint64_t i = 0; i + 1 < pieces; ++i)
      running.push_back(std::async(std::launch::async,
                                   [&f, whole, i, part] { f->fetch(i * part, (i + 1) * part, whole + i * part); }));
  }
  // The last piece: its Content-Range (…/TOTAL) confirms the manifest's size.
  bool confirmed = false;
  std::exception_ptr error;
  try {
    HttpRequest req;
    req.url = url;
    req.display = display;
    req.range = fmt::format("{}-{}", head, size - 1);
    req.expect = size - head;
    req.out = whole + head;
    HttpResponse resp = client->perform(req);
    if (resp.status == 206 && resp.content_range) {
      const ContentRange& cr = *resp.content_range;
      confirmed = cr.first == head && cr.last == size - 1 && cr.total == size;
    } else if (resp.status != 416) {
      client->fail(req, resp);
    }
  } catch (...) {
    error = std::current_exception();
  }
  for (auto& r : running) {
    try {
      r.get();
    } catch (...) {
      if (!error && confirmed) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
  // The manifest's size was wrong (the file is longer or shorter): a plain open.
  if (!confirmed) return open(std::move(client), std::move(url), std::move(display), size - head, read_ahead);
  f->tail_start_ = 0;
  f->tail_data_ = whole;
  return f;
}

void RemoteFile::read_at(uint64_t offset, uint64_t length, uint8_t* out) const {
  check_corrupt(offset <= size_ && length <= size_ - offset, "read of [{}, +{}) passes the end of the file ({} bytes)",
                offset, length, size_);
  if (length == 0) return;
  uint64_t end = offset + length;
  if (end > tail_start_) {
    // The part inside the cached tail comes from memory.
    const uint64_t from = std::max(offset, tail_start_);
    std::memcpy(out + (from - offset), tail_data_ + (from - tail_start_), end - from);
    if (from == offset) return;
    end = from;
  }
  if (read_ahead_.bytes == 0) return fetch(offset, end, out);
  // What follows, up to four times ahead_bytes, is fetched meanwhile: the page's next cells
  // and, past its end, the next units in file order (the other columns' larger pages, the
  // column's next page). A scan reading the file batch by batch finds them in memory instead
  // of waiting a round trip at each page's end (the 153 MB vector scan through a 25 ms proxy:
  // 0.73 -> 0.57 s, two stretches of ~120 ms with nothing in flight gone).
  if (read_ahead_.ahead_bytes > 0) fetch_ahead_of(offset);
  // Windows may cover parts of the read (a scan's batches rarely start where the pieces fetched
  // ahead do): their parts come from memory, and only the holes between them are fetched. The
  // holes go first: a window still in flight must not hold back a request for a hole.
  std::vector<ByteRange> held, holes;  // parts windows cover, copied once the holes are read
  for (uint64_t at = offset; at < end;) {
    if (const uint64_t c = covered_until(at, end); c > at) {
      held.push_back(ByteRange{at, c - at});
      at = c;
      continue;
    }
    const uint64_t stop = next_window_start(at, end);
    holes.push_back(ByteRange{at, stop - at});
    at = stop;
  }
  // Several holes (the gaps between the windows of a page's buffers) are fetched side by
  // side: one after another, a read of a text page waited ten round trips for ten gaps of
  // 16-188 bytes.
  std::vector<std::future<void>> others;
  try {
    StopSignalsBlocked blocked;  // the threads never take SIGINT/SIGTERM
    for (size_t i = 1; i < holes.size(); ++i)
      others.push_back(std::async(std::launch::async, [this, h = holes[i], offset, out] {
        run_thread_start_hook();
        read_part(h.offset, h.end(), out + (h.offset - offset));
      }));
  } catch (const std::system_error&) {
    // No thread to spare: the rest below, in turn.
  }
  std::exception_ptr error;
  try {
    for (size_t i = 0; i < holes.size(); ++i)
      if (i == 0 || i > others.size()) read_part(holes[i].offset, holes[i].end(), out + (holes[i].offset - offset));
  } catch (...) {
    error = std::current_exception();
  }
  for (auto& f : others) {
    try {
      f.get();
    } catch (...) {
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
  copy_held(held, offset, out);
}

void RemoteFile::copy_held(std::span<const ByteRange> held, uint64_t offset, uint8_t* out) const {
  for (const auto& h : held) {
    const uint64_t got = copy_from_windows(h.offset, h.end(), out + (h.offset - offset));
    if (got < h.end()) read_at(got, h.end() - got, out + (got - offset));  // a window let go meanwhile
  }
}

void RemoteFile::read_part(uint64_t offset, uint64_t end, uint8_t* out) const {
  std::vector<ByteRange> held;  // parts windows added meanwhile cover
  for (uint64_t at = offset; at < end;) {
    if (const uint64_t c = covered_until(at, end); c > at) {
      held.push_back(ByteRange{at, c - at});
      at = c;
      continue;
    }
    at = read_hole(at, next_window_start(at, end), out + (at - offset));
  }
  copy_held(held, offset, out);
}

uint64_t RemoteFile::covered_until(uint64_t offset, uint64_t end) const {
  std::lock_guard lock(mutex_);
  uint64_t covered = offset;
  while (covered < end) {
    const Window* w = window_reaching_furthest(covered);
    if (!w) break;
    covered = w->end;
  }
  return std::min(covered, end);
}

uint64_t RemoteFile::read_hole(uint64_t offset, uint64_t end, uint8_t* out) const {
  std::shared_future<Buffer> data;
  std::promise<Buffer> promise;
  uint64_t start = 0, stop = 0;
  std::shared_ptr<std::atomic<uint64_t>> copied;  // a cell's bytes copied out so far
  {
    std::lock_guard lock(mutex_);
    // Another read may have added a window here since the caller looked: use that one.
    if (window_reaching_furthest(offset)) return offset;
    // The last unit starting at or before `offset`.
    auto it = std::upper_bound(units_.begin(), units_.end(), offset,
                               [](uint64_t o, const Unit& u) { return o < u.range.offset; });
    if (it != units_.begin()) {
      const ByteRange& u = std::prev(it)->range;
      const size_t next = std::prev(it)->next;
      const uint64_t u_end = std::min(u.end(), tail_start_);
      const uint64_t unit_bytes = u_end > u.offset ? u_end - u.offset : 0;
      if (offset < u_end && unit_bytes > read_ahead_.bytes) {
        // A unit larger than a request (a page a scan reads batch by batch): windows are the
        // cells of a grid at multiples of read_ahead_.bytes, so reads that start anywhere,
        // at the same time, share their cells instead of fetching overlapping ranges.
        const uint64_t cell = read_ahead_.bytes;
        start = std::max(u.offset, offset / cell * cell);
        stop = std::min(u_end, (offset / cell + 1) * cell);
        end = std::min(end, stop);
        copied = std::make_shared<std::atomic<uint64_t>>(0);
      } else if (end <= u_end && (end - offset < unit_bytes || unit_bytes <= kSmallUnit)) {
        // A small unit: worth a window when the read is a strict part of it (a batch of a
        // page), or all of a small one (batches of a one-chunk page read it again and
        // again); a larger unit read whole is read once and needs no copy.
        start = u.offset;
        stop = u_end;
        // The column's next page: its buffers are the next units announced.
        if (next != SIZE_MAX) prefetch_unit(next);
        if (next != SIZE_MAX && next + 1 < order_.size()) prefetch_unit(next + 1);
      }
      if (stop > start) {
        data = promise.get_future().share();
        add_window(start, stop, data, copied);
      }
    }
  }
  if (!data.valid()) {  // not inside an announced unit
    fetch(offset, end, out);
    return end;
  }
  try {
    auto buf = std::make_shared_for_overwrite<uint8_t[]>(stop - start);
    fetch(start, stop, buf.get());
    promise.set_value(std::move(buf));
  } catch (...) {
    promise.set_exception(std::current_exception());
    std::lock_guard lock(mutex_);
    std::erase_if(windows_, [&](const Window& w) { return w.start == start && w.end == stop; });
  }
  const Buffer& bytes = data.get();  // rethrows the window's failure
  std::memcpy(out, bytes.get() + (offset - start), end - offset);
  if (copied) count_copied(copied, end - offset, stop - start);
  return end;
}

void RemoteFile::count_copied(const std::shared_ptr<std::atomic<uint64_t>>& copied, uint64_t n,
                              uint64_t window_bytes) const {
  if (copied->fetch_add(n) + n < window_bytes) return;
  // Every byte of the cell has been read (a scan reads each once): its memory can go now,
  // for the next cells to reuse, instead of when it becomes the least recently used.
  std::lock_guard lock(mutex_);
  std::erase_if(windows_, [&](const Window& w) { return w.copied == copied; });
}

uint64_t RemoteFile::copy_from_windows(uint64_t offset, uint64_t end, uint8_t* out) const {
  struct Piece {
    uint64_t start, end;
    std::shared_future<Buffer> data;
    std::shared_ptr<std::atomic<uint64_t>> copied;
    std::shared_ptr<Arrival> arrival;
  };
  std::vector<Piece> pieces;  // windows covering [offset, covered), in order
  uint64_t covered = offset;
  {
    std::lock_guard lock(mutex_);
    while (covered < end) {
      Window* best = window_reaching_furthest(covered);
      if (!best) break;
      best->used = ++clock_;
      best->read = true;
      pieces.push_back(Piece{best->start, best->end, best->data, best->copied, best->arrival});
      covered = best->end;
    }
  }
  uint64_t at = offset;
  for (const auto& p : pieces) {
    const uint64_t upto = std::min(end, p.end);
    // Bytes fetched ahead as soon as they are in; else the whole window (get() rethrows its failure).
    const uint8_t* bytes =
        p.arrival && p.arrival->wait_for(upto - p.start) ? p.arrival->buffer.get() : p.data.get().get();
    std::memcpy(out + (at - offset), bytes + (at - p.start), upto - at);
    if (p.copied) count_copied(p.copied, upto - at, p.end - p.start);
    at = upto;
  }
  return at;
}

uint64_t RemoteFile::next_window_start(uint64_t offset, uint64_t end) const {
  std::lock_guard lock(mutex_);
  uint64_t next = end;
  for (const auto& w : windows_)
    if (w.start > offset && w.start < next) next = w.start;
  return next;
}

void RemoteFile::will_read(const std::vector<ByteRange>& units) const {
  std::lock_guard lock(mutex_);
  const size_t base = units_.size();
  std::vector<ByteRange> mine;  // this call's units below the cached tail
  for (const auto& u : units) {
    if (u.length == 0 || u.offset >= tail_start_) continue;        // the cached tail needs no window
    if (units_.size() > base) units_.back().next = order_.size();  // announced in order: the next unit
    order_.push_back(u);
    units_.push_back(Unit{u, SIZE_MAX});
    mine.push_back(ByteRange{u.offset, std::min(u.end(), tail_start_) - u.offset});
  }
  std::stable_sort(units_.begin(), units_.end(),
                   [](const Unit& a, const Unit& b) { return a.range.offset < b.range.offset; });
  if (read_ahead_.ahead_bytes == 0 || read_ahead_.bytes == 0 || mine.empty()) return;
  // Fetch them now: neighbours closer than merge_gap share a GET, no GET is longer than
  // read_ahead_.bytes, and the budget (bytes and windows) bounds the memory. Units up to a
  // request go first, their GETs apart from the cells of larger units: a small page merged
  // into a large page's first cell waited for all of its 16 MiB (the id column of the vector
  // table, ~350 ms behind the proxy, holding up the scan's first batch).
  std::sort(mine.begin(), mine.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> merged[2];  // [0]: of units up to a request, [1]: of larger ones (cut into cells)
  for (const auto& u : mine) {
    auto& list = merged[u.length > read_ahead_.bytes];
    if (!list.empty() && u.offset <= list.back().end() + read_ahead_.merge_gap) {
      list.back().length = std::max(list.back().end(), u.end()) - list.back().offset;
    } else {
      list.push_back(u);
    }
  }
  const size_t max_pieces = std::max<size_t>(1, read_ahead_.max_windows / 2);
  uint64_t budget = read_ahead_.ahead_bytes;
  size_t started = 0;
  for (const auto& list : merged)
    for (const auto& m : list) {
      for (uint64_t at = m.offset; at < m.end();) {
        // A range longer than a request is cut on the grid read_hole's windows use (multiples of
        // read_ahead_.bytes), into cells like read_hole's; a shorter one is one piece wherever it lies.
        const bool cells = m.length > read_ahead_.bytes;
        const uint64_t stop = cells ? std::min(m.end(), (at / read_ahead_.bytes + 1) * read_ahead_.bytes) : m.end();
        if (stop - at > budget || started == max_pieces) return;
        if (!window_reaching_furthest(at)) {
          prefetch_range(at, stop, cells);
          budget -= stop - at;
          ++started;
        }
        at = stop;
      }
    }
}

void RemoteFile::add_window(uint64_t start, uint64_t stop, std::shared_future<Buffer> data,
                            std::shared_ptr<std::atomic<uint64_t>> copied, std::shared_ptr<Arrival> arrival) const {
  if (windows_.size() >= std::max<size_t>(1, read_ahead_.max_windows)) {
    auto lru = std::min_element(windows_.begin(), windows_.end(),
                                [](const Window& a, const Window& b) { return a.used < b.used; });
    windows_.erase(lru);  // readers of it keep its data alive
  }
  windows_.push_back(Window{start, stop, std::move(data), ++clock_, false, std::move(copied), std::move(arrival)});
}

void RemoteFile::fetch_ahead_of(uint64_t offset) const {
  std::lock_guard lock(mutex_);
  const uint64_t until = offset + kAheadOfReads * read_ahead_.ahead_bytes;
  const uint64_t from = std::max(offset, ahead_until_);
  if (from >= until) return;
  // The units from the last one starting at or before `from`.
  auto it = std::upper_bound(units_.begin(), units_.end(), from,
                             [](uint64_t o, const Unit& u) { return o < u.range.offset; });
  if (it != units_.begin()) --it;
  ahead_until_ = prefetch_following(static_cast<size_t>(it - units_.begin()), from, until);
}

uint64_t RemoteFile::prefetch_following(size_t i, uint64_t from, uint64_t until) const {
  const uint64_t cell = read_ahead_.bytes;
  for (; i < units_.size() && from < until; ++i) {
    const ByteRange& u = units_[i].range;
    const uint64_t u_end = std::min(u.end(), tail_start_);
    if (u_end <= std::max(from, u.offset)) continue;
    // Units under kSmallUnit that fit one request are left to read_hole (which fetches a
    // column's next pages as it reads): windows of many small pages fetched this far ahead
    // would push each other out before their reads come (the text table: 57 -> 75 requests).
    const uint64_t unit_bytes = u_end - u.offset;
    const bool large = unit_bytes > cell;  // by the cells of read_hole's grid; else whole
    if (!large && unit_bytes < kSmallUnit) continue;
    for (uint64_t at = large ? std::max(u.offset, from / cell * cell) : u.offset; at < u_end;) {
      if (at >= until) return at;
      const uint64_t cell_end = (at / cell + 1) * cell;
      const uint64_t stop = large ? std::min(u_end, cell_end) : u_end;
      if (!window_reaching_furthest(at)) {
        // Only while the windows have room: windows fetched ahead must not push out the ones
        // other columns' reads still need.
        if (unread_windows() + 1 >= read_ahead_.max_windows / 2) return at;
        uint64_t unread = 0;
        const uint64_t fetch_stop = large && stop == u_end ? share_cell_end(i, u_end, cell_end, unread) : stop;
        prefetch_range(at, fetch_stop, large, unread);
      }
      at = stop;
    }
    from = std::max(from, u_end);
  }
  return std::max(from, until);
}

uint64_t RemoteFile::share_cell_end(size_t i, uint64_t u_end, uint64_t cell_end, uint64_t& unread) const {
  // The scan of the 153 MB vector column: its two pages, with the other column's 103 KB page
  // between them, both end or start inside the same 16 MiB cell, which one GET now fetches
  // instead of two (14 requests, Lance 15).
  uint64_t stop = u_end;
  const uint64_t limit = std::min(cell_end, tail_start_);
  for (size_t k = i + 1; k < units_.size(); ++k) {
    const ByteRange& next = units_[k].range;
    if (next.offset >= limit || next.offset > stop + read_ahead_.merge_gap || window_reaching_furthest(next.offset))
      break;
    // A unit of at most one request that runs past the cell is fetched whole on its own (here
    // ahead, or by read_hole): cut at the cell, its rest would be fetched again, whole, when
    // a read reaches it. A larger one goes on in the grid's next cells.
    const uint64_t next_end = std::min(next.end(), tail_start_);
    if (next_end > limit && next_end - next.offset <= read_ahead_.bytes) break;
    if (next.offset > stop) unread += next.offset - stop;
    stop = std::max(stop, std::min(next_end, limit));
  }
  return stop;
}

void RemoteFile::prefetch_unit(size_t i) const {
  const ByteRange u = order_.at(i);
  const uint64_t start = u.offset, stop = std::min(u.end(), tail_start_);
  if (stop <= start || stop - start > read_ahead_.bytes) return;
  // Already in (or on the way into) windows, perhaps several (will_read's merged pieces)?
  for (uint64_t at = start; at < stop;) {
    const Window* w = window_reaching_furthest(at);
    if (!w) return prefetch_range(start, stop);
    at = w->end;
  }
}

size_t RemoteFile::unread_windows() const {
  return static_cast<size_t>(std::count_if(windows_.begin(), windows_.end(), [](const Window& w) { return !w.read; }));
}

RemoteFile::Window* RemoteFile::window_reaching_furthest(uint64_t at) const {
  Window* best = nullptr;
  for (auto& w : windows_)
    if (w.start <= at && at < w.end && (!best || w.end > best->end)) best = &w;
  return best;
}

void RemoteFile::Arrival::received(uint64_t n) {
  {
    std::lock_guard lock(mutex);
    bytes = std::max(bytes, n);
  }
  changed.notify_all();
}

void RemoteFile::Arrival::end() {
  {
    std::lock_guard lock(mutex);
    ended = true;
  }
  changed.notify_all();
}

bool RemoteFile::Arrival::wait_for(uint64_t n) {
  std::unique_lock lock(mutex);
  changed.wait(lock, [&] { return bytes >= n || ended; });
  return bytes >= n;
}

void RemoteFile::prefetch_range(uint64_t start, uint64_t stop, bool cell, uint64_t unread) const {
  auto promise = std::make_shared<std::promise<Buffer>>();
  auto data = promise->get_future().share();
  auto arrival = std::make_shared<Arrival>();
  arrival->buffer = std::make_shared_for_overwrite<uint8_t[]>(stop - start);
  try {
    StopSignalsBlocked blocked;  // the fetching thread never takes SIGINT/SIGTERM
    std::thread([self = shared_from_this(), promise, arrival, start, stop] {
      run_thread_start_hook();
      try {
        self->fetch(start, stop, arrival->buffer.get(), {}, arrival.get());
        promise->set_value(arrival->buffer);
      } catch (...) {
        promise->set_exception(std::current_exception());
        std::lock_guard lock(self->mutex_);
        std::erase_if(self->windows_, [&](const Window& w) { return w.start == start && w.end == stop; });
      }
      arrival->end();
    }).detach();
  } catch (const std::system_error&) {
    return;  // no thread to be had: the range is fetched when a read gets there
  }
  add_window(start, stop, std::move(data), cell ? std::make_shared<std::atomic<uint64_t>>(unread) : nullptr,
             std::move(arrival));
}

void RemoteFile::read_extents(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents) const {
  check_corrupt(offset <= size_ && length <= size_ - offset, "read of [{}, +{}) passes the end of the file ({} bytes)",
                offset, length, size_);
  // What memory holds (the tail, windows) is copied; the rest is fetched, without the holes.
  // Windows still in flight are waited for after the rest has been fetched.
  std::vector<ReadExtent> rest, held;
  for (const auto& e : extents) {
    if (e.length == 0) continue;
    if (e.offset >= tail_start_) {
      std::memcpy(e.out, tail_data_ + (e.offset - tail_start_), e.length);
      continue;
    }
    if (read_ahead_.bytes > 0 && covered_until(e.offset, e.end()) == e.end())
      held.push_back(e);
    else
      rest.push_back(e);
  }
  fetch_extents(rest);
  for (const auto& e : held) {
    const uint64_t got = copy_from_windows(e.offset, e.end(), e.out);
    if (got < e.end()) read_at(got, e.end() - got, e.out + (got - e.offset));  // a window let go meanwhile
  }
}

void RemoteFile::fetch_extents(std::span<const ReadExtent> rest) const {
  if (rest.empty()) return;
  uint64_t lo = rest.front().offset, hi = 0;
  for (const auto& e : rest) hi = std::max(hi, e.end());
  if (rest.size() == 1) return read_at(rest[0].offset, rest[0].length, rest[0].out);
  // Sorted by offset already (a subsequence of `extents`); the tail's part of the last ones
  // was handled above only when wholly inside it.
  if (hi > tail_start_) {
    // The last extents reach into the cached tail: their parts there are copied, the rest
    // fetched as below, in one request (read_at for each would wait a round trip per extent).
    std::vector<ReadExtent> below;
    for (const auto& e : rest) {
      if (e.end() <= tail_start_) {
        below.push_back(e);
        continue;
      }
      const uint64_t from = std::max(e.offset, tail_start_);
      std::memcpy(e.out + (from - e.offset), tail_data_ + (from - tail_start_), e.end() - from);
      if (from > e.offset) below.push_back(ReadExtent{e.offset, from - e.offset, e.out});
    }
    return fetch_extents(below);
  }
  fetch(lo, hi, nullptr, rest);
}

void RemoteFile::fetch(uint64_t offset, uint64_t end, uint8_t* out, std::span<const ReadExtent> extents,
                       Arrival* arrival) const {
  HttpRequest req;
  if (arrival) req.on_received = [arrival](uint64_t n) { arrival->received(n); };
  req.url = url_;
  req.display = display_;
  req.range = fmt::format("{}-{}", offset, end - 1);
  req.expect = end - offset;
  req.out = out;
  req.extents = extents;
  req.extents_base = offset;
  HttpResponse resp = client_->perform(req);
  if (resp.status == 206) {
    if (resp.content_range && (resp.content_range->first != offset || resp.content_range->last != end - 1))
      throw_io("{}: asked for bytes {}-{}, got Content-Range {}-{}", display_, offset, end - 1,
               resp.content_range->first, resp.content_range->last);
    return;
  }
  if (resp.status == 200) {
    if (offset == 0 && end == size_) return;
    throw_io("{}: the server ignores Range requests (HTTP 200 for bytes {}-{})", display_, offset, end - 1);
  }
  client_->fail(req, resp);
}

}  // namespace lance::io
