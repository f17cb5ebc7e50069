#include "reference/host_memory.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace kbench::reference {

namespace {

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream file(path);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::optional<std::int64_t> whole_number(std::string_view s) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (error != std::errc() || end != s.data() + s.size() || s.empty() || value < 0) return std::nullopt;
  return value;
}

// One cgroup's headroom, where its files say it has a limit.
struct CgroupLimit {
  std::int64_t headroom = 0;
  std::int64_t limit = 0;
  std::string where;  // "/sys/fs/cgroup/x/memory.max"
};

std::optional<CgroupLimit> limit_in(const std::string& dir, const char* limit_file, const char* usage_file,
                                    const char* inactive_key) {
  const auto limit_text = read_text(dir + "/" + limit_file);
  if (!limit_text) return std::nullopt;
  const auto limit = parse_cgroup_bytes(*limit_text);
  if (!limit) return std::nullopt;
  const auto usage_text = read_text(dir + "/" + usage_file);
  const auto usage = usage_text ? parse_cgroup_bytes(*usage_text) : std::nullopt;
  const auto stat = read_text(dir + "/memory.stat");
  const auto inactive = stat ? parse_memory_stat(*stat, inactive_key) : std::nullopt;
  return CgroupLimit{cgroup_headroom(*limit, usage.value_or(0), inactive.value_or(0)), *limit,
                     dir + "/" + limit_file};
}

// The tightest limit on the way from `path` up to the hierarchy's root, inside `mount`.
std::optional<CgroupLimit> tightest_limit(const std::string& mount, std::string path, const char* limit_file,
                                          const char* usage_file, const char* inactive_key) {
  std::optional<CgroupLimit> tightest;
  while (true) {
    if (auto here = limit_in(mount + (path == "/" ? "" : path), limit_file, usage_file, inactive_key))
      if (!tightest || here->headroom < tightest->headroom) tightest = here;
    if (path.empty() || path == "/") break;
    const std::size_t slash = path.rfind('/');
    path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
  }
  return tightest;
}

std::optional<CgroupLimit> cgroup_limit() {
  const auto self = read_text("/proc/self/cgroup");
  if (!self) return std::nullopt;
  if (const auto v2 = cgroup_v2_path(*self))
    if (auto limit = tightest_limit("/sys/fs/cgroup", *v2, "memory.max", "memory.current", "inactive_file"))
      return limit;
  if (const auto v1 = cgroup_v1_memory_path(*self)) {
    // In a container the memory controller's mount is the container's own cgroup: try the path, then the root.
    for (const std::string& path : {*v1, std::string("/")})
      if (auto limit = tightest_limit("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes", "memory.usage_in_bytes",
                                      "total_inactive_file"))
        return limit;
  }
  return std::nullopt;
}

std::optional<std::int64_t> test_override() {
  const char* text = std::getenv(kHostMemoryTestVariable);
  if (text == nullptr) return std::nullopt;
  const auto value = whole_number(trimmed(text));
  if (!value)
    throw std::invalid_argument(fmt::format("{}={}: expected a whole number of bytes (a test-only setting)",
                                            kHostMemoryTestVariable, text));
  return value;
}

std::optional<std::int64_t> mem_available() {
  const auto text = read_text("/proc/meminfo");
  return text ? parse_mem_available(*text) : std::nullopt;
}

}  // namespace

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

std::optional<std::int64_t> parse_cgroup_bytes(std::string_view text) {
  const auto value = whole_number(trimmed(text));
  if (!value || *value >= (std::int64_t{1} << 60)) return std::nullopt;
  return value;
}

std::optional<std::int64_t> parse_memory_stat(std::string_view stat, std::string_view key) {
  std::size_t start = 0;
  while (start < stat.size()) {
    const std::size_t end = std::min(stat.find('\n', start), stat.size());
    const std::string_view line = stat.substr(start, end - start);
    start = end + 1;
    if (line.size() > key.size() && line.starts_with(key) && line[key.size()] == ' ')
      return whole_number(trimmed(line.substr(key.size() + 1)));
  }
  return std::nullopt;
}

std::optional<std::string> cgroup_v2_path(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.starts_with("0::")) return std::string(trimmed(line.substr(3)));
  }
  return std::nullopt;
}

std::optional<std::string> cgroup_v1_memory_path(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    // ID:CONTROLLERS:PATH, the controllers a comma-separated list.
    const std::size_t first = line.find(':');
    const std::size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    std::string_view controllers = line.substr(first + 1, second - first - 1);
    while (!controllers.empty()) {
      const std::size_t comma = std::min(controllers.find(','), controllers.size());
      if (controllers.substr(0, comma) == "memory") return std::string(trimmed(line.substr(second + 1)));
      controllers.remove_prefix(std::min(comma + 1, controllers.size()));
    }
  }
  return std::nullopt;
}

std::int64_t cgroup_headroom(std::int64_t limit, std::int64_t usage, std::int64_t inactive_file) {
  const std::int64_t working_set = std::max<std::int64_t>(0, usage - std::min(inactive_file, usage));
  return std::max<std::int64_t>(0, limit - working_set);
}

std::optional<std::int64_t> available_host_memory() {
  if (auto forced = test_override()) return forced;
  std::optional<std::int64_t> available = mem_available();
  if (const auto limit = cgroup_limit())
    available = available ? std::min(*available, limit->headroom) : limit->headroom;
  return available;
}

std::string available_host_memory_source() {
  if (std::getenv(kHostMemoryTestVariable) != nullptr) return kHostMemoryTestVariable;
  const auto available = mem_available();
  if (const auto limit = cgroup_limit(); limit && (!available || limit->headroom < *available))
    return fmt::format("the limit of {:.1f} GB in {}", static_cast<double>(limit->limit) / 1e9, limit->where);
  return "MemAvailable";
}

}  // namespace kbench::reference
