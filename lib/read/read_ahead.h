// What a read fetches from a store before it needs it: every read-ahead decision of the table
// readers (lib/dataset), as pure functions of what the read will do and the store's
// io::NetworkModel. The local store's model (all zeros) makes every answer "nothing ahead".
// Like Arrow's io::internal::ReadRangeCache with CacheOptions::MakeFromNetworkMetrics: the
// store says what a round trip costs, the plan says what is wanted, these say what to send.
//
// Decisions, in the order a read meets them:
//   1. data_files_to_open: with the manifest (before it is parsed), which data files to open,
//      and which whole, from a listing of data/;
//   2. open_tail_bytes: after it, per data file, a tail or the whole file (the manifest's size
//      and the read's estimated need, dataset/read_cost.h);
//   3. worth_prefetch, fragments_ahead: how many fragments' files and deletion files travel in
//      one round trip;
//   4. announce_page_buffers, overlap_fragments, chain_threads, batches_in_flight: during a scan or a take,
//      whether page buffers are announced ahead (io::RandomAccessFile::will_read), fragments'
//      round trips overlapped, and how many batches stay in flight.
//
// Usage:
//   const io::NetworkModel m = store.network_model();
//   store.prefetch(read::data_files_to_open(m, data_dir, listing, hint), {});
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "format/file_reader.h"
#include "io/object_store.h"

namespace lance::read {

/// What a table read will do, known before its manifest is read.
struct ReadAheadHint {
  /// Every column of every row (a full scan): each data file is needed whole.
  bool whole_files = false;
  /// A take of this many rows spread thinly over the table (0: not such a take).
  uint64_t sparse_rows = 0;
  /// Open ahead only the files that the opening GET reads whole anyway (no larger than
  /// NetworkModel::tail_read_size) and those too large to fetch whole (over
  /// whole_file_limit), with their tails: a scan of every row of some columns.
  bool small_files_only = false;
};

/// data_files_to_open considers a data/ directory of at most this many entries (one bounded
/// listing); a larger table's files are opened after its manifest.
inline constexpr size_t kSpeculativeOpens = 16;
/// Fragments whose files a remote scan or take fetches ahead, in one round trip.
inline constexpr size_t kPrefetchFragments = 8;
/// Scan batches in flight over a network when the options leave it to the reader.
inline constexpr size_t kRemoteBatchesInFlight = 8;

/// The `.lance` files of a listing of `data_dir` (`entries`, as io::ObjectStore::list gives
/// them) to open along with the manifest: none on a local store or when `entries` holds none.
/// A file is opened whole (tail_bytes = its size, when at most whole_file_limit) when `hint`
/// says the read needs all of it, or when a take's rows, spread evenly over the listed files,
/// fall closer together than the coalescing gap; else with the store's tail, and, when `hint`
/// says the read needs the whole file, its first bytes along with the tail (head_of). With
/// `hint.small_files_only`, only files no larger than the tail (read whole anyway) and files
/// over whole_file_limit (their tails) are opened.
std::vector<io::ObjectStore::OpenAhead> data_files_to_open(const io::NetworkModel& m, const std::string& data_dir,
                                                           const std::vector<io::ListEntry>& entries,
                                                           const ReadAheadHint& hint);

/// How much of its end the opening GET of a data file of `size` bytes (0: unknown) fetches,
/// when the read needs `needed` of its bytes: `size` (the whole file, in one round trip
/// instead of tail + metadata + data) when the bytes it would not need cost less than a round
/// trip and the file is within whole_file_limit; else 0 (the store's tail).
uint64_t open_tail_bytes(const io::NetworkModel& m, uint64_t size, uint64_t needed);

/// Whether a prefetch of `opens` file opens and `reads` whole-file reads is worth sending
/// ahead: on a remote store, when it bundles more than one request, or opens a file whole.
bool worth_prefetch(const io::NetworkModel& m, size_t opens, size_t reads, bool any_whole);

/// Whether a scan tells each data file which page buffers it will read, so that a remote
/// file fetches them ahead in coalesced requests.
bool announce_page_buffers(const io::NetworkModel& m);

/// Page buffers up to this many bytes are announced whole, whatever share of the page's rows
/// a scan reads (scan_page_buffers).
constexpr uint64_t kWholeBufferBytes = 4ull << 20;
/// The least margin rows_part_of_buffer leaves on each side of its estimate.
constexpr uint64_t kRowsPartMargin = 1ull << 20;

/// The part of a page buffer that rows [first_row, last_row) of the file likely occupy, for a
/// page holding rows [page_first_row, page_first_row + page_rows): the buffer's bytes in
/// proportion to the rows' share of the page, widened on each side by a quarter of that
/// estimate or kRowsPartMargin, whichever is more. Buffers up to kWholeBufferBytes, pages the
/// rows cover whole, and estimates reaching 7/8 of the buffer give the whole buffer. A guess for
/// read-ahead only (2.1+ value buffers, repetition indices and chunk tables are in row order;
/// a dictionary is not): a read outside it is fetched when it comes.
io::ByteRange rows_part_of_buffer(const io::ByteRange& buffer, uint64_t page_first_row, uint64_t page_rows,
                                  uint64_t first_row, uint64_t last_row);

/// The byte ranges a scan of the file's rows [first_row, last_row) reads from `file` for the
/// fields `fields` (indices into its schema): every page buffer of their columns, and each
/// column's own buffers. 2.1+ pages outside the rows are left out (a `head` reads the first
/// pages only), and of a large buffer of a page the rows cover in part only their likely share
/// (rows_part_of_buffer: a 100-row window read from a 77 MB text page fetched 59 MB ahead of
/// its reads without it); 2.0 pages count a column's entries, not rows, so all of them are in,
/// whole. Field and column indices beyond the file's tables are skipped. In file order per column.
std::vector<io::ByteRange> scan_page_buffers(const format::FileReader& file, const std::vector<size_t>& fields,
                                             uint64_t first_row, uint64_t last_row);

/// Whether the fragments of a take run concurrently (their round trips overlapping) rather
/// than in runs grouped by bytes (a local read, where grouping saves decoding).
bool overlap_fragments(const io::NetworkModel& m);

/// Whether each chain (fragment) of a scan runs on a thread of its own (read::ScanPipeline's
/// chain_threads): on a remote store, where starting a batch blocks on round trips.
bool chain_threads(const io::NetworkModel& m);

/// Scan batches in flight: `configured` when set (> 0), else kRemoteBatchesInFlight on a
/// remote store (more batches hide the round trips; memory stays bounded by batches x batch
/// size x columns) and 0 (the reader's default) locally.
size_t batches_in_flight(const io::NetworkModel& m, size_t configured);

}  // namespace lance::read
