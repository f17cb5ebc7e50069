#include "backend/registry.hpp"

#include <stdexcept>

namespace kbench {

void Registry::add(std::unique_ptr<Backend> backend) {
  if (find(backend->name())) throw std::logic_error("backend registered twice: " + backend->name());
  backends_.push_back(std::move(backend));
}

Backend* Registry::find(std::string_view name) const {
  for (const auto& backend : backends_)
    if (backend->name() == name) return backend.get();
  return nullptr;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const auto& backend : backends_) out.push_back(backend->name());
  return out;
}

}  // namespace kbench
