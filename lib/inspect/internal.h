// Helpers shared by the files of lib/inspect/ (not part of its interface).
#pragma once

#include <string>
#include <vector>

#include "inspect/inspect.h"

namespace lance::inspect {

/// The role of each page buffer ("values", "validity", "offsets", "bytes", "indices",
/// "dictionary", "list offsets"; "buffer" when the tree does not address it) of a 2.0 page.
std::vector<std::string> array_encoding_buffer_roles(const ::lance::encodings::ArrayEncoding& enc, size_t num_buffers);

/// Roles of the page buffers of a 2.1+ layout (docs/format.md §5.3–5.7), one per buffer.
std::vector<std::string> layout_buffer_roles(const LayoutDesc& layout, size_t num_buffers);

}  // namespace lance::inspect
