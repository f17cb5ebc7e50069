// A test plugin that computes every pass of a conv (forward, backward_data, backward_weights with
// grad_bias) in every dtype and layout, from the header's description alone: it checks that kbench hands
// a plugin the right buffer for each gradient, encodes fp16/bf16 and lays out nhwc as the header says.
// Accumulates in fp32 and rounds once to the dtype. conv_transpose is declined. Its variants misbehave on
// purpose: fails-in-run returns an error from run(), writes-input changes an input after computing.
#include <kbench/plugin.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "core/half.hpp"

namespace {

const char* const kVariants[] = {"exact", "fails-in-run", "writes-input"};
const kbench_plugin_info_t kInfo = {"every-pass", "0.2.0", KBENCH_PLUGIN_MEMORY_HOST, 3, kVariants};

struct State {
  kbench_plugin_problem_t problem;
  std::string variant;
};

// One tensor as the header lays it out: [d0, channels, spatial] logically, channels last under nhwc.
struct View {
  void* data;
  std::int32_t dtype;
  bool channels_last;
  std::int64_t channels, spatial;

  std::int64_t offset(std::int64_t d0, std::int64_t c, std::int64_t s) const {
    return channels_last ? (d0 * spatial + s) * channels + c : (d0 * channels + c) * spatial + s;
  }
  float load(std::int64_t at) const {
    if (dtype == KBENCH_PLUGIN_DTYPE_FP32) return static_cast<const float*>(data)[at];
    const std::uint16_t bits = static_cast<const std::uint16_t*>(data)[at];
    return dtype == KBENCH_PLUGIN_DTYPE_FP16 ? kbench::float_from_fp16_bits(bits) : kbench::float_from_bf16_bits(bits);
  }
  void store(std::int64_t at, float value) const {
    if (dtype == KBENCH_PLUGIN_DTYPE_FP32) {
      static_cast<float*>(data)[at] = value;
      return;
    }
    static_cast<std::uint16_t*>(data)[at] =
        dtype == KBENCH_PLUGIN_DTYPE_FP16 ? kbench::fp16_bits_from_float(value) : kbench::bf16_bits_from_float(value);
  }
};

std::int64_t volume(const std::int64_t (&dims)[KBENCH_PLUGIN_MAX_SPATIAL_RANK]) { return dims[0] * dims[1] * dims[2]; }

// Input position of output `o` at tap `t` along one dimension, or -1 in the padding.
std::int64_t source(const kbench_plugin_problem_t& p, int d, std::int64_t o, std::int64_t t) {
  const std::int64_t i = o * p.stride[d] - p.pad_before[d] + t * p.dilation[d];
  return i >= 0 && i < p.input[d] ? i : -1;
}

int run_pass(const kbench_plugin_problem_t& p, const kbench_plugin_tensors_t& t) {
  const bool nhwc = p.layout == KBENCH_PLUGIN_LAYOUT_NHWC;
  const std::int64_t cin_g = p.in_channels / p.groups, cout_g = p.out_channels / p.groups;
  const std::int64_t in_volume = volume(p.input), out_volume = volume(p.output), taps = volume(p.kernel);
  const View x{t.input, p.dtype, nhwc, p.in_channels, in_volume};
  const View w{t.weight, p.dtype, nhwc, cin_g, taps};
  const View y{t.output, p.dtype, nhwc, p.out_channels, out_volume};
  const View b{t.bias, p.dtype, false, p.out_channels, 1};
  // fp32 sums over the computed tensor's elements, by memory offset; grad_bias's beside.
  std::vector<float> sum(
      static_cast<std::size_t>(p.pass == KBENCH_PLUGIN_PASS_FORWARD         ? p.batch * p.out_channels * out_volume
                               : p.pass == KBENCH_PLUGIN_PASS_BACKWARD_DATA ? p.batch * p.in_channels * in_volume
                                                                            : p.out_channels * cin_g * taps),
      0.0f);
  std::vector<float> bias_sum(static_cast<std::size_t>(p.out_channels), 0.0f);
  for (std::int64_t n = 0; n < p.batch; ++n)
    for (std::int64_t co = 0; co < p.out_channels; ++co)
      for (std::int64_t o = 0; o < out_volume; ++o) {
        const std::int64_t o2 = o % p.output[2], o1 = o / p.output[2] % p.output[1], o0 = o / p.output[2] / p.output[1];
        const std::int64_t y_at = y.offset(n, co, o);
        if (p.pass == KBENCH_PLUGIN_PASS_BACKWARD_WEIGHTS) bias_sum[static_cast<std::size_t>(co)] += y.load(y_at);
        for (std::int64_t k = 0; k < taps; ++k) {
          const std::int64_t k2 = k % p.kernel[2], k1 = k / p.kernel[2] % p.kernel[1],
                             k0 = k / p.kernel[2] / p.kernel[1];
          const std::int64_t i0 = source(p, 0, o0, k0), i1 = source(p, 1, o1, k1), i2 = source(p, 2, o2, k2);
          if (i0 < 0 || i1 < 0 || i2 < 0) continue;
          const std::int64_t i = (i0 * p.input[1] + i1) * p.input[2] + i2;
          for (std::int64_t c = 0; c < cin_g; ++c) {
            const std::int64_t x_at = x.offset(n, co / cout_g * cin_g + c, i), w_at = w.offset(co, c, k);
            switch (p.pass) {
              case KBENCH_PLUGIN_PASS_FORWARD:
                sum[static_cast<std::size_t>(y_at)] += x.load(x_at) * w.load(w_at);
                break;
              case KBENCH_PLUGIN_PASS_BACKWARD_DATA:
                sum[static_cast<std::size_t>(x_at)] += y.load(y_at) * w.load(w_at);
                break;
              default: sum[static_cast<std::size_t>(w_at)] += x.load(x_at) * y.load(y_at); break;
            }
          }
        }
      }
  const View& out = p.pass == KBENCH_PLUGIN_PASS_FORWARD ? y : p.pass == KBENCH_PLUGIN_PASS_BACKWARD_DATA ? x : w;
  for (std::size_t at = 0; at < sum.size(); ++at) {
    float value = sum[at];
    if (p.pass == KBENCH_PLUGIN_PASS_FORWARD && t.bias) {
      const std::int64_t c = nhwc ? static_cast<std::int64_t>(at) % p.out_channels
                                  : static_cast<std::int64_t>(at) / out_volume % p.out_channels;
      value += b.load(c);
    }
    out.store(static_cast<std::int64_t>(at), value);
  }
  if (p.pass == KBENCH_PLUGIN_PASS_BACKWARD_WEIGHTS && t.bias)
    for (std::int64_t co = 0; co < p.out_channels; ++co) b.store(co, bias_sum[static_cast<std::size_t>(co)]);
  return KBENCH_PLUGIN_OK;
}

}  // namespace

KBENCH_PLUGIN_EXPORT uint32_t kbench_plugin_abi_version(void) { return KBENCH_PLUGIN_ABI_VERSION; }
KBENCH_PLUGIN_EXPORT const kbench_plugin_info_t* kbench_plugin_info(void) { return &kInfo; }

KBENCH_PLUGIN_EXPORT int kbench_plugin_supports(const kbench_plugin_problem_t* p, const char*, char* message,
                                                size_t size) {
  if (p->op == KBENCH_PLUGIN_OP_CONV) return KBENCH_PLUGIN_OK;
  std::snprintf(message, size, "computes conv only, every pass, dtype and layout");
  return KBENCH_PLUGIN_UNSUPPORTED;
}

KBENCH_PLUGIN_EXPORT int kbench_plugin_workspace_size(const kbench_plugin_problem_t*, const char*, uint64_t* bytes,
                                                      char*, size_t) {
  *bytes = 64;  // unused: checks that kbench hands over the workspace it was asked for
  return KBENCH_PLUGIN_OK;
}

KBENCH_PLUGIN_EXPORT int kbench_plugin_prepare(const kbench_plugin_problem_t* p, const char* variant, void** state,
                                               char*, size_t) {
  *state = new (std::nothrow) State{*p, variant};
  return *state ? KBENCH_PLUGIN_OK : KBENCH_PLUGIN_ERROR;
}

KBENCH_PLUGIN_EXPORT int kbench_plugin_run(void* state, const kbench_plugin_tensors_t* t, char* message, size_t size) {
  const State& s = *static_cast<const State*>(state);
  if (s.variant == "fails-in-run") {
    std::snprintf(message, size, "deliberate failure of variant %s", s.variant.c_str());
    return KBENCH_PLUGIN_ERROR;
  }
  if (t->workspace == nullptr || t->workspace_bytes != 64) {
    std::snprintf(message, size, "expected a 64-byte workspace, got %llu bytes at %p",
                  static_cast<unsigned long long>(t->workspace_bytes), t->workspace);
    return KBENCH_PLUGIN_ERROR;
  }
  std::memset(t->workspace, 0xff, 64);
  const int status = run_pass(s.problem, *t);
  if (s.variant == "writes-input") static_cast<unsigned char*>(t->input)[0] ^= 1;
  return status;
}

KBENCH_PLUGIN_EXPORT void kbench_plugin_release(void* state) { delete static_cast<State*>(state); }
