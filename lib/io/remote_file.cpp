#include "io/remote_file.h"

#include <algorithm>
#include <cstring>
#include <future>
#include <system_error>
#include <thread>

#include "common/cancel.h"

namespace lance::io {

std::shared_ptr<RemoteFile> RemoteFile::open(std::shared_ptr<const HttpClient> client, std::string url, std::string display,
                                             uint64_t tail_bytes, ReadAhead read_ahead) {
  auto f = std::shared_ptr<RemoteFile>(new RemoteFile());
  f->read_ahead_ = read_ahead;
  f->client_ = std::move(client);
  f->url_ = std::move(url);
  f->display_ = std::move(display);
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
    return f;
  }
  if (resp.status == 206) {
    if (!resp.content_range) throw_io("{}: HTTP 206 without a Content-Range", f->display_);
    const ContentRange& cr = *resp.content_range;
    if (cr.last + 1 != cr.total || cr.last - cr.first + 1 != resp.body.size())
      throw_io("{}: Content-Range {}-{}/{} does not describe the file's tail of {} bytes", f->display_, cr.first, cr.last,
               cr.total, resp.body.size());
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
  return f;
}

std::shared_ptr<RemoteFile> RemoteFile::open_whole(std::shared_ptr<const HttpClient> client, std::string url,
                                                   std::string display, uint64_t size, uint64_t part, ReadAhead read_ahead) {
  part = std::max<uint64_t>(part, 64 * 1024);
  if (size <= part) {
    auto f = open(std::move(client), std::move(url), std::move(display), std::max<uint64_t>(size, 1), read_ahead);
    return f;
  }
  const uint64_t pieces = (size + part - 1) / part;
  const uint64_t head = (pieces - 1) * part;  // bytes [0, head) in pieces of `part`, the rest as the tail
  auto f = std::shared_ptr<RemoteFile>(new RemoteFile());
  f->client_ = client;
  f->url_ = url;
  f->display_ = display;
  f->size_ = size;
  f->read_ahead_ = read_ahead;
  Bytes whole(size);
  std::vector<std::future<void>> running;
  {
    StopSignalsBlocked blocked;  // the fetching threads never take SIGINT/SIGTERM
    for (uint64_t i = 0; i + 1 < pieces; ++i)
      running.push_back(std::async(std::launch::async, [&f, &whole, i, part] {
        f->fetch(i * part, (i + 1) * part, whole.data() + i * part);
      }));
  }
  std::shared_ptr<RemoteFile> tail;
  std::exception_ptr error;
  try {
    tail = open(client, url, display, size - head, read_ahead);
  } catch (...) {
    error = std::current_exception();
  }
  for (auto& r : running) {
    try {
      r.get();
    } catch (...) {
      if (!error) error = std::current_exception();
    }
  }
  if (tail && tail->size() != size) return tail;  // the manifest's size was wrong: a plain open
  if (error) std::rethrow_exception(error);
  std::memcpy(whole.data() + head, tail->tail_.data(), size - head);
  f->tail_ = std::move(whole);
  f->tail_start_ = 0;
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
    std::memcpy(out + (from - offset), tail_.data() + (from - tail_start_), end - from);
    if (from == offset) return;
    end = from;
  }
  if (read_ahead_.bytes == 0) return fetch(offset, end, out);
  // A window holding the range, or a new one when the read lies inside an announced unit.
  std::shared_future<std::shared_ptr<const Bytes>> data;
  std::promise<std::shared_ptr<const Bytes>> promise;
  uint64_t start = 0, stop = 0;
  bool owner = false;
  {
    std::lock_guard lock(mutex_);
    for (auto& w : windows_) {
      if (w.start <= offset && end <= w.end) {
        w.used = ++clock_;
        data = w.data;
        start = w.start;
        break;
      }
    }
    if (!data.valid()) {
      // The last unit starting at or before `offset`.
      auto it = std::upper_bound(units_.begin(), units_.end(), offset,
                                 [](uint64_t o, const Unit& u) { return o < u.range.offset; });
      if (it != units_.begin()) {
        const ByteRange& u = std::prev(it)->range;
        const size_t next = std::prev(it)->next;
        const uint64_t u_end = std::min(u.end(), tail_start_);
        // Worth a window when the read is a strict part of the unit (a batch of a page), or
        // all of a small one (batches of a one-chunk page read it again and again); a large
        // unit read whole (a full-zip page) is read once and needs no copy.
        constexpr uint64_t kSmallUnit = 1 << 20;
        if (end <= u_end && (end - offset < u_end - u.offset || u_end - u.offset <= kSmallUnit)) {
          start = u_end - u.offset <= read_ahead_.bytes ? u.offset : offset;
          stop = std::min(u_end, start + read_ahead_.bytes);
          if (end <= stop && (stop - start > end - offset || end - offset <= kSmallUnit)) {  // else the window is the read
            data = promise.get_future().share();
            owner = true;
            add_window(start, stop, data);
            // The column's next page: its buffers are the next units announced.
            if (next != SIZE_MAX) prefetch_unit(next);
            if (next != SIZE_MAX && next + 1 < order_.size()) prefetch_unit(next + 1);
          }
        }
      }
    }
  }
  if (!data.valid()) return fetch(offset, end, out);  // not inside an announced unit
  if (owner) {
    try {
      auto buf = std::make_shared<Bytes>(stop - start);
      fetch(start, stop, buf->data());
      promise.set_value(std::move(buf));
    } catch (...) {
      promise.set_exception(std::current_exception());
      std::lock_guard lock(mutex_);
      std::erase_if(windows_, [&](const Window& w) { return w.start == start && w.end == stop; });
    }
  }
  const std::shared_ptr<const Bytes>& bytes = data.get();  // rethrows the window's failure
  std::memcpy(out, bytes->data() + (offset - start), end - offset);
}

void RemoteFile::will_read(const std::vector<ByteRange>& units) const {
  std::lock_guard lock(mutex_);
  const size_t base = units_.size();
  for (const auto& u : units) {
    if (u.length == 0 || u.offset >= tail_start_) continue;  // the cached tail needs no window
    if (units_.size() > base) units_.back().next = order_.size();  // announced in order: the next unit
    order_.push_back(u);
    units_.push_back(Unit{u, SIZE_MAX});
  }
  std::stable_sort(units_.begin(), units_.end(), [](const Unit& a, const Unit& b) { return a.range.offset < b.range.offset; });
}

void RemoteFile::add_window(uint64_t start, uint64_t stop, std::shared_future<std::shared_ptr<const Bytes>> data) const {
  if (windows_.size() >= std::max<size_t>(1, read_ahead_.max_windows)) {
    auto lru = std::min_element(windows_.begin(), windows_.end(), [](const Window& a, const Window& b) { return a.used < b.used; });
    windows_.erase(lru);  // readers of it keep its data alive
  }
  windows_.push_back(Window{start, stop, std::move(data), ++clock_});
}

void RemoteFile::prefetch_unit(size_t i) const {
  const ByteRange u = order_.at(i);
  const uint64_t start = u.offset, stop = std::min(u.end(), tail_start_);
  if (stop <= start || stop - start > read_ahead_.bytes) return;
  if (std::any_of(windows_.begin(), windows_.end(), [&](const Window& w) { return w.start <= start && stop <= w.end; })) return;
  auto promise = std::make_shared<std::promise<std::shared_ptr<const Bytes>>>();
  auto data = promise->get_future().share();
  try {
    StopSignalsBlocked blocked;  // the fetching thread never takes SIGINT/SIGTERM
    std::thread([self = shared_from_this(), promise, start, stop] {
      try {
        auto buf = std::make_shared<Bytes>(stop - start);
        self->fetch(start, stop, buf->data());
        promise->set_value(std::move(buf));
      } catch (...) {
        promise->set_exception(std::current_exception());
        std::lock_guard lock(self->mutex_);
        std::erase_if(self->windows_, [&](const Window& w) { return w.start == start && w.end == stop; });
      }
    }).detach();
  } catch (const std::system_error&) {
    return;  // no thread to be had: the unit is fetched when a read gets there
  }
  add_window(start, stop, std::move(data));
}

void RemoteFile::fetch(uint64_t offset, uint64_t end, uint8_t* out) const {
  HttpRequest req;
  req.url = url_;
  req.display = display_;
  req.range = fmt::format("{}-{}", offset, end - 1);
  req.expect = end - offset;
  req.out = out;
  HttpResponse resp = client_->perform(req);
  if (resp.status == 206) {
    if (resp.content_range && (resp.content_range->first != offset || resp.content_range->last != end - 1))
      throw_io("{}: asked for bytes {}-{}, got Content-Range {}-{}", display_, offset, end - 1, resp.content_range->first,
               resp.content_range->last);
    return;
  }
  if (resp.status == 200) {
    if (offset == 0 && end == size_) return;
    throw_io("{}: the server ignores Range requests (HTTP 200 for bytes {}-{})", display_, offset, end - 1);
  }
  client_->fail(req, resp);
}

}  // namespace lance::io
