// Process-wide counters of network I/O (HTTP requests to S3 or web servers), for --stats.
#pragma once

#include <atomic>
#include <cstdint>

namespace lance::io {

struct NetStats {
  std::atomic<uint64_t> requests{0};  ///< HTTP requests sent (attempts, retries included)
  std::atomic<uint64_t> bytes{0};     ///< response body bytes received
  std::atomic<uint64_t> retries{0};   ///< attempts repeated after a retryable failure
  std::atomic<uint64_t> wait_ns{0};   ///< time spent in requests and backoff, summed over threads

  static NetStats& global();
};

}  // namespace lance::io
