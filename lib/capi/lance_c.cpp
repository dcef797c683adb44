#include "capi/lance_c.h"

#include <new>
#include <string>
#include <vector>

#include "capi/c_export.h"
#include "common/error.h"
#include "common/exit_status.h"
#include "dataset/table_reader.h"

namespace {

thread_local std::string g_last_error;

/// Runs `fn`; returns 0, or the error kind with the message kept for lance_last_error().
template <typename Fn>
int capture_errors(Fn&& fn) {
  g_last_error.clear();
  try {
    fn();
    return 0;
  } catch (const lance::Error& e) {
    g_last_error = e.kind() == lance::ErrorKind::internal ? std::string("internal error: ") + e.what() : e.what();
    return lance::exit_status(e.kind());
  } catch (const std::bad_alloc&) {
    g_last_error = "out of memory";
  } catch (const std::exception& e) {
    g_last_error = e.what();
  }
  return lance::exit_status(lance::ErrorKind::io);
}

}  // namespace

extern "C" int lance_scan_stream(const char* path, const char* const* columns, int64_t offset, int64_t limit,
                                 int64_t batch_size, struct ArrowArrayStream* out) {
  return capture_errors([&] {
    using namespace lance;
    if (path == nullptr || out == nullptr) throw_usage("lance_scan_stream: path and out must not be NULL");
    if (offset < 0) throw_usage("offset must be ≥ 0 (got {})", offset);
    if (batch_size < 0) throw_usage("batch_size must be ≥ 0 (got {})", batch_size);
    std::vector<std::string> names;
    for (const char* const* c = columns; c && *c; ++c) names.emplace_back(*c);
    dataset::TableOptions options;
    options.columns = std::move(names);
    auto table = dataset::open_table(path, options);
    const uint64_t begin = static_cast<uint64_t>(offset);
    const uint64_t end = limit < 0 ? UINT64_MAX : begin + static_cast<uint64_t>(limit);
    capi::export_stream(capi::make_table_batch_source(std::move(table), begin, end, static_cast<uint64_t>(batch_size)),
                        out);
  });
}

extern "C" const char* lance_last_error(void) { return g_last_error.c_str(); }
