// The CUDA example plugin: a plain direct convolution, one thread per output element, forward conv,
// 1-3 spatial dimensions, groups, fp32, nchw, on kbench's device buffers and stream. It declares
// everything else unsupported, with the reason. Built by CMake (with CUDA) as libkbench_cuda_example.so;
// by hand:
//   nvcc -O3 -shared -Xcompiler -fPIC,-fvisibility=hidden -I include cuda_direct_conv.cu -o libmyconv.so
// See docs/backends.md.
#include <cuda_runtime_api.h>
#include <kbench/plugin.h>

#include <cstdint>
#include <cstdio>
#include <new>

namespace {

const char* const kVariants[] = {"direct"};
const kbench_plugin_info_t kInfo = {"cuda-direct", "1.0.0", KBENCH_PLUGIN_MEMORY_CUDA_DEVICE, 1, kVariants};

constexpr int kThreads = 256;

int say(char* message, std::size_t size, int status, const char* text) {
  std::snprintf(message, size, "%s", text);
  return status;
}

// Unused dimensions hold extent 1, stride 1 and no padding (the header's promise), so every rank runs as 3-D.
__global__ void direct_conv_forward(kbench_plugin_problem_t p, const float* __restrict__ x, const float* __restrict__ w,
                                    const float* __restrict__ b, float* __restrict__ y) {
  const std::int64_t out_volume = p.output[0] * p.output[1] * p.output[2];
  const std::int64_t total = p.batch * p.out_channels * out_volume;
  const std::int64_t index = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= total) return;
  const std::int64_t o2 = index % p.output[2], o1 = index / p.output[2] % p.output[1];
  const std::int64_t o0 = index / (p.output[2] * p.output[1]) % p.output[0];
  const std::int64_t co = index / out_volume % p.out_channels, n = index / (out_volume * p.out_channels);
  const std::int64_t cin_g = p.in_channels / p.groups, group = co / (p.out_channels / p.groups);
  const std::int64_t in_volume = p.input[0] * p.input[1] * p.input[2];
  const std::int64_t taps = p.kernel[0] * p.kernel[1] * p.kernel[2];
  float sum = b ? b[co] : 0.0f;
  for (std::int64_t ci = 0; ci < cin_g; ++ci) {
    const float* xc = x + (n * p.in_channels + group * cin_g + ci) * in_volume;
    const float* wc = w + (co * cin_g + ci) * taps;
    for (std::int64_t k0 = 0; k0 < p.kernel[0]; ++k0) {
      const std::int64_t i0 = o0 * p.stride[0] - p.pad_before[0] + k0 * p.dilation[0];
      if (i0 < 0 || i0 >= p.input[0]) continue;
      for (std::int64_t k1 = 0; k1 < p.kernel[1]; ++k1) {
        const std::int64_t i1 = o1 * p.stride[1] - p.pad_before[1] + k1 * p.dilation[1];
        if (i1 < 0 || i1 >= p.input[1]) continue;
        for (std::int64_t k2 = 0; k2 < p.kernel[2]; ++k2) {
          const std::int64_t i2 = o2 * p.stride[2] - p.pad_before[2] + k2 * p.dilation[2];
          if (i2 < 0 || i2 >= p.input[2]) continue;
          sum = fmaf(xc[(i0 * p.input[1] + i1) * p.input[2] + i2], wc[(k0 * p.kernel[1] + k1) * p.kernel[2] + k2], sum);
        }
      }
    }
  }
  y[index] = sum;
}

}  // namespace

KBENCH_PLUGIN_EXPORT uint32_t kbench_plugin_abi_version(void) { return KBENCH_PLUGIN_ABI_VERSION; }

KBENCH_PLUGIN_EXPORT const kbench_plugin_info_t* kbench_plugin_info(void) { return &kInfo; }

KBENCH_PLUGIN_EXPORT int kbench_plugin_supports(const kbench_plugin_problem_t* p, const char*, char* message,
                                                size_t size) {
  if (p->op != KBENCH_PLUGIN_OP_CONV) return say(message, size, KBENCH_PLUGIN_UNSUPPORTED, "computes conv only");
  if (p->pass != KBENCH_PLUGIN_PASS_FORWARD)
    return say(message, size, KBENCH_PLUGIN_UNSUPPORTED, "computes the forward pass only");
  if (p->dtype != KBENCH_PLUGIN_DTYPE_FP32) return say(message, size, KBENCH_PLUGIN_UNSUPPORTED, "computes fp32 only");
  if (p->layout != KBENCH_PLUGIN_LAYOUT_NCHW)
    return say(message, size, KBENCH_PLUGIN_UNSUPPORTED, "reads nchw (channels first) only");
  const std::int64_t outputs = p->batch * p->out_channels * p->output[0] * p->output[1] * p->output[2];
  if ((outputs + kThreads - 1) / kThreads > 0x7fffffff)
    return say(message, size, KBENCH_PLUGIN_UNSUPPORTED, "more output elements than one grid dimension covers");
  return KBENCH_PLUGIN_OK;  // fp32 FMA whatever --math allows: TF32's looser bound holds too
}

KBENCH_PLUGIN_EXPORT int kbench_plugin_workspace_size(const kbench_plugin_problem_t*, const char*, uint64_t* bytes,
                                                      char*, size_t) {
  *bytes = 0;
  return KBENCH_PLUGIN_OK;
}

KBENCH_PLUGIN_EXPORT int kbench_plugin_prepare(const kbench_plugin_problem_t* p, const char*, void** state,
                                               char* message, size_t size) {
  *state = new (std::nothrow) kbench_plugin_problem_t(*p);
  return *state ? KBENCH_PLUGIN_OK : say(message, size, KBENCH_PLUGIN_ERROR, "out of host memory");
}

// Enqueues one launch on kbench's stream; the launch's own error is returned, nothing waits.
KBENCH_PLUGIN_EXPORT int kbench_plugin_run(void* state, const kbench_plugin_tensors_t* t, char* message, size_t size) {
  const auto& p = *static_cast<const kbench_plugin_problem_t*>(state);
  const std::int64_t outputs = p.batch * p.out_channels * p.output[0] * p.output[1] * p.output[2];
  const auto blocks = static_cast<unsigned>((outputs + kThreads - 1) / kThreads);
  direct_conv_forward<<<blocks, kThreads, 0, static_cast<cudaStream_t>(t->stream)>>>(
      p, static_cast<const float*>(t->input), static_cast<const float*>(t->weight), static_cast<const float*>(t->bias),
      static_cast<float*>(t->output));
  const cudaError_t status = cudaGetLastError();
  if (status == cudaSuccess) return KBENCH_PLUGIN_OK;
  std::snprintf(message, size, "launch failed: %s", cudaGetErrorString(status));
  return KBENCH_PLUGIN_ERROR;
}

KBENCH_PLUGIN_EXPORT void kbench_plugin_release(void* state) { delete static_cast<kbench_plugin_problem_t*>(state); }
