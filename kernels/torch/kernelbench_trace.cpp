#include "torch/kernelbench_trace.hpp"

#include <mutex>

#include "import/traced_import.hpp"

namespace kbench::torch {

namespace {

// Runs in the embedded interpreter; returns the JSON import/traced_import.hpp reads.
constexpr const char* kTracerSource = R"PY(
import importlib.util
import inspect
import json
import os
import re
import sys
import traceback
import torch
import torch.nn.functional as F

_CONVS = ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d")
_FACTORIES = ("randn", "rand", "randint", "zeros", "ones", "empty", "full", "normal", "tensor")
_DTYPES = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16"}
_count = 0


def _per_dim(value, rank):
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return [value] * rank
    return [int(v) for v in value]


def _extent(size, kernel, stride, padding, dilation, output_padding, transposed):
    if transposed:
        return (size - 1) * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def _line_in(path, tb_or_stack):
    line = 0
    for frame in tb_or_stack:
        if os.path.abspath(frame.filename) == path:
            line = frame.lineno
    return line


def trace(path):
    path = os.path.abspath(path)
    try:
        return json.dumps(_trace(path))
    except Exception as e:  # the file's own error, at its line there
        frames = traceback.extract_tb(e.__traceback__)
        return json.dumps({"error": {"message": f"{type(e).__name__}: {e}", "line": _line_in(path, frames)}})


def _trace(path):
    global _count
    _count += 1
    name = f"kbench_import_{_count}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"Python cannot load {path} as a module")
    source = importlib.util.module_from_spec(spec)
    sys.modules[name] = source
    factories = {f: getattr(torch, f) for f in _FACTORIES}
    originals = {f: getattr(F, f) for f in _CONVS}
    calls, active = [], []
    try:
        spec.loader.exec_module(source)
        model_class = getattr(source, "Model", None)
        if not isinstance(model_class, type):
            raise ValueError("no Model class; expected a KernelBench problem file")
        for needed in ("get_inputs", "get_init_inputs"):
            if not callable(getattr(source, needed, None)):
                raise ValueError(f"no {needed}(); expected a KernelBench problem file")
        init = list(source.get_init_inputs())
        with torch.no_grad():
            model = model_class(*init)
        names = {m: n for n, m in model.named_modules()}
        lines = open(path, encoding="utf-8").read().splitlines()
        conv_types = (torch.nn.modules.conv._ConvNd,)
        for module, attribute in names.items():
            if isinstance(module, conv_types) and module.padding_mode != "zeros":
                raise ValueError(f"self.{attribute}: padding_mode '{module.padding_mode}'; kbench pads with zeros only")
            if isinstance(module, conv_types):  # which module a call comes from (hooks must return None)
                module.register_forward_pre_hook(lambda m, args: active.append(m) and None)
                module.register_forward_hook(lambda m, args, out: active.pop() and None)

        def made_line(attribute):
            pattern = re.compile(r"\s*self\." + re.escape(attribute.split(".")[-1]) + r"\s*=")
            return next((i + 1 for i, text in enumerate(lines) if pattern.match(text)), 0)

        def recorder(function):
            transposed = function.startswith("conv_transpose")
            rank = int(function[-2])
            keys = ("stride", "padding", "output_padding", "groups", "dilation") if transposed else \
                   ("stride", "padding", "dilation", "groups")
            defaults = {"stride": 1, "padding": 0, "output_padding": 0, "groups": 1, "dilation": 1}

            def record(input, weight, bias=None, *args, **kwargs):
                given = dict(defaults)
                given.update(zip(keys, args))
                given.update(kwargs)
                module = active[-1] if active else None
                call = {
                    "function": function,
                    "module": module is not None,
                    "attribute": names.get(module, function) if module is not None else function,
                    "input": list(input.shape), "weight": list(weight.shape), "bias": bias is not None,
                    "stride": _per_dim(given["stride"], rank), "padding": _per_dim(given["padding"], rank),
                    "dilation": _per_dim(given["dilation"], rank), "groups": int(given["groups"]),
                    "dtype": _DTYPES.get(input.dtype, str(input.dtype).replace("torch.", "")),
                    "weight_dtype": _DTYPES.get(weight.dtype, str(weight.dtype).replace("torch.", "")),
                    # channels last: C the innermost dim of a tensor not contiguous as NC...
                    "channels_last": input.dim() > 2 and input.stride(1) == 1 and not input.is_contiguous(),
                }
                if transposed:
                    call["output_padding"] = _per_dim(given["output_padding"], rank)
                call["line"] = made_line(call["attribute"]) if module is not None else \
                    _line_in(path, inspect.stack())
                calls.append(call)
                padding = call["padding"]
                if isinstance(padding, str):  # 'same' keeps the size (stride 1), 'valid' pads nothing
                    padding = [0] * rank
                    if call["padding"] == "same":
                        return torch.empty(input.shape[:1] + (call["weight"][0],) + tuple(input.shape[2:]),
                                           dtype=input.dtype, device=input.device)
                out_channels = weight.shape[1] * call["groups"] if transposed else weight.shape[0]
                spatial = [_extent(input.shape[2 + d], weight.shape[2 + d], call["stride"][d], padding[d],
                                   call["dilation"][d], call.get("output_padding", [0] * rank)[d], transposed)
                           for d in range(rank)]
                out = torch.empty([input.shape[0], out_channels] + spatial, dtype=input.dtype, device=input.device)
                if call["channels_last"] and rank > 1:  # as torch's convolutions keep the input's memory format
                    out = out.contiguous(memory_format=torch.channels_last if rank == 2 else torch.channels_last_3d)
                return out
            return record

        # Tensors on the meta device: shapes and dtypes only, whatever sizes the file asks for.
        for f, make in factories.items():
            setattr(torch, f, lambda *a, _make=make, **k: _make(*a, **{**k, "device": "meta"}))
        for f in _CONVS:
            setattr(F, f, recorder(f))
        inputs = source.get_inputs()
        inputs = [t.to("meta") if isinstance(t, torch.Tensor) else t for t in inputs]
        model = model.to("meta")
        with torch.no_grad():
            model(*inputs)
    finally:
        for f, make in factories.items():
            setattr(torch, f, make)
        for f, original in originals.items():
            setattr(F, f, original)
        sys.modules.pop(name, None)
    return {"torch": str(torch.__version__), "calls": calls}
)PY";

std::mutex g_tracer_mutex;
PyRef* g_tracer = nullptr;  // the tracer's namespace, made once per process

}  // namespace

import::ImportOutcome trace_kernelbench(const EmbeddedTorch& torch, const std::string& path, const std::string& name) {
  const PythonRuntime& python = torch.session().python();
  const Gil gil(python);
  {
    const std::lock_guard lock(g_tracer_mutex);
    if (!g_tracer) g_tracer = new PyRef(python.exec_module(kTracerSource, "<kbench-kernelbench-tracer>"));
  }
  PyRef file = python.check(python.api().PyUnicode_FromString(path.c_str()), "the file's path");
  PyRef json = python.call_in(g_tracer->get(), "trace", {file.get()});
  return import::import_traced_calls(python.text(json.get(), "the tracer's record"), path, name);
}

}  // namespace kbench::torch
