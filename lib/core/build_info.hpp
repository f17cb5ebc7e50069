#pragma once
// What the running binaries were built from: "commit 0123456789ab[-dirty] · Release · GNU 12.2.0 ·
// CUDA 13.0.48 sm_90 · portable". Defined in a source generated at build time
// (cmake/KbenchBuildInfo.cmake), so result documents name the exact code that produced them.
#include <string_view>

namespace kbench {

std::string_view build_description();

}  // namespace kbench
