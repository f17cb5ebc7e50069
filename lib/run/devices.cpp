#include "run/devices.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "core/error.hpp"

namespace kbench {

namespace {

constexpr int kMaxShards = 10000;  // parse_shard's limit

[[noreturn]] void refuse(std::string_view text, std::string_view why, int max_device) {
  throw InputError(
      fmt::format("--devices: got '{}': {}; expected all or device indices from 0 to {} separated by "
                  "commas, e.g. --devices 0,2",
                  text, why, max_device));
}

}  // namespace

DeviceSelection parse_devices(std::string_view text, int max_device) {
  if (text == "all") return {true, {}};
  DeviceSelection selection;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view part = text.substr(start, comma - start);
    int index = -1;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), index);
    if (part.empty() || part.size() > 6 || error != std::errc{} || end != part.data() + part.size() || index < 0 ||
        index > max_device)
      refuse(text, fmt::format("'{}' is not a device index", part), max_device);
    if (std::find(selection.indices.begin(), selection.indices.end(), index) != selection.indices.end())
      refuse(text, fmt::format("device {} is listed twice", index), max_device);
    selection.indices.push_back(index);
    if (comma == text.size()) break;
    start = comma + 1;
  }
  return selection;
}

std::vector<int> resolve_devices(const DeviceSelection& selection, const std::vector<int>& present,
                                 const std::string& why_none) {
  if (selection.all) {
    if (present.empty())
      throw InputError(
          fmt::format("--devices all: no CUDA device found ({}); expected a machine with a GPU, or "
                      "no --devices",
                      why_none));
    return present;
  }
  if (selection.indices.size() == 1) return selection.indices;  // as --device N: no device is a result's reason
  if (present.empty())
    throw InputError(fmt::format("--devices {}: no CUDA device found ({}); expected a machine with these GPUs",
                                 fmt::join(selection.indices, ","), why_none));
  for (int index : selection.indices)
    if (std::find(present.begin(), present.end(), index) == present.end())
      throw InputError(
          fmt::format("--devices: there is no device {} here; the devices are {}", index, fmt::join(present, ",")));
  return selection.indices;
}

Shard child_shard(const Shard& run, int child, int children) {
  const long long count = static_cast<long long>(run.count) * children;
  if (count > kMaxShards)
    throw InputError(fmt::format("--devices with --shard {}: {} devices make {} shards, over the limit of {}",
                                 run.text(), children, count, kMaxShards));
  return Shard{run.index + run.count * child, static_cast<int>(count)};
}

std::vector<std::string> child_arguments(const std::vector<std::string>& argv, int device, const Shard& shard,
                                         std::uint64_t seed, const std::string& output) {
  // Flags the parent decides for its children; each takes a value.
  constexpr std::array<std::string_view, 7> kReplaced = {"--devices", "--device", "--shard", "--seed",
                                                         "--format",  "--output", "-o"};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (i > 0 && arg == "--") {  // everything after is positional
      out.insert(out.end(), argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
      break;
    }
    bool replaced = false;
    for (std::string_view flag : kReplaced) {
      if (arg == flag) {
        ++i;  // and its value
        replaced = true;
        break;
      }
      if (arg.starts_with(std::string(flag) + "=")) {
        replaced = true;
        break;
      }
    }
    if (!replaced) out.push_back(arg);
  }
  const std::vector<std::string> added = {"--device", std::to_string(device),
                                          "--shard",  shard.text(),
                                          "--seed",   std::to_string(seed),
                                          "--format", "json",
                                          "--output", output};
  // Before a "--" if there is one, so the flags stay flags.
  const auto dashes = std::find(out.begin() + (out.empty() ? 0 : 1), out.end(), "--");
  out.insert(dashes, added.begin(), added.end());
  return out;
}

}  // namespace kbench
