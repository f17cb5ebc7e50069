#include "help_text.hpp"

namespace kbench::cli {

void group_flags(CLI::App& app, const std::vector<FlagGroup>& groups) {
  for (const FlagGroup& group : groups)
    for (const std::string& flag : group.flags)
      if (CLI::Option* option = app.get_option_no_throw(flag)) option->group(group.title);
}

void set_examples(CLI::App& app, const std::vector<std::string>& examples) {
  std::string text = "\nExamples:\n";
  for (const std::string& example : examples) text += "  " + example + "\n";
  app.footer(text);
}

}  // namespace kbench::cli
