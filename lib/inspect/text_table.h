// Text helpers of the inspect renderers (not part of lib/inspect's interface): display
// width of UTF-8 text, eliding, optional ANSI styles, and aligned tables.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace lance::inspect {

/// Terminal columns taken by UTF-8 text (one per code point; our text has no wide glyphs).
inline size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

/// Cuts `s` to at most `max` columns, ending in "…" when cut.
inline std::string elide(const std::string& s, size_t max) {
  if (display_width(s) <= max || max == 0) return s;
  std::string out;
  size_t cols = 0;
  for (size_t i = 0; i < s.size();) {
    size_t len = 1;
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0xF0)
      len = 4;
    else if (c >= 0xE0)
      len = 3;
    else if (c >= 0xC0)
      len = 2;
    if (cols + 1 >= max) break;
    out.append(s, i, len);
    ++cols;
    i += len;
  }
  return out + "…";
}

class Style {
 public:
  explicit Style(bool color) : color_(color) {}
  std::string bold(const std::string& s) const { return color_ ? "\x1b[1m" + s + "\x1b[0m" : s; }
  std::string dim(const std::string& s) const { return color_ ? "\x1b[2m" + s + "\x1b[0m" : s; }

 private:
  bool color_;
};

/// A table with a header row; columns separated by two spaces, numbers right-aligned.
class Table {
 public:
  Table(std::vector<std::string> headers, std::vector<bool> right)
      : headers_(std::move(headers)), right_(std::move(right)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }

  /// When the table would be wider than `total` columns, elide the cells of `column`
  /// (never below `min_width`) until it fits.
  void fit(size_t column, size_t total, size_t min_width) {
    fit_column_ = column;
    fit_total_ = total;
    fit_min_ = min_width;
  }

  std::string render(const Style& style, const std::string& indent) const {
    std::vector<size_t> w(headers_.size());
    for (size_t c = 0; c < headers_.size(); ++c) {
      w[c] = display_width(headers_[c]);
      for (const auto& r : rows_) w[c] = std::max(w[c], display_width(r[c]));
    }
    std::vector<std::vector<std::string>> rows = rows_;
    if (fit_total_ > 0 && fit_column_ < w.size()) {
      size_t width = display_width(indent) + 2 * (w.size() - 1);
      for (size_t x : w) width += x;
      if (width > fit_total_) {
        const size_t floor = std::max(fit_min_, display_width(headers_[fit_column_]));
        const size_t excess = width - fit_total_;
        w[fit_column_] = w[fit_column_] > floor + excess ? w[fit_column_] - excess : std::min(w[fit_column_], floor);
        for (auto& r : rows) r[fit_column_] = elide(r[fit_column_], w[fit_column_]);
      }
    }
    auto line = [&](const std::vector<std::string>& cells, bool header) {
      std::string out = indent;
      for (size_t c = 0; c < cells.size(); ++c) {
        const bool last = c + 1 == cells.size();
        const size_t pad = w[c] - display_width(cells[c]);
        std::string cell =
            right_[c] ? std::string(pad, ' ') + cells[c] : cells[c] + (last ? "" : std::string(pad, ' '));
        out += header ? style.dim(cell) : cell;
        if (!last) out += "  ";
      }
      while (!out.empty() && out.back() == ' ') out.pop_back();
      return out + "\n";
    };
    std::string out = line(headers_, true);
    for (const auto& r : rows) out += line(r, false);
    return out;
  }

 private:
  std::vector<std::string> headers_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
  size_t fit_column_ = 0, fit_total_ = 0, fit_min_ = 0;
};

}  // namespace lance::inspect
