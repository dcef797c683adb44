// A process-wide hook run on each thread the library starts before that thread's first piece
// of work: the CPU pool's threads (common/cpu_pool.h), the I/O pool's (io/scheduler.cpp) and
// a remote file's read-ahead threads (io/remote/remote_file.cpp). The application's place for
// per-thread setup; lance-cli advises the thread's malloc heap for huge pages there
// (app/malloc_tuning.h).
#pragma once

namespace lance {

using ThreadStartHook = void (*)();

/// Sets the hook (nullptr: none). Call before the library starts any thread: threads that
/// already ran it do not run it again.
void set_thread_start_hook(ThreadStartHook hook);

/// Runs the hook on the calling thread the first time it is called there; later calls on
/// the same thread do nothing. The hook must not throw.
void run_thread_start_hook();

}  // namespace lance
