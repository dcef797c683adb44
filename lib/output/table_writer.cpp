#include "output/table_writer.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "output/value_text.h"

namespace lance::output {

namespace {

bool right_aligned(const DataType& type) {
  const DataType& t = type.id == TypeId::dictionary && type.value_type ? *type.value_type : type;
  return t.is_integer() || t.is_floating() || t.id == TypeId::decimal128 || t.id == TypeId::decimal256 ||
         t.id == TypeId::duration;
}

std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
          out += ' ';
        else
          out += c;
    }
  }
  return out;
}

/// `s` cut to at most `width` code points, ending in "…" when cut.
std::string cut(std::string s, size_t width) {
  if (display_width(s) <= width) return s;
  if (width == 0) return "";
  // keep width - 1 code points, then "…"
  size_t cols = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (cols == width - 1) break;
    ++cols;
  }
  s.resize(i);
  return s + "…";
}

std::string pad(const std::string& cell, size_t width, bool right) {
  const size_t w = display_width(cell);
  if (w >= width) return cell;
  std::string spaces(width - w, ' ');
  return right ? spaces + cell : cell + spaces;
}

class TableWriter final : public BatchWriter {
 public:
  TableWriter(OutputSink& sink, TableStyle style) : sink_(sink), style_(std::move(style)) {}

  void begin(const std::vector<FieldPtr>& fields) override { fields_ = fields; }

  void write(const RecordBatch& batch) override {
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      std::vector<Cell> row;
      row.reserve(batch.columns.size());
      for (const auto& col : batch.columns) {
        if (is_null_value(*col, r)) {
          row.push_back({style_.null_text, true});
        } else {
          std::string text;
          append_cell_text(text, *col, r);
          row.push_back({escaped(text), false});
        }
      }
      rows_.push_back(std::move(row));
    }
  }

  void finish() override {
    const size_t n = fields_.size();
    if (n == 0) return;
    // Numbers are never cut (a cut number reads as another number): a numeric column is at
    // least as wide as its widest value; only its header may be shortened.
    std::vector<size_t> widths(n), floors(n, 0);
    for (size_t c = 0; c < n; ++c) {
      const bool numeric = right_aligned(*fields_[c]->type);
      widths[c] = display_width(escaped(fields_[c]->name));
      for (const auto& row : rows_) {
        const size_t w = display_width(row[c].text);
        widths[c] = std::max(widths[c], w);
        if (numeric) floors[c] = std::max(floors[c], w);
      }
      if (style_.max_cell_width > 0)
        widths[c] = std::max(floors[c], std::min(widths[c], std::max<size_t>(style_.max_cell_width, 1)));
    }
    fit(widths, floors);
    std::string out;
    auto emit_line = [&](const std::vector<std::string>& cells) {
      std::string line;
      for (size_t c = 0; c < n; ++c) {
        if (c > 0) line += "  ";
        line += cells[c];
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    };
    std::vector<std::string> cells(n);
    for (size_t c = 0; c < n; ++c) {
      const std::string name = table_cell(fields_[c]->name, widths[c]);
      const std::string padded = pad(name, widths[c], right_aligned(*fields_[c]->type));
      cells[c] = style_.color ? "\x1b[1m" + padded + "\x1b[0m" : padded;
    }
    emit_line(cells);
    for (size_t c = 0; c < n; ++c) {
      std::string rule;
      for (size_t k = 0; k < widths[c]; ++k) rule += "─";
      cells[c] = style_.color ? "\x1b[2m" + rule + "\x1b[0m" : rule;
    }
    emit_line(cells);
    for (const auto& row : rows_) {
      for (size_t c = 0; c < n; ++c) {
        const std::string padded = pad(cut(row[c].text, widths[c]), widths[c], right_aligned(*fields_[c]->type));
        cells[c] = style_.color && row[c].null ? "\x1b[2m" + padded + "\x1b[0m" : padded;
      }
      emit_line(cells);
      if (out.size() > (size_t{64} << 10)) {
        sink_.write(out);
        out.clear();
      }
    }
    sink_.write(out);
    sink_.flush();
  }

 private:
  struct Cell {
    std::string text;
    bool null = false;
  };

  /// Narrows the widest columns, one step at a time, until the line fits `max_width`: no
  /// column below 4, nor below its `floors` entry (the widest value of a numeric column).
  void fit(std::vector<size_t>& widths, const std::vector<size_t>& floors) const {
    if (style_.max_width == 0) return;
    constexpr size_t kMin = 4;
    auto lower = [&](size_t c) { return std::max(kMin, floors[c]); };
    auto total = [&] { return std::accumulate(widths.begin(), widths.end(), size_t{0}) + 2 * (widths.size() - 1); };
    for (size_t t = total(); t > style_.max_width; t = total()) {
      size_t widest = widths.size();
      for (size_t c = 0; c < widths.size(); ++c)
        if (widths[c] > lower(c) && (widest == widths.size() || widths[c] > widths[widest])) widest = c;
      if (widest == widths.size()) break;  // every column at its lower bound
      size_t second = kMin;
      for (size_t c = 0; c < widths.size(); ++c)
        if (c != widest && widths[c] > lower(c)) second = std::max(second, widths[c]);
      const size_t excess = t - style_.max_width;
      size_t target = std::max({lower(widest), second, widths[widest] > excess ? widths[widest] - excess : kMin});
      if (target >= widths[widest]) target = widths[widest] - 1;
      widths[widest] = target;
    }
  }

  OutputSink& sink_;
  TableStyle style_;
  std::vector<FieldPtr> fields_;
  std::vector<std::vector<Cell>> rows_;
};

}  // namespace

size_t display_width(std::string_view text) {
  size_t n = 0;
  for (char c : text)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

std::string table_cell(std::string_view text, size_t width) { return cut(escaped(text), width); }

std::unique_ptr<BatchWriter> make_table_writer(OutputSink& sink, const TableStyle& style) {
  return std::make_unique<TableWriter>(sink, style);
}

}  // namespace lance::output
