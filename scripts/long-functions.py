#!/usr/bin/env python3
"""List C++ functions of LIMIT (default 100) lines or more in lib/ and app/.

A heuristic, not a parser: a function starts at a line at namespace or class scope whose
code ends with `{` and that looks like the end of a signature (it has a `)` before the
brace, or continues a signature begun on an earlier line), and ends at its matching `}`.
Its length counts from the first line of the signature to the closing brace, inclusive.
Braces inside string and character literals and comments are ignored.

Usage: scripts/long-functions.py [--limit N] [PATH ...]   (default paths: lib app)
Exit status is 1 when any function is reported, so CI can use it as a check.
"""
import argparse
import os
import re
import sys

SOURCE_EXTS = (".cpp", ".cc", ".h", ".hpp")
SCOPE_OPENERS = re.compile(r"^\s*(inline\s+)?(namespace\b|(template\s*<.*>\s*)?(class|struct|union)\b|extern\s+\")")
NOT_FUNCTIONS = re.compile(r"^\s*(if|for|while|switch|do|else|try|catch|return|enum)\b|=\s*\{?$")


def strip_code(text):
    """Returns text with comments and literal contents blanked out, newlines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + "".join(ch if ch == "\n" else " " for ch in text[i + 2:j - 1]))
            i = j
        elif c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    """Yields (start_line, end_line, signature) for each function body in path."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = strip_code(f.read()).split("\n")
    # Each stack entry: (kind, start_line, signature); kind is "scope" (namespace/class),
    # "function", "inline" (a brace at scope level that does not end its line) or "block"
    # (anything inside a function, or an initializer).
    stack = []
    pending = []  # code lines since the last statement end at scope level: a signature being built
    for number, line in enumerate(lines, 1):
        code = line.strip()
        in_scope = all(kind == "scope" for kind, _, _ in stack)
        if in_scope and code and not code.startswith("#"):
            pending.append((number, code))
        last_brace = line.rstrip().endswith("{")
        for pos, ch in enumerate(line):
            if ch == "{":
                in_scope = all(kind == "scope" for kind, _, _ in stack)
                if not in_scope:
                    stack.append(("block", number, ""))
                    continue
                if not (last_brace and pos == len(line.rstrip()) - 1):
                    # A brace that does not end its line at scope level: a braced initializer
                    # in a signature or declaration, or a one-line body; never a long function.
                    stack.append(("inline", number, ""))
                    continue
                signature = " ".join(c for _, c in pending)
                start = pending[0][0] if pending else number
                head = signature[: signature.rfind("{")].strip()
                if SCOPE_OPENERS.match(head) and "(" not in head:
                    stack.append(("scope", number, ""))
                elif ")" in head and not NOT_FUNCTIONS.match(head) and not head.endswith("="):
                    stack.append(("function", start, head))
                else:
                    stack.append(("block", number, ""))
                pending = []
            elif ch == "}":
                if not stack:
                    continue
                kind, start, signature = stack.pop()
                if kind == "function":
                    yield start, number, signature
                # At scope level a closed body ends the pending signature; a closed braced
                # initializer does not, unless nothing but `;` follows it on its line.
                closes = kind != "inline" or line[pos + 1 :].strip() in ("", ";")
                if closes and all(kind == "scope" for kind, _, _ in stack):
                    pending = []
            elif ch == ";" and all(kind == "scope" for kind, _, _ in stack):
                pending = []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=100, help="report functions of at least this many lines")
    parser.add_argument("paths", nargs="*", default=["lib", "app"])
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = []
    for base in args.paths:
        base = base if os.path.isabs(base) else os.path.join(root, base)
        files = [base] if os.path.isfile(base) else [
            os.path.join(d, name) for d, _, names in os.walk(base) for name in names if name.endswith(SOURCE_EXTS)
        ]
        for path in sorted(files):
            for start, end, signature in functions(path):
                length = end - start + 1
                if length >= args.limit:
                    found.append((os.path.relpath(path, root), start, length, signature))
    for path, start, length, signature in sorted(found, key=lambda f: -f[2]):
        name = re.sub(r"\s+", " ", signature.split("(")[0]).split(" ")[-1]
        print(f"{length:5d}  {path}:{start}  {name}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
