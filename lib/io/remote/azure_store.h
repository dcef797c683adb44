// Azure Blob Storage (`az://CONTAINER/KEY` and the other forms io::parse_location takes): Range
// GETs, HEADs and List Blobs (with NextMarker paging) of one account's Blob service, authorized
// by io/remote/azure_auth.h. The service is https://ACCOUNT.blob.core.windows.net, the
// azure_storage_endpoint option, or with azure_storage_use_emulator Azurite's path-style
// EMULATOR_URL/ACCOUNT.
//
// Spec: Azure Storage REST API "Get Blob", "Get Blob Properties", "List Blobs" (version
// 2021-08-06); Lance reaches Azure through object_store's MicrosoftAzure
// (lance-io src/object_store/providers/azure.rs, arrow-rs-object-store src/azure/).
#pragma once

#include <memory>
#include <string>

#include "common/read_stats.h"
#include "io/object_store.h"
#include "io/remote/storage_options.h"

namespace lance::io {

/// A store of the Blob service of `account` (the URI's, e.g. abfss://C@ACCOUNT.dfs.core.windows.net;
/// empty: options.azure.account, or the emulator's devstoreaccount1), counting its requests into
/// `stats` (may be null). Throws Error(usage) for settings that cannot work: no account and no
/// endpoint, a plain http endpoint without allow_http, a key that is not base64.
std::shared_ptr<ObjectStore> make_azure_store(const StorageOptions& options, const std::string& account,
                                              std::shared_ptr<ReadStats> stats);

}  // namespace lance::io
