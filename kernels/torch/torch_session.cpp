#include "torch/torch_session.hpp"

#include <cstdlib>
#include <memory>
#include <string_view>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "backend/unsupported_problem.hpp"

namespace kbench::torch {

namespace {

// kbench's helper module, run in the embedded interpreter. Everything torch-specific lives here,
// in Python, where torch's own API is stable; C++ only passes capsules, JSON text and a stream.
constexpr const char* kHelperSource = R"PY(
import importlib.util
import inspect
import json
import re
import sys
import torch
import torch.nn.functional as F
from torch.utils import dlpack as _dlpack

_modules = {}  # path -> the loaded file: a solution that compiles CUDA when imported does so once


def facts():
    try:
        cudnn = torch.backends.cudnn.version()
    except Exception:
        cudnn = None
    try:
        cuda_available = bool(torch.cuda.is_available())
    except Exception:
        cuda_available = False
    return json.dumps({
        "version": str(torch.__version__),
        "cudnn": str(cudnn) if cudnn else "none",
        "cuda": str(torch.version.cuda) if torch.version.cuda else "none",
        "cuda_available": cuda_available,
        "compile": hasattr(torch, "compile"),
        "threads": int(torch.get_num_threads()),
    })


_DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


class Unsupported(Exception):
    """torch has no kernel for this call's dtype on this device (kbench reports the result unsupported)."""


# What torch's dispatcher says when an operator has no kernel for a dtype ("slow_conv2d_cpu" not
# implemented for 'Half'): a limit of this torch build, not a wrong answer.
_NO_KERNEL = re.compile(r"not implemented for '(Half|BFloat16|Float)'")


def _tensor(capsule, shape, name, call):
    tensor = _dlpack.from_dlpack(capsule)
    if list(tensor.shape) != list(shape):
        raise ValueError(f"{name}: DLPack gave shape {list(tensor.shape)}, expected {list(shape)}")
    if tensor.dtype != _DTYPES[call["dtype"]]:
        raise ValueError(f"{name}: DLPack gave {tensor.dtype}, expected {call['dtype']}")
    return tensor


def _load_module(path):
    source = _modules.get(path)
    if source is not None:
        return source
    name = f"kbench_module_{len(_modules)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path}: Python cannot load it as a module (a .py file is expected)")
    source = importlib.util.module_from_spec(spec)
    sys.modules[name] = source  # what the file defines may look its module up by name (dataclasses, pickle)
    try:
        spec.loader.exec_module(source)
    except BaseException:
        del sys.modules[name]
        raise
    _modules[path] = source
    return source


class NotCompiled(Exception):
    """torch.compile left the call running eager: not a compiled result."""


def _fresh_dynamo():
    # Dynamo keeps what it compiled per code object, and every call kbench prepares wraps a function of
    # the same code: without a reset the second problem recompiles it with dynamic shapes and the ninth
    # runs eager (the recompile limit is 8) while still called compiled. Each compiled problem starts
    # from a fresh Dynamo, as in a process of its own; once compiled it may not recompile (a recompile
    # raises, so no result times one or an eager fallback).
    import torch._dynamo
    from torch._dynamo.utils import counters
    torch._dynamo.reset()
    counters.clear()
    torch._dynamo.config.error_on_recompile = True


def _compile_facts():
    # What Dynamo compiled since _fresh_dynamo, after the call's first (compiling) run.
    from torch._dynamo.utils import counters
    frames = int(counters["frames"]["ok"])
    graphs = int(counters["stats"]["unique_graphs"])
    breaks = sum(int(n) for n in counters["graph_break"].values())
    if frames == 0 or graphs == 0:
        raise NotCompiled(f"torch.compile compiled nothing for this call (frames compiled {frames}, graphs "
                          f"{graphs}): it would run eager under a compiled name")
    try:  # compiles per frame since the reset (Dynamo's own count; internal, so guarded)
        from torch._dynamo.convert_frame import FRAME_COMPILE_COUNTER
        recompiles = str(sum(max(0, int(n) - 1) for n in FRAME_COMPILE_COUNTER.values()))
    except (ImportError, AttributeError, TypeError, ValueError):
        recompiles = "unknown"
    return {"compile.frames_compiled": str(frames), "compile.graphs": str(graphs),
            "compile.graph_breaks": str(breaks), "compile.dynamic": "False",
            "compile.recompiles": recompiles}


def _as_2d(call):
    """A 1-D convolution on channels-last data, which torch is given as a 2-D one (Call._forward)."""
    return len(call["stride"]) == 1 and call["layout"] == "nhwc"


def _as_2d_arguments(kwargs):
    # The 1-D call's arguments for the [N, C, 1, L] views: the new height is 1, unstrided and unpadded.
    leading = {"stride": 1, "padding": 0, "dilation": 1, "output_padding": 0}
    return {k: ([leading[k]] + list(v) if k in leading else v) for k, v in kwargs.items()}


def _shape(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


def _memory_format(tensor):
    # torch names channels last for 4-D and 5-D tensors only; a 3-D one is just strided that way.
    if tensor.is_contiguous():
        return "contiguous"
    formats = {4: torch.channels_last, 5: torch.channels_last_3d}
    if tensor.dim() in formats and tensor.is_contiguous(memory_format=formats[tensor.dim()]):
        return str(formats[tensor.dim()]).replace("torch.", "")
    return "channels last" if tensor.stride(1) == 1 else "strided"


class Call:
    def __init__(self, x, w, b, y, call, settings):
        self.x = _tensor(x, call["input_shape"], "input", call)
        self.w = _tensor(w, call["weight_shape"], "weight", call)
        self.b = _tensor(b, [call["output_shape"][1]], "bias", call) if call["bias"] else None
        self.y = _tensor(y, call["output_shape"], "output", call)
        self.cuda = self.x.is_cuda
        self.streams = {}
        self.out = None
        if self.cuda:
            torch.cuda.set_device(self.x.device)
        # Global switches: a run sets them when it is prepared, and runs are prepared one at a time.
        torch.backends.cudnn.allow_tf32 = bool(settings["allow_tf32"])
        torch.backends.cuda.matmul.allow_tf32 = bool(settings["allow_tf32"])
        torch.backends.cudnn.benchmark = bool(settings["cudnn_benchmark"])
        # Every pass returns a tuple of outputs, copied in order into `targets`; `args` are what it reads.
        pass_ = call.get("pass", "forward")
        self.as_2d = _as_2d(call) and not settings.get("module")
        self.implementation = ""
        self.module_facts = {}
        if settings.get("module"):
            conv = self._module(settings["module"], call)
            self.args = (self.x,)
            self.targets = (self.y,)
        elif pass_ == "forward":
            conv = self._forward(call)
            self.args = (self.x, self.w, self.b)
            self.targets = (self.y,)
        else:
            conv = self._backward(call, pass_ == "backward_weights")
            # The gradients live in the buffers of the tensors they differentiate: grad_output in
            # y's, grad_input in x's, grad_weight and grad_bias in w's and b's. convolution_backward
            # reads only the shape of the tensor whose gradient it computes.
            self.args = (self.y, self.x, self.w)
            if pass_ == "backward_data":
                self.targets = (self.x,)
            else:
                self.targets = (self.w, self.b) if self.b is not None else (self.w,)

        mode = settings["mode"]
        self.compiled = mode in ("compile", "compile-max-autotune")
        if self.compiled:
            _fresh_dynamo()
            # Static shapes, as the first compile of a problem in a process of its own is.
            options = {"mode": "max-autotune"} if mode == "compile-max-autotune" else {}
            conv = torch.compile(conv, dynamic=False, **options)
        self.settings = settings
        self.fn = conv

    @staticmethod
    def _forward(call):
        kwargs = {"stride": call["stride"], "padding": call["padding"], "dilation": call["dilation"],
                  "groups": call["groups"]}
        if "output_padding" in call:
            kwargs["output_padding"] = call["output_padding"]
        if _as_2d(call):
            # torch's _convolution makes a 3-D input contiguous before it views it as 4-D: on channels-last
            # data that is a transpose of the whole input inside the timed call. Handed the 4-D
            # [N, C, 1, L] channels-last views (what cuDNN gets), conv2d reads kbench's tensors as they are.
            function = getattr(F, call["function"].replace("1d", "2d"))
            kwargs = _as_2d_arguments(kwargs)

            def conv(x, w, b):
                return (function(x.unsqueeze(2), w.unsqueeze(2), b, **kwargs).squeeze(2),)
            return conv
        function = getattr(F, call["function"])

        def conv(x, w, b):
            return (function(x, w, b, **kwargs),)
        return conv

    @staticmethod
    def _backward(call, weights):
        # aten's convolution_backward, what autograd itself calls for every convolution (torch 1.13
        # and 2.x alike), asked for grad_input, or for grad_weight (and grad_bias) only.
        rank = len(call["stride"])
        transposed = call["function"].startswith("conv_transpose")
        output_padding = call.get("output_padding", [0] * rank)
        bias_sizes = [call["output_shape"][1]] if weights and call["bias"] else None
        mask = [not weights, weights, bias_sizes is not None]
        backward = torch.ops.aten.convolution_backward
        stride, padding, dilation, groups = call["stride"], call["padding"], call["dilation"], call["groups"]
        if _as_2d(call):
            # As the forward pass: 1-D channels-last tensors as 4-D [N, C, 1, L] channels-last views.
            two_d = _as_2d_arguments({"stride": stride, "padding": padding, "dilation": dilation,
                                      "output_padding": output_padding})
            stride, padding, dilation = two_d["stride"], two_d["padding"], two_d["dilation"]
            output_padding = two_d["output_padding"]

            def conv(dy, x, w):
                grad_input, grad_weight, grad_bias = backward(dy.unsqueeze(2), x.unsqueeze(2), w.unsqueeze(2),
                                                              bias_sizes, stride, padding, dilation, transposed,
                                                              output_padding, groups, mask)
                if not weights:
                    return (grad_input.squeeze(2),)
                if bias_sizes is not None:
                    return (grad_weight.squeeze(2), grad_bias)
                return (grad_weight.squeeze(2),)
            return conv

        def conv(dy, x, w):
            grad_input, grad_weight, grad_bias = backward(dy, x, w, bias_sizes, stride, padding, dilation,
                                                          transposed, output_padding, groups, mask)
            if not weights:
                return (grad_input,)
            return (grad_weight, grad_bias) if bias_sizes is not None else (grad_weight,)
        return conv

    def _module(self, path, call):
        # A KernelBench problem or solution file: its ModelNew (else Model), built from get_init_inputs(),
        # with kbench's weight and bias buffers as its convolution's parameters.
        source = _load_module(path)
        class_name = next((n for n in ("ModelNew", "Model") if isinstance(getattr(source, n, None), type)), None)
        if class_name is None:
            raise ValueError(f"{path} defines no ModelNew or Model class")
        init = getattr(source, "get_init_inputs", None)
        model = getattr(source, class_name)(*(list(init()) if callable(init) else []))
        if not isinstance(model, torch.nn.Module):
            raise ValueError(f"{path}: {class_name} is not a torch.nn.Module")
        try:
            parameters = inspect.signature(model.forward).parameters.values()
        except (TypeError, ValueError):
            parameters = []
        required = [p.name for p in parameters if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if len(required) > 1:
            raise ValueError(f"{path}: {class_name}.forward takes {len(required)} inputs ({', '.join(required)}); "
                             "kbench gives it one, the workload's input")
        # In the workload's dtype, as KernelBench evaluates a model at a precision (its parameters cast).
        model = model.to(device=self.x.device, dtype=self.x.dtype).eval()
        weight, bias = self._module_parameters(model, class_name, path, call)
        self.implementation = f"{class_name} from {path}"
        self.module_facts = {"module.file": path, "module.class": class_name, "module.weight": weight,
                             "module.bias": bias or "none"}

        def conv(x):
            with torch.no_grad():
                out = model(x)
            if not isinstance(out, torch.Tensor):
                raise ValueError(f"{class_name}.forward returned {type(out).__name__}, not a tensor")
            return (out,)
        return conv

    def _module_parameters(self, model, class_name, path, call):
        # Matched by shape, and then the module's own parameters *are* kbench's buffers (no copy), so
        # it reads whatever kbench fills before each run. Refused when a shape matches none or several.
        named = list(model.named_parameters())
        listing = ", ".join(f"{n} {_shape(p.shape)}" for n, p in named) or "none"

        def having(shape):
            return [(n, p) for n, p in named if list(p.shape) == list(shape)]
        weights = having(self.w.shape)
        if len(weights) != 1:
            found = "none" if not weights else "several (" + ", ".join(n for n, _ in weights) + ")"
            raise ValueError(f"{path}: {class_name} has {found} of the workload's weight shape {_shape(self.w.shape)}; "
                             f"its parameters: {listing}")
        biases = [(n, p) for n, p in having([call["output_shape"][1]]) if n != weights[0][0]]
        if call["bias"] and len(biases) != 1:
            found = "none" if not biases else "several (" + ", ".join(n for n, _ in biases) + ")"
            raise ValueError(f"{path}: {class_name} has {found} of the bias shape [{call['output_shape'][1]}] and "
                             f"the workload has a bias; its parameters: {listing}")
        if not call["bias"] and biases:
            raise ValueError(f"{path}: {class_name} has {', '.join(n for n, _ in biases)} of the bias shape "
                             f"[{call['output_shape'][1]}] and the workload has no bias (bias: true in the spec "
                             "would give it kbench's)")
        for (_, parameter), buffer in zip(weights + (biases if call["bias"] else []), (self.w, self.b)):
            if parameter.dtype != buffer.dtype:
                raise ValueError(f"{path}: {class_name}'s parameters are {parameter.dtype}, the workload's "
                                 f"tensors {buffer.dtype}")
            parameter.data = buffer
        return weights[0][0], biases[0][0] if call["bias"] else None

    def _stream(self, pointer):
        stream = self.streams.get(pointer)
        if stream is None:
            stream = torch.cuda.ExternalStream(pointer, device=self.x.device)
            self.streams[pointer] = stream
        return stream

    def run(self, pointer):
        self.out = None  # the last output's memory back to torch's cache before the next is taken
        try:
            if self.cuda:
                with torch.cuda.stream(self._stream(pointer)):
                    self.out = self.fn(*self.args)
            else:
                self.out = self.fn(*self.args)
        except (RuntimeError, NotImplementedError) as error:
            if not _NO_KERNEL.search(str(error)):
                raise
            reason = str(error).strip().splitlines()[0]
            raise Unsupported(f"torch {torch.__version__} has no {self.x.dtype} kernel for this call on "
                              f"{self.x.device}: {reason}") from None

    def copy_out(self, pointer):
        if self.out is None:
            raise RuntimeError("copy_out before run")
        for target, out in zip(self.targets, self.out):
            if list(out.shape) != list(target.shape):
                raise ValueError(f"the call returned a tensor of shape {_shape(out.shape)}; the workload's is "
                                 f"{_shape(target.shape)}")
        if self.cuda:
            with torch.cuda.stream(self._stream(pointer)):
                for target, out in zip(self.targets, self.out):
                    target.copy_(out)
        else:
            for target, out in zip(self.targets, self.out):
                target.copy_(out)

    def warmed_up(self):
        # Facts known only once the call has run once: what torch.compile compiled.
        return json.dumps(_compile_facts() if self.compiled else {})

    def aten_ops(self, pointer):
        # One call, exactly as it is timed, under torch.profiler (CPU activity only: the aten operators
        # dispatched, no device tracing): the distinct names, in the order first seen.
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU]) as recorded:
            self.run(pointer)
            if self.cuda:
                torch.cuda.synchronize(self.x.device)
        names = []
        for event in recorded.events():
            if event.name.startswith("aten::") and event.name not in names:
                names.append(event.name)
        return ", ".join(names)

    def facts(self):
        device = str(self.x.device)
        if self.cuda:
            device += " (" + torch.cuda.get_device_name(self.x.device) + ")"
        return json.dumps({
            "device": device,
            "dtype": str(self.x.dtype),
            "input_strides": _shape(self.x.stride()) + " (" + _memory_format(self.x) + ")",
            "cudnn.allow_tf32": str(torch.backends.cudnn.allow_tf32),
            "cuda.matmul.allow_tf32": str(torch.backends.cuda.matmul.allow_tf32),
            "cudnn.benchmark": str(torch.backends.cudnn.benchmark),
            "threads": str(torch.get_num_threads()),
            **({"call_as": "2-D, on the [N, C, 1, L] channels-last views of the 1-D tensors"}
               if self.as_2d else {}),
            **self.module_facts,
        })


def prepare(x, w, b, y, call_json, settings_json):
    return Call(x, w, b, y, json.loads(call_json), json.loads(settings_json))
)PY";

TorchSession* g_session = nullptr;
std::mutex g_session_mutex;

// A capsule's destructor: frees the view when torch never consumed it (torch renames the capsule
// "used_dltensor" when it does, and then calls the deleter itself when its tensor goes).
void capsule_destructor(PyObject* capsule) {
  const PythonRuntime* python = running_python();
  if (!python) return;
  const PythonApi& api = python->api();
  if (!api.PyCapsule_IsValid(capsule, dlpack::kCapsuleName)) return;
  auto* view = static_cast<dlpack::DLManagedTensor*>(api.PyCapsule_GetPointer(capsule, dlpack::kCapsuleName));
  if (view && view->deleter) view->deleter(view);
}

// One of the problem's tensors as torch will see it: its logical shape, strided by the problem's layout.
dlpack::DLManagedTensor* operand_view(const ConvProblem& problem, void* data, const dlpack::DLDevice& device,
                                      const std::vector<std::int64_t>& shape) {
  const bool channels_last = problem.layout == Layout::nhwc && shape.size() > 1;  // never the bias
  return dlpack::make_view(data, device, dlpack_dtype(problem.dtype), shape,
                           channels_last ? dlpack::channels_last_strides(shape) : dlpack::row_major_strides(shape));
}

}  // namespace

dlpack::DLDataType dlpack_dtype(DType dtype) {
  switch (dtype) {
    case DType::fp16: return {dlpack::kDLFloat, 16, 1};
    case DType::bf16: return {dlpack::kDLBfloat, 16, 1};
    case DType::fp32: break;
  }
  return {dlpack::kDLFloat, 32, 1};
}

TorchSession& TorchSession::open(const InterpreterInfo& interpreter) {
  const std::lock_guard lock(g_session_mutex);
  if (g_session) return *g_session;
  PythonRuntime& python = PythonRuntime::start(interpreter);
  g_session = new TorchSession(python);  // process lifetime, like the interpreter
  return *g_session;
}

TorchSession::TorchSession(PythonRuntime& python) : python_(python) {
  const Gil gil(python_);
  helper_ = python_.exec_module(kHelperSource, "<kbench-torch-helper>");
  PyRef json_text = python_.call_in(helper_.get(), "facts", {});
  const auto doc = nlohmann::json::parse(python_.text(json_text.get(), "torch facts"));
  facts_.version = doc.at("version").get<std::string>();
  facts_.cudnn_version = doc.at("cudnn").get<std::string>();
  facts_.cuda_version = doc.at("cuda").get<std::string>();
  facts_.cuda_available = doc.at("cuda_available").get<bool>();
  facts_.has_compile = doc.at("compile").get<bool>();
  facts_.threads = doc.at("threads").get<int>();
}

PyRef TorchSession::capsule(dlpack::DLManagedTensor* view) const {
  PyObject* made = python_.api().PyCapsule_New(view, dlpack::kCapsuleName, capsule_destructor);
  if (!made) {
    view->deleter(view);
    python_.throw_error("making a DLPack capsule");
  }
  return PyRef(made);
}

TorchCall::TorchCall(TorchSession& session, const ConvProblem& problem, const TorchSettings& settings,
                     const TorchBuffers& buffers)
    : session_(session) {
  const PythonRuntime& python = session_.python();
  const PythonApi& api = python.api();
  const Gil gil(python);
  PyRef x = session_.capsule(operand_view(problem, buffers.x, buffers.device, input_shape(problem)));
  PyRef w = session_.capsule(operand_view(problem, buffers.w, buffers.device, weight_shape(problem)));
  PyRef b = problem.bias ? session_.capsule(operand_view(problem, buffers.b, buffers.device, {problem.out_channels}))
                         : python.check(api.PyLong_FromLongLong(0), "bias placeholder");
  PyRef y = session_.capsule(operand_view(problem, buffers.y, buffers.device, output_shape(problem)));
  PyRef call = python.check(api.PyUnicode_FromString(call_json(problem).c_str()), "call description");
  PyRef configured = python.check(api.PyUnicode_FromString(settings_json(settings).c_str()), "settings");
  state_ =
      python.call_in(session_.helper(), "prepare", {x.get(), w.get(), b.get(), y.get(), call.get(), configured.get()});
  PyRef json_text = python.call_method(state_.get(), "facts");
  const auto doc = nlohmann::json::parse(python.text(json_text.get(), "run facts"));
  for (const auto& [key, value] : doc.items()) facts_.emplace_back("torch." + key, value.get<std::string>());
  PyRef implementation = python.check(api.PyObject_GetAttrString(state_.get(), "implementation"), "implementation");
  implementation_ = python.text(implementation.get(), "implementation");
}

TorchCall::~TorchCall() {
  const Gil gil(session_.python());
  state_.reset();  // the tensors go, and with them torch's references to kbench's buffers
}

void TorchCall::run(std::uintptr_t stream) {
  const PythonRuntime& python = session_.python();
  const Gil gil(python);
  PyRef pointer = python.check(python.api().PyLong_FromVoidPtr(reinterpret_cast<void*>(stream)), "stream");
  try {
    PyRef result = python.call_method(state_.get(), "run", {pointer.get()});
  } catch (const PythonError& e) {
    if (e.exception_type() == "Unsupported") throw UnsupportedProblem(e.message());
    if (e.exception_type().empty()) throw;
    // Any other error of torch's on a problem kbench validated ends the result as failed, with torch's own
    // words: only the dispatcher's "not implemented for" is a declared absence (unsupported). A shape error
    // may be torch's bug on this CPU (bf16 grouped transposed convolution on AMX) or wrong tensors from
    // kbench; either must show, not pass as a limit.
    throw std::runtime_error(
        fmt::format("torch {} raised {}: {}", session_.facts().version, e.exception_type(), e.message()));
  }
}

void TorchCall::record_warm_up() {
  const PythonRuntime& python = session_.python();
  const Gil gil(python);
  PyRef json_text = python.call_method(state_.get(), "warmed_up");
  const auto doc = nlohmann::json::parse(python.text(json_text.get(), "warm-up facts"));
  for (const auto& [key, value] : doc.items()) facts_.emplace_back("torch." + key, value.get<std::string>());
}

void TorchCall::record_aten_ops(std::uintptr_t stream) {
  const PythonRuntime& python = session_.python();
  const Gil gil(python);
  PyRef pointer = python.check(python.api().PyLong_FromVoidPtr(reinterpret_cast<void*>(stream)), "stream");
  PyRef names = python.call_method(state_.get(), "aten_ops", {pointer.get()});
  facts_.emplace_back("torch.aten_ops", python.text(names.get(), "aten ops"));
}

bool aten_ops_requested() {
  const char* value = std::getenv("KBENCH_TORCH_ATEN_OPS");
  return value && std::string_view(value) == "1";
}

void TorchCall::copy_out(std::uintptr_t stream) {
  const PythonRuntime& python = session_.python();
  const Gil gil(python);
  PyRef pointer = python.check(python.api().PyLong_FromVoidPtr(reinterpret_cast<void*>(stream)), "stream");
  PyRef result = python.call_method(state_.get(), "copy_out", {pointer.get()});
}

}  // namespace kbench::torch
