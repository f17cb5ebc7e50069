#!/usr/bin/env python3
"""Builds KernelBench's level-1 convolution modules back from calls.json (extract_calls.py), one runnable
file per problem, named as upstream names it: the constants, get_inputs(), get_init_inputs() and class
Model with its __init__ and forward, statement for statement as the upstream file runs them.

    write_modules.py calls.json OUT_DIR
"""
import json
import pathlib
import sys

HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"


def function(name, f, indent):
    pad = " " * indent
    body = f["body"]
    lines = [f"{pad}def {name}({f['parameters']}):"]
    for statement in body or ["pass"]:
        lines += [pad + "    " + line for line in statement.split("\n")]
    return "\n".join(lines) + "\n"


def module_text(record):
    f = record["functions"]
    parts = [HEADER, "class Model(nn.Module):\n", function("__init__", f["Model.__init__"], 4), "\n",
             function("forward", f["Model.forward"], 4), "\n"]
    parts += [c + "\n" for c in record["constants"]]
    parts += ["\n", function("get_inputs", f["get_inputs"], 0), "\n",
              function("get_init_inputs", f["get_init_inputs"], 0)]
    return "".join(parts)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for record in json.loads(pathlib.Path(sys.argv[1]).read_text()):
        (out / record["file"]).write_text(module_text(record))


if __name__ == "__main__":
    main()
