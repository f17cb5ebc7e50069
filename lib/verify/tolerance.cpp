#include "verify/tolerance.hpp"

namespace kbench {

Tolerance default_tolerance(MathMode math) {
  if (math == MathMode::tf32) return {1e-2, 1e-2};
  return {1e-4, 1e-4};
}

}  // namespace kbench
