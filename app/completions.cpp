#include "app/completions.h"

#include <stdexcept>

namespace lance::app {

std::string completion_script(const std::string& shell, const CommandModel& root) {
  if (shell == "bash") return bash_completion(root);
  if (shell == "zsh") return zsh_completion(root);
  if (shell == "fish") return fish_completion(root);
  throw std::invalid_argument("no completion script for shell '" + shell + "' (bash, zsh, fish)");
}

std::string shell_identifier(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return out;
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace lance::app
