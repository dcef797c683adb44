#include "app/cli_model.h"

#include <algorithm>

namespace lance::app {

namespace {

bool hidden(const CLI::Option* opt) { return opt->get_group().empty(); }

OptionModel describe_option(const CLI::Option& opt) {
  OptionModel m;
  m.short_names = opt.get_snames();
  m.long_names = opt.get_lnames();
  if (!opt.nonpositional()) m.positional_name = opt.get_name();
  m.takes_value = opt.get_expected_max() > 0;  // a flag expects no value
  const std::string type_name = opt.get_type_name();
  if (m.takes_value) m.type = type_name.substr(0, type_name.find(':'));
  m.description = opt.get_description();
  m.default_value = opt.get_default_str();
  m.choices = choices_of_type_name(type_name);
  m.required = opt.get_required();
  m.repeatable = opt.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll || opt.get_items_expected_max() > 1;
  m.completes_files =
      m.takes_value && m.choices.empty() && (m.positional_name == "path" || m.type == "FILE" || m.type == "PATH");
  return m;
}

CommandModel describe_command(const CLI::App& app, std::vector<std::string> path, const std::string& program) {
  CommandModel m;
  m.path = std::move(path);
  m.program = program;
  m.description = app.get_description();
  m.footer = app.get_footer();
  for (const CLI::Option* opt : app.get_options()) {
    if (hidden(opt)) continue;
    (opt->nonpositional() ? m.options : m.positionals).push_back(describe_option(*opt));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); })) {
    std::vector<std::string> sub_path = m.path;
    sub_path.push_back(sub->get_name());
    m.subcommands.push_back(describe_command(*sub, std::move(sub_path), program));
  }
  return m;
}

void collect(const CommandModel& cmd, std::vector<const CommandModel*>& out) {
  out.push_back(&cmd);
  for (const CommandModel& sub : cmd.subcommands) collect(sub, out);
}

}  // namespace

std::vector<std::string> OptionModel::spellings() const {
  if (positional()) return {positional_name};
  std::vector<std::string> out;
  for (const std::string& s : short_names) out.push_back("-" + s);
  for (const std::string& l : long_names) out.push_back("--" + l);
  return out;
}

std::string CommandModel::full_name() const {
  std::string out = program;
  for (const std::string& p : path) out += " " + p;
  return out;
}

std::string CommandModel::key() const {
  std::string out;
  for (const std::string& p : path) out += (out.empty() ? "" : " ") + p;
  return out;
}

CommandModel describe_app(const CLI::App& app) { return describe_command(app, {}, app.get_name()); }

std::vector<OptionModel> effective_options(const CommandModel& root, const CommandModel& cmd) {
  std::vector<OptionModel> out = cmd.options;
  if (&cmd == &root) return out;
  std::vector<std::string> own;
  for (const OptionModel& o : cmd.options)
    for (const std::string& s : o.spellings()) own.push_back(s);
  for (const OptionModel& g : root.options) {
    const auto names = g.spellings();
    const bool clash = std::any_of(names.begin(), names.end(),
                                   [&](const std::string& n) { return std::count(own.begin(), own.end(), n) > 0; });
    if (!clash) out.push_back(g);
  }
  return out;
}

std::vector<const CommandModel*> all_commands(const CommandModel& root) {
  std::vector<const CommandModel*> out;
  collect(root, out);
  return out;
}

std::vector<std::string> choices_of_type_name(const std::string& type_name) {
  std::vector<std::string> out;
  const size_t open = type_name.find(":{");
  if (open == std::string::npos) return out;
  const size_t close = type_name.find('}', open);
  if (close == std::string::npos) return out;
  const std::string set = type_name.substr(open + 2, close - open - 2);
  for (size_t at = 0; at <= set.size();) {
    const size_t comma = std::min(set.find(',', at), set.size());
    if (comma > at) out.push_back(set.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

std::string join_words(const std::vector<std::string>& words, const std::string& separator) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : separator) + w;
  return out;
}

}  // namespace lance::app
