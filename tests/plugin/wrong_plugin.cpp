// A deliberately wrong plugin: a forward conv (fp32, nchw, any groups) whose innermost tap reads one input
// element too far, as an off-by-one in a real kernel would. kbench must report it `wrong`, never timed.
#include <kbench/plugin.h>

#include <cstdint>
#include <cstdio>
#include <new>

namespace {
const kbench_plugin_info_t kInfo = {"off-by-one", "0.1.0", KBENCH_PLUGIN_MEMORY_HOST, 0, nullptr};
}  // namespace

KBENCH_PLUGIN_EXPORT uint32_t kbench_plugin_abi_version(void) { return KBENCH_PLUGIN_ABI_VERSION; }
KBENCH_PLUGIN_EXPORT const kbench_plugin_info_t* kbench_plugin_info(void) { return &kInfo; }

KBENCH_PLUGIN_EXPORT int kbench_plugin_supports(const kbench_plugin_problem_t* p, const char*, char* message,
                                                size_t size) {
  if (p->op == KBENCH_PLUGIN_OP_CONV && p->pass == KBENCH_PLUGIN_PASS_FORWARD && p->dtype == KBENCH_PLUGIN_DTYPE_FP32 &&
      p->layout == KBENCH_PLUGIN_LAYOUT_NCHW)
    return KBENCH_PLUGIN_OK;
  std::snprintf(message, size, "forward conv, fp32, nchw only");
  return KBENCH_PLUGIN_UNSUPPORTED;
}

KBENCH_PLUGIN_EXPORT int kbench_plugin_workspace_size(const kbench_plugin_problem_t*, const char*, uint64_t* bytes,
                                                      char*, size_t) {
  *bytes = 0;
  return KBENCH_PLUGIN_OK;
}

KBENCH_PLUGIN_EXPORT int kbench_plugin_prepare(const kbench_plugin_problem_t* p, const char*, void** state, char*,
                                               size_t) {
  *state = new (std::nothrow) kbench_plugin_problem_t(*p);
  return *state ? KBENCH_PLUGIN_OK : KBENCH_PLUGIN_ERROR;
}

KBENCH_PLUGIN_EXPORT int kbench_plugin_run(void* state, const kbench_plugin_tensors_t* t, char*, size_t) {
  const auto& p = *static_cast<const kbench_plugin_problem_t*>(state);
  const auto* x = static_cast<const float*>(t->input);
  const auto* w = static_cast<const float*>(t->weight);
  const auto* b = static_cast<const float*>(t->bias);
  auto* y = static_cast<float*>(t->output);
  const std::int64_t in_volume = p.input[0] * p.input[1] * p.input[2];
  const std::int64_t out_volume = p.output[0] * p.output[1] * p.output[2];
  const std::int64_t taps = p.kernel[0] * p.kernel[1] * p.kernel[2];
  const std::int64_t cin_g = p.in_channels / p.groups, cout_g = p.out_channels / p.groups;
  for (std::int64_t n = 0; n < p.batch; ++n)
    for (std::int64_t co = 0; co < p.out_channels; ++co)
      for (std::int64_t o = 0; o < out_volume; ++o) {
        const std::int64_t o2 = o % p.output[2], o1 = o / p.output[2] % p.output[1], o0 = o / p.output[2] / p.output[1];
        float sum = b ? b[co] : 0.0f;
        for (std::int64_t ci = 0; ci < cin_g; ++ci)
          for (std::int64_t k = 0; k < taps; ++k) {
            const std::int64_t k2 = k % p.kernel[2], k1 = k / p.kernel[2] % p.kernel[1],
                               k0 = k / p.kernel[2] / p.kernel[1];
            const std::int64_t i0 = o0 * p.stride[0] - p.pad_before[0] + k0 * p.dilation[0];
            const std::int64_t i1 = o1 * p.stride[1] - p.pad_before[1] + k1 * p.dilation[1];
            const std::int64_t i2 =
                o2 * p.stride[2] - p.pad_before[2] + k2 * p.dilation[2] + 1;  // the bug: one too far
            if (i0 < 0 || i0 >= p.input[0] || i1 < 0 || i1 >= p.input[1] || i2 < 0 || i2 >= p.input[2]) continue;
            sum += x[(n * p.in_channels + co / cout_g * cin_g + ci) * in_volume + (i0 * p.input[1] + i1) * p.input[2] +
                     i2] *
                   w[(co * cin_g + ci) * taps + k];
          }
        y[(n * p.out_channels + co) * out_volume + o] = sum;
      }
  return KBENCH_PLUGIN_OK;
}

KBENCH_PLUGIN_EXPORT void kbench_plugin_release(void* state) { delete static_cast<kbench_plugin_problem_t*>(state); }
