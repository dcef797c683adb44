#include "read/scan_pipeline.h"

#include <algorithm>
#include <system_error>
#include <thread>

#include "common/cancel.h"

namespace lance::read {

size_t default_scan_depth() { return std::max<size_t>(2, pool_threads()); }

ScanPipeline::ScanPipeline(DecodeMode mode, size_t depth, bool chain_threads)
    : mode_(mode), depth_(depth == 0 ? default_scan_depth() : depth), chain_threads_(chain_threads) {}

ScanPipeline::~ScanPipeline() {
  std::unique_lock lock(mu_);
  cancelled_ = true;
  cv_.wait(lock, [&] { return running_.empty(); });
}

size_t ScanPipeline::size() const {
  std::lock_guard lock(mu_);
  return slots_.size();
}

void ScanPipeline::add(uint64_t chain, Start start) {
  auto s = std::make_shared<Slot>();
  s->chain = chain;
  s->start = std::move(start);
  std::lock_guard lock(mu_);
  slots_.push_back(std::move(s));
  if (mode_ != DecodeMode::pool || running_.count(chain)) return;  // its task picks it up
  running_.insert(chain);
  if (chain_threads_) {
    try {
      StopSignalsBlocked blocked;                                 // the chain's thread never takes SIGINT/SIGTERM
      std::thread([this, chain] { run_chain(chain); }).detach();  // the destructor waits for running_
      return;
    } catch (const std::system_error&) {
      // No thread to be had (a thread limit): the pool runs the chain.
    }
  }
  post_to_cpu_pool([this, chain] { run_chain(chain); });
}

void ScanPipeline::start_slot(Slot& s) {
  Finish f;
  std::exception_ptr err;
  try {
    f = s.start();
  } catch (...) {
    err = std::current_exception();
  }
  std::lock_guard lock(mu_);
  s.start = nullptr;
  s.finish = std::move(f);
  s.error = err;
  s.state = err ? Slot::done : Slot::started;
  if (err) cv_.notify_all();
}

void ScanPipeline::run_slot(const std::shared_ptr<Slot>& s, const std::shared_ptr<Slot>& ahead) {
  if (s->state == Slot::queued) start_slot(*s);
  if (ahead && ahead->state == Slot::queued) start_slot(*ahead);
  if (s->state != Slot::started) return;  // its start failed
  RecordBatch result;
  std::exception_ptr err;
  try {
    result = s->finish();
  } catch (...) {
    err = std::current_exception();
  }
  Finish drop;  // the batch's pending reads, released outside the lock
  std::lock_guard lock(mu_);
  drop = std::move(s->finish);
  s->result = std::move(result);
  s->error = err;
  s->state = Slot::done;
  cv_.notify_all();
}

void ScanPipeline::run_chain(uint64_t chain) {
  for (;;) {
    std::shared_ptr<Slot> s, ahead;
    {
      std::lock_guard lock(mu_);
      auto it = cancelled_ ? slots_.end() : std::find_if(slots_.begin(), slots_.end(), [&](const auto& x) {
        return x->chain == chain && x->state != Slot::done;
      });
      if (it == slots_.end()) {
        running_.erase(chain);
        cv_.notify_all();
        return;
      }
      s = *it;
      auto nx = std::find_if(std::next(it), slots_.end(), [&](const auto& x) { return x->chain == chain; });
      if (nx != slots_.end() && (*nx)->state == Slot::queued) ahead = *nx;
    }
    run_slot(s, ahead);
  }
}

RecordBatch ScanPipeline::next() {
  std::shared_ptr<Slot> s;
  if (mode_ != DecodeMode::pool) {
    std::shared_ptr<Slot> ahead;
    {
      std::lock_guard lock(mu_);
      check_internal(!slots_.empty(), "scan pipeline: next() with no batch");
      s = slots_.front();
      if (slots_.size() > 1 && slots_[1]->chain == s->chain) ahead = slots_[1];
    }
    run_slot(s, ahead);
  }
  {
    std::unique_lock lock(mu_);
    check_internal(!slots_.empty(), "scan pipeline: next() with no batch");
    s = slots_.front();
    cv_.wait(lock, [&] { return s->state == Slot::done; });
    slots_.pop_front();
  }
  if (s->error) std::rethrow_exception(s->error);
  return std::move(s->result);
}

}  // namespace lance::read
