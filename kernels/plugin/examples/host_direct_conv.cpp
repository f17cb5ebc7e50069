// The host example plugin: a direct convolution in plain C++ loops on host memory, forward pass, conv
// and conv_transpose, 1-3 spatial dimensions, groups, fp32, nchw. It declares everything else
// unsupported, with the reason. Built by CMake as libkbench_host_example.so; by hand:
//   g++ -O2 -shared -fPIC -fvisibility=hidden -I include host_direct_conv.cpp -o libmyconv.so
// See docs/backends.md.
#include <kbench/plugin.h>

#include <cstdint>
#include <cstdio>
#include <new>

namespace {

const char* const kVariants[] = {"direct"};
const kbench_plugin_info_t kInfo = {"host-direct", "1.0.0", KBENCH_PLUGIN_MEMORY_HOST, 1, kVariants};

int say_no(char* message, std::size_t size, const char* reason) {
  std::snprintf(message, size, "%s", reason);
  return KBENCH_PLUGIN_UNSUPPORTED;
}

// Unused dimensions hold extent 1, stride 1 and no padding (the header's promise), so every rank runs
// as 3-D.
struct Geometry {
  std::int64_t in[3], out[3], k[3], s[3], d[3], pad[3];
};

Geometry geometry(const kbench_plugin_problem_t& p) {
  Geometry g{};
  for (int i = 0; i < 3; ++i) {
    g.in[i] = p.input[i];
    g.out[i] = p.output[i];
    g.k[i] = p.kernel[i];
    g.s[i] = p.stride[i];
    g.d[i] = p.dilation[i];
    g.pad[i] = p.pad_before[i];
  }
  return g;
}

// y[n, co, o] = b[co] + sum over ci of co's group and taps t of x[n, ci, o*s - pad + t*d] * w[co, ci, t].
void conv_forward(const kbench_plugin_problem_t& p, const float* x, const float* w, const float* b, float* y) {
  const Geometry g = geometry(p);
  const std::int64_t cin_g = p.in_channels / p.groups, cout_g = p.out_channels / p.groups;
  const std::int64_t in_volume = g.in[0] * g.in[1] * g.in[2], out_volume = g.out[0] * g.out[1] * g.out[2];
  const std::int64_t taps = g.k[0] * g.k[1] * g.k[2];
  for (std::int64_t n = 0; n < p.batch; ++n)
    for (std::int64_t co = 0; co < p.out_channels; ++co) {
      const std::int64_t group = co / cout_g;
      for (std::int64_t o0 = 0; o0 < g.out[0]; ++o0)
        for (std::int64_t o1 = 0; o1 < g.out[1]; ++o1)
          for (std::int64_t o2 = 0; o2 < g.out[2]; ++o2) {
            float sum = b ? b[co] : 0.0f;
            for (std::int64_t ci = 0; ci < cin_g; ++ci) {
              const float* xc = x + (n * p.in_channels + group * cin_g + ci) * in_volume;
              const float* wc = w + (co * cin_g + ci) * taps;
              for (std::int64_t k0 = 0; k0 < g.k[0]; ++k0) {
                const std::int64_t i0 = o0 * g.s[0] - g.pad[0] + k0 * g.d[0];
                if (i0 < 0 || i0 >= g.in[0]) continue;
                for (std::int64_t k1 = 0; k1 < g.k[1]; ++k1) {
                  const std::int64_t i1 = o1 * g.s[1] - g.pad[1] + k1 * g.d[1];
                  if (i1 < 0 || i1 >= g.in[1]) continue;
                  for (std::int64_t k2 = 0; k2 < g.k[2]; ++k2) {
                    const std::int64_t i2 = o2 * g.s[2] - g.pad[2] + k2 * g.d[2];
                    if (i2 < 0 || i2 >= g.in[2]) continue;
                    sum += xc[(i0 * g.in[1] + i1) * g.in[2] + i2] * wc[(k0 * g.k[1] + k1) * g.k[2] + k2];
                  }
                }
              }
            }
            y[(n * p.out_channels + co) * out_volume + (o0 * g.out[1] + o1) * g.out[2] + o2] = sum;
          }
    }
}

// Input position i feeds output i*s - pad + t*d; gathered per output: i = (o + pad - t*d) / s where exact.
bool source_index(std::int64_t o, std::int64_t t, const Geometry& g, int dim, std::int64_t& i) {
  const std::int64_t shifted = o + g.pad[dim] - t * g.d[dim];
  if (shifted < 0 || shifted % g.s[dim] != 0) return false;
  i = shifted / g.s[dim];
  return i < g.in[dim];
}

// y[n, co, o] = b[co] + sum over ci of co's group and taps t with o = i*s - pad + t*d of x[n, ci, i] * w[ci, co', t].
void conv_transpose_forward(const kbench_plugin_problem_t& p, const float* x, const float* w, const float* b,
                            float* y) {
  const Geometry g = geometry(p);
  const std::int64_t cin_g = p.in_channels / p.groups, cout_g = p.out_channels / p.groups;
  const std::int64_t in_volume = g.in[0] * g.in[1] * g.in[2], out_volume = g.out[0] * g.out[1] * g.out[2];
  const std::int64_t taps = g.k[0] * g.k[1] * g.k[2];
  for (std::int64_t n = 0; n < p.batch; ++n)
    for (std::int64_t co = 0; co < p.out_channels; ++co) {
      const std::int64_t group = co / cout_g, co_in_group = co % cout_g;
      for (std::int64_t o0 = 0; o0 < g.out[0]; ++o0)
        for (std::int64_t o1 = 0; o1 < g.out[1]; ++o1)
          for (std::int64_t o2 = 0; o2 < g.out[2]; ++o2) {
            float sum = b ? b[co] : 0.0f;
            for (std::int64_t ci = group * cin_g; ci < (group + 1) * cin_g; ++ci) {
              const float* xc = x + (n * p.in_channels + ci) * in_volume;
              const float* wc = w + (ci * cout_g + co_in_group) * taps;
              std::int64_t i0, i1, i2;
              for (std::int64_t k0 = 0; k0 < g.k[0]; ++k0) {
                if (!source_index(o0, k0, g, 0, i0)) continue;
                for (std::int64_t k1 = 0; k1 < g.k[1]; ++k1) {
                  if (!source_index(o1, k1, g, 1, i1)) continue;
                  for (std::int64_t k2 = 0; k2 < g.k[2]; ++k2) {
                    if (!source_index(o2, k2, g, 2, i2)) continue;
                    sum += xc[(i0 * g.in[1] + i1) * g.in[2] + i2] * wc[(k0 * g.k[1] + k1) * g.k[2] + k2];
                  }
                }
              }
            }
            y[(n * p.out_channels + co) * out_volume + (o0 * g.out[1] + o1) * g.out[2] + o2] = sum;
          }
    }
}

}  // namespace

KBENCH_PLUGIN_EXPORT uint32_t kbench_plugin_abi_version(void) { return KBENCH_PLUGIN_ABI_VERSION; }

KBENCH_PLUGIN_EXPORT const kbench_plugin_info_t* kbench_plugin_info(void) { return &kInfo; }

KBENCH_PLUGIN_EXPORT int kbench_plugin_supports(const kbench_plugin_problem_t* p, const char*, char* message,
                                                size_t message_size) {
  if (p->pass != KBENCH_PLUGIN_PASS_FORWARD)
    return say_no(message, message_size, "computes the forward pass only (no backward_data or backward_weights)");
  if (p->dtype != KBENCH_PLUGIN_DTYPE_FP32) return say_no(message, message_size, "computes fp32 only");
  if (p->layout != KBENCH_PLUGIN_LAYOUT_NCHW) return say_no(message, message_size, "reads nchw (channels first) only");
  if (p->math != KBENCH_PLUGIN_MATH_FP32)
    return say_no(message, message_size, "multiplies in fp32 on the CPU: no TF32 (run it with --math fp32)");
  if (p->spatial_rank < 1 || p->spatial_rank > 3) return say_no(message, message_size, "takes 1-3 spatial dimensions");
  return KBENCH_PLUGIN_OK;
}

KBENCH_PLUGIN_EXPORT int kbench_plugin_workspace_size(const kbench_plugin_problem_t*, const char*, uint64_t* bytes,
                                                      char*, size_t) {
  *bytes = 0;
  return KBENCH_PLUGIN_OK;
}

// The problem is all the state a direct convolution needs: prepare keeps a copy of it.
KBENCH_PLUGIN_EXPORT int kbench_plugin_prepare(const kbench_plugin_problem_t* p, const char*, void** state,
                                               char* message, size_t message_size) {
  *state = new (std::nothrow) kbench_plugin_problem_t(*p);
  if (*state != nullptr) return KBENCH_PLUGIN_OK;
  std::snprintf(message, message_size, "out of host memory");
  return KBENCH_PLUGIN_ERROR;
}

KBENCH_PLUGIN_EXPORT int kbench_plugin_run(void* state, const kbench_plugin_tensors_t* t, char*, size_t) {
  const auto& p = *static_cast<const kbench_plugin_problem_t*>(state);
  const auto* x = static_cast<const float*>(t->input);
  const auto* w = static_cast<const float*>(t->weight);
  const auto* b = static_cast<const float*>(t->bias);
  auto* y = static_cast<float*>(t->output);
  if (p.op == KBENCH_PLUGIN_OP_CONV_TRANSPOSE)
    conv_transpose_forward(p, x, w, b, y);
  else
    conv_forward(p, x, w, b, y);
  return KBENCH_PLUGIN_OK;
}

KBENCH_PLUGIN_EXPORT void kbench_plugin_release(void* state) { delete static_cast<kbench_plugin_problem_t*>(state); }
