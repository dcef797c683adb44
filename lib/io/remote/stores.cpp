#include "io/remote/stores.h"

#include <fmt/format.h>

#include <map>
#include <mutex>

#include "io/remote/azure_store.h"
#include "io/remote/s3_store.h"
#include "io/remote/uri.h"

namespace lance::io {

namespace {

/// Every setting of `o`, for finding a store made with the same options (never printed).
std::string fingerprint(const StorageOptions& o) {
  return fmt::format("{}\n{}\n{}\n{}\n{}\n{}{}{}\n{} {} {} {} {} {} {}\n{} {} {} {} {} {}", o.endpoint, o.region,
                     o.access_key_id, o.secret_access_key, o.session_token, o.allow_http, o.virtual_hosted_style,
                     o.skip_signature, o.connect_timeout_ms, o.request_timeout_ms, o.retry_timeout_ms, o.max_retries,
                     o.retry_base_ms, o.retry_cap_ms, o.overall_timeout_ms, o.latency_ms, o.bandwidth_mib_s,
                     o.parallelism, o.coalesce_gap.value_or(0), o.max_request_size.value_or(0),
                     o.tail_read_size.value_or(0)) +
         fmt::format("\n{}\n{}\n{}\n{}\n{}\n{}\n{} {}", o.azure.account, o.azure.access_key, o.azure.sas_token,
                     o.azure.bearer_token, o.azure.endpoint, o.azure.emulator_url, o.azure.use_emulator,
                     o.azure.skip_signature);
}

const char* scheme_name(Scheme s) {
  switch (s) {
    case Scheme::s3:
      return "s3";
    case Scheme::azure:
      return "azure";
    default:
      return "http";
  }
}

}  // namespace

std::shared_ptr<ObjectStore> store_for(const std::string& path, const StorageOptions& options,
                                       std::shared_ptr<ReadStats> stats) {
  static const auto local = std::make_shared<LocalStore>();  // stateless, like io::local_store()
  const Location loc = parse_location(path);
  if (loc.scheme == Scheme::local) return local;
  // One remote store per scheme, settings and stats for the process: its listings and
  // prefetches are shared by everything that reads through it (e.g. the dataset check and the
  // dataset). A store whose stats nobody else holds any more is dropped when another is made.
  struct Entry {
    std::shared_ptr<ObjectStore> store;
    std::shared_ptr<ReadStats> stats;
  };
  static std::mutex mutex;
  static auto& stores = *new std::map<std::string, Entry>();  // never destroyed: no waiting at exit
  // Azure: one store per account (a URI may name its own, abfss://C@ACCOUNT.dfs.core.windows.net).
  const std::string key = fmt::format("{} {}\n{}\n{}", scheme_name(loc.scheme), loc.account,
                                      static_cast<const void*>(stats.get()), fingerprint(options));
  std::lock_guard lock(mutex);
  if (auto it = stores.find(key); it != stores.end()) return it->second.store;
  // Held by the entry and by the store's client only: no reader counts into it any more.
  std::erase_if(stores, [](const auto& kv) { return kv.second.stats && kv.second.stats.use_count() <= 2; });
  auto store = loc.scheme == Scheme::s3      ? make_s3_store(options, stats)
               : loc.scheme == Scheme::azure ? make_azure_store(options, loc.account, stats)
                                             : make_http_store(options, stats);
  stores.emplace(key, Entry{store, std::move(stats)});
  return store;
}

}  // namespace lance::io
