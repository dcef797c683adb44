#include "common/thread_start.h"

#include <atomic>

namespace lance {

namespace {

std::atomic<ThreadStartHook> g_hook{nullptr};
thread_local bool t_started = false;

}  // namespace

void set_thread_start_hook(ThreadStartHook hook) { g_hook.store(hook); }

void run_thread_start_hook() {
  if (t_started) return;
  t_started = true;
  if (ThreadStartHook hook = g_hook.load()) hook();
}

}  // namespace lance
