// A human-readable table for terminals (`lance-cli head`): column names, a rule, then the
// rows as aligned columns, numbers right-aligned, long values cut with "…" so each line
// fits the terminal. Rows are held until `finish()`, which measures every column: meant for
// a screenful of rows, not for whole tables.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "output/writer.h"

namespace lance::output {

struct TableStyle {
  size_t max_width = 0;            ///< total line width in columns (0 = no limit)
  size_t max_cell_width = 48;      ///< no column is wider than this (0 = no limit)
  bool color = false;              ///< bold header, dim rule and nulls (ANSI)
  std::string null_text = "null";  ///< the text of a null cell
};

/// Cell text of `text` for one table line: control characters escaped as in tsv
/// (`\t \n \r \\`), then cut to at most `width` code points, ending in "…" when cut.
std::string table_cell(std::string_view text, size_t width);

/// Display columns of UTF-8 `text` (one per code point).
size_t display_width(std::string_view text);

std::unique_ptr<BatchWriter> make_table_writer(OutputSink& sink, const TableStyle& style);

}  // namespace lance::output
