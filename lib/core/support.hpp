#pragma once
// "Can you?" answered with yes, or no and a reason a person can act on. A "no" is a result, not an
// error. In core/ so that every layer answers the question the same way, down to the kernels' index
// headers (a tiling that does not fit, an envelope a problem lies outside).
#include <string>
#include <utility>

namespace kbench {

struct Support {
  bool ok = true;
  std::string reason;
  static Support yes() { return {}; }
  static Support no(std::string why) { return {false, std::move(why)}; }
  explicit operator bool() const { return ok; }
};

}  // namespace kbench
