#include "structural/page_decoder.h"

#include <algorithm>

#include "common/proto_unknown.h"
#include "structural/blob.h"
#include "structural/constant.h"
#include "structural/fullzip.h"
#include "structural/miniblock.h"
#include "structural/sparse.h"

namespace lance::structural {

namespace pb = ::lance::encodings21;

io::ByteRange likely_share(io::ByteRange buffer, uint64_t num_rows, RowRange span) {
  constexpr uint64_t kWholeBelow = 256 * 1024, kMinMargin = 64 * 1024, kMaxMargin = 1024 * 1024;
  if (buffer.length == 0 || num_rows == 0 || span.begin >= span.end) return {};
  if (buffer.length <= kWholeBelow) return buffer;
  const double per_row = static_cast<double>(buffer.length) / static_cast<double>(num_rows);
  const auto lo = static_cast<uint64_t>(per_row * static_cast<double>(std::min(span.begin, num_rows)));
  const auto hi = static_cast<uint64_t>(per_row * static_cast<double>(std::min(span.end, num_rows)));
  const uint64_t margin = std::clamp<uint64_t>((hi - lo) / 2, kMinMargin, kMaxMargin);
  const uint64_t from = lo > margin ? lo - margin : 0;
  const uint64_t to = std::min(buffer.length, hi + margin);
  return {buffer.offset + from, to - from};
}

std::vector<io::ByteRange> likely_share_of_rows(io::ByteRange buffer, uint64_t num_rows,
                                                std::span<const RowRange> rows) {
  if (rows.empty()) return {};
  const io::ByteRange share = likely_share(buffer, num_rows, {rows.front().begin, rows.back().end});
  if (share.length == 0) return {};
  return {share};
}

std::unique_ptr<PageDecoder> make_page_decoder(const PageContext& ctx) {
  check_corrupt(ctx.page && ctx.page->layout, "page has no structural layout");
  const pb::PageLayout& layout = *ctx.page->layout;
  switch (layout.layout_case()) {
    case pb::PageLayout::kMiniBlockLayout:
      return make_miniblock_decoder(ctx, layout.mini_block_layout());
    case pb::PageLayout::kFullZipLayout:
      return make_fullzip_decoder(ctx, layout.full_zip_layout());
    case pb::PageLayout::kConstantLayout:
      return make_constant_decoder(ctx, layout.constant_layout());
    case pb::PageLayout::kBlobLayout:
      return make_blob_decoder(ctx, layout.blob_layout());
    case pb::PageLayout::kSparseLayout:
      return make_sparse_decoder(ctx, layout.sparse_layout());
    default: {
      // A layout newer than our .proto parses as an unknown field.
      if (const uint32_t field = first_unknown_field(layout))
        throw_unsupported("unknown page layout (field {} of PageLayout) is not supported", field);
      throw_corrupt("page layout is empty");
    }
  }
}

}  // namespace lance::structural
