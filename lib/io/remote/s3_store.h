// Object stores over HTTP (io/remote/http_client.h):
// - S3 and S3-compatible stores (`s3://bucket/key`): SigV4-signed (or unsigned for public
//   buckets) GET with Range, HEAD, and ListObjectsV2 with continuation tokens; path-style
//   addressing (ENDPOINT/BUCKET/KEY) unless aws_virtual_hosted_style_request is set.
// - plain http(s) URLs of single files (a web server, a presigned URL): unsigned Range GETs;
//   they cannot be listed.
// Spec: the S3 REST API (GetObject, HeadObject, ListObjectsV2); Lance reaches S3 through
// object_store's AmazonS3 (lance-io `object_store.rs`).
#pragma once

#include <memory>

#include "common/read_stats.h"
#include "io/object_store.h"
#include "io/remote/storage_options.h"

namespace lance::io {

/// A new store with `options`, counting its requests into `stats` (may be null). Throws
/// Error(usage) for inconsistent settings (an http:// endpoint without allow_http). Most
/// callers want io::store_for (io/remote/stores.h), which shares one store per settings.
std::shared_ptr<ObjectStore> make_s3_store(const StorageOptions& options, std::shared_ptr<ReadStats> stats);
std::shared_ptr<ObjectStore> make_http_store(const StorageOptions& options, std::shared_ptr<ReadStats> stats);

}  // namespace lance::io
