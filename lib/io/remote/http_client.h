// HTTP requests over libcurl, with AWS SigV4 signing, retries and time bounds: the transport
// of the S3 and plain-HTTP stores (io/remote/s3_store.h). Requests lease curl handles from a
// process-wide pool, so open connections are reused by whichever thread asks next.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "common/bytes.h"
#include "common/read_stats.h"
#include "io/remote/storage_options.h"

namespace lance::io {

/// `Content-Range: bytes FIRST-LAST/TOTAL`.
struct ContentRange {
  uint64_t first = 0, last = 0, total = 0;
};

struct HttpRequest {
  bool head = false;                 ///< HEAD instead of GET
  std::string url;                   ///< full URL, query already sorted and encoded for signing
  std::string display;               ///< how messages name the target (no query string, no secret)
  std::optional<std::string> range;  ///< Range header value without "bytes=", e.g. "0-99" or "-65536"
  /// Expected body length (Range GETs): the body lands in `out`; anything else is a short or long body.
  std::optional<uint64_t> expect;
  uint8_t* out = nullptr;
  uint64_t max_body = 64 << 20;  ///< bodies without `expect` longer than this are refused
};

struct HttpResponse {
  long status = 0;
  Bytes body;  ///< without `expect`: the body; for errors: the error document
  std::optional<uint64_t> content_length;
  std::optional<ContentRange> content_range;
  std::string bucket_region;  ///< x-amz-bucket-region, when sent
  /// S3 error document fields (`<Code>`, `<Message>`), when the body is one.
  std::string error_code() const;
  std::string error_message() const;
};

class HttpClient {
 public:
  /// `sign`: SigV4 with the options' credentials and region; else unsigned. `s3`: the target
  /// is an S3 API (error hints mention credentials), else a plain web server. `stats` (may be
  /// null) receives the network counters: http_requests (every attempt), http_bytes (response
  /// bodies), http_retries and network_wait_ns.
  HttpClient(const StorageOptions& options, bool sign, bool s3 = true, std::shared_ptr<ReadStats> stats = nullptr);

  /// Performs `req`, retrying timeouts, connection failures, short bodies, 5xx, 429 and
  /// SlowDown with capped exponential backoff and full jitter, within the retry budget.
  /// Returns the final response for any other status (callers judge 404, 403, ...).
  /// Throws Error(io) naming `req.display` when the retries are exhausted or the request
  /// cannot be made; Cancelled after SIGINT/SIGTERM (in-flight transfers are aborted).
  HttpResponse perform(const HttpRequest& req) const;

  /// Throws Error(io) describing a failed response (403, 404, wrong region, ...) for `what`.
  [[noreturn]] void fail(const HttpRequest& req, const HttpResponse& resp) const;

 private:
  /// After failed attempt `attempt` (0-based), `retrying` into the request: throws Error(io)
  /// when the retry budget (max_retries, retry_deadline) is spent, else logs and sleeps the
  /// capped exponential backoff with full jitter.
  void backoff(const HttpRequest& req, const std::string& problem, unsigned attempt,
               std::chrono::steady_clock::duration retrying,
               std::chrono::steady_clock::time_point retry_deadline) const;

  StorageOptions options_;
  bool sign_;
  bool s3_;
  std::shared_ptr<ReadStats> stats_;
  std::string sigv4_;  ///< "aws:amz:REGION:s3"
};

}  // namespace lance::io
