// Settings of the object-store backends (S3, Azure Blob Storage and plain HTTP): endpoint, credentials,
// addressing, timeouts, retries and the network model the read planner derives its
// coalescing from. Filled by the CLI (app/storage_config.cpp: environment, ~/.aws files,
// --storage-option); the library never reads the environment for these.
//
// Key names follow LanceDB / object_store's AmazonS3ConfigKey and AzureConfigKey (lance-io's
// `ObjectStoreParams.storage_options`), e.g. aws_endpoint, aws_region, allow_http,
// azure_storage_account_name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lance::io {

/// Azure Blob Storage settings (object_store's AzureConfigKey names, arrow-rs-object-store
/// src/azure/builder.rs; see StorageOptions::set for every alias).
struct AzureOptions {
  std::string account;       ///< azure_storage_account_name
  std::string access_key;    ///< azure_storage_account_key (base64 Shared Key): never printed
  std::string sas_token;     ///< azure_storage_sas_token: a SAS query string ("sv=…&sig=…"): never printed
  std::string bearer_token;  ///< azure_storage_token: an OAuth access token: never printed
  /// azure_storage_endpoint: the account's Blob service URL (e.g. "http://127.0.0.1:10000/ACCOUNT");
  /// empty: https://ACCOUNT.blob.core.windows.net.
  std::string endpoint;
  /// azure_storage_use_emulator: Azurite: `emulator_url`/ACCOUNT (account devstoreaccount1 and its
  /// well-known key unless others are set), plain http allowed.
  bool use_emulator = false;
  std::string emulator_url = "http://127.0.0.1:10000";  ///< AZURITE_BLOB_STORAGE_URL (the CLI reads it)
  bool skip_signature = false;  ///< azure_skip_signature: anonymous requests (public containers)

  /// Fills the fields from an Azure Storage connection string ("AccountName=…;AccountKey=…;
  /// BlobEndpoint=…;SharedAccessSignature=…" — without BlobEndpoint, DefaultEndpointsProtocol
  /// and EndpointSuffix make PROTOCOL://ACCOUNT.blob.SUFFIX — or "UseDevelopmentStorage=true"), as the Azure SDKs
  /// read AZURE_STORAGE_CONNECTION_STRING. Throws Error(usage) for an entry without '=' (the
  /// message never shows a value).
  void set_connection_string(const std::string& text);
};

struct StorageOptions {
  // --- where and who ---
  std::string endpoint;  ///< aws_endpoint, e.g. "http://127.0.0.1:7480"; empty = AWS (https://s3.REGION.amazonaws.com)
  std::string region;    ///< aws_region; empty = us-east-1
  std::string access_key_id;      ///< aws_access_key_id (secret-free but still never logged)
  std::string secret_access_key;  ///< aws_secret_access_key: never printed
  std::string session_token;      ///< aws_session_token: never printed
  bool allow_http = false;        ///< allow_http: permit an http:// endpoint
  /// aws_virtual_hosted_style_request: https://BUCKET.ENDPOINT/KEY instead of ENDPOINT/BUCKET/KEY.
  /// Path-style is the default (as in object_store), and always used with a custom endpoint unless set.
  bool virtual_hosted_style = false;
  bool skip_signature = false;  ///< aws_skip_signature: unsigned requests (public buckets)

  // --- time bounds and retries ---
  uint64_t connect_timeout_ms = 5000;   ///< connect_timeout (seconds or "5s"/"500ms")
  uint64_t request_timeout_ms = 30000;  ///< timeout: one HTTP request, transfer included
  uint64_t retry_timeout_ms = 180000;   ///< client_retry_timeout: one logical request including its retries
  unsigned max_retries = 6;             ///< client_max_retries: retries after the first attempt
  uint64_t retry_base_ms = 50;          ///< first backoff; doubles per retry, capped by retry_cap_ms, full jitter
  uint64_t retry_cap_ms = 2000;
  uint64_t overall_timeout_ms = 0;  ///< overall_timeout: all network I/O of the process (0 = none)

  // --- network model (read planning) ---
  /// latency_ms: time to first byte of one request. Unless set, reads are planned with the
  /// time the store's first small requests took (HttpClient::observed_latency_ms) instead.
  double latency_ms = 25;
  bool latency_set = false;      ///< latency_ms was given
  double bandwidth_mib_s = 100;  ///< bandwidth_mib_s: throughput of one connection
  /// link_bandwidth_mib_s: throughput of all connections together (the network link, or the
  /// store's limit). The default is what Ceph RGW behind scripts/delayproxy.mjs on loopback
  /// delivered to parallel ranged GETs (153 MB in 0.35 s).
  double link_bandwidth_mib_s = 400;
  unsigned parallelism = 64;  ///< io_parallelism: requests in flight per file (Lance's default for object stores)
  std::optional<uint64_t> coalesce_gap;      ///< coalesce_gap: bytes (default from the model)
  std::optional<uint64_t> max_request_size;  ///< max_request_size: bytes (default from the model)
  std::optional<uint64_t> tail_read_size;    ///< tail_read_size: bytes of the speculative tail read that opens a file

  AzureOptions azure;  ///< az:// (and abfss://, https://ACCOUNT.blob.core.windows.net) paths

  /// Sets one KEY=VALUE (LanceDB/object_store names, with or without the `aws_` prefix, Azure's
  /// with `azure_`/`azure_storage_` or the unprefixed names object_store takes, e.g. account_name,
  /// account_key, sas_token, use_emulator; client settings such as timeout also with `azure_`;
  /// case-insensitive). Throws Error(usage) for an unknown key or a bad value; the message
  /// never contains the value of a secret key.
  void set(const std::string& key, const std::string& value);

  /// Holes up to this many bytes are read through rather than split into two requests: the
  /// round trip × min(bandwidth, link bandwidth / parallelism), clamped to [64 KiB, 8 MiB].
  /// With the requests in flight sharing the link, one more request costs about a round trip
  /// / parallelism, and reading a hole costs hole / link bandwidth: below this gap reading
  /// through is cheaper. The round trip is `observed_latency_ms` (the store's first answers, as
  /// measured by HttpClient) unless latency_ms is set or nothing was measured yet; coalesce_gap
  /// overrides it all. Defaults: 160 KiB at 25 ms; 320 KiB where the first byte takes 50 ms.
  uint64_t effective_coalesce_gap(std::optional<double> observed_latency_ms = std::nullopt) const;
  /// Largest single request: enough to keep a connection busy for ~4 latencies, clamped to
  /// [4 MiB, 64 MiB] and rounded down to a power of two (defaults: 8 MiB). Through Ceph RGW
  /// behind a 25 ms proxy, 4 MiB pieces of a 15 MB file arrived in 245 ms where 5.2 MiB
  /// pieces (the unrounded 10.5 MB / 2) took 286 ms (medians of 15, interleaved).
  uint64_t effective_max_request_size() const;
  /// The speculative tail read: latency × bandwidth (what one round trip could carry),
  /// clamped to [64 KiB, 1 MiB].
  uint64_t effective_tail_read_size() const;
  /// Bytes one round trip is worth: latency × bandwidth (unclamped). Fetching this many
  /// unneeded bytes costs about as much as waiting one more round trip.
  uint64_t round_trip_bytes() const;

  /// Whether any credential is configured (else requests are unsigned).
  bool has_credentials() const { return !access_key_id.empty() && !secret_access_key.empty(); }
};

}  // namespace lance::io
