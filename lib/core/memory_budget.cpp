#include "core/memory_budget.hpp"

#include <sys/resource.h>

#include <fmt/format.h>

namespace kbench {

std::string format_memory(double bytes) {
  if (bytes >= 1e9) return fmt::format("{:.1f} GB", bytes / 1e9);
  if (bytes >= 1e6) return fmt::format("{:.1f} MB", bytes / 1e6);
  if (bytes >= 1e3) return fmt::format("{:.1f} KB", bytes / 1e3);
  return fmt::format("{:.0f} bytes", bytes);
}

void HostMemoryNeed::add(std::string what, double bytes) {
  if (bytes > 0) parts.emplace_back(std::move(what), bytes);
}

double HostMemoryNeed::total() const {
  double sum = 0;
  for (const auto& part : parts) sum += part.second;
  return sum;
}

Support host_memory_fits(const HostMemoryNeed& need, std::optional<std::int64_t> available,
                         const std::string& source) {
  if (!available || need.total() <= static_cast<double>(*available)) return Support::yes();
  std::string parts;
  for (const auto& [what, bytes] : need.parts)
    parts += fmt::format("{}{} for {}", parts.empty() ? "" : ", ", format_memory(bytes), what);
  return Support::no(fmt::format("needs {} of host memory ({}), {} available ({})", format_memory(need.total()), parts,
                                 format_memory(static_cast<double>(*available)), source));
}

Support device_memory_fits(std::int64_t needed, std::int64_t free, std::int64_t total, int device) {
  if (needed <= free) return Support::yes();
  return Support::no(fmt::format("needs {} of device memory, {} free on device {} (of {})",
                                 format_memory(static_cast<double>(needed)), format_memory(static_cast<double>(free)),
                                 device, format_memory(static_cast<double>(total))));
}

std::optional<std::int64_t> peak_rss_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0 || usage.ru_maxrss <= 0) return std::nullopt;
  return static_cast<std::int64_t>(usage.ru_maxrss) * 1024;  // Linux counts kilobytes (KiB)
}

}  // namespace kbench
