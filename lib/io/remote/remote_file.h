// A RandomAccessFile over HTTP Range GETs. Opening it is one speculative suffix-range GET
// of the file's tail (which also yields the size from Content-Range); reads that fall in
// that tail are served from memory, so a Lance file's footer and metadata cost no further
// request when they fit.
#pragma once

#include <atomic>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/file.h"
#include "io/remote/http_client.h"

namespace lance::io {

class RemoteFile final : public RandomAccessFile, public std::enable_shared_from_this<RemoteFile> {
 public:
  /// Read-ahead of the units a scan announces (`will_read`): a read shorter than a unit
  /// fetches the whole unit (of a unit larger than `bytes`, the cell of a grid at multiples of
  /// `bytes` that holds the read's start) in one GET, and the
  /// unit's later reads come from memory; the two units announced after it (a column's next
  /// page) are then fetched in the background, so a stream of pages rarely waits. `bytes` 0
  /// turns it off. At most `max_windows` fetched units are kept (the least recently used go).
  ///
  /// With `ahead_bytes` > 0, `will_read` also starts fetching the announced units at once, in
  /// file order, before any read asks: units closer than `merge_gap` bytes share a GET, pieces
  /// are at most `bytes` long, and at most `ahead_bytes` (and max_windows / 2 pieces) are
  /// fetched this way. A scan then waits one round trip for all of them instead of one per
  /// page; reads spanning several fetched pieces are served from them. Each read then keeps
  /// the larger units (over `bytes` or 1 MiB) in the 4 × `ahead_bytes` after it fetched or on
  /// the way, while at most max_windows / 2 windows are unread.
  struct ReadAhead {
    uint64_t bytes = 0;
    size_t max_windows = 16;
    uint64_t merge_gap = 0;
    uint64_t ahead_bytes = 0;
  };

  /// GETs the last `tail_bytes` of `url`. Throws Error(io) naming `display` when the file
  /// does not exist, access is denied, or the retries are exhausted. With `head_bytes` (at most
  /// the file's size, known from a listing), also fetches bytes [0, head_bytes) at the same
  /// time, in cells of ReadAhead::bytes (windows fetched ahead; a failed one is fetched again
  /// when a read gets there).
  static std::shared_ptr<RemoteFile> open(std::shared_ptr<const HttpClient> client, std::string url,
                                          std::string display, uint64_t tail_bytes, ReadAhead read_ahead,
                                          uint64_t head_bytes = 0);
  static std::shared_ptr<RemoteFile> open(std::shared_ptr<const HttpClient> client, std::string url,
                                          std::string display, uint64_t tail_bytes) {
    return open(std::move(client), std::move(url), std::move(display), tail_bytes, ReadAhead{});
  }

  /// Reads a whole file of `size` bytes (the size recorded in a manifest) into memory: its
  /// pieces of at most `part` bytes are GET concurrently, straight into one buffer that is never
  /// zero-filled (its pages are first touched by the transfers, while later bytes are still on
  /// the way); the last piece's Content-Range confirms the size. When the file's real size differs, the result is a
  /// file opened as `open` would (its tail cached). Throws like `open`.
  static std::shared_ptr<RemoteFile> open_whole(std::shared_ptr<const HttpClient> client, std::string url,
                                                std::string display, uint64_t size, uint64_t part,
                                                ReadAhead read_ahead);

  const std::string& path() const override { return display_; }
  uint64_t size() const override { return size_; }
  void read_at(uint64_t offset, uint64_t length, uint8_t* out) const override;
  void will_read(const std::vector<ByteRange>& units) const override;
  /// Extents in the cached tail or in windows come from memory; the others arrive in one GET
  /// of the range they span, whose other bytes are dropped as they arrive.
  void read_extents(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents) const override;
  bool in_memory() const override { return tail_start_ == 0; }

 private:
  RemoteFile() = default;
  /// GETs bytes [offset, end) into `out` (one Range request, retried by the client); with
  /// `out` null, keeps only `extents` (sorted, inside the range).
  /// With `arrival`, tells it as the bytes land (Arrival::received).
  struct Arrival;
  void fetch(uint64_t offset, uint64_t end, uint8_t* out, std::span<const ReadExtent> extents = {},
             Arrival* arrival = nullptr) const;
  /// Starts fetching unit `order_[i]` whole on a thread of its own (which keeps the file
  /// alive), unless it is fetched already or too large; call with mutex_ held.
  void prefetch_unit(size_t i) const;
  /// Starts fetching, in file order, what windows do not hold yet of the announced units from
  /// units_[i] on, between bytes `from` and `until`: a large unit (over ReadAhead::bytes) by
  /// the cells of its grid, a small one whole. Stops early when half of max_windows are
  /// unread. Returns how far it got (`until` when it got there). mutex_ held.
  uint64_t prefetch_following(size_t i, uint64_t from, uint64_t until) const;
  /// Keeps the announced units' bytes in [offset, offset + 4 ahead_bytes) fetched or on the
  /// way, starting where the last call stopped (ahead_until_). Takes mutex_ itself.
  void fetch_ahead_of(uint64_t offset) const;
  /// Adds a window, dropping the least recently used beyond max_windows; mutex_ held.
  /// Fetched bytes in memory that was not zero-filled first (std::make_shared_for_overwrite).
  using Buffer = std::shared_ptr<const uint8_t[]>;
  /// `copied` (a grid cell's, else null) counts the bytes reads have copied out of it.
  void add_window(uint64_t start, uint64_t stop, std::shared_future<Buffer> data,
                  std::shared_ptr<std::atomic<uint64_t>> copied = nullptr,
                  std::shared_ptr<Arrival> arrival = nullptr) const;
  /// Starts fetching bytes [start, stop) into a new window (a grid cell's, when `cell`) on a
  /// thread of its own; mutex_ held. `unread` of its bytes lie in no announced unit: no read
  /// will copy them, so a cell counts them as copied from the start.
  void prefetch_range(uint64_t start, uint64_t stop, bool cell = false, uint64_t unread = 0) const;
  /// Where the cell piece of the large unit units_[i] that ends at its end `u_end`, inside
  /// the grid cell ending at `cell_end`, should stop: further, to share its GET, over the
  /// units that follow within merge_gap and start in the same cell (a column's next page,
  /// after another column's page between them), up to the cell's end; sets `unread` to the
  /// gap bytes taken along. mutex_ held.
  uint64_t share_cell_end(size_t i, uint64_t u_end, uint64_t cell_end, uint64_t& unread) const;
  /// Adds `n` to a cell's copied bytes and drops the cell once all `window_bytes` were copied
  /// out. Takes mutex_ itself.
  void count_copied(const std::shared_ptr<std::atomic<uint64_t>>& copied, uint64_t n, uint64_t window_bytes) const;
  /// Copies the longest prefix [offset, covered) of [offset, end) that windows cover into `out`
  /// (waiting for those still in flight) and returns `covered` (`offset`: nothing copied).
  /// Takes mutex_ itself.
  uint64_t copy_from_windows(uint64_t offset, uint64_t end, uint8_t* out) const;
  /// How far from `offset` (up to `end`) windows cover the bytes, fetched or in flight, without
  /// waiting for any. Takes mutex_ itself.
  uint64_t covered_until(uint64_t offset, uint64_t end) const;
  /// Fetches `rest` (sorted extents below the cached tail): one read_at for one, else one GET
  /// of the range they span that keeps only them.
  void fetch_extents(std::span<const ReadExtent> rest) const;
  /// The first start of a window inside (offset, end), else `end`. Takes mutex_ itself.
  uint64_t next_window_start(uint64_t offset, uint64_t end) const;
  /// Reads bytes [offset, end), which no window covered when the caller looked, into `out`:
  /// through read_hole, and from windows added meanwhile.
  void read_part(uint64_t offset, uint64_t end, uint8_t* out) const;
  /// Copies the parts `held` (which windows covered when the caller looked) of a read that
  /// starts at `offset` into `out`; a part whose window was let go meanwhile is read again.
  void copy_held(std::span<const ByteRange> held, uint64_t offset, uint8_t* out) const;
  /// Reads a first part [offset, r) of [offset, end), which no window covered at `offset` when
  /// the caller looked, and returns r: through a new window when it lies inside an announced
  /// unit (a small unit's window is all of it; a large unit's is its cell of a grid at
  /// multiples of ReadAhead::bytes, so r may stop at the cell's end), else straight into `out`
  /// (r = end). Returns `offset` (nothing read) when a window covers it by now.
  uint64_t read_hole(uint64_t offset, uint64_t end, uint8_t* out) const;
  /// The bytes of a window fetched ahead as they arrive: a read of its first megabytes copies
  /// them while the rest is still on the way, instead of waiting for all of it (a scan's first
  /// batch, behind a 16 MiB cell sharing the link with eight others, waited ~500 ms).
  struct Arrival {
    std::shared_ptr<uint8_t[]> buffer;  ///< the window's bytes, written by the fetch in order
    std::mutex mutex;
    std::condition_variable changed;
    uint64_t bytes = 0;  ///< the first bytes of `buffer` that have arrived; mutex held
    bool ended = false;  ///< the fetch has finished, or failed; mutex held
    void received(uint64_t n);
    void end();
    /// Waits until the first `n` bytes have arrived (true) or the fetch ended without them.
    bool wait_for(uint64_t n);
  };
  /// A fetched (or being fetched) read-ahead window: bytes [start, end) of the file.
  struct Window {
    uint64_t start = 0, end = 0;
    std::shared_future<Buffer> data;
    uint64_t used = 0;  ///< last use, for eviction
    bool read = false;  ///< a read has copied from it
    /// A grid cell of a large unit: bytes copied out so far (dropped when all were); else null.
    std::shared_ptr<std::atomic<uint64_t>> copied;
    std::shared_ptr<Arrival> arrival;  ///< fetched ahead (prefetch_range); else null
  };
  /// Windows no read has copied from yet (fetched ahead, or still in flight); mutex_ held.
  size_t unread_windows() const;
  /// Of the windows holding byte `at`, the one that reaches furthest (nullptr: none); mutex_ held.
  Window* window_reaching_furthest(uint64_t at) const;
  std::shared_ptr<const HttpClient> client_;
  std::string url_;
  std::string display_;
  uint64_t size_ = 0;
  uint64_t tail_start_ = 0;             ///< `tail_data_` holds bytes [tail_start_, size_)
  const uint8_t* tail_data_ = nullptr;  ///< into `tail_` (a plain open) or `whole_` (open_whole)
  Bytes tail_;
  std::shared_ptr<uint8_t[]> whole_;
  ReadAhead read_ahead_;
  mutable std::mutex mutex_;  // guards the members below
  mutable std::vector<Window> windows_;
  /// An announced unit and the one announced after it (a column's next page buffer).
  struct Unit {
    ByteRange range;
    size_t next = SIZE_MAX;  ///< index into `order_`
  };
  mutable std::vector<Unit> units_;       ///< announced by will_read, sorted by offset
  mutable std::vector<ByteRange> order_;  ///< the units in the order announced
  mutable uint64_t clock_ = 0;
  mutable uint64_t ahead_until_ = 0;  ///< fetch_ahead_of started everything before this byte
};

}  // namespace lance::io
