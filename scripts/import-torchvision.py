#!/usr/bin/env python3
"""Write a kbench workload spec of a torchvision model's convolution layers.

    scripts/import-torchvision.py resnet50 [--batch 8] [--size 224] [--output resnet50.yaml]
    scripts/import-torchvision.py fcn_resnet50        # segmentation, detection and video models too
    scripts/import-torchvision.py r3d_18 --frames 16  # video models take N x 3 x frames x size x size

Any model torchvision.models.list_models() names is found, in torchvision.models or its segmentation,
detection, video and quantization packages. It is built without weights (its backbone's too: nothing is
downloaded) and run once on a meta tensor (no memory, no arithmetic; on a CPU tensor where this torch
cannot run it on meta; detection models get a list of images, as they expect) with a forward hook on every Conv1d/2d/3d and
ConvTranspose1d/2d/3d module. Layers of the same shape and parameters become one workload with a
`count` (how many times the model runs it), so the suite total of a `kbench run` is the model's
convolution time. Needs torch and torchvision importable by this python (not installed by
scripts/install-deps.sh: Debian's python3-torchvision pulls in all of torch). Exit 2 on bad usage or a
layer kbench cannot express (reported, never guessed); 3 when torchvision cannot be imported.
"""
import argparse
import re
import sys


def name_part(text):
    """A piece of a workload name: letters, digits, '.', '_', '-'."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-._") or "layer"


def per_dim(values):
    values = list(values)
    return str(values[0]) if all(v == values[0] for v in values) else "[" + ", ".join(str(v) for v in values) + "]"


def layer_key(module, input_shape, nn):
    """Everything a spec says about the layer, or raise ValueError naming what kbench cannot express."""
    transposed = isinstance(module, (nn.ConvTranspose1d, nn.ConvTranspose2d, nn.ConvTranspose3d))
    rank = len(module.kernel_size)
    if module.padding_mode != "zeros":
        raise ValueError(f"padding_mode={module.padding_mode!r} (kbench pads with zeros only)")
    if len(input_shape) != rank + 2:
        raise ValueError(f"an unbatched input {list(input_shape)}")
    padding = module.padding
    if isinstance(padding, str):  # 'valid' or 'same' (stride 1): PyTorch's arithmetic, the odd one after
        if padding == "valid":
            before = after = (0,) * rank
        else:
            total = [d * (k - 1) for d, k in zip(module.dilation, module.kernel_size)]
            before = tuple(t // 2 for t in total)
            after = tuple(t - t // 2 for t in total)
    else:
        before = after = tuple(padding)
    return (
        "conv_transpose" if transposed else "conv",
        tuple(int(v) for v in input_shape),
        module.out_channels,
        tuple(module.kernel_size),
        tuple(module.stride),
        before,
        after,
        tuple(module.dilation),
        module.groups,
        module.bias is not None,
        tuple(module.output_padding) if transposed else None,
    )


def spec_entry(name, key, count, description):
    op, shape, out_channels, kernel, stride, before, after, dilation, groups, bias, output_padding = key
    lines = [f"- name: {name}", f'  description: "{description}"', f"  op: {op}", "  dtype: fp32",
             f"  input: [{', '.join(str(v) for v in shape)}]", f"  out_channels: {out_channels}",
             f"  kernel: {per_dim(kernel)}"]
    if any(s != 1 for s in stride):
        lines.append(f"  stride: {per_dim(stride)}")
    if before == after and any(before):
        lines.append(f"  padding: {per_dim(before)}")
    elif before != after:
        pairs = [str(b) if b == a else f"[{b}, {a}]" for b, a in zip(before, after)]
        lines.append(f"  padding: [{', '.join(pairs)}]")
    if any(d != 1 for d in dilation):
        lines.append(f"  dilation: {per_dim(dilation)}")
    if groups != 1:
        lines.append(f"  groups: {groups}")
    lines.append(f"  bias: {'true' if bias else 'false'}")
    if output_padding and any(output_padding):
        lines.append(f"  output_padding: {per_dim(output_padding)}")
    lines.append(f"  count: {count}")
    return "\n".join(lines) + "\n"


class InputRefused(Exception):
    """The model cannot run on the input asked for (ViT at another --size, --channels it has no weights for)."""


def model_input(torch, kind, shape, device):
    """What the model's forward takes: a batch tensor, or for detection models a list of images."""
    if kind == "detection":
        return [torch.zeros(shape[1:], device=device) for _ in range(shape[0])]
    return torch.zeros(shape, device=device)


def trace(torch, model, kind, shape, restart):
    """Runs the model once on meta tensors (a copy: .to() moves in place), else on zeros on the CPU."""
    import copy
    try:
        with torch.no_grad():
            copy.deepcopy(model).to("meta")(model_input(torch, kind, shape, "meta"))  # the hooks come along
        return
    except Exception:  # an op without a meta kernel in this torch: the CPU gives the same shapes
        restart()
    try:
        with torch.no_grad():
            model(model_input(torch, kind, shape, "cpu"))
    except Exception as e:  # the model's own refusal, not a fault of this script: one line, exit 2
        message = " ".join(str(e).split()) or type(e).__name__
        raise InputRefused(f"{type(e).__name__}: {message}") from None


# The packages of torchvision.models whose builders take other inputs or arguments than a classifier's.
MODEL_PACKAGES = ("segmentation", "detection", "video", "quantization", "optical_flow")


def find_builder(torchvision, name):
    """(builder, kind) for a model name, kind being its package ("classification" at the top level), or
    (None, None). torchvision >= 0.14 has get_model for every name list_models() gives."""
    import importlib
    models = torchvision.models
    if hasattr(models, "list_models") and name not in models.list_models():
        return None, None  # get_model, get_weight and the like are callables, not models
    for package in MODEL_PACKAGES:
        try:
            module = importlib.import_module(f"torchvision.models.{package}")
        except ImportError:
            continue
        builder = getattr(module, name, None)
        if callable(builder) and not name.startswith("_") and not isinstance(builder, type):
            return builder, package
    builder = getattr(models, name, None)
    if callable(builder) and not name.startswith("_") and not isinstance(builder, type):
        return builder, "classification"
    return None, None


def known_models(torchvision):
    try:
        return sorted(torchvision.models.list_models())
    except AttributeError:  # torchvision before 0.14
        return sorted(n for n in dir(torchvision.models) if n.islower() and not n.startswith("_"))


def build(builder):
    """The model without weights, its backbone's included (segmentation and detection builders would
    otherwise download ImageNet weights for it)."""
    import inspect
    try:
        parameters = inspect.signature(builder).parameters
    except (TypeError, ValueError):
        parameters = {}
    kwargs = {}
    if "weights" in parameters:
        kwargs["weights"] = None
    elif "pretrained" in parameters:  # torchvision before 0.13
        kwargs["pretrained"] = False
    if "weights_backbone" in parameters:
        kwargs["weights_backbone"] = None
    elif "pretrained_backbone" in parameters:
        kwargs["pretrained_backbone"] = False
    return builder(**kwargs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="a torchvision.models builder, e.g. resnet50, mobilenet_v3_small")
    parser.add_argument("--batch", type=int, default=1, help="batch size N (default 1)")
    parser.add_argument("--size", type=int, default=224, help="input height and width (default 224)")
    parser.add_argument("--channels", type=int, default=3, help="input channels (default 3)")
    parser.add_argument("--frames", type=int, default=16, help="video models: input frames T (default 16)")
    parser.add_argument("--name-prefix", default=None, help="workload names start with this (default: the model)")
    parser.add_argument("--output", "-o", help="write the spec here (default: standard output)")
    args = parser.parse_args()
    for flag in ("batch", "size", "channels", "frames"):
        if not 1 <= getattr(args, flag) <= 2**31 - 1:
            parser.error(f"--{flag}: expected an integer from 1 to 2147483647")
    try:
        import torch
        import torchvision
        from torch import nn
    except ImportError as e:
        print(f"import-torchvision: cannot import torchvision: {e}", file=sys.stderr)
        return 3
    builder, kind = find_builder(torchvision, args.model)
    if builder is None:
        import difflib
        close = difflib.get_close_matches(args.model, known_models(torchvision), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else "; torchvision.models.list_models() names them"
        print(f"import-torchvision: error: torchvision.models has no model '{args.model}'{hint}", file=sys.stderr)
        return 2
    if kind == "optical_flow":
        print(f"import-torchvision: error: {args.model} takes two images (optical flow); this script feeds one",
              file=sys.stderr)
        return 2
    try:
        model = build(builder)
    except Exception as e:
        print(f"import-torchvision: error: {args.model}: cannot build it: {type(e).__name__}: "
              f"{' '.join(str(e).split())}", file=sys.stderr)
        return 2
    model.eval()

    conv_types = (nn.Conv1d, nn.Conv2d, nn.Conv3d, nn.ConvTranspose1d, nn.ConvTranspose2d, nn.ConvTranspose3d)
    layers = {}  # key -> [first module path, count, output shape, class name]
    problems = []

    def hook(path):
        def record(module, inputs, output):
            try:
                key = layer_key(module, inputs[0].shape, nn)
            except ValueError as e:
                problems.append(f"{path} ({type(module).__name__}): {e}")
                return
            if key in layers:
                layers[key][1] += 1
            else:
                layers[key] = [path, 1, list(output.shape), type(module).__name__]
        return record

    for path, module in model.named_modules():
        if isinstance(module, conv_types):
            module.register_forward_hook(hook(path))
    def restart():
        layers.clear()
        problems.clear()

    shape = ((args.batch, args.channels, args.frames, args.size, args.size) if kind == "video"
             else (args.batch, args.channels, args.size, args.size))
    try:
        trace(torch, model, kind, shape, restart)
    except InputRefused as e:
        print(f"import-torchvision: error: {args.model} refuses the input {list(shape)} (--batch, --channels, "
              f"--size{', --frames' if kind == 'video' else ''}): {e}", file=sys.stderr)
        return 2
    if problems:
        for problem in problems:
            print(f"import-torchvision: {args.model}: cannot express {problem}", file=sys.stderr)
        return 2
    if not layers:
        print(f"import-torchvision: {args.model} ran no convolution", file=sys.stderr)
        return 2

    prefix = name_part(args.name_prefix if args.name_prefix is not None else args.model)
    total = sum(entry[1] for entry in layers.values())
    text = (f"# {args.model} (torchvision {torchvision.__version__}), input {list(shape)}: {total} convolution layers as {len(layers)} workloads, each with the "
            f"count of layers of its shape.\n# Written by scripts/import-torchvision.py.\n")
    for index, (key, (path, count, out_shape, cls)) in enumerate(layers.items()):
        name = f"{prefix}-{index:03d}-{name_part(path)}"[:128]
        description = (f"{args.model} {path} ({cls}), first of {count} layer{'s' if count > 1 else ''} of this "
                       f"shape; output [{', '.join(str(v) for v in out_shape)}]")
        text += ("\n" if index else "") + spec_entry(name, key, count, description)
    if args.output:
        with open(args.output, "w") as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
