// Page layout decoders of 2.1+ files: one object per (column, page) that turns a range of
// the page's rows into LeafData, reading only the bytes those rows need.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "format/file_reader.h"
#include "io/scheduler.h"
#include "structural/leaf_data.h"

namespace lance::structural {

/// Decodes rows of one page. Not thread-safe; one per reader thread.
class PageDecoder {
 public:
  virtual ~PageDecoder() = default;
  /// Rows [begin, end) of the page (0 ≤ begin ≤ end ≤ num_rows of the page).
  virtual LeafData read_rows(uint64_t begin, uint64_t end) = 0;
  /// Layout name for messages: "mini-block", "full-zip", "constant", ...
  virtual const char* layout_name() const = 0;
};

/// What a page decoder needs to know about the file and the page.
struct PageContext {
  const format::PageInfo* page = nullptr;
  io::IoScheduler* io = nullptr;
  format::FileVersion version;
  /// The leaf column's Arrow type (constant and all-null pages build values from it).
  TypePtr leaf_type;
};

/// Chooses the decoder for the page's layout. Throws Error(unsupported) for layouts this
/// build does not read (the message names the layout).
std::unique_ptr<PageDecoder> make_page_decoder(const PageContext& ctx);

}  // namespace lance::structural
