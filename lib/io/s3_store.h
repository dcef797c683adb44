// Object stores over HTTP (io/http_client.h):
// - S3 and S3-compatible stores (`s3://bucket/key`): SigV4-signed (or unsigned for public
//   buckets) GET with Range, HEAD, and ListObjectsV2 with continuation tokens; path-style
//   addressing (ENDPOINT/BUCKET/KEY) unless aws_virtual_hosted_style_request is set.
// - plain http(s) URLs of single files (a web server, a presigned URL): unsigned Range GETs;
//   they cannot be listed.
// Spec: the S3 REST API (GetObject, HeadObject, ListObjectsV2); Lance reaches S3 through
// object_store's AmazonS3 (lance-io `object_store.rs`).
#pragma once

#include <memory>

#include "io/object_store.h"

namespace lance::io {

/// Throws Error(usage) for inconsistent settings (an http:// endpoint without allow_http).
std::shared_ptr<ObjectStore> make_s3_store(const StorageOptions& options);
std::shared_ptr<ObjectStore> make_http_store(const StorageOptions& options);

}  // namespace lance::io
