// read::ScanPipeline: batches come back in scan order, batches of one chain never overlap
// and the next one's start runs before the current one's finish, errors surface at their
// batch, and the inline mode does the same on the caller's thread.
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "read/decode_pool.h"
#include "read/scan_pipeline.h"

using lance::RecordBatch;
using lance::read::DecodeMode;
using lance::read::ScanPipeline;

namespace {

struct Log {
  std::mutex mu;
  std::vector<std::string> events;  // "s<i>" / "f<i>" per chain
  std::atomic<int> busy[3] = {0, 0, 0};
  bool overlap = false;
  void add(std::string e) {
    std::lock_guard lock(mu);
    events.push_back(std::move(e));
  }
};

void run(DecodeMode mode) {
  Log log[3];
  std::atomic<int> dummy{0};
  ScanPipeline pipe(mode, 3);
  std::vector<int64_t> got;
  const int n = 12;
  auto chain_of = [](int i) { return i / 4; };  // 4 consecutive batches per chain
  int added = 0;
  for (;;) {
    for (; added < n && !pipe.full(); ++added) {
      const int i = added, c = chain_of(i);
      pipe.add(static_cast<uint64_t>(c), [&, i, c]() -> ScanPipeline::Finish {
        if (log[c].busy[0].fetch_add(1) != 0) log[c].overlap = true;
        log[c].add("s" + std::to_string(i));
        log[c].busy[0].fetch_sub(1);
        return [&, i, c] {
          if (log[c].busy[0].fetch_add(1) != 0) log[c].overlap = true;
          log[c].add("f" + std::to_string(i));
          dummy++;
          log[c].busy[0].fetch_sub(1);
          RecordBatch b;
          b.num_rows = i;
          return b;
        };
      });
    }
    if (pipe.empty()) break;
    got.push_back(pipe.next().num_rows);
  }
  std::vector<int64_t> want;
  for (int i = 0; i < n; ++i) want.push_back(i);
  CHECK(got == want);
  for (int c = 0; c < 3; ++c) {
    CHECK_FALSE(log[c].overlap);
    const int b = 4 * c;
    // Start of the next batch before the finish of the current one, in order.
    std::vector<std::string> expect = {"s" + std::to_string(b),     "s" + std::to_string(b + 1),
                                       "f" + std::to_string(b),     "s" + std::to_string(b + 2),
                                       "f" + std::to_string(b + 1), "s" + std::to_string(b + 3),
                                       "f" + std::to_string(b + 2), "f" + std::to_string(b + 3)};
    // In pool mode a batch may be added after its predecessor finished (the window is
    // full): then its start follows that finish. Check order of finishes and that every
    // start precedes its own finish.
    std::vector<std::string> finishes, starts;
    for (const auto& e : log[c].events) (e[0] == 'f' ? finishes : starts).push_back(e);
    CHECK(finishes == std::vector<std::string>{expect[2], expect[4], expect[6], expect[7]});
    CHECK(starts.size() == 4);
    if (mode == DecodeMode::inline_run) CHECK(log[c].events == expect);
  }
}

}  // namespace

TEST_CASE("scan pipeline hands batches back in order, one at a time per chain", "[planner][pipeline]") {
  SECTION("pool") { run(DecodeMode::pool); }
  SECTION("inline") { run(DecodeMode::inline_run); }
}

TEST_CASE("scan pipeline rethrows a batch's error at that batch", "[planner][pipeline]") {
  for (auto mode : {DecodeMode::pool, DecodeMode::inline_run}) {
    ScanPipeline pipe(mode, 4);
    for (int i = 0; i < 4; ++i)
      pipe.add(static_cast<uint64_t>(i % 2), [i]() -> ScanPipeline::Finish {
        if (i == 2) throw std::runtime_error("start failed");
        return [i] {
          if (i == 3) throw std::runtime_error("finish failed");
          RecordBatch b;
          b.num_rows = i;
          return b;
        };
      });
    CHECK(pipe.next().num_rows == 0);
    CHECK(pipe.next().num_rows == 1);
    CHECK_THROWS_WITH(pipe.next(), "start failed");
    CHECK_THROWS_WITH(pipe.next(), "finish failed");
    CHECK(pipe.empty());
  }
}

TEST_CASE("scan pipeline destroyed with batches queued waits for the running ones", "[planner][pipeline]") {
  std::atomic<int> finished{0};
  {
    ScanPipeline pipe(DecodeMode::pool, 8);
    for (int i = 0; i < 8; ++i)
      pipe.add(static_cast<uint64_t>(i), [&finished]() -> ScanPipeline::Finish {
        return [&finished] {
          finished++;
          return RecordBatch{};
        };
      });
    pipe.next();
  }
  CHECK(finished.load() >= 1);
}

TEST_CASE("scan decode mode: a small local scan decodes inline, a large, remote or unknown one on the pool",
          "[planner][pipeline]") {
  using lance::read::DecodeMode;
  using lance::read::kInlineScanBytes;
  using lance::read::scan_decode_mode;
  const double small = 600e3, large = 2.0 * static_cast<double>(kInlineScanBytes);
  CHECK(scan_decode_mode(std::nullopt, true, small) == DecodeMode::inline_run);
  CHECK(scan_decode_mode(std::nullopt, true, large) == DecodeMode::pool);
  CHECK(scan_decode_mode(std::nullopt, true, 0) == DecodeMode::pool);       // bytes unknown
  CHECK(scan_decode_mode(std::nullopt, false, small) == DecodeMode::pool);  // remote: round trips overlap
  // A large local scan of one chain (one file, one fragment) decodes here too, letting large
  // decompressions split; of several chains, or remote, on the pool.
  CHECK(scan_decode_mode(std::nullopt, true, large, true) == DecodeMode::inline_split_large);
  CHECK(scan_decode_mode(std::nullopt, true, 0, true) == DecodeMode::inline_split_large);
  CHECK(scan_decode_mode(std::nullopt, true, small, true) == DecodeMode::inline_run);
  CHECK(scan_decode_mode(std::nullopt, false, large, true) == DecodeMode::pool);
  // A mode the options set wins.
  CHECK(scan_decode_mode(DecodeMode::pool, true, small) == DecodeMode::pool);
  CHECK(scan_decode_mode(DecodeMode::pool, true, large, true) == DecodeMode::pool);
  CHECK(scan_decode_mode(DecodeMode::inline_run, false, large) == DecodeMode::inline_run);
}
