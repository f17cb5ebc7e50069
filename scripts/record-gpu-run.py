#!/usr/bin/env python3
"""record-gpu-run.py OUTDIR [--results-dir DIR] - file a gpu-check visit's documents under docs/results/.

After `scripts/gpu-check.sh OUTDIR` ran on a GPU machine and its files came back, from OUTDIR or from
the OUTDIR/gpu-check.tar.gz gpu-check bundled them into: takes every document a visit writes that is
there (seeds.json, variants.json, variants-half.json, examples.json, seeds-{fp16,bf16}-nhwc.json,
seeds-backward.json, examples-backward.json, plan.json, the timing-protocol check's protocol-*.json)
and names them as docs/results/README.md asks, `YYYY-MM-DD_<gpu>_<commit>.json` for the seeds and
`..._<document>.json` for the others (date of the visit, GPU model in lower case, the commit the build
recorded). Where a call was cut off before gpu-check merged the parts (seeds-0NN.json,
variants-0NN-<math>.json), merges them itself (scripts/merge-results.py).

All or nothing: every document is read and checked first (each from a GPU, one device and one build),
written to a staging folder inside the results folder, and the figures (scripts/gpu-summary.py) made
from the staged files; only then is each moved to its name, none over an existing file. If any of
that fails, nothing is filed and the staging folder is gone, so the same command can run again once
the cause is fixed. Prints the figures for docs/perf-notes.md. Exit status: 0 when filed, 2 when a
document is missing, unreadable, from no GPU or from another build, a name is taken, or the figures
cannot be made.
"""
import argparse
import glob
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

import results_document

TOOL = "record-gpu-run"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The timing-protocol check's configurations (scripts/timing-protocol-check.sh).
PROTOCOL_CONFIGS = ("cold", "cold-graph", "hot", "hot-graph")
# Each written by its own gpu-check step, if it ran; the seeds (no suffix) come first.
RESULTS_DOCUMENTS = ("variants", "variants-half", "examples", "seeds-fp16-nhwc", "seeds-bf16-nhwc",
                     "seeds-backward", "examples-backward") + tuple(f"protocol-{c}" for c in PROTOCOL_CONFIGS)
# Documents merged from gpu-check's one-process-per-part files when the merged one is missing.
PARTS = {"seeds": "seeds-[0-9][0-9][0-9].json", "variants": "variants-[0-9][0-9][0-9]-*.json"}


def fail(message):
    results_document.fail(TOOL, message)


def gpu_slug(device):
    """'NVIDIA H200 (device 0, ...)' -> 'h200', 'NVIDIA H100 80GB HBM3' -> 'h100'."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", device or "") if w and w.upper() != "NVIDIA"]
    if not words:
        fail(f"the document names no device ({device!r})")
    return words[0].lower()


def commit_of(build):
    """The commit the build recorded: 'commit 65a9bed[-dirty] · Release ...' -> '65a9bed[-dirty]'."""
    match = re.search(r"commit ([0-9a-f]{7,40}(?:-dirty)?)", build or "")
    if not match:
        fail(f"the document's build names no commit ({build!r}): built without .git, .gpu-bundle/COMMIT "
             "or KBENCH_COMMIT (cmake/build_info_generate.cmake)")
    return match.group(1)[:7] + ("-dirty" if match.group(1).endswith("-dirty") else "")


def check_gpu(path, doc):
    """Refuses a document kbench wrote without a usable GPU: its results would all be `unavailable`."""
    device = doc.get("device") or ""
    if not device or re.match(r"(no CUDA device|CUDA device \d+ unusable|none\b)", device, re.IGNORECASE):
        fail(f"{path} was written without a GPU (device: {device!r}); nothing filed")
    results = doc.get("results", [])
    if results and all(r.get("status") == "unavailable" for r in results):
        fail(f"{path}: every result is `unavailable` (no usable GPU: {results[0].get('reason', '')!r}); nothing filed")


def documents_dir(outdir, scratch):
    """The bundle gpu-check left in OUTDIR, unpacked into `scratch`, or else OUTDIR itself."""
    bundle = os.path.join(outdir, "gpu-check.tar.gz")
    if not os.path.isfile(bundle):
        return outdir
    try:
        with tarfile.open(bundle) as tar:
            try:
                tar.extractall(scratch, filter="data")  # no paths outside scratch
            except TypeError:  # a Python without extraction filters
                tar.extractall(scratch)
    except (OSError, tarfile.TarError) as e:
        fail(f"cannot unpack {bundle}: {e}")
    return scratch


def merged_parts(source, name):
    """`name`.json from the parts gpu-check wrote, merged as scripts/merge-results.py does; None without parts."""
    paths = sorted(glob.glob(os.path.join(source, PARTS[name])))
    if not paths:
        return None
    spec = importlib.util.spec_from_file_location("merge_results", os.path.join(ROOT, "scripts", "merge-results.py"))
    merge_results = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(merge_results)
    print(f"{TOOL}: no {name}.json: merging {', '.join(os.path.basename(p) for p in paths)}")
    return merge_results.merge([(p, results_document.load(TOOL, p)) for p in paths])


def read_visit(source):
    """[(document name, path or None, parsed document)] for every document of the visit found in `source`."""
    found = []
    for name in ("seeds",) + RESULTS_DOCUMENTS:
        path = os.path.join(source, f"{name}.json")
        if os.path.isfile(path):
            found.append((name, path, results_document.load(TOOL, path)))
        elif name in PARTS and (doc := merged_parts(source, name)) is not None:
            found.append((name, None, doc))
    if not found or found[0][0] != "seeds":
        fail(f"no seeds.json, seeds-0NN.json or gpu-check.tar.gz in {source}: nothing to file")
    seeds = found[0][2]
    for name, path, doc in found:
        label = path or f"{name} (merged)"
        check_gpu(label, doc)
        for key in ("device", "build"):
            if doc.get(key) != seeds.get(key):
                fail(f"{label}: {key} {doc.get(key)!r} is not the seeds' {seeds.get(key)!r}; nothing filed")
    # What each backend would run on that device (kbench plan): a kbench.plan/1 document.
    plan_path = os.path.join(source, "plan.json")
    if os.path.isfile(plan_path):
        try:
            with open(plan_path) as f:
                plan = json.load(f)
        except (OSError, ValueError) as e:
            fail(f"cannot read {plan_path}: {e}")
        if not isinstance(plan, dict) or plan.get("schema") != "kbench.plan/1":
            fail(f"{plan_path} is not a kbench.plan/1 document")
        found.append(("plan", plan_path, plan))
    return found


def figures(staged):
    """scripts/gpu-summary.py over the staged documents: (exit status, its output)."""
    args = [staged["seeds"]]
    for name in ("variants", "variants-half"):
        if name in staged:
            args += [f"--{name}", staged[name]]
    for name in ("seeds-fp16-nhwc", "seeds-bf16-nhwc", "seeds-backward"):
        if name in staged:
            args += ["--more", staged[name]]
    run = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gpu-summary.py")] + args,
                         capture_output=True, text=True)
    return run.returncode, run.stdout + run.stderr


def file_all(found, results_dir):
    """Stages every document in results_dir, makes the figures, then moves each to its name; all or nothing."""
    seeds = found[0][2]
    stem = f"{seeds['started_at'][:10]}_{gpu_slug(seeds.get('device'))}_{commit_of(seeds.get('build'))}"
    names = {name: f"{stem}.json" if name == "seeds" else f"{stem}_{name}.json" for name, _, _ in found}
    for name in names.values():
        if os.path.exists(os.path.join(results_dir, name)):
            fail(f"{os.path.join(results_dir, name)} exists already; nothing filed")
    try:
        staging = tempfile.mkdtemp(prefix=".record-gpu-run-", dir=results_dir)
    except OSError as e:
        fail(f"cannot stage in {results_dir}: {e}")
    filed = []
    try:
        staged = {}
        for name, path, doc in found:
            staged[name] = os.path.join(staging, names[name])
            if path:
                shutil.copyfile(path, staged[name])
            else:
                with open(staged[name], "w") as f:
                    json.dump(doc, f, indent=2)
                    f.write("\n")
        status, text = figures(staged)
        if status != 0:
            sys.stderr.write(text)
            raise RuntimeError(f"scripts/gpu-summary.py failed (exit {status}) on the staged documents")
        for name, staged_path in staged.items():
            final = os.path.join(results_dir, names[name])
            os.link(staged_path, final)  # fails where the name is taken: never overwrites
            filed.append(final)
    except (OSError, RuntimeError) as e:
        for final in filed:
            os.unlink(final)
        shutil.rmtree(staging, ignore_errors=True)
        fail(f"{e}; nothing filed")
    shutil.rmtree(staging, ignore_errors=True)
    for final in filed:
        print(f"filed {final}")
    sys.stdout.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--results-dir", default=os.path.join(ROOT, "docs", "results"))
    args = parser.parse_args()
    if not os.path.isdir(args.results_dir):
        fail(f"no results folder {args.results_dir}")
    with tempfile.TemporaryDirectory() as scratch:
        found = read_visit(documents_dir(args.outdir, scratch))
        file_all(found, args.results_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
