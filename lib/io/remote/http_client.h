// HTTP requests over libcurl, with AWS SigV4 signing (or another service's authorization,
// HttpService), retries and time bounds: the transport of the S3, Azure Blob and plain-HTTP
// stores (io/remote/s3_store.h, io/remote/azure_store.h). Requests lease curl handles from a
// process-wide pool, so open connections are reused by whichever thread asks next.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "common/read_stats.h"
#include "io/coalesce.h"
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
  /// With `expect` and no `out`: the parts of the body to keep, as file offsets from
  /// `extents_base` (the range's first byte); the rest of the body is dropped as it arrives.
  std::span<const ReadExtent> extents;
  uint64_t extents_base = 0;
  uint64_t max_body = 64 << 20;  ///< bodies without `expect` longer than this are refused
  /// With `expect` and `out`: called on the transfer's thread after each part of the body has
  /// landed in `out`, with the bytes received so far (a retried attempt counts from 0 again
  /// and writes the same bytes over them).
  std::function<void(uint64_t)> on_received;
};

struct HttpResponse {
  long status = 0;
  Bytes body;  ///< without `expect`: the body; for errors: the error document
  std::optional<uint64_t> content_length;
  std::optional<ContentRange> content_range;
  std::string bucket_region;  ///< x-amz-bucket-region, when sent
  std::string ms_error_code;  ///< x-ms-error-code (Azure), when sent: the code of a body-less HEAD error
  /// S3 / Azure error document fields (`<Code>`, `<Message>`; Azure's x-ms-error-code when the
  /// body has none), when the body is one.
  std::string error_code() const;
  std::string error_message() const;
};

/// What a service other than S3 needs of the client (Azure Blob Storage: io/remote/azure_auth.h):
/// the headers that authorize each attempt, whether it serves suffix ranges, and the hint a
/// refused request's message gives.
class HttpService {
 public:
  virtual ~HttpService() = default;
  /// Appends the "Name: value" headers that authorize this attempt of `req` (called once per
  /// attempt, so a date header is fresh on every retry). `headers` already holds the request's
  /// other headers, "Range: bytes=…" among them.
  virtual void authorize(const HttpRequest& req, std::vector<std::string>& headers) const = 0;
  /// False when the service refuses `Range: bytes=-N` (Azure Blob Storage): the client then
  /// learns the size with a HEAD and asks for the absolute range instead.
  virtual bool suffix_ranges() const { return true; }
  /// What to check after HTTP 401/403 (credentials, their source), for the error message.
  virtual std::string access_denied_hint() const = 0;
  /// What to add to a 404's message ("" for nothing): a service that answers an anonymous
  /// request for a private container with 404 says so.
  virtual std::string not_found_hint() const { return ""; }
};

class HttpClient {
 public:
  /// `sign`: SigV4 with the options' credentials and region; else unsigned. `s3`: the target
  /// is an S3 API (error hints mention credentials), else a plain web server. `stats` (may be
  /// null) receives the network counters: http_requests (every attempt), http_bytes (response
  /// bodies), http_retries and network_wait_ns.
  HttpClient(const StorageOptions& options, bool sign, bool s3 = true, std::shared_ptr<ReadStats> stats = nullptr);
  /// A client of another service (Azure Blob Storage): `service` authorizes every attempt and
  /// names what to check after a refusal; otherwise as above (unsigned by SigV4).
  HttpClient(const StorageOptions& options, std::shared_ptr<const HttpService> service,
             std::shared_ptr<ReadStats> stats);

  /// Performs `req`, retrying timeouts, connection failures, short bodies, 5xx, 429 and
  /// SlowDown with capped exponential backoff and full jitter, within the retry budget.
  /// Returns the final response for any other status (callers judge 404, 403, ...).
  /// Throws Error(io) naming `req.display` when the retries are exhausted or the request
  /// cannot be made; Cancelled after SIGINT/SIGTERM (in-flight transfers are aborted).
  HttpResponse perform(const HttpRequest& req) const;

  /// Throws Error(io) describing a failed response (403, 404, wrong region, ...) for `what`.
  [[noreturn]] void fail(const HttpRequest& req, const HttpResponse& resp) const;

  /// The shortest time to first byte (connection set-up included) of this client's answered
  /// requests so far, in milliseconds: the store's round trip as this process sees it
  /// (listings and manifests come first). nullopt before any request was answered.
  std::optional<double> observed_latency_ms() const;

 private:
  /// After failed attempt `attempt` (0-based), `retrying` into the request: throws Error(io)
  /// when the retry budget (max_retries, retry_deadline) is spent, else logs and sleeps the
  /// capped exponential backoff with full jitter.
  void backoff(const HttpRequest& req, const std::string& problem, unsigned attempt,
               std::chrono::steady_clock::duration retrying,
               std::chrono::steady_clock::time_point retry_deadline) const;

  /// One request (perform's retry loop).
  HttpResponse perform_now(const HttpRequest& req) const;

  StorageOptions options_;
  std::shared_ptr<const HttpService> service_;
  bool sign_;
  bool s3_;
  std::shared_ptr<ReadStats> stats_;
  std::string sigv4_;                                            ///< "aws:amz:REGION:s3"
  mutable std::atomic<uint64_t> min_first_byte_us_{UINT64_MAX};  ///< observed_latency_ms, in µs
};

}  // namespace lance::io
