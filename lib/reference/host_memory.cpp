#include "reference/host_memory.hpp"

#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

namespace kbench::reference {

std::optional<std::int64_t> parse_mem_available(std::string_view meminfo) {
  constexpr std::string_view key = "MemAvailable:";
  std::size_t at = meminfo.find(key);
  // Only a key at the start of a line counts.
  while (at != std::string_view::npos && at != 0 && meminfo[at - 1] != '\n') at = meminfo.find(key, at + 1);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = meminfo.substr(at + key.size());
  rest.remove_prefix(std::min(rest.find_first_not_of(" \t"), rest.size()));
  std::int64_t kib = 0;
  const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), kib);
  if (error != std::errc() || end == rest.data() || kib < 0) return std::nullopt;
  rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
  rest.remove_prefix(std::min(rest.find_first_not_of(" \t"), rest.size()));
  if (!rest.starts_with("kB")) return std::nullopt;  // the kernel always writes kB (meaning KiB)
  return kib * 1024;
}

std::optional<std::int64_t> available_host_memory() {
  std::ifstream file("/proc/meminfo");
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return parse_mem_available(text.str());
}

}  // namespace kbench::reference
