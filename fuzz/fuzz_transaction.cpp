// Fuzz target: a transaction (`_transactions/*.txn`, or Manifest.transaction_section): one
// Transaction protobuf message, described as `inspect versions` shows it.
// Upstream: lance-format/lance protos/transaction.proto `Transaction`.
#include "dataset/transaction.h"
#include "fuzz_input.h"

using namespace lance;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::expect_error_or_success([&] {
    const dataset::TransactionInfo t = dataset::parse_transaction(ByteView(data, size), "fuzz.txn");
    if (t.operation.empty()) __builtin_trap();  // always a name, "Unknown" at worst
  });
  return 0;
}
