#include "import/import_error.hpp"

#include <fmt/format.h>

#include <cctype>

namespace kbench::import {

std::string ImportError::message() const {
  if (line <= 0) return fmt::format("{}: {}", file, what);
  if (column <= 0) return fmt::format("{}:{}: {}", file, line, what);
  return fmt::format("{}:{}:{}: {}", file, line, column, what);
}

std::string name_from_text(std::string_view text) {
  std::string name;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '.' || c == '_')
      name += static_cast<char>(std::tolower(u));
    else if (!name.empty() && name.back() != '-')
      name += '-';
  }
  while (!name.empty() && (name.back() == '-' || name.back() == '_' || name.back() == '.')) name.pop_back();
  while (!name.empty() && !std::isalnum(static_cast<unsigned char>(name.front()))) name.erase(name.begin());
  if (name.size() > 100) name.resize(100);
  return name.empty() ? "workload" : name;
}

}  // namespace kbench::import
