// What the CLI knows about the terminal: one colour policy shared by every command (inspect
// text, head's table, the error prefix, log levels) and the terminal's width.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lance::app {

enum class ColorMode { automatic, always, never };

/// "auto", "always" or "never"; throws a usage Error otherwise.
ColorMode parse_color_mode(std::string_view name);

/// Sets the policy for the whole process (from `--color`; default automatic).
void set_color_mode(ColorMode mode);
ColorMode color_mode();

/// Whether output written to `fd` gets ANSI colour: `always` yes, `never` no; automatic:
/// only when `fd` is a terminal, NO_COLOR is unset or empty and TERM is not "dumb".
/// (`--color=always` wins over NO_COLOR, as no-color.org asks of command-line flags.)
bool use_color(int fd);

/// Columns of the terminal on `fd`, else $COLUMNS when it is a positive number, else 0.
size_t terminal_width(int fd);

/// Whether `fd` is a terminal.
bool is_terminal(int fd);

/// `text` wrapped in the ANSI sequence `sgr` (e.g. "1" bold, "2" dim, "1;31" bold red)
/// when `color`, unchanged otherwise.
std::string paint(std::string_view text, std::string_view sgr, bool color);

/// "lance-cli:" as error messages on stderr begin, bold red when stderr gets colour.
std::string error_prefix();

/// `text` with control characters (bytes below 0x20, 0x7f and the C1 controls U+0080-U+009F,
/// e.g. a newline or an ANSI escape in a file name or rows file) and every byte that is not
/// part of well-formed UTF-8 (e.g. a Latin-1 file name) written as \xNN, so an error stays one
/// line, cannot drive the terminal and is valid UTF-8. Other characters are kept.
std::string escape_controls(std::string_view text);

}  // namespace lance::app
