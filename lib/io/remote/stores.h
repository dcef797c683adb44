// The store for a location: the one entry point from a path the user typed to an ObjectStore
// (io/object_store.h). Local paths get the process's LocalStore; s3://, Azure (az://, abfss://)
// and http(s):// get a remote store (io/remote/s3_store.h, io/remote/azure_store.h), one per
// scheme (and Azure account), settings and stats object, shared by every reader that asks with
// the same ones (its listings and prefetches with them).
//
// Usage:
//   auto stats = std::make_shared<ReadStats>();
//   auto store = io::store_for("s3://bucket/t.lance", storage, stats);  // storage: StorageOptions
//   ... stats->http_requests: the HTTP requests this store sent
#pragma once

#include <memory>
#include <string>

#include "common/read_stats.h"
#include "io/object_store.h"
#include "io/remote/storage_options.h"

namespace lance::io {

/// The store for `path`'s scheme (io::parse_location), configured by `options`, its network
/// counters going to `stats` (null: not counted). Throws Error(usage) for unknown schemes and
/// bad settings (e.g. an http:// endpoint without allow_http).
std::shared_ptr<ObjectStore> store_for(const std::string& path, const StorageOptions& options,
                                       std::shared_ptr<ReadStats> stats);

}  // namespace lance::io
