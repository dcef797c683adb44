// The reads of one batch of one field of a 2.0 or v1 file, gathered while the field's node
// tree is planned, and sent the way 2.1+ pages send theirs (read/page_batch_planner.h):
//   - bytes the plan itself needs (2.0 list offsets and blob descriptors, v1 list and
//     string positions: they say which bytes come next) go out in metadata rounds, with
//     the other fields of the file, one request per round; what they name is planned in
//     the callback and may ask for a further round (a list of lists);
//   - bytes only decoding needs (page buffers, values) are data: after the rounds they
//     are grouped into requests of about ReaderOptions::page_batch_bytes (plan_page_batches)
//     and decoded in `finish`.
// So a 2.0 or v1 batch costs one request per metadata round plus its data requests, not
// one per page per column.
//
//   StagedReads reads;
//   auto d = reads.later({{offset, length}});            // data: d->take() in finish
//   reads.now({{pos, 8}}, [&](std::vector<Bytes>&& b) {  // metadata: called in rounds.run
//     ... reads.later(...) / reads.now(...) ...
//   });
//   reads.add_to(rounds, label);   rounds.run(io, priority);
//   reads.submit(io, budget, priority);
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "array/array.h"
#include "io/scheduler.h"
#include "read/field_reader.h"
#include "read/page_batch_planner.h"

namespace lance::read {

struct DataWindow;  // the submitted requests of one batch of one field (staged_reads.cpp)

/// The bytes of one data need: asked before StagedReads::submit, taken in `finish`.
class DataBytes {
 public:
  /// The need's bytes, one per range in the order asked (empty for a range of length 0);
  /// waits for the request and rethrows its error. Moves them out: call once.
  std::vector<Bytes> take();

 private:
  friend class StagedReads;
  std::vector<io::ByteRange> ranges_;
  std::shared_ptr<DataWindow> window_;  ///< null until submitted (or when nothing is read)
  size_t request_ = 0;                  ///< this need's request in the window
  size_t first_ = 0;                    ///< this need's first part in the request
};

/// An array built once, in `finish`, from bytes that have arrived by then. get() runs the
/// builder on first call (later calls return the same array; a builder that threw throws
/// again). Thread-safe.
class Deferred {
 public:
  using Build = std::function<ArrayPtr()>;
  Deferred() = default;
  explicit Deferred(Build build) : build_(std::move(build)) {}
  /// Sets the builder of a Deferred made empty (a list's, known after its offsets arrive).
  void set(Build build);
  ArrayPtr get();

 private:
  std::mutex mu_;
  Build build_;
  ArrayPtr value_;
};
using DeferredPtr = std::shared_ptr<Deferred>;
inline DeferredPtr make_deferred(Deferred::Build build) { return std::make_shared<Deferred>(std::move(build)); }

class StagedReads {
 public:
  /// Largest data request to a local file (see submit).
  static constexpr uint64_t kLocalRequestBytes = 1 << 20;

  using Then = std::function<void(std::vector<Bytes>&&)>;

  /// Metadata: `then` is handed the bytes of `ranges` (in order) during the metadata rounds,
  /// and may add further needs; when every range has length 0 (or none is given) it runs at
  /// once. Ranges of length 0 read as empty without I/O.
  void now(std::vector<io::ByteRange> ranges, Then then);
  /// Data: bytes of `ranges` read after the rounds; ranges of length 0 read as empty.
  std::shared_ptr<DataBytes> later(std::vector<io::ByteRange> ranges);

  /// Registers the metadata needs as one task of `rounds`; `label` names the field in errors.
  void add_to(MetadataRounds& rounds, std::function<std::string()> label);
  /// After rounds.run: the data needs, in the order asked, grouped into requests of about
  /// `budget` bytes (0: one request per need), submitted at `priority`: from a remote file
  /// all at once (their round trips overlap), from a local one in order, one request ahead
  /// of the one being decoded (DataBytes::take), so that a batch of many large
  /// pages does not hold all their bytes at once.
  void submit(io::IoScheduler& io, uint64_t budget, uint64_t priority);

  /// Metadata needs not yet answered (0 after rounds.run).
  size_t pending_now() const { return queued_.size(); }

 private:
  struct Need {
    std::vector<io::ByteRange> ranges;
    Then then;
  };
  /// Hands out one round's bytes to the needs that asked and returns the next round's ranges.
  std::vector<io::ByteRange> answer(std::vector<Need>& asked, std::vector<Bytes>&& bytes);
  std::vector<io::ByteRange> take_round(std::vector<Need>& asked);

  std::vector<Need> queued_;
  std::vector<std::shared_ptr<DataBytes>> data_;
};

/// One planned batch of a field read through StagedReads (2.0, v1).
struct StagedPending : FieldReader::Pending {
  StagedReads reads;
  bool finished = false;  ///< set by the reader's finish
  /// Run when the batch is dropped unfinished (a prefetch, an error): the reader forgets
  /// what it kept for later batches that may never receive its bytes.
  std::function<void()> on_abandon;

  explicit StagedPending(std::span<const RowRange> rows) { ranges.assign(rows.begin(), rows.end()); }
  ~StagedPending() override {
    if (!finished && on_abandon) on_abandon();
  }
  /// FieldReader::submit of such readers: at the priority of the batch's first row.
  static void submit(FieldReader::Pending& pending, io::IoScheduler& io, uint64_t budget) {
    auto& p = static_cast<StagedPending&>(pending);
    p.reads.submit(io, budget, p.ranges.empty() ? 0 : p.ranges.front().begin);
  }
};

}  // namespace lance::read
