#include "app/man_page.h"

#include <fmt/format.h>

#include <sstream>

namespace lance::app {

namespace {

/// The length of the UTF-8 sequence that starts with `lead` (0: not a lead byte).
int utf8_length(unsigned char lead) {
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

/// The code point of the sequence of `n` bytes at s[i], or U+FFFD when it is not valid UTF-8.
uint32_t decode_utf8(const std::string& s, size_t i, int n) {
  if (n == 0 || i + static_cast<size_t>(n) > s.size()) return 0xFFFD;
  uint32_t cp = static_cast<unsigned char>(s[i]) & (0x7F >> n);
  for (int k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
    if ((c & 0xC0) != 0x80) return 0xFFFD;
    cp = (cp << 6) | (c & 0x3F);
  }
  return cp;
}

std::string bold(const std::string& text) { return "\\fB" + roff_escape(text) + "\\fR"; }
std::string italic(const std::string& text) { return "\\fI" + roff_escape(text) + "\\fR"; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// Paragraphs of a --help footer (separated by blank lines).
std::vector<std::vector<std::string>> paragraphs(const std::string& text) {
  std::vector<std::vector<std::string>> out(1);
  for (const std::string& line : lines_of(text)) {
    if (line.find_first_not_of(' ') == std::string::npos) {
      if (!out.back().empty()) out.emplace_back();
    } else {
      out.back().push_back(line);
    }
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

bool is_examples(const std::vector<std::string>& para) { return para.front().rfind("Examples", 0) == 0; }

/// A footer paragraph: a heading line ("Examples:") over indented lines is a heading and a
/// literal block; anything else is filled text.
std::string render_paragraph(const std::vector<std::string>& para) {
  const bool block = para.size() > 1 && para.front().back() == ':' && para[1].rfind("  ", 0) == 0;
  if (!block) {
    std::string out = ".PP\n";
    for (const std::string& line : para) out += roff_escape(line.substr(line.find_first_not_of(' '))) + "\n";
    return out;
  }
  std::string out = ".PP\n" + roff_escape(para.front()) + "\n.RS 4\n.nf\n";
  for (size_t i = 1; i < para.size(); ++i) out += roff_escape(para[i].substr(para[i].find_first_not_of(' '))) + "\n";
  return out + ".fi\n.RE\n";
}

/// One option or positional as a tagged paragraph: names and value type, then the text.
std::string render_option(const OptionModel& o) {
  std::string tag;
  if (o.positional()) {
    tag = italic(o.positional_name);
  } else {
    for (const std::string& s : o.spellings()) tag += (tag.empty() ? "" : ", ") + bold(s);
    if (o.takes_value) tag += " " + italic(o.type);
  }
  std::vector<std::string> notes;
  if (!o.choices.empty()) notes.push_back("one of: " + join_words(o.choices, ", "));
  if (!o.default_value.empty()) notes.push_back("default: " + o.default_value);
  if (o.positional() && o.required) notes.push_back("required");
  const std::string text = o.description + (notes.empty() ? "" : " (" + join_words(notes, "; ") + ")");
  return ".TP\n" + tag + "\n" + roff_escape(text) + "\n";
}

std::string synopsis_line(const CommandModel& cmd) {
  std::string line = bold(cmd.full_name()) + " [" + italic("OPTIONS") + "]";
  if (!cmd.subcommands.empty()) line += " " + italic("COMMAND");
  for (const OptionModel& p : cmd.positionals) {
    const std::string name = italic(p.positional_name) + (p.repeatable ? " .\\|.\\|." : "");
    line += " " + (p.required ? name : "[" + name + "]");
  }
  return line;
}

std::string render_command(const CommandModel& cmd) {
  std::string out = ".SS \"" + roff_escape(cmd.full_name()) + "\"\n" + synopsis_line(cmd) + "\n.PP\n" +
                    roff_escape(cmd.description) + "\n";
  if (!cmd.subcommands.empty()) {
    out += ".PP\nCommands:\n";
    for (const CommandModel& sub : cmd.subcommands)
      out += ".TP\n" + bold(sub.path.back()) + "\n" + roff_escape(sub.description) + "\n";
  }
  if (!cmd.positionals.empty() || !cmd.options.empty()) out += ".PP\nArguments and options:\n";
  for (const OptionModel& p : cmd.positionals) out += render_option(p);
  for (const OptionModel& o : cmd.options) out += render_option(o);
  for (const auto& para : paragraphs(cmd.footer)) out += render_paragraph(para);
  return out;
}

std::string render_pairs(const char* section, const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out = fmt::format(".SH {}\n", section);
  for (const auto& [term, text] : pairs) out += ".TP\n" + bold(term) + "\n" + roff_escape(text) + "\n";
  return out;
}

/// The program's description without a leading "NAME — ".
std::string short_description(const CommandModel& root) {
  const std::string prefix = root.program + " \u2014 ";
  return root.description.rfind(prefix, 0) == 0 ? root.description.substr(prefix.size()) : root.description;
}

}  // namespace

std::string man_page(const CommandModel& root, const ManPageExtras& extras) {
  std::string out =
      fmt::format(".\\\" Generated by `{} man` from its command definitions; do not edit.\n", root.program);
  std::string title = root.program;
  for (char& c : title) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  out += fmt::format(".TH {} 1 \"\" \"{} {}\" \"User Commands\"\n", roff_escape(title), roff_escape(root.program),
                     roff_escape(extras.version));
  out += ".SH NAME\n" + roff_escape(root.program) + " \\- " + roff_escape(short_description(root)) + "\n";
  out += ".SH SYNOPSIS\n" + bold(root.program) + " [" + italic("GLOBAL OPTIONS") + "] " + italic("COMMAND") + " [" +
         italic("OPTIONS") + "] [" + italic("ARGUMENTS") + "]\n.br\n";
  for (const CommandModel* cmd : all_commands(root))
    if (cmd != &root && cmd->subcommands.empty()) out += synopsis_line(*cmd) + "\n.br\n";
  std::string what = short_description(root);
  if (!what.empty()) what[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(what[0])));
  out += ".SH DESCRIPTION\n" + roff_escape(what) + ".\n";
  const auto root_paragraphs = paragraphs(root.footer);
  for (const auto& para : root_paragraphs)
    if (!is_examples(para)) out += render_paragraph(para);
  out += ".SH OPTIONS\nGlobal options, given before or after the command:\n";
  for (const OptionModel& o : root.options) out += render_option(o);
  out += ".SH COMMANDS\n";
  for (const CommandModel* cmd : all_commands(root))
    if (cmd != &root) out += render_command(*cmd);
  out += render_pairs("EXIT STATUS", extras.exit_status) + render_pairs("ENVIRONMENT", extras.environment);
  out += ".SH EXAMPLES\n";
  for (const auto& para : root_paragraphs)
    if (is_examples(para)) out += render_paragraph(para);
  out += ".SH SEE ALSO\n";
  for (const std::string& line : extras.see_also) out += roff_escape(line) + "\n.br\n";
  return out;
}

std::string roff_escape(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    line_start = c == '\n';
    if (c < 0x80) {
      out += c == '\\' ? "\\e" : c == '-' ? "\\-" : std::string(1, static_cast<char>(c));
      ++i;
      continue;
    }
    const int n = utf8_length(c);
    const uint32_t cp = decode_utf8(text, i, n);
    out += fmt::format("\\[u{:04X}]", cp);
    i += cp == 0xFFFD ? 1 : static_cast<size_t>(n);
  }
  return out;
}

}  // namespace lance::app
