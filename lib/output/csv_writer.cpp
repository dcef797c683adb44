// csv: RFC 4180 with `\n` line ends (docs/output-format.md).
#include "output/text_writers.h"

namespace lance::output {

namespace {

class CsvWriter final : public DelimitedWriter {
 public:
  CsvWriter(OutputSink& sink, const TextOptions& options) : DelimitedWriter(sink, options, ',') {}

 protected:
  /// Quoted (inner `"` doubled) when the text holds `,` `"` `\r` `\n` or is empty, so that
  /// `""` is the empty string and an empty cell is null.
  void append_encoded(std::string& out, std::string_view cell) const override {
    if (!cell.empty() && cell.find_first_of(",\"\r\n") == std::string_view::npos) {
      out += cell;
      return;
    }
    append_quoted(out, cell);
  }

  /// `"` + the text with inner `"` doubled + `"`.
  void append_quoted(std::string& out, std::string_view cell) const override {
    out += '"';
    size_t run_start = 0;
    for (size_t k = cell.find('"'); k != std::string_view::npos; k = cell.find('"', k + 1)) {
      out.append(cell.data() + run_start, k + 1 - run_start);  // through the quote...
      out += '"';                                              // ...and once more
      run_start = k + 1;
    }
    out.append(cell.data() + run_start, cell.size() - run_start);
    out += '"';
  }
};

}  // namespace

std::unique_ptr<BatchWriter> make_csv_writer(OutputSink& sink, const TextOptions& options) {
  return std::make_unique<CsvWriter>(sink, options);
}

}  // namespace lance::output
