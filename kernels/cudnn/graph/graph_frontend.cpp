// The one translation unit that includes cudnn-frontend (it costs about a minute of compile time):
// graph_api.hpp's CudnnGraph on the frontend's v1 graph API.
#include <cudnn_frontend.h>

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

#include "cudnn/cudnn_check.hpp"
#include "cudnn/graph/graph_api.hpp"
#include "cudnn/graph/knob_names.hpp"
#include "runtime/cuda_check.hpp"

namespace kbench::gpu {

namespace fe = cudnn_frontend;

namespace {

// knob_names.hpp against the frontend's own enumerators: a renamed or renumbered knob fails the build.
#define KBENCH_KNOB_MATCHES(NAME)                                                                       \
  static_assert(knob_type_of(#NAME) == static_cast<std::int64_t>(fe::KnobType_t::NAME), "knob_names.hpp: " #NAME)
KBENCH_KNOB_MATCHES(SWIZZLE);
KBENCH_KNOB_MATCHES(TILE_SIZE);
KBENCH_KNOB_MATCHES(EDGE);
KBENCH_KNOB_MATCHES(MULTIPLY);
KBENCH_KNOB_MATCHES(SPLIT_K_BUF);
KBENCH_KNOB_MATCHES(TILEK);
KBENCH_KNOB_MATCHES(STAGES);
KBENCH_KNOB_MATCHES(REDUCTION_MODE);
KBENCH_KNOB_MATCHES(SPLIT_K_SLC);
KBENCH_KNOB_MATCHES(IDX_MODE);
KBENCH_KNOB_MATCHES(SPECFILT);
KBENCH_KNOB_MATCHES(KERNEL_CFG);
KBENCH_KNOB_MATCHES(WORKSPACE);
KBENCH_KNOB_MATCHES(TILE_CGA_M);
KBENCH_KNOB_MATCHES(TILE_CGA_N);
KBENCH_KNOB_MATCHES(BLOCK_SIZE);
KBENCH_KNOB_MATCHES(OCCUPANCY);
KBENCH_KNOB_MATCHES(ARRAY_SIZE_PER_THREAD);
KBENCH_KNOB_MATCHES(SPLIT_COLS);
KBENCH_KNOB_MATCHES(TILE_ROWS);
KBENCH_KNOB_MATCHES(TILE_COLS);
KBENCH_KNOB_MATCHES(LOAD_SIZE);
KBENCH_KNOB_MATCHES(CTA_COUNT);
KBENCH_KNOB_MATCHES(STREAM_K);
KBENCH_KNOB_MATCHES(SPLIT_P_SLC);
KBENCH_KNOB_MATCHES(TILE_M);
KBENCH_KNOB_MATCHES(TILE_N);
KBENCH_KNOB_MATCHES(WARP_SPEC_CFG);
KBENCH_KNOB_MATCHES(SWAP_AB);
KBENCH_KNOB_MATCHES(INPUT_TMA_ENABLE);
KBENCH_KNOB_MATCHES(OUTPUT_TMA_ENABLE);
KBENCH_KNOB_MATCHES(TILE_CGA);
KBENCH_KNOB_MATCHES(SCHED_POLICY);
KBENCH_KNOB_MATCHES(PACK_GQA);
KBENCH_KNOB_MATCHES(SPLIT_KV);
KBENCH_KNOB_MATCHES(PIPELINE_ARCH);
KBENCH_KNOB_MATCHES(MMA_TILE_M);
KBENCH_KNOB_MATCHES(MMA_TILE_N);
KBENCH_KNOB_MATCHES(MMA_TILE_K);
KBENCH_KNOB_MATCHES(CTA_GROUP);
KBENCH_KNOB_MATCHES(WARPS_M);
KBENCH_KNOB_MATCHES(WARPS_N);
#undef KBENCH_KNOB_MATCHES

const char* code_name(fe::error_code_t code) {
  switch (code) {
    case fe::error_code_t::OK: return "OK";
    case fe::error_code_t::ATTRIBUTE_NOT_SET: return "ATTRIBUTE_NOT_SET";
    case fe::error_code_t::SHAPE_DEDUCTION_FAILED: return "SHAPE_DEDUCTION_FAILED";
    case fe::error_code_t::INVALID_TENSOR_NAME: return "INVALID_TENSOR_NAME";
    case fe::error_code_t::INVALID_VARIANT_PACK: return "INVALID_VARIANT_PACK";
    case fe::error_code_t::GRAPH_NOT_SUPPORTED: return "GRAPH_NOT_SUPPORTED";
    case fe::error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED: return "GRAPH_EXECUTION_PLAN_CREATION_FAILED";
    case fe::error_code_t::GRAPH_EXECUTION_FAILED: return "GRAPH_EXECUTION_FAILED";
    case fe::error_code_t::HEURISTIC_QUERY_FAILED: return "HEURISTIC_QUERY_FAILED";
    case fe::error_code_t::UNSUPPORTED_GRAPH_FORMAT: return "UNSUPPORTED_GRAPH_FORMAT";
    case fe::error_code_t::CUDA_API_FAILED: return "CUDA_API_FAILED";
    case fe::error_code_t::CUDNN_BACKEND_API_FAILED: return "CUDNN_BACKEND_API_FAILED";
    case fe::error_code_t::INVALID_CUDA_DEVICE: return "INVALID_CUDA_DEVICE";
    case fe::error_code_t::HANDLE_ERROR: return "HANDLE_ERROR";
    case fe::error_code_t::INVALID_VALUE: return "INVALID_VALUE";
    case fe::error_code_t::NVRTC_COMPILATION_FAILED: return "NVRTC_COMPILATION_FAILED";
  }
  return "error_code_t(?)";
}

// The backend's status for a frontend error: "not supported" for what cuDNN cannot do for this graph,
// so that supports() reports it as such.
cudnnStatus_t status_of(fe::error_code_t code) {
  switch (code) {
    case fe::error_code_t::GRAPH_NOT_SUPPORTED:
    case fe::error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED:
    case fe::error_code_t::HEURISTIC_QUERY_FAILED:
    case fe::error_code_t::UNSUPPORTED_GRAPH_FORMAT: return CUDNN_STATUS_NOT_SUPPORTED;
    case fe::error_code_t::GRAPH_EXECUTION_FAILED:
    case fe::error_code_t::CUDA_API_FAILED: return CUDNN_STATUS_EXECUTION_FAILED;
    case fe::error_code_t::CUDNN_BACKEND_API_FAILED: return CUDNN_STATUS_INTERNAL_ERROR;
    default: break;
  }
  return CUDNN_STATUS_BAD_PARAM;
}

constexpr const char* kExecute = "execute_plan_at_index";

std::string message_of(fe::error_t& error, const std::string& what) {
  return fmt::format("cudnn-frontend {} failed: {}: {}", what, code_name(error.get_code()), error.get_message());
}

// Every frontend call's error_t goes through here: the backend's error type, with the frontend's message.
// A failed execution (or a failed CUDA call inside the frontend) may be a kernel fault: the CUDA context
// is asked first, so that one throws as the CudaError every backend reports.
void check(fe::error_t error, const std::string& what) {
  if (error.is_good()) return;
  const std::string message = message_of(error, what);
  const cudnnStatus_t status = status_of(error.get_code());
  if (is_execution_failure(status) || what == kExecute) check_context_after(message.c_str(), __FILE__, __LINE__);
  throw CudnnError(status, message);
}

fe::DataType_t frontend_type(cudnnDataType_t type) {
  switch (type) {
    case CUDNN_DATA_FLOAT: return fe::DataType_t::FLOAT;
    case CUDNN_DATA_HALF: return fe::DataType_t::HALF;
    case CUDNN_DATA_BFLOAT16: return fe::DataType_t::BFLOAT16;
    default: break;
  }
  throw std::logic_error(fmt::format("cuDNN graph: data type {} has no frontend type here", static_cast<int>(type)));
}

std::string note_name(fe::NumericalNote_t note) {
  switch (note) {
    case fe::NumericalNote_t::NOT_SET: return "";
    case fe::NumericalNote_t::TENSOR_CORE: return "TENSOR_CORE";
    case fe::NumericalNote_t::DOWN_CONVERT_INPUTS: return "DOWN_CONVERT_INPUTS";
    case fe::NumericalNote_t::REDUCED_PRECISION_REDUCTION: return "REDUCED_PRECISION_REDUCTION";
    case fe::NumericalNote_t::FFT: return "FFT";
    case fe::NumericalNote_t::NONDETERMINISTIC: return "NONDETERMINISTIC";
    case fe::NumericalNote_t::WINOGRAD: return "WINOGRAD";
    case fe::NumericalNote_t::WINOGRAD_TILE_4x4: return "WINOGRAD_TILE_4x4";
    case fe::NumericalNote_t::WINOGRAD_TILE_6x6: return "WINOGRAD_TILE_6x6";
    case fe::NumericalNote_t::WINOGRAD_TILE_13x13: return "WINOGRAD_TILE_13x13";
    case fe::NumericalNote_t::STRICT_NAN_PROP: return "STRICT_NAN_PROP";
  }
  return fmt::format("NUMERICAL_NOTE_{}", static_cast<int>(note));
}

fe::NumericalNote_t note_named(const std::string& name) {
  for (const auto note : {fe::NumericalNote_t::TENSOR_CORE, fe::NumericalNote_t::DOWN_CONVERT_INPUTS,
                          fe::NumericalNote_t::REDUCED_PRECISION_REDUCTION, fe::NumericalNote_t::FFT,
                          fe::NumericalNote_t::NONDETERMINISTIC, fe::NumericalNote_t::WINOGRAD,
                          fe::NumericalNote_t::STRICT_NAN_PROP})
    if (note_name(note) == name) return note;
  throw std::logic_error("cuDNN graph: no numerical note " + name);
}

// The frontend keeps each config's numerical notes in a protected member; this reads them.
class GraphWithNotes : public fe::graph::Graph {
 public:
  std::vector<std::string> numerical_notes(std::int64_t plan_index) const {
    std::vector<std::string> names;
    for (const fe::NumericalNote_t note : plans.numeric_notes.at(static_cast<std::size_t>(plan_index)))
      if (std::string name = note_name(note); !name.empty()) names.push_back(std::move(name));
    return names;
  }
};

// A tensor the graph reads or writes: its dims, strides, type and, when bound to a buffer, its UID.
void describe(fe::graph::Tensor_attributes& t, const GraphTensor& spec) {
  t.set_name(spec.name).set_dim(spec.dims).set_stride(spec.strides).set_data_type(frontend_type(spec.data_type));
  if (!spec.is_virtual()) t.set_uid(spec.uid);
}

std::shared_ptr<fe::graph::Tensor_attributes> input(fe::graph::Graph& graph, const GraphTensor& spec) {
  fe::graph::Tensor_attributes t;
  describe(t, spec);
  return graph.tensor(t);
}

void describe_output(fe::graph::Tensor_attributes& t, const GraphTensor& spec) {
  describe(t, spec);
  t.set_output(!spec.is_virtual());
}

template <class Attributes>
Attributes convolution(const CudnnGraphAttributes& a) {
  Attributes attributes;
  attributes.set_pre_padding(a.pre_padding)
      .set_post_padding(a.post_padding)
      .set_stride(a.stride)
      .set_dilation(a.dilation)
      .set_compute_data_type(frontend_type(a.compute_type));
  attributes.set_name(graph_node_name(a.node));
  return attributes;
}

}  // namespace

bool graph_api_built() { return true; }

std::string graph_api_description() {
  return fmt::format("cudnn-frontend {}.{}.{}", CUDNN_FRONTEND_MAJOR_VERSION, CUDNN_FRONTEND_MINOR_VERSION,
                     CUDNN_FRONTEND_PATCH_VERSION);
}

struct CudnnGraph::State {
  GraphWithNotes graph;
  GraphMathPolicy math;
  std::vector<GraphEngineConfig> configs;
  std::vector<std::int64_t> plan_index;  // the frontend's plan index of each config

  // Lists the frontend's plan i (unless a listed config has its name) and rules it out by the math policy.
  void list(std::int64_t i, const std::string& ranked_by) {
    std::int64_t engine = 0;
    std::unordered_map<fe::KnobType_t, std::int64_t> knobs;
    check(graph.get_engine_and_knobs_at_index(i, engine, knobs), "get_engine_and_knobs_at_index");
    GraphEngineConfig config;
    config.name.engine = engine;
    for (const auto& [type, choice] : knobs) config.name.knobs.emplace_back(static_cast<std::int64_t>(type), choice);
    std::sort(config.name.knobs.begin(), config.name.knobs.end());
    for (const GraphEngineConfig& listed : configs)
      if (listed.name == config.name) return;
    check(graph.get_plan_name_at_index(i, config.frontend_tag), "get_plan_name_at_index");
    config.ranked_by = ranked_by;
    config.numerical_notes = graph.numerical_notes(i);
    config.excluded = excluded_by(config.numerical_notes, math);
    configs.push_back(std::move(config));
    plan_index.push_back(i);
  }

  // The frontend's own filter too, so that no build or execution can pick an excluded config.
  void deselect_excluded_notes() {
    std::vector<fe::NumericalNote_t> notes;
    for (const std::string& name : math.excluded_notes) notes.push_back(note_named(name));
    graph.deselect_numeric_notes(notes);
  }
};

CudnnGraph::CudnnGraph(cudnnHandle_t handle, const CudnnGraphAttributes& a, GraphMathPolicy math)
    : state_(std::make_unique<State>()) {
  state_->math = std::move(math);
  fe::graph::Graph& g = state_->graph;
  g.set_io_data_type(frontend_type(a.io_type))
      .set_compute_data_type(frontend_type(a.compute_type))
      .set_intermediate_data_type(frontend_type(a.intermediate_type));
  const auto first = input(g, a.first);
  const auto second = input(g, a.second);
  std::shared_ptr<fe::graph::Tensor_attributes> result;
  switch (a.node) {
    case GraphConvNode::fprop:
      result = g.conv_fprop(first, second, convolution<fe::graph::Conv_fprop_attributes>(a));
      break;
    case GraphConvNode::dgrad:
      result = g.conv_dgrad(first, second, convolution<fe::graph::Conv_dgrad_attributes>(a));
      break;
    case GraphConvNode::wgrad:
      result = g.conv_wgrad(first, second, convolution<fe::graph::Conv_wgrad_attributes>(a));
      break;
  }
  describe_output(*result, a.result);  // dgrad and wgrad cannot infer their output's dims
  if (a.bias && a.biased) {
    fe::graph::Pointwise_attributes add;
    add.set_mode(fe::PointwiseMode_t::ADD).set_compute_data_type(fe::DataType_t::FLOAT);
    add.set_name("bias_add");
    const auto sum = g.pointwise(result, input(g, *a.bias), add);
    describe_output(*sum, *a.biased);
  }
  check(g.validate(), "validate");
  check(g.build_operation_graph(handle), "build_operation_graph");
}

CudnnGraph::~CudnnGraph() = default;

void CudnnGraph::add_heuristic_configs() {
  State& s = *state_;
  std::string failures;
  for (const auto& [mode, ranked_by] : {std::pair{fe::HeurMode_t::A, "heuristics mode A"},
                                        std::pair{fe::HeurMode_t::FALLBACK, "heuristics mode FALLBACK"}}) {
    const std::int64_t before = s.graph.get_execution_plan_count();
    fe::error_t status = s.graph.create_execution_plans({mode});
    if (status.is_bad()) {
      // One mode without an answer leaves the other's configs; both without is the graph's error.
      failures += (failures.empty() ? "" : "; ") + message_of(status, fmt::format("create_execution_plans({})", ranked_by));
      continue;
    }
    for (std::int64_t i = before; i < s.graph.get_execution_plan_count(); ++i) s.list(i, ranked_by);
  }
  if (s.configs.empty() && !failures.empty()) throw CudnnError(CUDNN_STATUS_NOT_SUPPORTED, failures);
  s.deselect_excluded_notes();
}

void CudnnGraph::add_config(const EngineConfigName& name) {
  State& s = *state_;
  std::unordered_map<fe::KnobType_t, std::int64_t> knobs;
  for (const auto& [type, choice] : name.knobs) knobs[static_cast<fe::KnobType_t>(type)] = choice;
  const std::int64_t before = s.graph.get_execution_plan_count();
  check(s.graph.create_execution_plan(name.engine, knobs), "create_execution_plan(" + engine_config_name(name) + ")");
  for (std::int64_t i = before; i < s.graph.get_execution_plan_count(); ++i) s.list(i, "forced");
  s.deselect_excluded_notes();
}

const std::vector<GraphEngineConfig>& CudnnGraph::configs() const { return state_->configs; }

std::optional<std::string> CudnnGraph::build(std::size_t i, std::int64_t workspace_limit) {
  State& s = *state_;
  if (!s.configs.at(i).excluded.empty()) return s.configs[i].excluded;
  s.graph.deselect_workspace_greater_than(workspace_limit);
  fe::error_t status = s.graph.build_plan_at_index(s.plan_index.at(i));
  if (status.is_bad()) return message_of(status, "build_plan_at_index");
  return std::nullopt;
}

std::int64_t CudnnGraph::workspace_bytes(std::size_t i) const {
  std::int64_t bytes = 0;
  check(state_->graph.get_workspace_size_plan_at_index(state_->plan_index.at(i), bytes),
        "get_workspace_size_plan_at_index");
  return bytes;
}

void CudnnGraph::execute(cudnnHandle_t handle, std::size_t i, const std::vector<std::pair<std::int64_t, void*>>& tensors,
                         void* workspace) const {
  std::unordered_map<std::int64_t, void*> pack(tensors.begin(), tensors.end());
  check(state_->graph.execute_plan_at_index(handle, pack, workspace, state_->plan_index.at(i)), kExecute);
}

}  // namespace kbench::gpu

// The frontend's one NVRTC user is its open-source RmsNorm+SiLU engine (heuristics mode OPENSOURCE),
// which kbench never asks for: these refuse rather than link NVRTC, which the machine a portable build
// runs on may lack. Hidden, so that nothing else in the process binds to them.
#define KBENCH_NVRTC_UNUSED extern "C" __attribute__((visibility("hidden"))) nvrtcResult
KBENCH_NVRTC_UNUSED nvrtcCreateProgram(nvrtcProgram* program, const char*, const char*, int, const char* const*,
                                       const char* const*) {
  if (program) *program = nullptr;
  return NVRTC_ERROR_PROGRAM_CREATION_FAILURE;
}
KBENCH_NVRTC_UNUSED nvrtcCompileProgram(nvrtcProgram, int, const char* const*) { return NVRTC_ERROR_INVALID_PROGRAM; }
KBENCH_NVRTC_UNUSED nvrtcGetProgramLogSize(nvrtcProgram, std::size_t*) { return NVRTC_ERROR_INVALID_PROGRAM; }
KBENCH_NVRTC_UNUSED nvrtcGetProgramLog(nvrtcProgram, char*) { return NVRTC_ERROR_INVALID_PROGRAM; }
KBENCH_NVRTC_UNUSED nvrtcDestroyProgram(nvrtcProgram* program) {
  if (program) *program = nullptr;
  return NVRTC_ERROR_INVALID_PROGRAM;
}
KBENCH_NVRTC_UNUSED nvrtcGetCUBINSize(nvrtcProgram, std::size_t*) { return NVRTC_ERROR_INVALID_PROGRAM; }
KBENCH_NVRTC_UNUSED nvrtcGetCUBIN(nvrtcProgram, char*) { return NVRTC_ERROR_INVALID_PROGRAM; }
#undef KBENCH_NVRTC_UNUSED
