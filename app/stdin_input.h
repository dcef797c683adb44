// `-` as PATH: a Lance data file read from standard input.
#pragma once

#include <string>

namespace lance::app {

/// Returns `path` unchanged, or for "-" a path naming a copy of standard input.
///
/// Reading a Lance file needs random access (the footer is at the end), so standard input is
/// copied ("spooled") to an unlinked temporary file in $TMPDIR (default /tmp); the returned
/// path is `/dev/fd/N` of that file, which stays open for the rest of the process and leaves
/// nothing behind. Memory use is one fixed buffer, whatever the input's size. Only a single
/// data file can come this way, not a dataset directory.
///
/// Errors: usage (exit 2) when standard input is a terminal; io (exit 1) when the temporary
/// file cannot be written (e.g. ENOSPC) or standard input cannot be read. A second call
/// returns the same spool.
std::string input_path(const std::string& path);

/// `message` with the spool's `/dev/fd/N` path shown as `-` (what the user typed), for error
/// messages; unchanged when standard input was not read.
std::string name_stdin_as_dash(std::string message);

}  // namespace lance::app
