/* A plugin kbench must refuse to load, two ways: built with KBENCH_TEST_ABI_VERSION it claims another ABI
 * version; built with KBENCH_TEST_WITHOUT_RUN it lacks kbench_plugin_run. Otherwise it would take anything.
 * Written in C99, so every build compiles include/kbench/plugin.h as C. */
#include <kbench/plugin.h>

#ifndef KBENCH_TEST_ABI_VERSION
#define KBENCH_TEST_ABI_VERSION KBENCH_PLUGIN_ABI_VERSION
#endif

static const kbench_plugin_info_t kInfo = {"broken", "0.0.1", KBENCH_PLUGIN_MEMORY_HOST, 0, NULL};

KBENCH_PLUGIN_EXPORT uint32_t kbench_plugin_abi_version(void) { return KBENCH_TEST_ABI_VERSION; }

KBENCH_PLUGIN_EXPORT const kbench_plugin_info_t* kbench_plugin_info(void) { return &kInfo; }

KBENCH_PLUGIN_EXPORT int kbench_plugin_supports(const kbench_plugin_problem_t* problem, const char* variant,
                                                char* message, size_t message_size) {
  (void)problem, (void)variant, (void)message, (void)message_size;
  return KBENCH_PLUGIN_OK;
}

KBENCH_PLUGIN_EXPORT int kbench_plugin_workspace_size(const kbench_plugin_problem_t* problem, const char* variant,
                                                      uint64_t* bytes, char* message, size_t message_size) {
  (void)problem, (void)variant, (void)message, (void)message_size;
  *bytes = 0;
  return KBENCH_PLUGIN_OK;
}

KBENCH_PLUGIN_EXPORT int kbench_plugin_prepare(const kbench_plugin_problem_t* problem, const char* variant,
                                               void** state, char* message, size_t message_size) {
  (void)problem, (void)variant, (void)message, (void)message_size;
  *state = NULL;
  return KBENCH_PLUGIN_OK;
}

#ifndef KBENCH_TEST_WITHOUT_RUN
KBENCH_PLUGIN_EXPORT int kbench_plugin_run(void* state, const kbench_plugin_tensors_t* tensors, char* message,
                                           size_t message_size) {
  (void)state, (void)tensors, (void)message, (void)message_size;
  return KBENCH_PLUGIN_OK;
}
#endif

KBENCH_PLUGIN_EXPORT void kbench_plugin_release(void* state) { (void)state; }
