// tsv: tab-separated cells with backslash escapes (docs/output-format.md).
#include "output/text_writers.h"

namespace lance::output {

namespace {

class TsvWriter final : public DelimitedWriter {
 public:
  TsvWriter(OutputSink& sink, const TextOptions& options) : DelimitedWriter(sink, options, '\t') {}

 protected:
  /// Backslash, tab, LF and CR become `\\`, `\t`, `\n`, `\r`; other bytes are unchanged.
  void append_encoded(std::string& out, std::string_view cell) const override {
    size_t run_start = 0;
    for (size_t k = cell.find_first_of("\\\t\n\r"); k != std::string_view::npos;
         k = cell.find_first_of("\\\t\n\r", k + 1)) {
      out.append(cell.data() + run_start, k - run_start);
      out += '\\';
      switch (cell[k]) {
        case '\t':
          out += 't';
          break;
        case '\n':
          out += 'n';
          break;
        case '\r':
          out += 'r';
          break;
        default:
          out += '\\';
          break;
      }
      run_start = k + 1;
    }
    out.append(cell.data() + run_start, cell.size() - run_start);
  }

  /// `"` + the escaped text + `"`.
  void append_quoted(std::string& out, std::string_view cell) const override {
    out += '"';
    append_encoded(out, cell);
    out += '"';
  }
};

}  // namespace

std::unique_ptr<BatchWriter> make_tsv_writer(OutputSink& sink, const TextOptions& options) {
  return std::make_unique<TsvWriter>(sink, options);
}

}  // namespace lance::output
