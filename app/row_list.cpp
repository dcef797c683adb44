#include "app/row_list.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "common/cancel.h"
#include "common/error.h"

namespace lance::app {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

/// Ranges of more rows than this are refused (no table has them; the count stays exact).
constexpr uint64_t kMaxRangeRows = uint64_t{1} << 62;

}  // namespace

void RowListParser::fail(const std::string& what) const {
  if (is_file_)
    throw_usage("{}: line {}: {} (expected row numbers and ranges, e.g. 0,17,100-199)", source_, line_, what);
  throw_usage("{} in {} (expected e.g. 0,17,100-199)", what, source_);
}

uint64_t RowListParser::number(std::string_view digits, std::string_view item) const {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size())
    fail(fmt::format("bad row number '{}'", item));
  return v;
}

void RowListParser::item(std::string_view text, std::deque<RowSpan>& out) {
  const std::string_view item = trim(text);
  if (item.empty()) return;
  const size_t dash = item.find('-');
  if (dash == std::string_view::npos) {
    const uint64_t r = number(item, item);
    out.push_back({r, r});
    return;
  }
  if (dash == 0) fail(fmt::format("bad row number '{}' (row numbers are not negative)", item));
  const uint64_t a = number(trim(item.substr(0, dash)), item), b = number(trim(item.substr(dash + 1)), item);
  if (b < a) fail(fmt::format("bad row range '{}' (end before start)", item));
  if (b - a >= kMaxRangeRows) fail(fmt::format("row range '{}' is too large", item));
  out.push_back({a, b});
}

void RowListParser::feed(std::string_view chunk, std::deque<RowSpan>& out) {
  size_t pos = 0;
  while (pos < chunk.size()) {
    const size_t sep = chunk.find_first_of(",\n", pos);
    if (sep == std::string_view::npos) {
      partial_.append(chunk.substr(pos));
      // An item cannot be longer than two 20-digit numbers and some blanks; a longer one is
      // bad input, reported without holding an endless line in memory.
      if (partial_.size() > 256)
        fail(fmt::format("bad row number '{}…'", trim(std::string_view(partial_).substr(0, 40))));
      return;
    }
    if (partial_.empty()) {
      item(chunk.substr(pos, sep - pos), out);
    } else {
      partial_.append(chunk.substr(pos, sep - pos));
      item(partial_, out);
      partial_.clear();
    }
    if (chunk[sep] == '\n') ++line_;
    pos = sep + 1;
  }
}

void RowListParser::finish(std::deque<RowSpan>& out) {
  item(partial_, out);
  partial_.clear();
}

RowList RowList::from_text(const std::string& text) {
  RowList list("--rows", false, -1, false);
  list.parser_.feed(text, list.pending_);
  list.parser_.finish(list.pending_);
  list.eof_ = true;
  for (const RowSpan& s : list.pending_) list.pending_rows_ += s.count();
  return list;
}

RowList RowList::from_file(const std::string& path) {
  int fd = 0;
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw_io("{}: cannot open the rows file: {}", path, std::strerror(errno));
  }
  return RowList(path == "-" ? "standard input" : path, true, fd, path != "-");
}

RowList::RowList(RowList&& o) noexcept
    : parser_(std::move(o.parser_)),
      fd_(o.fd_),
      owns_fd_(o.owns_fd_),
      eof_(o.eof_),
      pending_(std::move(o.pending_)),
      pending_rows_(o.pending_rows_) {
  o.fd_ = -1;
  o.owns_fd_ = false;
}

RowList& RowList::operator=(RowList&& o) noexcept {
  if (this != &o) {
    if (owns_fd_) ::close(fd_);
    parser_ = std::move(o.parser_);
    fd_ = o.fd_;
    owns_fd_ = o.owns_fd_;
    eof_ = o.eof_;
    pending_ = std::move(o.pending_);
    pending_rows_ = o.pending_rows_;
    o.fd_ = -1;
    o.owns_fd_ = false;
  }
  return *this;
}

RowList::~RowList() {
  if (owns_fd_) ::close(fd_);
}

void RowList::fill(uint64_t want) {
  char buf[64 * 1024];
  while (!eof_ && pending_rows_ < want) {
    check_cancelled();
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_io("{}: cannot read the rows file: {}", parser_.source(), std::strerror(errno));
    }
    const size_t before = pending_.size();
    if (n == 0) {
      parser_.finish(pending_);
      eof_ = true;
    } else {
      parser_.feed(std::string_view(buf, static_cast<size_t>(n)), pending_);
    }
    for (size_t i = before; i < pending_.size(); ++i) pending_rows_ += pending_[i].count();
  }
}

bool RowList::next(std::vector<uint64_t>& rows, uint64_t max_rows) {
  rows.clear();
  fill(max_rows);
  while (!pending_.empty() && rows.size() < max_rows) {
    check_cancelled();
    RowSpan& s = pending_.front();
    const uint64_t n = std::min<uint64_t>(s.count(), max_rows - rows.size());
    for (uint64_t i = 0; i < n; ++i) rows.push_back(s.first + i);
    pending_rows_ -= n;
    if (n == s.count())
      pending_.pop_front();
    else
      s.first += n;
  }
  return !rows.empty();
}

bool RowList::done() {
  fill(1);
  return pending_.empty();
}

std::optional<uint64_t> RowList::max_row() const {
  std::optional<uint64_t> m;
  for (const RowSpan& s : pending_) m = std::max(m.value_or(0), s.last);
  return m;
}

}  // namespace lance::app
