#include "read/staged_reads.h"

namespace lance::read {

struct DataRequest {
  std::vector<io::ByteRange> ranges;  ///< until submitted
  std::future<std::vector<Bytes>> future;
  bool done = false;
  std::vector<Bytes> parts;
  std::exception_ptr error;
};

/// The data requests of one batch of one field, submitted in order, at most `ahead` requests
/// beyond the one being decoded.
struct DataWindow {
  io::IoScheduler* io = nullptr;
  uint64_t priority = 0;
  size_t ahead = SIZE_MAX;
  std::mutex mu;
  std::vector<DataRequest> requests;
  size_t next = 0;  ///< the first request not submitted

  /// Submits the requests up to `taking` + `ahead` (call with mu held).
  void pump(size_t taking);
};

void DataWindow::pump(size_t taking) {
  const size_t last = ahead >= requests.size() ? requests.size() - 1 : std::min(requests.size() - 1, taking + ahead);
  while (next <= last) {
    auto& r = requests[next++];
    r.future = io->submit(std::move(r.ranges), priority);
  }
}

std::vector<Bytes> DataBytes::take() {
  std::vector<Bytes> out(ranges_.size());
  if (!window_) return out;
  std::vector<Bytes>* parts = nullptr;
  {
    DataWindow& w = *window_;
    std::lock_guard lock(w.mu);
    DataRequest& r = w.requests.at(request_);
    if (!r.done) {
      w.pump(request_);  // this one, and the next while this one is decoded
      try {
        r.parts = r.future.get();
      } catch (...) {
        r.error = std::current_exception();
      }
      r.done = true;
    }
    if (r.error) std::rethrow_exception(r.error);
    parts = &r.parts;
  }
  // Each part belongs to one need, so the needs of a request take theirs without a lock.
  size_t k = first_;
  for (size_t i = 0; i < ranges_.size(); ++i)
    if (ranges_[i].length > 0) {
      check_internal(k < parts->size(), "data request answered {} parts, part {} wanted", parts->size(), k);
      out[i] = std::move((*parts)[k++]);
    }
  return out;
}

void Deferred::set(Build build) {
  std::lock_guard lock(mu_);
  build_ = std::move(build);
}

ArrayPtr Deferred::get() {
  std::lock_guard lock(mu_);
  if (!value_) {
    check_internal(static_cast<bool>(build_), "a deferred array was never planned");
    value_ = build_();
    build_ = nullptr;  // frees what the builder held (its bytes)
  }
  return value_;
}

void StagedReads::now(std::vector<io::ByteRange> ranges, Then then) {
  bool any = false;
  for (const auto& r : ranges) any = any || r.length > 0;
  if (!any) {
    then(std::vector<Bytes>(ranges.size()));
    return;
  }
  queued_.push_back({std::move(ranges), std::move(then)});
}

std::shared_ptr<DataBytes> StagedReads::later(std::vector<io::ByteRange> ranges) {
  auto d = std::make_shared<DataBytes>();
  d->ranges_ = std::move(ranges);
  data_.push_back(d);
  return d;
}

std::vector<io::ByteRange> StagedReads::take_round(std::vector<Need>& asked) {
  asked = std::move(queued_);
  queued_.clear();
  std::vector<io::ByteRange> ranges;
  for (const auto& n : asked)
    for (const auto& r : n.ranges)
      if (r.length > 0) ranges.push_back(r);
  return ranges;
}

std::vector<io::ByteRange> StagedReads::answer(std::vector<Need>& asked, std::vector<Bytes>&& bytes) {
  size_t next = 0;
  for (auto& n : asked) {
    std::vector<Bytes> mine(n.ranges.size());
    for (size_t i = 0; i < n.ranges.size(); ++i) {
      if (n.ranges[i].length == 0) continue;
      check_internal(next < bytes.size(), "metadata round answered {} parts, more wanted", bytes.size());
      mine[i] = std::move(bytes[next++]);
    }
    n.then(std::move(mine));  // may queue the next round's needs
  }
  return take_round(asked);
}

void StagedReads::add_to(MetadataRounds& rounds, std::function<std::string()> label) {
  auto asked = std::make_shared<std::vector<Need>>();
  std::vector<io::ByteRange> first = take_round(*asked);
  if (first.empty()) return;
  rounds.add(
      std::move(first), [this, asked](std::vector<Bytes>&& bytes) { return answer(*asked, std::move(bytes)); },
      std::move(label));
}

void StagedReads::submit(io::IoScheduler& io, uint64_t budget, uint64_t priority) {
  check_internal(queued_.empty(), "data submitted with {} metadata needs unanswered", queued_.size());
  std::vector<std::vector<io::ByteRange>> sent;  // per need: its non-empty ranges
  sent.reserve(data_.size());
  for (const auto& d : data_) {
    sent.emplace_back();
    for (const auto& r : d->ranges_)
      if (r.length > 0) sent.back().push_back(r);
  }
  // From a local file, requests of at most kLocalRequestBytes: a 2.0 page is read whole, and
  // its bytes wait in memory until decoded, so smaller requests keep less of them at once.
  const bool remote = io.options().remote;
  BatchPlan plan = plan_page_batches(sent, remote ? budget : std::min(budget, kLocalRequestBytes));
  auto window = std::make_shared<DataWindow>();
  window->io = &io;
  window->priority = priority;
  // A remote file: everything now (round trips overlap). A local one: one request ahead of
  // decoding, so a batch of many large pages (2.0 pages are read whole) does not hold them
  // all at once.
  window->ahead = remote ? SIZE_MAX : 1;
  window->requests.resize(plan.requests.size());
  for (size_t i = 0; i < plan.requests.size(); ++i) {
    DataRequest& req = window->requests[i];
    req.ranges = std::move(plan.requests[i]);
  }
  if (!window->requests.empty()) {
    std::lock_guard lock(window->mu);
    window->pump(0);
  }
  for (size_t i = 0; i < data_.size(); ++i) {
    const BatchSlot& slot = plan.pages[i];
    if (slot.num_parts == 0) continue;
    data_[i]->window_ = window;
    data_[i]->request_ = slot.request;
    data_[i]->first_ = slot.first_part;
  }
  data_.clear();
}

}  // namespace lance::read
