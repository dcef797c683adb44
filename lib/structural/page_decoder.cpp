#include "structural/page_decoder.h"

#include "common/proto_unknown.h"
#include "structural/blob.h"
#include "structural/constant.h"
#include "structural/fullzip.h"
#include "structural/miniblock.h"
#include "structural/sparse.h"

namespace lance::structural {

namespace pb = ::lance::encodings21;

std::unique_ptr<PageDecoder> make_page_decoder(const PageContext& ctx) {
  check_corrupt(ctx.page && ctx.page->layout, "page has no structural layout");
  const pb::PageLayout& layout = *ctx.page->layout;
  switch (layout.layout_case()) {
    case pb::PageLayout::kMiniBlockLayout: return make_miniblock_decoder(ctx, layout.mini_block_layout());
    case pb::PageLayout::kFullZipLayout: return make_fullzip_decoder(ctx, layout.full_zip_layout());
    case pb::PageLayout::kConstantLayout: return make_constant_decoder(ctx, layout.constant_layout());
    case pb::PageLayout::kBlobLayout: return make_blob_decoder(ctx, layout.blob_layout());
    case pb::PageLayout::kSparseLayout: return make_sparse_decoder(ctx, layout.sparse_layout());
    default: {
      // A layout newer than our .proto parses as an unknown field.
      if (const uint32_t field = first_unknown_field(layout))
        throw_unsupported("unknown page layout (field {} of PageLayout) is not supported", field);
      throw_corrupt("page layout is empty");
    }
  }
}

}  // namespace lance::structural
