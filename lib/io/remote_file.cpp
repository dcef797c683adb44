#include "io/remote_file.h"

#include <cstring>

namespace lance::io {

std::shared_ptr<RemoteFile> RemoteFile::open(std::shared_ptr<const HttpClient> client, std::string url, std::string display,
                                             uint64_t tail_bytes) {
  auto f = std::shared_ptr<RemoteFile>(new RemoteFile());
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
