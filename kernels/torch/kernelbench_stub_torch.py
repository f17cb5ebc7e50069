# kbench's torch-free stand-in for `torch`, `torch.nn` and `torch.nn.functional`, installed into
# sys.modules only while kernelbench_reader.py runs a KernelBench file without torch. It models what a
# convolution problem file uses: the tensor factories (shapes and dtypes, nothing allocated), nn.Module
# with nn.ConvNd / nn.ConvTransposeNd / nn.Sequential / nn.ModuleList / nn.Identity, F.convNd /
# F.conv_transposeNd, dtypes and memory formats. Anything else raises NotModelled naming it, so a file
# the stub cannot follow is refused at its line rather than read by a guess.
import types

_CONV_FUNCTIONS = ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d")


class NotModelled(Exception):
    """What the stub does not model; its text is the whole message (no exception type is shown)."""


def _not_modelled(what):
    return NotModelled(f"{what} is not modelled by kbench's torch-free reader; read this file with torch "
                       "(--reader torch, and a Python that has torch: --python PATH or KBENCH_PYTHON)")


class _DType:
    def __init__(self, name, floating):
        self._name = name
        self.is_floating_point = floating

    def __repr__(self):
        return "torch." + self._name


class _MemoryFormat:
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return "torch." + self._name


# torch's names for them; `float`, `int` and `bool` among them, so they are set on the module, not here.
_DTYPES = {name: _DType(name, name.startswith(("float", "bfloat")))
           for name in ("float32", "float16", "bfloat16", "float64", "int8", "uint8", "int16", "int32", "int64",
                        "bool")}
_DTYPE_ALIASES = {"float": "float32", "half": "float16", "double": "float64", "short": "int16", "int": "int32",
                  "long": "int64"}
float32, float16, bfloat16, float64, int64 = (_DTYPES[n] for n in ("float32", "float16", "bfloat16", "float64",
                                                                    "int64"))
contiguous_format = _MemoryFormat("contiguous_format")
channels_last = _MemoryFormat("channels_last")
channels_last_3d = _MemoryFormat("channels_last_3d")
preserve_format = _MemoryFormat("preserve_format")


class Size(tuple):
    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n


def _check_shape(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if type(s) is not int:
            raise TypeError(f"a tensor's size must be integers, got {type(s).__name__} {s!r}")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
        if s >= 1 << 63:
            raise RuntimeError(f"a tensor's size {s} cannot be converted to type int64_t without overflow")
    return Size(size)


def _strides(shape, fmt):
    """Strides of a dense tensor in `fmt` (channels last: C innermost), as torch lays it out."""
    order = list(range(len(shape)))
    if fmt is channels_last and len(shape) == 4 or fmt is channels_last_3d and len(shape) == 5:
        order = [0] + order[2:] + [1]
    strides, step = [0] * len(shape), 1
    for d in reversed(order):
        strides[d] = step
        step *= max(shape[d], 1)
    return tuple(strides)


class _DtypeShorthands:
    """`.half()`, `.float()`, `.bfloat16()`, `.double()`: torch gives tensors and modules both; each says
    what a dtype change means for it (`_as_dtype`)."""

    def half(self):
        return self._as_dtype(float16)

    def float(self):
        return self._as_dtype(float32)

    def bfloat16(self):
        return self._as_dtype(bfloat16)

    def double(self):
        return self._as_dtype(float64)


class Tensor(_DtypeShorthands):
    """A tensor's shape, dtype and layout; no data."""

    device = "meta"

    def __init__(self, shape, dtype=None, fmt=None):
        self.shape = Size(shape)
        self.dtype = dtype or float32
        self._strides = _strides(self.shape, fmt or contiguous_format)

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[dim]

    def dim(self):
        return len(self.shape)

    ndim = property(dim)

    def numel(self):
        return self.shape.numel()

    def stride(self, dim=None):
        return self._strides if dim is None else self._strides[dim]

    def is_contiguous(self, memory_format=contiguous_format):
        expected = _strides(self.shape, memory_format)
        return all(a == b for a, b, s in zip(self._strides, expected, self.shape) if s != 1)

    def _like(self, dtype=None, fmt=None):
        out = Tensor(self.shape, dtype or self.dtype)
        out._strides = _strides(self.shape, fmt) if fmt not in (None, preserve_format) else self._strides
        return out

    def contiguous(self, memory_format=contiguous_format):
        return self if self.is_contiguous(memory_format) else self._like(fmt=memory_format)

    def to(self, *args, dtype=None, memory_format=None, device=None, non_blocking=False, copy=False):
        for a in args:
            if isinstance(a, _DType):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a.dtype
            elif not isinstance(a, str):  # a device name ("cuda", "meta") changes nothing here
                raise _not_modelled(f"Tensor.to({a!r})")
        return self._like(dtype, memory_format)

    def cuda(self, *args, **kwargs):
        return self

    cpu = cuda

    def requires_grad_(self, requires_grad=True):
        return self

    def _as_dtype(self, dtype):
        return self._like(dtype)

    def __getattr__(self, name):
        raise _not_modelled(f"Tensor.{name}")

    def __repr__(self):
        return f"Tensor(shape={list(self.shape)}, dtype={self.dtype})"


def _refuse_operator(name):
    def operator(self, *args, **kwargs):
        raise _not_modelled(f"the tensor operator {name}")
    return operator


for _op in ("add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "floordiv", "matmul", "rmatmul",
            "pow", "neg", "getitem", "setitem", "iadd", "imul", "lt", "le", "gt", "ge", "bool", "len", "iter",
            "float", "int", "index"):
    setattr(Tensor, f"__{_op}__", _refuse_operator(f"__{_op}__"))


def _factory(name):
    def make(*size, dtype=None, device=None, requires_grad=False, pin_memory=False, memory_format=None, **rest):
        if rest:
            raise _not_modelled(f"torch.{name}(..., {', '.join(rest)}=...)")
        return Tensor(_check_shape(size), dtype, memory_format)
    make.__name__ = name
    return make


randn, rand, zeros, ones, empty = (_factory(n) for n in ("randn", "rand", "zeros", "ones", "empty"))


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False):
    return Tensor(_check_shape((size,)), dtype)


def randint(*args, size=None, dtype=None, device=None, requires_grad=False):
    if size is None:
        if not args or not isinstance(args[-1], (tuple, list)):
            raise TypeError("torch.randint needs a size: randint(low, high, size) or randint(high, size)")
        size = args[-1]
    return Tensor(_check_shape((size,)), dtype or int64)


def zeros_like(t, dtype=None, **kwargs):
    return t._like(dtype)


randn_like = rand_like = ones_like = empty_like = zeros_like


def manual_seed(seed):
    return None


def is_tensor(value):
    return isinstance(value, Tensor)


class _NoGrad:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, function):
        return function


def no_grad():
    return _NoGrad()


inference_mode = no_grad
__version__ = "kbench-stub"


# torch.nn ---------------------------------------------------------------------------------------------------------

def Parameter(data=None, requires_grad=True):
    if not isinstance(data, Tensor):
        raise _not_modelled("nn.Parameter of something other than a tensor")
    return data


# Module methods torch has and the stub does not: refused by name, not as a missing attribute.
_UNMODELLED_METHODS = {"apply", "register_buffer", "register_parameter", "parameters", "named_parameters",
                       "buffers", "state_dict", "load_state_dict", "zero_grad", "requires_grad_", "type",
                       "add_module", "register_module", "get_submodule", "extra_repr"}


class Module(_DtypeShorthands):
    def __init__(self, *args, **kwargs):
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_pre_hooks", [])
        object.__setattr__(self, "_hooks", [])
        object.__setattr__(self, "training", True)

    def __setattr__(self, name, value):
        modules = self.__dict__.get("_modules")
        if modules is None:  # as torch: plain attributes may come before Module.__init__, modules not
            if isinstance(value, Module):
                raise AttributeError("cannot assign module before Module.__init__() call")
            object.__setattr__(self, name, value)
            return
        modules.pop(name, None)
        if isinstance(value, Module):
            modules[name] = value
        object.__setattr__(self, name, value)

    def __getattr__(self, name):
        if name in _UNMODELLED_METHODS:
            raise _not_modelled(f"nn.Module.{name}")
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __call__(self, *args, **kwargs):
        for hook in self._pre_hooks:
            hook(self, args)
        out = self.forward(*args, **kwargs)
        for hook in self._hooks:
            hook(self, args, out)
        return out

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def register_forward_pre_hook(self, hook):
        self._pre_hooks.append(hook)

    def register_forward_hook(self, hook):
        self._hooks.append(hook)

    def named_children(self):
        return iter(self._modules.items())

    def children(self):
        return iter(self._modules.values())

    def named_modules(self, memo=None, prefix=""):
        memo = set() if memo is None else memo
        if id(self) in memo:
            return
        memo.add(id(self))
        yield prefix, self
        for name, child in self._modules.items():
            yield from child.named_modules(memo, f"{prefix}.{name}" if prefix else name)

    def modules(self):
        return (m for _, m in self.named_modules())

    def _convert(self, dtype):
        for m in self.modules():
            m._set_dtype(dtype)
        return self

    def _set_dtype(self, dtype):
        pass

    def to(self, *args, dtype=None, device=None, memory_format=None, non_blocking=False):
        for a in args:
            if isinstance(a, _DType):
                dtype = a
            elif not isinstance(a, str):
                raise _not_modelled(f"nn.Module.to({a!r})")
        return self._convert(dtype) if dtype is not None else self

    def _as_dtype(self, dtype):
        return self._convert(dtype)

    def cuda(self, *args, **kwargs):
        return self

    cpu = cuda

    def eval(self):
        return self.train(False)

    def train(self, mode=True):
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self


def _per_dim(value, rank, what, minimum):
    if isinstance(value, (tuple, list)):
        if len(value) != rank:
            raise ValueError(f"{what}: got {value!r}; expected one integer or a tuple of {rank} (one per spatial dim)")
        items = list(value)
    else:
        items = [value] * rank
    for item in items:
        if type(item) is not int or item < minimum:
            raise TypeError(f"{what}: got {value!r}; expected an integer of at least {minimum} or a tuple of {rank}")
        if item >= 1 << 63:  # as torch says of it
            raise RuntimeError(f"{what}: value cannot be converted to type int64_t without overflow")
    return tuple(items)


class _ConvNd(Module):
    _rank = 0
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None, output_padding=0):
        super().__init__()
        name = f"nn.{type(self).__name__}"
        rank = self._rank
        for key, value in (("in_channels", in_channels), ("out_channels", out_channels), ("groups", groups)):
            if type(value) is not int or value < 1:
                raise TypeError(f"{name} {key}: got {value!r}; expected a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if not isinstance(bias, type(True)):
            raise TypeError(f"{name} bias: got {bias!r}; expected True or False")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):  # kbench's reader refuses all but zeros
            raise ValueError(f"padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], "
                             f"but got padding_mode='{padding_mode}'")
        self.kernel_size = _per_dim(kernel_size, rank, f"{name} kernel_size", 1)
        self.stride = _per_dim(stride, rank, f"{name} stride", 1)
        self.dilation = _per_dim(dilation, rank, f"{name} dilation", 1)
        if isinstance(padding, str):
            if self._transposed or padding not in ("same", "valid"):
                raise ValueError(f"{name} padding: got the string {padding!r}; expected an integer, a tuple"
                                 + ("" if self._transposed else ", 'same' or 'valid'"))
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
            self.padding = padding
        else:
            self.padding = _per_dim(padding, rank, f"{name} padding", 0)
        self.output_padding = _per_dim(output_padding, rank, f"{name} output_padding", 0)
        self.groups, self.in_channels, self.out_channels = groups, in_channels, out_channels
        self.padding_mode = padding_mode
        if dtype is not None and not isinstance(dtype, _DType):
            raise TypeError(f"{name} dtype: got {dtype!r}; expected a torch dtype")
        shape = (in_channels, out_channels // groups) if self._transposed else (out_channels, in_channels // groups)
        self.weight = Tensor(shape + self.kernel_size, dtype)
        self.bias = Tensor((out_channels,), dtype) if bias else None

    def _set_dtype(self, dtype):
        self.weight = self.weight._like(dtype)
        if self.bias is not None:
            self.bias = self.bias._like(dtype)

    def forward(self, input):
        function = f"conv_transpose{self._rank}d" if self._transposed else f"conv{self._rank}d"
        conv = getattr(_functional, function)
        if self._transposed:
            return conv(input, self.weight, self.bias, self.stride, self.padding, self.output_padding, self.groups,
                        self.dilation)
        return conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


def _conv_class(rank, transposed):
    name = f"ConvTranspose{rank}d" if transposed else f"Conv{rank}d"
    if transposed:
        def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                     bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
            if padding_mode != "zeros":
                raise ValueError(f'Only "zeros" padding mode is supported for {name}')
            _ConvNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                             padding_mode, device, dtype, output_padding)
    else:
        def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                     bias=True, padding_mode="zeros", device=None, dtype=None):
            _ConvNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                             padding_mode, device, dtype)
    return type(name, (_ConvNd,), {"_rank": rank, "_transposed": transposed, "__init__": __init__})


class Sequential(Module):
    def __init__(self, *modules):
        super().__init__()
        for i, m in enumerate(modules):
            if not isinstance(m, Module):
                raise TypeError(f"{type(m).__name__} is not a Module subclass")
            setattr(self, str(i), m)

    def __iter__(self):
        return iter(self._modules.values())

    def __len__(self):
        return len(self._modules)

    def __getitem__(self, i):
        return list(self._modules.values())[i]

    def forward(self, input):
        for m in self._modules.values():
            input = m(input)
        return input


class ModuleList(Module):
    def __init__(self, modules=()):
        super().__init__()
        for m in modules:
            self.append(m)

    def append(self, m):
        setattr(self, str(len(self._modules)), m)
        return self

    def __iter__(self):
        return iter(self._modules.values())

    def __len__(self):
        return len(self._modules)

    def __getitem__(self, i):
        return list(self._modules.values())[i]


class Identity(Module):
    def forward(self, input):
        return input


def _module_getattr(module_name):
    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise _not_modelled(f"{module_name}.{name}")
    return __getattr__


def _conv_function(name):
    def conv(*args, **kwargs):
        raise _not_modelled(f"F.{name} outside kbench's reader")
    return conv


_torch = types.ModuleType("torch")
_nn = types.ModuleType("torch.nn")
_functional = types.ModuleType("torch.nn.functional")


def modules():
    """The three modules, filled in: {"torch": ..., "torch.nn": ..., "torch.nn.functional": ...}."""
    torch_names = ("Tensor", "Size", "contiguous_format", "channels_last", "channels_last_3d", "preserve_format", "randn", "rand",
                   "zeros", "ones", "empty", "full", "randint", "zeros_like", "randn_like", "rand_like", "ones_like",
                   "empty_like", "manual_seed", "is_tensor", "no_grad", "inference_mode", "__version__")
    g = globals()
    for name in torch_names:
        setattr(_torch, name, g[name])
    _torch.dtype, _torch.memory_format = _DType, _MemoryFormat
    for name, value in _DTYPES.items():
        setattr(_torch, name, value)
    for alias, name in _DTYPE_ALIASES.items():
        setattr(_torch, alias, _DTYPES[name])
    _torch.__getattr__ = _module_getattr("torch")
    _torch.nn = _nn
    _torch.__path__ = []  # a package, so `import torch.nn` looks for its submodules
    for name in ("Module", "Parameter", "Sequential", "ModuleList", "Identity"):
        setattr(_nn, name, g[name])
    for rank in (1, 2, 3):
        for transposed in (False, True):
            cls = _conv_class(rank, transposed)
            cls.__module__ = "torch.nn"
            setattr(_nn, cls.__name__, cls)
    _nn._ConvNd = _ConvNd
    _nn.functional = _functional
    _nn.__getattr__ = _module_getattr("nn")
    _nn.__path__ = []
    for name in _CONV_FUNCTIONS:
        setattr(_functional, name, _conv_function(name))
    _functional.__getattr__ = _module_getattr("F")
    return {"torch": _torch, "torch.nn": _nn, "torch.nn.functional": _functional}
