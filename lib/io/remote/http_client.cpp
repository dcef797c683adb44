#include "io/remote/http_client.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include "common/cancel.h"
#include "common/read_stats.h"

namespace lance::io {

namespace {

using Clock = std::chrono::steady_clock;

void ensure_curl_global() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

/// DNS and TLS sessions shared by every handle of the process. (Not the connection cache:
/// libcurl documents sharing it between concurrent threads as unsafe.)
CURLSH* shared_state() {
  static std::mutex locks[CURL_LOCK_DATA_LAST];
  static CURLSH* share = [] {
    ensure_curl_global();
    CURLSH* s = curl_share_init();
    curl_share_setopt(
        s, CURLSHOPT_LOCKFUNC, +[](CURL*, curl_lock_data d, curl_lock_access, void*) { locks[d].lock(); });
    curl_share_setopt(
        s, CURLSHOPT_UNLOCKFUNC, +[](CURL*, curl_lock_data d, void*) { locks[d].unlock(); });
    curl_share_setopt(s, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(s, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    return s;
  }();
  return share;
}

/// A pool of easy handles: a request leases an idle handle (with its open connection) from
/// whichever thread used it last, so a new thread (the I/O pool's, a prefetch) reuses a warm
/// connection instead of opening its own. Handles are never freed (the pool lives as long
/// as the process).
class HandleLease {
 public:
  HandleLease() {
    {
      std::lock_guard lock(mutex());
      if (!idle().empty()) {
        h_ = idle().back();
        idle().pop_back();
      }
    }
    if (!h_) {
      ensure_curl_global();
      h_ = curl_easy_init();
      if (!h_) throw_io("cannot create an HTTP handle (curl_easy_init)");
    }
  }
  ~HandleLease() {
    std::lock_guard lock(mutex());
    idle().push_back(h_);
  }
  HandleLease(const HandleLease&) = delete;
  HandleLease& operator=(const HandleLease&) = delete;
  CURL* get() const { return h_; }

 private:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::vector<CURL*>& idle() {
    static auto* v = new std::vector<CURL*>();
    return *v;
  }
  CURL* h_ = nullptr;
};

/// The process start of network I/O, for overall_timeout.
Clock::time_point process_start() {
  static const Clock::time_point t = Clock::now();
  return t;
}

struct Transfer {
  const HttpRequest* req = nullptr;
  CURL* curl = nullptr;
  HttpResponse resp;
  uint64_t got = 0;          ///< body bytes received into `out`
  size_t extent_cursor = 0;  ///< copy_into_extents' cursor over req->extents
  bool overflow = false;     ///< more body than expected / allowed
  bool error_body = false;
  Clock::time_point deadline{};  ///< overall deadline (max = none)
  bool deadline_hit = false;
  ReadStats* stats = nullptr;  ///< counts the body bytes (http_bytes); null: not counted
};

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == '\n' || s.back() == ' ')) s.pop_back();
  size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  return s.substr(i);
}

bool iequals_prefix(const char* data, size_t n, std::string_view name) {
  if (n < name.size()) return false;
  for (size_t i = 0; i < name.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(data[i])) != name[i]) return false;
  return true;
}

size_t on_header(char* data, size_t size, size_t nitems, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * nitems;
  if (n >= 5 && std::memcmp(data, "HTTP/", 5) == 0) {  // a new response (after a 100 or redirect)
    t->resp.content_length.reset();
    t->resp.content_range.reset();
    t->resp.bucket_region.clear();
    t->resp.ms_error_code.clear();
    return n;
  }
  auto value = [&](std::string_view name) { return trim(std::string(data + name.size(), n - name.size())); };
  if (iequals_prefix(data, n, "content-length:")) {
    const std::string v = value("content-length:");
    char* end = nullptr;
    unsigned long long x = std::strtoull(v.c_str(), &end, 10);
    if (end && *end == '\0' && !v.empty()) t->resp.content_length = x;
  } else if (iequals_prefix(data, n, "content-range:")) {
    const std::string v = value("content-range:");
    ContentRange cr;
    unsigned long long a = 0, b = 0, total = 0;
    if (std::sscanf(v.c_str(), "bytes %llu-%llu/%llu", &a, &b, &total) == 3) {
      cr.first = a;
      cr.last = b;
      cr.total = total;
      t->resp.content_range = cr;
    }
  } else if (iequals_prefix(data, n, "x-amz-bucket-region:")) {
    t->resp.bucket_region = value("x-amz-bucket-region:");
  } else if (iequals_prefix(data, n, "x-ms-error-code:")) {
    t->resp.ms_error_code = value("x-ms-error-code:");
  }
  return n;
}

size_t on_body(char* data, size_t size, size_t nmemb, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * nmemb;
  long status = 0;
  curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &status);
  if (t->stats) t->stats->http_bytes += n;
  const HttpRequest& req = *t->req;
  if (status >= 200 && status < 300 && req.expect && (req.out || !req.extents.empty())) {
    if (t->got + n > *req.expect) {
      t->overflow = true;
      return 0;  // abort: more bytes than the range holds
    }
    if (req.out)
      std::memcpy(req.out + t->got, data, n);
    else
      copy_into_extents(req.extents, req.extents_base + t->got, reinterpret_cast<const uint8_t*>(data), n,
                        t->extent_cursor);
    t->got += n;
    if (req.out && req.on_received) req.on_received(t->got);
    return n;
  }
  const uint64_t cap = (status >= 200 && status < 300) ? req.max_body : 1 << 20;
  if (t->resp.body.size() + n > cap) {
    t->overflow = true;
    return 0;
  }
  // One allocation for a body of known length (no regrowth copies of a 1 MiB tail).
  if (t->resp.body.empty() && t->resp.content_length && *t->resp.content_length <= cap)
    t->resp.body.reserve(*t->resp.content_length);
  t->resp.body.insert(t->resp.body.end(), reinterpret_cast<uint8_t*>(data), reinterpret_cast<uint8_t*>(data) + n);
  t->got += n;
  return n;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  if (cancel_signal() != 0) return 1;
  if (t->deadline != Clock::time_point::max() && Clock::now() > t->deadline) {
    t->deadline_hit = true;
    return 1;
  }
  return 0;
}

std::string xml_field(const Bytes& body, std::string_view tag) {
  std::string_view s(reinterpret_cast<const char*>(body.data()), body.size());
  const std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  auto a = s.find(open);
  if (a == std::string_view::npos) return {};
  a += open.size();
  auto b = s.find(close, a);
  if (b == std::string_view::npos) return {};
  std::string v(s.substr(a, b - a));
  if (auto nl = v.find('\n'); nl != std::string::npos) v.resize(nl);  // Azure: "…\nRequestId:…\nTime:…"
  if (v.size() > 300) v = v.substr(0, 300) + "…";
  return v;
}

bool retryable_curl(CURLcode c) {
  switch (c) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_COULDNT_RESOLVE_HOST:
      return true;
    default:
      return false;
  }
}

bool retryable_status(long status, const HttpResponse& resp) {
  if (status >= 500 || status == 429) return true;
  if (status == 400) {
    const std::string code = resp.error_code();
    return code == "RequestTimeout" || code == "SlowDown" || code == "RequestTimeTooSkewed";
  }
  if (status == 403 && resp.error_code() == "RequestTimeTooSkewed") return true;
  return false;
}

/// Sleeps `ms`, waking every 10 ms to honour a stop signal.
void backoff_sleep(uint64_t ms) {
  const auto until = Clock::now() + std::chrono::milliseconds(ms);
  while (Clock::now() < until) {
    check_cancelled();
    std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(10), until - Clock::now()));
  }
}

uint64_t jitter(uint64_t max_ms) {
  thread_local std::minstd_rand rng(std::random_device{}());
  return max_ms == 0 ? 0 : std::uniform_int_distribution<uint64_t>(0, max_ms)(rng);
}

}  // namespace

std::string HttpResponse::error_code() const {
  std::string code = xml_field(body, "Code");
  return code.empty() ? ms_error_code : code;
}
std::string HttpResponse::error_message() const { return xml_field(body, "Message"); }

namespace {
/// Past kLongRetry of retrying one request, says so once per process at the default log
/// level (warn), so a server that never answers is not minutes of silence without -v.
constexpr auto kLongRetry = std::chrono::seconds(5);
void warn_long_retry(const std::string& display, const std::string& problem, Clock::duration retrying,
                     uint64_t retry_timeout_ms) {
  static std::atomic<bool> warned{false};
  if (retrying < kLongRetry || warned.exchange(true)) return;
  spdlog::warn(
      "{}: still retrying after {:.0f} s ({}); giving up after {:.0f} s (storage options client_retry_timeout, "
      "timeout; -v logs every retry)",
      display, std::chrono::duration<double>(retrying).count(), problem, retry_timeout_ms / 1000.0);
}

/// The request headers of one attempt (the strings outlive the list that points at them).
struct RequestHeaders {
  std::string token;
  curl_slist* list = nullptr;
  RequestHeaders() = default;
  RequestHeaders(const RequestHeaders&) = delete;
  RequestHeaders& operator=(const RequestHeaders&) = delete;
  ~RequestHeaders() { curl_slist_free_all(list); }
};

/// Sets every option of one attempt of `req` on the (reset) handle `h`: URL, Range and SigV4
/// headers (`sigv4`: CURLOPT_AWS_SIGV4's provider string, null = unsigned) or the headers of
/// `service` (null: none), time bounds, the callbacks writing into `t`, and redirects for
/// unsigned requests.
void setup_handle(CURL* h, const HttpRequest& req, const StorageOptions& o, const char* sigv4,
                  const HttpService* service, Transfer& t, RequestHeaders& headers, char* errbuf) {
  std::vector<std::string> lines;
  if (req.range) lines.push_back("Range: bytes=" + *req.range);
  if (service) service->authorize(req, lines);
  for (const auto& line : lines) headers.list = curl_slist_append(headers.list, line.c_str());
  if (sigv4) {
    headers.list = curl_slist_append(headers.list, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
    if (!o.session_token.empty()) {
      headers.token = "x-amz-security-token: " + o.session_token;
      headers.list = curl_slist_append(headers.list, headers.token.c_str());
    }
    curl_easy_setopt(h, CURLOPT_AWS_SIGV4, sigv4);
    curl_easy_setopt(h, CURLOPT_USERNAME, o.access_key_id.c_str());
    curl_easy_setopt(h, CURLOPT_PASSWORD, o.secret_access_key.c_str());
  }
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(h, CURLOPT_SHARE, shared_state());
  curl_easy_setopt(h, CURLOPT_URL, req.url.c_str());
  if (req.head) curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.list);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(o.connect_timeout_ms));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(o.request_timeout_ms));
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt(h, CURLOPT_USERAGENT, "lance-cli");
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  if (!sigv4 && !service) {  // web servers and presigned URLs often redirect; a signature would not survive one
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  }
}

/// Judges one finished attempt: nullopt when `t.resp` is the final response (any status the
/// caller judges), else what went wrong, to retry. Throws Error(io) naming `req.display` for
/// failures no retry can mend (a refused Range, an oversized body, a non-retryable curl error,
/// the overall deadline), Cancelled after a stop signal.
std::optional<std::string> retry_reason(CURLcode rc, long status, const Transfer& t, const HttpRequest& req,
                                        const char* errbuf, uint64_t overall_timeout_ms) {
  if (rc == CURLE_ABORTED_BY_CALLBACK && cancel_signal() != 0) throw Cancelled(cancel_signal());
  if (rc == CURLE_ABORTED_BY_CALLBACK && t.deadline_hit)
    throw_io("{}: overall network timeout ({} ms, storage option overall_timeout) reached", req.display,
             overall_timeout_ms);
  if (rc == CURLE_WRITE_ERROR && t.overflow && status == 200 && req.range)
    throw_io(
        "{}: the server answered a Range request with the whole file (HTTP 200, not 206 Partial Content); "
        "reading a Lance file needs a server that serves byte ranges",
        req.display);
  if (rc == CURLE_WRITE_ERROR && t.overflow) {
    if (status >= 200 && status < 300 && !req.expect)
      throw_io("{}: response larger than {} bytes", req.display, req.max_body);
    return "the server sent a longer body than requested";
  }
  if (rc != CURLE_OK) {
    std::string problem = fmt::format("{} (curl error {}{}{})", curl_easy_strerror(rc), static_cast<int>(rc),
                                      errbuf[0] ? ": " : "", errbuf);
    if (!retryable_curl(rc)) throw_io("{}: {}", req.display, problem);
    return problem;
  }
  if (retryable_status(status, t.resp)) {
    const std::string code = t.resp.error_code();
    return code.empty() ? fmt::format("HTTP {}", status) : fmt::format("HTTP {} {}", status, code);
  }
  if (status < 200 || status >= 300 || req.head) return std::nullopt;
  // Short bodies: the received length must match what the headers (and the request) promise.
  const uint64_t got = t.got;
  if (t.resp.content_length && got != *t.resp.content_length)
    return fmt::format("short body ({} of {} bytes)", got, *t.resp.content_length);
  if (t.resp.content_range && got != t.resp.content_range->last - t.resp.content_range->first + 1)
    return fmt::format("short body ({} bytes for Content-Range {}-{})", got, t.resp.content_range->first,
                       t.resp.content_range->last);
  // (With a Content-Range the body matches it: a range other than the one asked for is the
  // caller's to judge, e.g. a file shorter than a manifest says.)
  if (req.expect && (req.out || !req.extents.empty()) && got != *req.expect && status == 206 && !t.resp.content_range)
    return fmt::format("short body ({} of {} bytes)", got, *req.expect);
  return std::nullopt;
}

uint64_t nanos_since(Clock::time_point t0) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
}

}  // namespace

HttpClient::HttpClient(const StorageOptions& options, bool sign, bool s3, std::shared_ptr<ReadStats> stats)
    : options_(options), sign_(sign), s3_(s3), stats_(std::move(stats)) {
  process_start();
  const std::string region = options_.region.empty() ? "us-east-1" : options_.region;
  sigv4_ = "aws:amz:" + region + ":s3";
}

HttpClient::HttpClient(const StorageOptions& options, std::shared_ptr<const HttpService> service,
                       std::shared_ptr<ReadStats> stats)
    : options_(options), service_(std::move(service)), sign_(false), s3_(true), stats_(std::move(stats)) {
  process_start();
}

HttpResponse HttpClient::perform(const HttpRequest& req) const {
  if (!service_ || service_->suffix_ranges() || !req.range || req.range->empty() || (*req.range)[0] != '-')
    return perform_now(req);
  // The last N bytes from a service without suffix ranges: the size first, then bytes
  // [size - N, size). A HEAD that fails is the answer (404, 403: the caller judges it).
  HttpRequest head;
  head.head = true;
  head.url = req.url;
  head.display = req.display;
  HttpResponse h = perform_now(head);
  if (h.status != 200) return h;
  const uint64_t size = h.content_length.value_or(0);
  if (size == 0) {  // no suffix to return, as a server that has suffix ranges answers
    HttpResponse empty;
    empty.status = 416;
    return empty;
  }
  const uint64_t want = std::strtoull(req.range->c_str() + 1, nullptr, 10);
  HttpRequest ranged = req;
  ranged.range = fmt::format("{}-{}", size > want ? size - want : 0, size - 1);
  return perform_now(ranged);
}

HttpResponse HttpClient::perform_now(const HttpRequest& req) const {
  const auto first = Clock::now();
  const auto retry_deadline = first + std::chrono::milliseconds(options_.retry_timeout_ms);
  const auto overall = options_.overall_timeout_ms
                           ? process_start() + std::chrono::milliseconds(options_.overall_timeout_ms)
                           : Clock::time_point::max();
  for (unsigned attempt = 0;; ++attempt) {
    check_cancelled();
    if (Clock::now() > overall)
      throw_io("{}: overall network timeout ({} ms, storage option overall_timeout) reached", req.display,
               options_.overall_timeout_ms);
    HandleLease lease;
    CURL* h = lease.get();
    curl_easy_reset(h);
    Transfer t;
    t.req = &req;
    t.curl = h;
    t.deadline = overall;
    t.stats = stats_.get();
    RequestHeaders headers;
    char errbuf[CURL_ERROR_SIZE] = {0};
    setup_handle(h, req, options_, sign_ ? sigv4_.c_str() : nullptr, service_.get(), t, headers, errbuf);

    if (stats_) stats_->http_requests++;
    const auto t0 = Clock::now();
    const CURLcode rc = curl_easy_perform(h);
    if (stats_) stats_->network_wait_ns += nanos_since(t0);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    t.resp.status = status;
    if (curl_off_t first_byte_us = 0; rc == CURLE_OK &&
                                      curl_easy_getinfo(h, CURLINFO_STARTTRANSFER_TIME_T, &first_byte_us) == CURLE_OK &&
                                      first_byte_us > 0) {
      uint64_t seen = min_first_byte_us_.load(std::memory_order_relaxed);
      const auto now = static_cast<uint64_t>(first_byte_us);
      while (now < seen && !min_first_byte_us_.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
      }
    }
    if (spdlog::should_log(spdlog::level::debug)) {
      using ms = std::chrono::duration<double, std::milli>;
      spdlog::debug("http: {} {}{}{} -> {} ({} bytes), started at {:.1f} ms, took {:.1f} ms", req.head ? "HEAD" : "GET",
                    req.display, req.range ? " bytes=" : "", req.range.value_or(""), status, t.got,
                    ms(t0 - process_start()).count(), ms(Clock::now() - t0).count());
    }
    const std::optional<std::string> problem = retry_reason(rc, status, t, req, errbuf, options_.overall_timeout_ms);
    if (!problem) return std::move(t.resp);
    backoff(req, *problem, attempt, Clock::now() - first, retry_deadline);
  }
}

std::optional<double> HttpClient::observed_latency_ms() const {
  const uint64_t us = min_first_byte_us_.load(std::memory_order_relaxed);
  if (us == UINT64_MAX) return std::nullopt;
  return static_cast<double>(us) / 1000.0;
}

void HttpClient::backoff(const HttpRequest& req, const std::string& problem, unsigned attempt,
                         std::chrono::steady_clock::duration retrying,
                         std::chrono::steady_clock::time_point retry_deadline) const {
  const uint64_t cap = std::min<uint64_t>(options_.retry_cap_ms, options_.retry_base_ms << std::min(attempt, 20u));
  const uint64_t wait = jitter(cap);
  if (attempt >= options_.max_retries || Clock::now() + std::chrono::milliseconds(wait) > retry_deadline)
    throw_io("{}: {} (gave up after {} attempt{})", req.display, problem, attempt + 1, attempt ? "s" : "");
  spdlog::info("{}: {}; retry {} in {} ms", req.display, problem, attempt + 1, wait);
  warn_long_retry(req.display, problem, retrying, options_.retry_timeout_ms);
  if (stats_) stats_->http_retries++;
  const auto s0 = Clock::now();
  backoff_sleep(wait);
  if (stats_) stats_->network_wait_ns += nanos_since(s0);
}

void HttpClient::fail(const HttpRequest& req, const HttpResponse& resp) const {
  const std::string code = resp.error_code();
  const std::string message = resp.error_message();
  std::string detail =
      code.empty() ? fmt::format("HTTP {}", resp.status) : fmt::format("HTTP {} {}", resp.status, code);
  if (!message.empty()) detail += ": " + message;
  const std::string region = options_.region.empty() ? "us-east-1" : options_.region;
  if (!resp.bucket_region.empty() && resp.bucket_region != region)
    throw_io("{}: the bucket is in region {}, not {} (set AWS_REGION or --storage-option aws_region={}) ({})",
             req.display, resp.bucket_region, region, resp.bucket_region, detail);
  if (code == "AuthorizationHeaderMalformed" || code == "PermanentRedirect")
    throw_io("{}: wrong region {}? ({})", req.display, region, detail);
  if (resp.status == 404) {
    const std::string hint = service_ ? service_->not_found_hint() : "";
    throw_io("{}: not found ({}{}{})", req.display, detail, hint.empty() ? "" : "; ", hint);
  }
  if (resp.status == 403 || resp.status == 401) {
    if (service_) throw_io("{}: access denied ({}; {})", req.display, detail, service_->access_denied_hint());
    const char* hint = !s3_ ? "plain http(s) URLs are read unsigned: use a presigned URL or a public object, or s3://"
                       : sign_
                           ? "check the credentials and region"
                           : "the request was unsigned: no credentials are configured (AWS_ACCESS_KEY_ID, AWS_PROFILE, "
                             "--storage-option aws_access_key_id=…) or aws_skip_signature is set";
    throw_io("{}: access denied ({}; {})", req.display, detail, hint);
  }
  throw_io("{}: request failed ({})", req.display, detail);
}

}  // namespace lance::io
