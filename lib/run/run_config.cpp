#include "run/run_config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "spec/did_you_mean.hpp"

namespace kbench {

std::vector<BackendRequest> parse_backend_list(const std::string& text) {
  std::vector<BackendRequest> requests;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = std::min(text.find(',', start), text.size());
    // A piece with '=' and no ':' continues the variant before it: no backend name has '=', and an
    // engine config's knob list is comma-separated (cudnn:engine/12:TILEK=2,SPLIT_K_SLC=1).
    while (comma < text.size() && text.find(':', start) < comma) {
      const std::size_t next = std::min(text.find(',', comma + 1), text.size());
      const std::string piece = text.substr(comma + 1, next - comma - 1);
      if (piece.find('=') == std::string::npos || piece.find(':') != std::string::npos) break;
      comma = next;
    }
    const std::string entry = text.substr(start, comma - start);
    if (entry.empty())
      throw InputError(fmt::format("--backends: empty entry in '{}'; expected NAME[:VARIANT|:all],...", text));
    BackendRequest request;
    const std::size_t colon = entry.find(':');
    request.backend = entry.substr(0, colon);
    if (colon != std::string::npos) {
      request.variant = entry.substr(colon + 1);
      if (request.variant.empty() || request.backend.empty())
        throw InputError(fmt::format("--backends: '{}' is not NAME:VARIANT", entry));
      if (request.variant == "all") {
        request.all_variants = true;
        request.variant.clear();
      }
    }
    requests.push_back(request);
    start = comma + 1;
  }
  return requests;
}

Backend& requested_backend(const Registry& registry, const BackendRequest& request) {
  Backend* backend = registry.find(request.backend);
  if (!backend) {
    const std::vector<std::string> names = registry.names();
    const std::vector<std::string_view> candidates(names.begin(), names.end());
    throw InputError(fmt::format("--backends: unknown backend '{}'{}; known: {}", request.backend,
                                 spec::did_you_mean_suffix(request.backend, candidates), fmt::join(names, ", ")));
  }
  if (request.variant.empty()) return *backend;
  if (Support s = backend->variant_usable(request.variant); !s) throw InputError("--backends: " + s.reason);
  return *backend;
}

}  // namespace kbench
