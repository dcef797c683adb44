// The I/O scheduler (io/scheduler.h): priority order, the bytes-in-flight bound, errors
// reaching the caller whose range failed, cancellation.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <future>
#include <mutex>
#include <thread>

#include "common/cancel.h"
#include "common/error.h"
#include "common/read_stats.h"
#include "io/file.h"
#include "io/scheduler.h"

using lance::Bytes;
using lance::io::ByteRange;
using lance::io::IoOptions;
using lance::io::IoScheduler;

namespace {

/// A MemoryFile that records its reads, can hold them at a gate, and fails reads that touch
/// [fail_from, fail_to).
class RecordingFile final : public lance::io::RandomAccessFile {
 public:
  explicit RecordingFile(size_t size) : inner_("recorded.bin", pattern(size)) {}

  const std::string& path() const override { return inner_.path(); }
  uint64_t size() const override { return inner_.size(); }
  void read_at(uint64_t offset, uint64_t length, uint8_t* out) const override {
    {
      std::unique_lock lock(mutex_);
      order_.push_back(offset);
      ++entered_;
      changed_.notify_all();
      changed_.wait(lock, [&] { return open_; });
    }
    const uint64_t now = in_flight_ += length;
    uint64_t seen = max_in_flight_.load();
    while (now > seen && !max_in_flight_.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(delay_);
    in_flight_ -= length;
    if (offset < fail_to_ && offset + length > fail_from_) lance::throw_io("{}: bad sector at {}", path(), offset);
    inner_.read_at(offset, length, out);
  }

  void close_gate() {
    std::lock_guard lock(mutex_);
    open_ = false;
  }
  void open_gate() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  /// Waits until `n` reads have started (reached the gate).
  void wait_entered(int n) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return entered_ >= n; });
  }
  std::vector<uint64_t> order() const {
    std::lock_guard lock(mutex_);
    return order_;
  }
  uint64_t max_in_flight() const { return max_in_flight_; }
  void fail(uint64_t from, uint64_t to) { fail_from_ = from, fail_to_ = to; }
  void set_delay(std::chrono::milliseconds d) { delay_ = d; }

  static Bytes pattern(size_t n) {
    Bytes b(n);
    for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(i * 7 + 3);
    return b;
  }

 private:
  lance::io::MemoryFile inner_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  bool open_ = true;
  mutable int entered_ = 0;
  mutable std::vector<uint64_t> order_;
  mutable std::atomic<uint64_t> in_flight_{0}, max_in_flight_{0};
  uint64_t fail_from_ = 0, fail_to_ = 0;
  std::chrono::milliseconds delay_{0};
};

IoOptions one_at_a_time() {
  IoOptions o;
  o.inline_read_bytes = 0;  // these cases pin the pool's queueing
  o.io_threads = 1;
  o.block_size = 0;  // no merging: one read per range
  return o;
}

Bytes slice(uint64_t offset, uint64_t length) {
  Bytes all = RecordingFile::pattern(offset + length);
  return Bytes(all.begin() + static_cast<std::ptrdiff_t>(offset), all.end());
}

/// Writes RecordingFile::pattern(size) to `path`, synced to the device; returns the bytes.
Bytes write_pattern_file(const std::string& path, size_t size) {
  const Bytes data = RecordingFile::pattern(size);
  FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE(f);
  REQUIRE(std::fwrite(data.data(), 1, data.size(), f) == data.size());
  std::fflush(f);
  ::fsync(fileno(f));
  std::fclose(f);
  return data;
}

}  // namespace

TEST_CASE("io scheduler: queued reads start in priority order, FIFO within a priority", "[io][scheduler]") {
  auto file = std::make_shared<RecordingFile>(4096);
  IoScheduler io(file, one_at_a_time());
  file->close_gate();
  auto blocker = io.submit({{0, 8}}, 0);  // holds the only read slot
  file->wait_entered(1);
  auto c = io.submit({{300, 8}}, 30);
  auto b1 = io.submit({{200, 8}}, 20);
  auto a = io.submit({{100, 8}}, 10);
  auto b2 = io.submit({{250, 8}}, 20);
  file->open_gate();
  for (auto* f : {&blocker, &c, &b1, &a, &b2}) f->get();
  CHECK(file->order() == std::vector<uint64_t>{0, 100, 200, 250, 300});
}

TEST_CASE("io scheduler: each caller gets exactly its ranges, merged reads un-merged", "[io][scheduler]") {
  auto file = std::make_shared<RecordingFile>(10000);
  IoOptions o;
  o.inline_read_bytes = 0;  // these cases pin the pool's queueing
  o.block_size = 4096;
  IoScheduler io(file, o);
  auto parts = io.read({{10, 5}, {0, 3}, {5000, 20}, {12, 1}}, 0);
  REQUIRE(parts.size() == 4);
  CHECK(parts[0] == slice(10, 5));
  CHECK(parts[1] == slice(0, 3));
  CHECK(parts[2] == slice(5000, 20));
  CHECK(parts[3] == slice(12, 1));
  CHECK(io.stats().requests == 1);
  CHECK(io.stats().iops == 2);  // [0, 15) merged; 5000 is more than a block away
}

TEST_CASE("io scheduler: bytes in flight stay under the bound", "[io][scheduler]") {
  auto file = std::make_shared<RecordingFile>(4096);
  file->set_delay(std::chrono::milliseconds(5));
  IoOptions o;
  o.inline_read_bytes = 0;  // these cases pin the pool's queueing
  o.io_threads = 8;
  o.block_size = 0;
  o.max_bytes_in_flight = 100;
  IoScheduler io(file, o);
  std::vector<std::future<std::vector<Bytes>>> futures;
  for (uint64_t i = 0; i < 6; ++i) futures.push_back(io.submit({{i * 200, 60}}, i));
  for (auto& f : futures) CHECK(f.get().at(0).size() == 60);
  CHECK(file->max_in_flight() <= 100);

  // One read larger than the bound still runs (alone) instead of stalling.
  CHECK(io.read_range({1000, 500}).size() == 500);
}

TEST_CASE("io scheduler: a failed read reaches only the caller whose range it served", "[io][scheduler]") {
  auto file = std::make_shared<RecordingFile>(4096);
  file->fail(100, 110);
  IoScheduler io(file, one_at_a_time());
  auto ok1 = io.submit({{0, 10}}, 0);
  auto bad = io.submit({{50, 10}, {100, 10}}, 1);
  auto ok2 = io.submit({{200, 10}}, 2);
  CHECK(ok1.get().at(0) == slice(0, 10));
  CHECK(ok2.get().at(0) == slice(200, 10));
  try {
    bad.get();
    FAIL("expected an I/O error");
  } catch (const lance::Error& e) {
    CHECK(e.kind() == lance::ErrorKind::io);
    CHECK(std::string(e.what()).find("bad sector at 100") != std::string::npos);
  }
  // A range past the end of the file: corrupt, for that caller, before any read.
  auto past = io.submit({{4090, 10}}, 0);
  try {
    past.get();
    FAIL("expected a corrupt-file error");
  } catch (const lance::Error& e) {
    CHECK(e.kind() == lance::ErrorKind::corrupt);
  }
  CHECK(io.read_range({300, 4}) == slice(300, 4));  // the scheduler still works
}

TEST_CASE("io scheduler: after a cancel request, queued reads fail with Cancelled", "[io][scheduler]") {
  auto file = std::make_shared<RecordingFile>(4096);
  IoScheduler io(file, one_at_a_time());
  file->close_gate();
  auto running = io.submit({{0, 8}}, 0);
  file->wait_entered(1);
  auto queued = io.submit({{100, 8}}, 1);
  struct ClearCancel {
    ~ClearCancel() { lance::request_cancel(0); }  // whatever happens, later tests run uncancelled
  } clear;
  lance::request_cancel(SIGINT);
  file->open_gate();
  CHECK(running.get().at(0) == slice(0, 8));  // already reading: completes
  CHECK_THROWS_AS(queued.get(), lance::Cancelled);
  lance::request_cancel(0);
  CHECK(file->order() == std::vector<uint64_t>{0});  // the queued read never touched the file
  CHECK(io.read_range({100, 8}) == slice(100, 8));
}

TEST_CASE("io scheduler: counters go to the shared stats object too", "[io][scheduler]") {
  auto stats = std::make_shared<lance::ReadStats>();
  auto file = std::make_shared<RecordingFile>(4096);
  {
    IoScheduler a(file, one_at_a_time(), stats);
    IoScheduler b(file, one_at_a_time(), stats);
    a.read({{0, 10}, {100, 10}}, 0);
    b.read_range({200, 5});
    CHECK(a.stats().requests == 1);
    CHECK(b.stats().requests == 1);
  }
  CHECK(stats->requests == 2);
  CHECK(stats->iops == 3);
  CHECK(stats->bytes_read == 25);
}

TEST_CASE("io scheduler: small reads run on the submitting thread, large ones on the pool", "[io][scheduler]") {
  auto file = std::make_shared<RecordingFile>(1 << 20);
  IoOptions o;
  o.block_size = 0;
  o.inline_read_bytes = 4096;
  IoScheduler io(file, o);
  // A small read is done before submit returns: its future is ready at once.
  auto small = io.submit({{10, 100}}, 0);
  CHECK(small.wait_for(std::chrono::seconds(0)) == std::future_status::ready);
  CHECK(small.get().at(0) == slice(10, 100));
  // A large one goes to the pool: while the file blocks, submit still returns.
  file->close_gate();
  auto large = io.submit({{0, 8192}}, 0);
  file->wait_entered(2);  // the small read before, now the large one on a pool thread
  CHECK(large.wait_for(std::chrono::milliseconds(0)) == std::future_status::timeout);
  file->open_gate();
  CHECK(large.get().at(0) == slice(0, 8192));
  CHECK(io.stats().iops == 2);
}

TEST_CASE("io scheduler: kept reads answer later requests without I/O until dropped", "[io][scheduler]") {
  auto file = std::make_shared<RecordingFile>(100000);
  IoOptions o;
  o.block_size = 4096;
  IoScheduler io(file, o);
  // A read-ahead as a take in groups does it: the metadata round is returned and kept, the
  // data request only kept (its future yields empty buffers).
  io.begin_keeping(lance::io::Keeping::also);
  auto meta = io.read({{0, 16}}, 0);
  CHECK(meta.at(0) == slice(0, 16));
  io.begin_keeping(lance::io::Keeping::only);
  auto data = io.submit({{1000, 100}, {1200, 50}, {50000, 300}}, 0);
  io.end_keeping();
  CHECK(data.get().at(0).empty());
  CHECK(io.stats().requests == 2);
  CHECK(io.stats().iops == 3);  // [0, 16), [1000, 1250) merged, [50000, 50300)

  // Parts of those reads, in any grouping, cost nothing more...
  auto first = io.read({{4, 8}, {1000, 10}}, 0);
  CHECK(first.at(0) == slice(4, 8));
  CHECK(first.at(1) == slice(1000, 10));
  auto second = io.read({{1100, 150}, {50100, 200}}, 0);
  CHECK(second.at(0) == slice(1100, 150));
  CHECK(second.at(1) == slice(50100, 200));
  CHECK(io.stats().requests == 2);
  CHECK(io.stats().iops == 3);
  // ...a range reaching past a kept read is read (only it), and after drop_kept all are.
  auto past = io.read({{1200, 60}, {50000, 10}}, 0);
  CHECK(past.at(0) == slice(1200, 60));
  CHECK(past.at(1) == slice(50000, 10));
  CHECK(io.stats().requests == 3);
  CHECK(io.stats().iops == 4);
  io.drop_kept();
  CHECK(io.read({{4, 8}}, 0).at(0) == slice(4, 8));
  CHECK(io.stats().iops == 5);
}

TEST_CASE("io scheduler: kept reads that overlap are joined, so any range inside them is answered", "[io][scheduler]") {
  auto file = std::make_shared<RecordingFile>(100000);
  IoOptions o;
  o.block_size = 0;  // no merging: the kept reads are exactly the ranges asked
  IoScheduler io(file, o);
  io.begin_keeping(lance::io::Keeping::only);
  io.submit({{1000, 5000}}, 0);
  io.submit({{1200, 100}}, 0);  // inside the first: it starts after it
  io.submit({{5900, 600}}, 0);  // overlaps its end
  io.submit({{6500, 10}}, 0);   // touches the joined range's end
  io.submit({{20000, 10}}, 0);  // apart
  io.end_keeping();
  CHECK(io.stats().iops == 5);
  // Ranges after the inner read's start, and across the joins, come from kept bytes.
  auto parts = io.read({{1400, 200}, {5800, 200}, {6400, 110}, {1000, 5510}, {20002, 8}}, 0);
  CHECK(parts.at(0) == slice(1400, 200));
  CHECK(parts.at(1) == slice(5800, 200));
  CHECK(parts.at(2) == slice(6400, 110));
  CHECK(parts.at(3) == slice(1000, 5510));
  CHECK(parts.at(4) == slice(20002, 8));
  CHECK(io.stats().iops == 5);
  // Between the joined range and the apart read: not kept, read.
  CHECK(io.read({{6505, 10}}, 0).at(0) == slice(6505, 10));
  CHECK(io.stats().iops == 6);
}

namespace {

/// A MemoryFile whose bytes at or after `cold_from` are "not in the page cache": cached reads
/// of them return false. Records the threads that did full reads.
class HalfCachedFile final : public lance::io::RandomAccessFile {
 public:
  HalfCachedFile(size_t size, uint64_t cold_from)
      : inner_("half-cached.bin", RecordingFile::pattern(size)), cold_from_(cold_from) {}
  const std::string& path() const override { return inner_.path(); }
  uint64_t size() const override { return inner_.size(); }
  void read_at(uint64_t offset, uint64_t length, uint8_t* out) const override {
    {
      std::lock_guard lock(mutex_);
      full_read_threads_.push_back(std::this_thread::get_id());
    }
    inner_.read_at(offset, length, out);
  }
  bool read_at_if_cached(uint64_t offset, uint64_t length, uint8_t* out) const override {
    ++cached_attempts_;
    if (offset + length > cold_from_) return false;
    inner_.read_at(offset, length, out);
    return true;
  }
  std::vector<std::thread::id> full_read_threads() const {
    std::lock_guard lock(mutex_);
    return full_read_threads_;
  }
  int cached_attempts() const { return cached_attempts_; }

 private:
  lance::io::MemoryFile inner_;
  uint64_t cold_from_;
  mutable std::mutex mutex_;
  mutable std::vector<std::thread::id> full_read_threads_;
  mutable std::atomic<int> cached_attempts_{0};
};

}  // namespace

TEST_CASE("io scheduler: small reads the page cache lacks go to the pool and cached ones stay inline",
          "[io][scheduler]") {
  auto file = std::make_shared<HalfCachedFile>(1 << 16, 1 << 15);
  IoOptions o;
  o.block_size = 0;
  o.inline_read_bytes = 4096;
  auto stats = std::make_shared<lance::ReadStats>();
  IoScheduler io(file, o, stats);
  // Four small ranges: two cached (below 32 KiB), two not.
  const std::vector<ByteRange> ranges = {{100, 50}, {40000, 300}, {2000, 10}, {50000, 4000}};
  const auto got = io.read(ranges, 0);
  REQUIRE(got.size() == ranges.size());
  for (size_t i = 0; i < ranges.size(); ++i) CHECK(got[i] == slice(ranges[i].offset, ranges[i].length));
  CHECK(file->cached_attempts() == 4);
  // Only the two uncached ranges were read in full, and on pool threads.
  const auto threads = file->full_read_threads();
  CHECK(threads.size() == 2);
  for (auto t : threads) CHECK(t != std::this_thread::get_id());
  // Each range counted once.
  CHECK(io.stats().iops == 4);
  CHECK(stats->bytes_read == 50 + 300 + 10 + 4000);
}

TEST_CASE("local file: read_at_if_cached reads what the page cache holds, the same bytes as read_at", "[io]") {
  const std::string path = "io_scheduler_nowait.bin";
  const Bytes data = write_pattern_file(path, 1 << 20);
  auto file = lance::io::LocalFile::open(path);
  Bytes out(4096);
  // Evicted (where the file system lets go of it): the read may say "not cached"; either way
  // whatever it returns true for holds the file's bytes.
  {
    const int fd = ::open(path.c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  }
  if (file->read_at_if_cached(8192, out.size(), out.data())) CHECK(out == slice(8192, 4096));
  // After a plain read the bytes are cached: the cached read succeeds.
  file->read_at(0, data.size(), Bytes(data.size()).data());
  std::fill(out.begin(), out.end(), 0);
  CHECK(file->read_at_if_cached(8192, out.size(), out.data()));
  CHECK(out == slice(8192, 4096));
  // Past the end is a corrupt-file error, as for read_at.
  CHECK_THROWS_AS(file->read_at_if_cached(data.size() - 10, 20, out.data()), lance::Error);
  std::remove(path.c_str());
}

TEST_CASE("local file: read_extents reads each extent in place, holes dropped, over many iovecs", "[io]") {
  const std::string path = "io_local_extents.bin";
  const Bytes data = write_pattern_file(path, 1 << 20);
  auto file = lance::io::LocalFile::open(path);
  using lance::io::ReadExtent;
  auto extents_of = [](std::vector<Bytes>& bufs, const std::vector<ByteRange>& ranges) {
    std::vector<ReadExtent> out;
    bufs.assign(ranges.size(), Bytes());
    for (size_t i = 0; i < ranges.size(); ++i) {
      bufs[i].assign(ranges[i].length, 0xEE);
      out.push_back(ReadExtent{ranges[i].offset, ranges[i].length, bufs[i].data()});
    }
    return out;
  };
  auto check_all = [&](const std::vector<Bytes>& bufs, const std::vector<ByteRange>& ranges) {
    for (size_t i = 0; i < ranges.size(); ++i) {
      INFO("extent " << i);
      CHECK(bufs[i] == slice(ranges[i].offset, ranges[i].length));
    }
  };
  SECTION("disjoint extents with holes, the read's range wider than them") {
    std::vector<ByteRange> ranges = {{100, 50}, {150, 10}, {4096, 3000}, {9000, 1}, {9001, 0}, {500000, 70000}};
    std::vector<Bytes> bufs;
    file->read_extents(0, 600000, extents_of(bufs, ranges));
    check_all(bufs, ranges);
    CHECK(file->read_extents_if_cached(0, 600000, extents_of(bufs, ranges)));  // just read: cached
    check_all(bufs, ranges);
  }
  SECTION("more extents than one preadv takes") {
    std::vector<ByteRange> ranges;
    for (uint64_t i = 0; i < 3000; ++i) ranges.push_back({i * 300 + 7, 200});
    std::vector<Bytes> bufs;
    file->read_extents(7, 3000 * 300, extents_of(bufs, ranges));
    check_all(bufs, ranges);
  }
  SECTION("overlapping extents each get their bytes") {
    std::vector<ByteRange> ranges = {{1000, 500}, {1200, 100}, {1400, 400}, {1400, 10}};
    std::vector<Bytes> bufs;
    file->read_extents(1000, 800, extents_of(bufs, ranges));
    check_all(bufs, ranges);
  }
  SECTION("past the end is a corrupt-file error") {
    std::vector<ByteRange> ranges = {{data.size() - 10, 20}};
    std::vector<Bytes> bufs;
    CHECK_THROWS_AS(file->read_extents(data.size() - 10, 20, extents_of(bufs, ranges)), lance::Error);
  }
  std::remove(path.c_str());
}

namespace {

/// A file that answers read_extents itself and records each call's range and extents.
class ExtentRecordingFile final : public lance::io::RandomAccessFile {
 public:
  explicit ExtentRecordingFile(size_t size) : inner_("extents.bin", RecordingFile::pattern(size)) {}
  const std::string& path() const override { return inner_.path(); }
  uint64_t size() const override { return inner_.size(); }
  void read_at(uint64_t offset, uint64_t length, uint8_t* out) const override { inner_.read_at(offset, length, out); }
  void read_extents(uint64_t offset, uint64_t length, std::span<const lance::io::ReadExtent> extents) const override {
    std::lock_guard lock(mutex_);
    calls.push_back({offset, length});
    for (const auto& e : extents) {
      extent_ranges.push_back({e.offset, e.length});
      inner_.read_at(e.offset, e.length, e.out);
    }
  }
  mutable std::vector<ByteRange> calls, extent_ranges;

 private:
  lance::io::MemoryFile inner_;
  mutable std::mutex mutex_;
};

}  // namespace

TEST_CASE("io scheduler: a merged read asks the file for its callers' extents only", "[io][scheduler]") {
  auto file = std::make_shared<ExtentRecordingFile>(10000);
  IoOptions o;
  o.inline_read_bytes = 0;
  o.block_size = 4096;
  IoScheduler io(file, o);
  auto parts = io.read({{3000, 10}, {0, 3}, {100, 20}}, 0);
  CHECK(parts[0] == slice(3000, 10));
  CHECK(parts[1] == slice(0, 3));
  CHECK(parts[2] == slice(100, 20));
  REQUIRE(file->calls == std::vector<ByteRange>{{0, 3010}});
  // Sorted by offset, each where its caller wants it: the holes are the file's to drop.
  CHECK(file->extent_ranges == std::vector<ByteRange>{{0, 3}, {100, 20}, {3000, 10}});
}
