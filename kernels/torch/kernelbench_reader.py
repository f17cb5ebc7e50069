# `kbench import kernelbench`'s reader, run by kbench in a child Python (kernelbench_trace.cpp):
#
#     python3 -B -c SOURCE MODE TIMEOUT STUB_SOURCE FILE...
#
# MODE is torch (run each file in torch, every tensor on the meta device), stub (run it against kbench's
# torch-free stand-in for torch, kernelbench_stub_torch.py) or auto (torch where it imports, else the stub).
# Each file's Model is built from get_init_inputs() and its forward applied to get_inputs(), with
# torch.nn.functional's convolutions replaced by a recorder; one JSON line per file, in order, on the
# standard output kbench reads: {"runner": ..., "calls": [...]} or {"error": {"message", "line"}}, the
# format import/traced_import.hpp reads. The files' own prints go to stderr. A file that runs longer than
# TIMEOUT seconds is stopped by SIGALRM (kbench kills the process if even that does not end it).
import importlib.abc
import importlib.util
import inspect
import json
import os
import re
import signal
import sys
import traceback
import types

if sys.version_info < (3, 8):
    sys.exit(f"kbench import kernelbench needs Python 3.8 or later; this is {sys.version.split()[0]}")

_CONVS = ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d")
_FACTORIES = ("randn", "rand", "randint", "zeros", "ones", "empty", "full", "normal", "tensor")
_STUB_MEMORY = 4 << 30  # the stub's reading allocates nothing: a file that asks for more is refused


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


def _line_in(path, frames):
    """The innermost line of `path` among traceback or stack frames; 0 when none is there."""
    line = 0
    for frame in frames:
        if os.path.abspath(frame.filename) == path:
            line = frame.lineno
    return line


class _Refusal(Exception):
    """The reader's own refusal of a file, at a line of it (0: the file as a whole)."""

    def __init__(self, message, line=0):
        super().__init__(message)
        self.line = line


class _FileTimeout(BaseException):  # not an Exception: a file's `except Exception` does not swallow it
    pass


def _on_alarm(signum, frame):
    raise _FileTimeout()


class _StubFinder(importlib.abc.MetaPathFinder):
    """Under the stub, `import torch.X` for an X the stub does not have is refused by name."""

    def __init__(self, stub):
        self.stub = stub

    def find_spec(self, fullname, path, target=None):
        if fullname.split(".")[0] == "torch" and fullname not in sys.modules:
            raise self.stub.NotModelled(
                f"import {fullname}: not modelled by kbench's torch-free reader; run the file in torch to read it "
                "(--reader torch, with a Python that has torch)")
        return None


class Reader:
    def __init__(self, torch, runner, stub=None):
        self.torch = torch
        self.F = torch.nn.functional
        self.runner = runner
        self.stub = stub  # the stub's module when reading without torch
        self.count = 0

    def read(self, path, timeout):
        path = os.path.abspath(path)
        signal.signal(signal.SIGALRM, _on_alarm)
        signal.alarm(timeout)
        try:
            return self._read(path)
        except _FileTimeout:
            return {"error": {"message": f"the file ran longer than {timeout} s (--timeout); stopped",
                              "line": _line_in(path, traceback.extract_tb(sys.exc_info()[2]))}}
        except SyntaxError as e:  # the file's, or one of its imports'
            in_file = e.filename and os.path.abspath(e.filename) == path
            return {"error": {"message": f"SyntaxError: {e.msg}", "line": (e.lineno or 0) if in_file else 0}}
        except BaseException as e:  # the file's own error (SystemExit included), at its line there
            line = _line_in(path, traceback.extract_tb(e.__traceback__))
            if isinstance(e, _Refusal):
                return {"error": {"message": str(e), "line": e.line or line}}
            if self.stub is not None and isinstance(e, self.stub.NotModelled):
                return {"error": {"message": str(e), "line": line}}
            return {"error": {"message": f"{type(e).__name__}: {e}".rstrip(": "), "line": line}}
        finally:
            signal.alarm(0)

    def _read(self, path):
        torch, F = self.torch, self.F
        self.count += 1
        name = f"kbench_import_{self.count}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ValueError(f"Python cannot load {path} as a module")
        source = importlib.util.module_from_spec(spec)
        saved_modules = dict(sys.modules)
        finder = None
        if self.stub is not None:
            sys.modules.update(self.stub.modules())
            finder = _StubFinder(self.stub)
            sys.meta_path.insert(0, finder)
        sys.modules[name] = source
        # Under torch, its factories are wrapped to make meta tensors; the stub's make no data anyway.
        factories = {f: getattr(torch, f) for f in _FACTORIES} if self.stub is None else {}
        originals = {f: getattr(F, f) for f in _CONVS}
        conv_types = (torch.nn.modules.conv._ConvNd,) if self.stub is None else (torch.nn._ConvNd,)
        built_at = {}  # id(module) -> the file's line that built it
        original_init = conv_types[0].__init__
        calls, active = [], []

        def recording_init(module, *args, **kwargs):
            original_init(module, *args, **kwargs)
            built_at[id(module)] = _line_in(path, inspect.stack(0))

        try:
            conv_types[0].__init__ = recording_init
            spec.loader.exec_module(source)
            model_class = getattr(source, "Model", None)
            if not isinstance(model_class, type):
                raise _Refusal("no `class Model(nn.Module)`; expected a KernelBench problem file")
            if not callable(getattr(source, "get_inputs", None)):
                raise _Refusal("no get_inputs(); expected a KernelBench problem file")
            init = list(source.get_init_inputs()) if hasattr(source, "get_init_inputs") else []
            with torch.no_grad(), _at_def_line(path, model_class.__init__):
                model = model_class(*init)
            names = {m: n for n, m in model.named_modules()}
            lines = open(path, encoding="utf-8", errors="replace").read().splitlines()

            def made_line(module, attribute):
                if built_at.get(id(module)):
                    return built_at[id(module)]
                pattern = re.compile(r"\s*self\." + re.escape(attribute.split(".")[-1]) + r"\s*=")
                return next((i + 1 for i, text in enumerate(lines) if pattern.match(text)), 0)

            for module, attribute in names.items():
                if isinstance(module, conv_types) and module.padding_mode != "zeros":
                    raise _Refusal(f"self.{attribute}: padding_mode '{module.padding_mode}'; kbench pads with zeros "
                                   "only", made_line(module, attribute))
                if isinstance(module, conv_types):  # which module a call comes from (hooks must return None)
                    module.register_forward_pre_hook(lambda m, args: active.append(m) and None)
                    module.register_forward_hook(lambda m, args, out: active.pop() and None)

            def recorder(function):
                transposed = function.startswith("conv_transpose")
                rank = int(function[-2])
                keys = ("stride", "padding", "output_padding", "groups", "dilation") if transposed else \
                       ("stride", "padding", "dilation", "groups")
                defaults = {"stride": 1, "padding": 0, "output_padding": 0, "groups": 1, "dilation": 1}

                def record(input, weight, bias=None, *args, **kwargs):
                    if not isinstance(input, torch.Tensor) or not isinstance(weight, torch.Tensor):
                        raise TypeError(f"F.{function}: its input and weight must be tensors")
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
                        "dtype": str(input.dtype).replace("torch.", ""),
                        "weight_dtype": str(weight.dtype).replace("torch.", ""),
                        # channels last: C the innermost dim of a tensor not contiguous as NC...
                        "channels_last": input.dim() > 2 and input.stride(1) == 1 and not input.is_contiguous(),
                    }
                    if transposed:
                        call["output_padding"] = _per_dim(given["output_padding"], rank)
                    call["line"] = made_line(module, call["attribute"]) if module is not None else \
                        _line_in(path, inspect.stack(0))
                    calls.append(call)
                    if len(input.shape) != rank + 2 or len(weight.shape) != rank + 2:
                        raise _Stop()  # not a batched input: traced_import.cpp says so at this call
                    padding = call["padding"]
                    if isinstance(padding, str):  # 'same' keeps the size (stride 1), 'valid' pads nothing
                        padding = [0] * rank
                        if call["padding"] == "same":
                            return torch.empty(tuple(input.shape[:1]) + (call["weight"][0],) + tuple(input.shape[2:]),
                                               dtype=input.dtype, device=input.device)
                    out_channels = weight.shape[1] * call["groups"] if transposed else weight.shape[0]
                    spatial = [_extent(input.shape[2 + d], weight.shape[2 + d], call["stride"][d], padding[d],
                                       call["dilation"][d], call.get("output_padding", [0] * rank)[d], transposed)
                               for d in range(rank)]
                    if any(s < 1 for s in spatial):
                        raise _Stop()  # an empty output: traced_import.cpp names the sizes at this call
                    out = torch.empty([input.shape[0], out_channels] + spatial, dtype=input.dtype,
                                      device=input.device)
                    if call["channels_last"] and rank > 1:  # as torch's convolutions keep the input's memory format
                        out = out.contiguous(memory_format=torch.channels_last if rank == 2 else torch.channels_last_3d)
                    return out
                return record

            if self.stub is None:  # tensors on the meta device: shapes and dtypes only, whatever sizes are asked
                for f, make in factories.items():
                    setattr(torch, f, lambda *a, _make=make, **k: _make(*a, **{**k, "device": "meta"}))
            for f in _CONVS:
                setattr(F, f, recorder(f))
            inputs = source.get_inputs()
            inputs = [t.to("meta") if isinstance(t, torch.Tensor) else t for t in inputs]
            model = model.to("meta")
            try:
                with torch.no_grad(), _at_def_line(path, model_class.forward):
                    model(*inputs)
            except _Stop:
                pass
        finally:
            signal.alarm(0)
            conv_types[0].__init__ = original_init
            for f, make in factories.items():
                setattr(torch, f, make)
            for f, original in originals.items():
                setattr(F, f, original)
            if finder is not None:
                sys.meta_path.remove(finder)
            for key in [k for k in sys.modules if k not in saved_modules]:
                del sys.modules[key]
            sys.modules.update(saved_modules)
        return {"runner": self.runner, "calls": calls}


class _at_def_line:
    """An error in calling `function` that Python places in no line of the file (Model(*get_init_inputs())
    with the wrong arguments) is placed at the function's def."""

    def __init__(self, path, function):
        self.path = path
        code = getattr(function, "__code__", None)
        self.line = code.co_firstlineno if code and os.path.abspath(code.co_filename) == path else 0

    def __enter__(self):
        return self

    def __exit__(self, kind, error, tb):
        if isinstance(error, Exception) and not isinstance(error, _Refusal) and self.line and \
                not _line_in(self.path, traceback.extract_tb(tb)):
            raise _Refusal(f"{type(error).__name__}: {error}", self.line) from error
        return False


class _Stop(BaseException):
    """A call kbench cannot turn into a workload: recorded, the run stops there so its error is named."""


def _stub_module(source):
    stub = types.ModuleType("kbench_stub_torch")
    exec(compile(source, "<kbench-stub-torch>", "exec"), stub.__dict__)
    return stub


def main(argv):
    mode, timeout, stub_source, files = argv[0], int(argv[1]), argv[2], argv[3:]
    # kbench reads only what this writes on the descriptor it was given as stdout: the files' prints
    # (and anything else that writes to fd 1) go to stderr.
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    sys.dont_write_bytecode = True  # no __pycache__ beside the user's files
    reader, why_not_torch = None, None
    if mode in ("torch", "auto"):
        try:
            import torch
            import torch.nn.functional  # noqa: F401
            reader = Reader(torch, f"torch {torch.__version__}")
        except Exception as e:
            why_not_torch = f"no torch in {sys.executable} ({type(e).__name__}: {e})"
            if mode == "torch":
                print(json.dumps({"no_torch": why_not_torch}), file=answers, flush=True)
                return 0
    if reader is None:
        stub = _stub_module(stub_source)
        try:
            import resource  # a file that asks for memory anyway gets MemoryError, not the machine's
            resource.setrlimit(resource.RLIMIT_AS, (_STUB_MEMORY, _STUB_MEMORY))
        except (ImportError, ValueError, OSError):
            pass
        reader = Reader(stub.modules()["torch"], "kbench's torch stub", stub)
    header = {"runner": reader.runner, "python": sys.version.split()[0], "executable": sys.executable}
    if why_not_torch:
        header["no_torch"] = why_not_torch
    print(json.dumps(header), file=answers, flush=True)
    for path in files:
        print(json.dumps(reader.read(path, timeout)), file=answers, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
