#pragma once
// Explicit registration: main() adds each backend it was built with, in order. No static
// self-registration, which silently drops objects across a static-library boundary.
#include <memory>
#include <string_view>
#include <vector>

#include "backend/backend.hpp"

namespace kbench {

class Registry {
 public:
  void add(std::unique_ptr<Backend> backend);
  Backend* find(std::string_view name) const;  // nullptr when unknown
  const std::vector<std::unique_ptr<Backend>>& all() const { return backends_; }
  std::vector<std::string> names() const;

 private:
  std::vector<std::unique_ptr<Backend>> backends_;
};

}  // namespace kbench
