#!/usr/bin/env python3
"""The call structure of KernelBench's level-1 convolution modules, as data (calls.json).

Reads a KernelBench checkout's level-1 files (#50, #54-#87) with Python's ast and keeps what decides
the layer each module builds: the module constants, get_inputs() and get_init_inputs(), Model.__init__'s
signature and body (the layer construction), forward's body. Docstrings, comments and imports are left
out; each statement is kept as ast.unparse writes it. write_modules.py builds a runnable module back from
it, which the suite's tests import (tests/unit/test_kernelbench_suite.cpp with the parser,
tests/cli/test_kernelbench_modules_torch.sh by running it in torch).

    extract_calls.py KERNELBENCH/level1 > calls.json      # after an upstream change: then diff
    extract_calls.py KERNELBENCH/level1 --check calls.json  # exit 1 if the data no longer matches
"""
import ast
import json
import pathlib
import sys

PROBLEMS = [50] + list(range(54, 88))


def statements(body):
    """The body's statements, unparsed, without a leading docstring."""
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return [ast.unparse(s) for s in body]


def function(node):
    return {"parameters": ast.unparse(node.args), "body": statements(node.body)}


def extract(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    record = {"file": path.name, "constants": [], "functions": {}}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Assign):
            record["constants"].append(ast.unparse(node))
        elif isinstance(node, ast.FunctionDef) and node.name in ("get_inputs", "get_init_inputs"):
            record["functions"][node.name] = function(node)
        elif isinstance(node, ast.ClassDef) and node.name == "Model":
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name in ("__init__", "forward"):
                    record["functions"]["Model." + item.name] = function(item)
                elif not (isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant)):
                    sys.exit(f"{path}: class Model holds {ast.unparse(item)!r}; this extractor keeps only "
                             "__init__ and forward")
        else:
            sys.exit(f"{path}:{node.lineno}: unexpected top-level statement {ast.unparse(node)!r}")
    missing = {"get_inputs", "get_init_inputs", "Model.__init__", "Model.forward"} - record["functions"].keys()
    if missing:
        sys.exit(f"{path}: missing {sorted(missing)}")
    return record


def main():
    if len(sys.argv) not in (2, 4) or (len(sys.argv) == 4 and sys.argv[2] != "--check"):
        sys.exit(__doc__)
    level1 = pathlib.Path(sys.argv[1])
    records = []
    for problem in PROBLEMS:
        found = sorted(level1.glob(f"{problem}_*.py"))
        if len(found) != 1:
            sys.exit(f"{level1}: expected one file {problem}_*.py, found {len(found)}")
        records.append({"problem": problem, **extract(found[0])})
    text = json.dumps(records, indent=1) + "\n"
    if len(sys.argv) == 4:
        if pathlib.Path(sys.argv[3]).read_text() != text:
            sys.exit(f"{sys.argv[3]} differs from what {level1} holds now")
        return
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
