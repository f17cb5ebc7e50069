#pragma once
// Thrown by a prepared run that finds, once it runs, that its backend cannot compute the problem
// (torch without a kernel for the dtype on its device): the runner reports the result `unsupported`
// with the reason, not `failed`. What Backend::supports can tell before preparing, it tells there.
#include <stdexcept>

namespace kbench {

class UnsupportedProblem : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kbench
