// Cancellation of a running command by a signal (SIGINT, SIGTERM, SIGHUP): the CLI's handler calls
// `request_cancel(sig)`; long loops and the I/O scheduler call `check_cancelled()`, which
// throws `Cancelled` so the stack unwinds (temporary output files are removed) and the
// CLI exits with 128 + the signal number.
#pragma once

#include <signal.h>

#include <atomic>
#include <exception>

namespace lance {

/// Thrown by `check_cancelled` once a cancel was requested. Not an `Error`: context is not
/// added to it and it is not reported as a failure of the file being read.
class Cancelled : public std::exception {
 public:
  explicit Cancelled(int signal) : signal_(signal) {}
  int signal() const noexcept { return signal_; }
  const char* what() const noexcept override { return "cancelled"; }

 private:
  int signal_;
};

namespace detail {
inline std::atomic<int> g_cancel_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");
}  // namespace detail

/// Async-signal-safe: records that the command should stop (`sig` > 0).
inline void request_cancel(int sig) noexcept { detail::g_cancel_signal.store(sig, std::memory_order_relaxed); }

/// The signal that requested cancellation, or 0.
inline int cancel_signal() noexcept { return detail::g_cancel_signal.load(std::memory_order_relaxed); }

/// Throws `Cancelled` when a cancel was requested.
inline void check_cancelled() {
  if (int s = cancel_signal()) throw Cancelled(s);
}

/// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread while alive. Create worker threads
/// under it: they inherit the mask, so the stop signals reach the main thread, where they
/// interrupt a blocked write (EINTR) rather than landing on a worker.
class StopSignalsBlocked {
 public:
  StopSignalsBlocked() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~StopSignalsBlocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  StopSignalsBlocked(const StopSignalsBlocked&) = delete;
  StopSignalsBlocked& operator=(const StopSignalsBlocked&) = delete;

 private:
  sigset_t old_;
};

}  // namespace lance
