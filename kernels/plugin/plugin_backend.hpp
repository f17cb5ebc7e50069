#pragma once
// `--backends plugin:PATH.so[:VARIANT]`: a convolution in a shared library that implements
// include/kbench/plugin.h, verified and timed like kbench's own backends. A library that cannot be
// loaded, lacks an entry point or was built for another ABI version is named with the reason in the
// result; nothing of it is needed to build kbench. See docs/backends.md.
#include <memory>

#include "backend/backend.hpp"

namespace kbench::plugin {

std::unique_ptr<Backend> make_plugin_backend();

}  // namespace kbench::plugin
