/* kbench plugin ABI: a shared library that computes a convolution, loaded by
 *   kbench run spec.yaml --backends reference,plugin:./libmyconv.so[:VARIANT]
 * and verified, timed and reported like kbench's own backends (docs/backends.md).
 *
 * Pure C (C99 and C++), no kbench header needed. A plugin defines the six functions declared at the end
 * with C linkage; kbench finds them with dlsym. Layout and conventions follow PyTorch: tensors are
 * input [N, C_in, spatial...], output [N, C_out, spatial...], weight [C_out, C_in/groups, k...] for
 * conv and [C_in, C_out/groups, k...] for conv_transpose, bias [C_out]; nhwc stores dim 1 of each
 * tensor last ([N, spatial..., C], weights [dim0, k..., dim1]). Dense, no padding between elements.
 *
 * Versioning: kbench calls kbench_plugin_abi_version() before anything else and loads the plugin only
 * when it returns the KBENCH_PLUGIN_ABI_VERSION kbench was built with. Any change to a struct or a
 * function below bumps the version. */
#ifndef KBENCH_PLUGIN_H
#define KBENCH_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#define KBENCH_PLUGIN_ABI_VERSION 1

/* The spatial ranks kbench describes: 1-D, 2-D and 3-D convolutions. */
#define KBENCH_PLUGIN_MAX_SPATIAL_RANK 3

#if defined(__cplusplus)
#define KBENCH_PLUGIN_EXTERN_C extern "C"
#else
#define KBENCH_PLUGIN_EXTERN_C
#endif
/* Put on each of the six definitions, so they are exported even under -fvisibility=hidden. */
#define KBENCH_PLUGIN_EXPORT KBENCH_PLUGIN_EXTERN_C __attribute__((visibility("default")))

/* What every entry point returns. */
typedef enum kbench_plugin_status {
  KBENCH_PLUGIN_OK = 0,          /* done (supports: yes) */
  KBENCH_PLUGIN_UNSUPPORTED = 1, /* supports: no, with the reason written */
  KBENCH_PLUGIN_ERROR = 2        /* failed, with the error written; kbench records the result as failed */
} kbench_plugin_status;

/* Enumerations travel as int32_t in the structs: an enum's size is the compiler's choice. */
typedef enum kbench_plugin_op {
  KBENCH_PLUGIN_OP_CONV = 0,
  KBENCH_PLUGIN_OP_CONV_TRANSPOSE = 1 /* PyTorch's conv_transposeNd (a conv's backward-data as a forward op) */
} kbench_plugin_op;

/* Which of the convolution's three computations runs; the geometry always describes the forward op. */
typedef enum kbench_plugin_pass {
  KBENCH_PLUGIN_PASS_FORWARD = 0,         /* reads input, weight (bias), writes output */
  KBENCH_PLUGIN_PASS_BACKWARD_DATA = 1,   /* reads grad_output, weight, writes grad_input */
  KBENCH_PLUGIN_PASS_BACKWARD_WEIGHTS = 2 /* reads input, grad_output, writes grad_weight (and grad_bias) */
} kbench_plugin_pass;

/* Element type of every tensor; fp16 and bf16 elements are 16-bit IEEE / bfloat16 bit patterns. */
typedef enum kbench_plugin_dtype {
  KBENCH_PLUGIN_DTYPE_FP32 = 0,
  KBENCH_PLUGIN_DTYPE_FP16 = 1,
  KBENCH_PLUGIN_DTYPE_BF16 = 2
} kbench_plugin_dtype;

typedef enum kbench_plugin_layout {
  KBENCH_PLUGIN_LAYOUT_NCHW = 0, /* channels first, PyTorch's default, for every rank */
  KBENCH_PLUGIN_LAYOUT_NHWC = 1  /* channels last, for every rank */
} kbench_plugin_layout;

/* The arithmetic the run may use; its error bound is looser under tf32. */
typedef enum kbench_plugin_math {
  KBENCH_PLUGIN_MATH_FP32 = 0, /* IEEE fp32 products and sums (fp16/bf16 inputs accumulate in fp32) */
  KBENCH_PLUGIN_MATH_TF32 = 1  /* tensor-core TF32 products allowed */
} kbench_plugin_math;

/* Where the tensors live, which also decides how kbench times the run. */
typedef enum kbench_plugin_memory {
  KBENCH_PLUGIN_MEMORY_HOST = 0,       /* host pointers; run() computes synchronously; CPU clock */
  KBENCH_PLUGIN_MEMORY_CUDA_DEVICE = 1 /* device pointers; run() enqueues on the stream; CUDA events */
} kbench_plugin_memory;

/* The plugin's identity, read once after loading. Strings are the plugin's, alive until it is unloaded. */
typedef struct kbench_plugin_info_t {
  const char* name;            /* short, as a result's implementation shows it, e.g. "myconv" */
  const char* version;         /* the plugin's own version, recorded with every result */
  int32_t memory;              /* kbench_plugin_memory: where run() expects its tensors */
  int32_t variant_count;       /* 0: no variants; else what `plugin:PATH:VARIANT` may name */
  const char* const* variants; /* variant_count names; the first is the default */
} kbench_plugin_info_t;

/* One convolution, as kbench's workload describes it. Per-dimension arrays use entries [0, spatial_rank);
 * the rest hold 1 (extents, strides, dilations) or 0 (padding). */
typedef struct kbench_plugin_problem_t {
  int32_t op;           /* kbench_plugin_op */
  int32_t pass;         /* kbench_plugin_pass */
  int32_t dtype;        /* kbench_plugin_dtype of every tensor */
  int32_t layout;       /* kbench_plugin_layout of input, output and weight (bias is one axis) */
  int32_t math;         /* kbench_plugin_math the run may use */
  int32_t spatial_rank; /* 1, 2 or 3 */
  int32_t has_bias;     /* 1: forward adds bias[C_out]; backward_weights also writes grad_bias */
  int32_t reserved;     /* 0; keeps the 64-bit fields aligned alike on every compiler */
  int64_t batch;        /* N */
  int64_t in_channels;  /* C_in of the forward op's input */
  int64_t out_channels; /* C_out of the forward op's output */
  int64_t groups;       /* channels split into this many independent convolutions */
  int64_t input[KBENCH_PLUGIN_MAX_SPATIAL_RANK];          /* spatial extents of the forward input */
  int64_t output[KBENCH_PLUGIN_MAX_SPATIAL_RANK];         /* of the forward output (PyTorch's formula, given) */
  int64_t kernel[KBENCH_PLUGIN_MAX_SPATIAL_RANK];         /* filter extents */
  int64_t stride[KBENCH_PLUGIN_MAX_SPATIAL_RANK];         /* step between output positions */
  int64_t dilation[KBENCH_PLUGIN_MAX_SPATIAL_RANK];       /* step between filter taps */
  int64_t pad_before[KBENCH_PLUGIN_MAX_SPATIAL_RANK];     /* implicit zeros before each dimension... */
  int64_t pad_after[KBENCH_PLUGIN_MAX_SPATIAL_RANK];      /* ...and after (asymmetric padding exists) */
  int64_t output_padding[KBENCH_PLUGIN_MAX_SPATIAL_RANK]; /* conv_transpose only: extra output rows */
} kbench_plugin_problem_t;

/* The buffers of one run: one per forward operand, whatever the pass, so a gradient lives in the buffer of
 * the tensor it differentiates (same shape, dtype and layout). What the plugin must not write is const
 * by contract; kbench checksums it and reports a run that changed its inputs as wrong. */
typedef struct kbench_plugin_tensors_t {
  void* input;     /* forward, backward_weights: x (read); backward_data: grad_input (written) */
  void* weight;    /* forward, backward_data: w (read); backward_weights: grad_weight (written) */
  void* bias;      /* forward: b (read); backward_weights: grad_bias (written); else, or without bias, NULL */
  void* output;    /* forward: y (written); backward passes: grad_output (read) */
  void* workspace; /* workspace_size() bytes of the same memory kind, NULL when it asked for none */
  uint64_t workspace_bytes;
  void* stream; /* a cudaStream_t for a CUDA plugin (enqueue on it, do not synchronise); NULL on the host */
} kbench_plugin_tensors_t;

/* Entry points. `variant` is the text after `plugin:PATH:`, or the first variant (or "") when none is given.
 * `message` receives a NUL-terminated reason or error of at most message_size bytes (truncate longer ones). */

/* Returns KBENCH_PLUGIN_ABI_VERSION as the plugin was compiled; called first, before any other. */
KBENCH_PLUGIN_EXPORT uint32_t kbench_plugin_abi_version(void);

/* The plugin's name, version, memory kind and variants; a pointer to static data, never NULL. */
KBENCH_PLUGIN_EXPORT const kbench_plugin_info_t* kbench_plugin_info(void);

/* OK when the plugin computes this problem with this variant; UNSUPPORTED with a reason a person can act on. */
KBENCH_PLUGIN_EXPORT int kbench_plugin_supports(const kbench_plugin_problem_t* problem, const char* variant,
                                                char* message, size_t message_size);

/* Scratch memory run() needs, in bytes, allocated by kbench (outside any timing) in the plugin's memory kind. */
KBENCH_PLUGIN_EXPORT int kbench_plugin_workspace_size(const kbench_plugin_problem_t* problem, const char* variant,
                                                      uint64_t* bytes, char* message, size_t message_size);

/* Everything done once per problem (plans, tuning, tables) before any run; *state is passed to run and
 * release. Called on a supported problem only. On a CUDA plugin the current device is kbench's. */
KBENCH_PLUGIN_EXPORT int kbench_plugin_prepare(const kbench_plugin_problem_t* problem, const char* variant,
                                               void** state, char* message, size_t message_size);

/* One complete execution of the pass (bias included), timed by kbench: a host plugin returns when the
 * result is written; a CUDA plugin enqueues its kernels on tensors->stream and returns without waiting,
 * allocating or synchronising (--graph captures the call into a CUDA graph). Called many times per prepare. */
KBENCH_PLUGIN_EXPORT int kbench_plugin_run(void* state, const kbench_plugin_tensors_t* tensors, char* message,
                                           size_t message_size);

/* Frees what prepare made; called once per successful prepare, after its last run has finished. */
KBENCH_PLUGIN_EXPORT void kbench_plugin_release(void* state);

#endif /* KBENCH_PLUGIN_H */
