// The row numbers of `take`: "0,17,100-199" (row numbers and inclusive ranges, separated by
// commas or newlines) from --rows or a rows file, handed out in windows of bounded size, so
// a long range or an endless rows stream never needs memory for all its rows at once.
//
// Usage (app/cmd_read.cpp, take):
//   RowList list = RowList::from_text(args);           // or RowList::from_file(path)
//   std::vector<uint64_t> rows;
//   while (list.next(rows, kTakeWindowRows)) take(rows);
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lance::app {

/// Rows handed to one take at most: 8 MiB of row numbers.
inline constexpr uint64_t kTakeWindowRows = uint64_t{1} << 20;

/// Inclusive range of row numbers.
struct RowSpan {
  uint64_t first = 0;
  uint64_t last = 0;
  uint64_t count() const { return last - first + 1; }
};

/// Parses row lists given in pieces (`feed` may split an item anywhere). Errors are usage
/// errors (exit 2) naming `source` ("--rows", or the rows file) and, for files, the line.
class RowListParser {
 public:
  explicit RowListParser(std::string source, bool is_file) : source_(std::move(source)), is_file_(is_file) {}
  /// Parses the complete items of `chunk` (plus what the previous chunk left over) into `out`.
  void feed(std::string_view chunk, std::deque<RowSpan>& out);
  /// Parses the last item, if any.
  void finish(std::deque<RowSpan>& out);
  /// "--rows", the rows file, or "standard input".
  const std::string& source() const { return source_; }

 private:
  void item(std::string_view text, std::deque<RowSpan>& out);
  uint64_t number(std::string_view digits, std::string_view item) const;
  [[noreturn]] void fail(const std::string& what) const;

  std::string source_;
  bool is_file_;
  std::string partial_;  ///< the item cut by the end of the last chunk
  uint64_t line_ = 1;    ///< line of the item being parsed (rows files)
};

/// A row list from the command line or a file descriptor, read as its rows are needed.
/// Reading checks for SIGINT/SIGTERM (`check_cancelled`).
class RowList {
 public:
  /// `--rows TEXT`: parsed at once (the text is in memory anyway).
  static RowList from_text(const std::string& text);
  /// A rows file ("-" = standard input). Throws Error(io) naming the file when it cannot be
  /// opened or read (e.g. it is a directory).
  static RowList from_file(const std::string& path);
  RowList(RowList&&) noexcept;
  RowList& operator=(RowList&&) noexcept;
  ~RowList();

  /// Replaces `rows` with the next rows in the given order, at most `max_rows` of them;
  /// false when none are left.
  bool next(std::vector<uint64_t>& rows, uint64_t max_rows);
  /// True once every row has been handed out.
  bool done();
  /// When the whole list has been read (always for --rows): its largest row number, for
  /// checking it against the table before any output (nullopt for an empty list).
  bool fully_read() const { return eof_; }
  std::optional<uint64_t> max_row() const;

 private:
  RowList(std::string source, bool is_file, int fd, bool owns_fd)
      : parser_(std::move(source), is_file), fd_(fd), owns_fd_(owns_fd) {}
  /// Reads until at least `want` rows are pending or the input ends.
  void fill(uint64_t want);

  RowListParser parser_;
  int fd_ = -1;  ///< input being read; -1 when none (text, or at its end)
  bool owns_fd_ = false;
  bool eof_ = false;
  std::deque<RowSpan> pending_;
  uint64_t pending_rows_ = 0;
};

}  // namespace lance::app
