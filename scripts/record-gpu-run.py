#!/usr/bin/env python3
"""record-gpu-run.py OUTDIR [--results-dir DIR] - file a gpu-check visit's documents under docs/results/.

After `scripts/gpu-check.sh OUTDIR` ran on a GPU machine and its files came back: takes seeds.json,
variants.json, variants-half.json, examples.json, seeds-{fp16,bf16}-nhwc.json, plan.json and the timing-protocol check's protocol-*.json from OUTDIR
(or from OUTDIR/gpu-check.tar.gz, where gpu-check bundled them), names them as docs/results/README.md
asks, `YYYY-MM-DD_<gpu>_<commit>.json`, `..._variants.json`, `..._examples.json`, `..._plan.json` and
`..._protocol-cold.json` etc. (date of the visit, GPU model in lower case, the commit the build recorded),
copies them there, and prints the figures for docs/perf-notes.md (scripts/gpu-summary.py).
Never overwrites a file. Exit status: 0 when filed, 2 when a document is missing or unreadable or
its name is taken.
"""
import argparse
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


def fail(message):
    results_document.fail(TOOL, message)


def gpu_slug(device):
    """'NVIDIA H200' -> 'h200', 'NVIDIA H100 80GB HBM3' -> 'h100'."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", device or "") if w and w.upper() != "NVIDIA"]
    if not words:
        fail(f"the document names no device ({device!r})")
    return words[0].lower()


def commit_of(build):
    """The commit the build recorded: 'commit 65a9bed[-dirty] · Release ...' -> '65a9bed[-dirty]'."""
    match = re.search(r"commit ([0-9a-f]{7,40}(?:-dirty)?)", build or "")
    if not match:
        fail(f"the document's build names no commit ({build!r})")
    return match.group(1)[:7] + ("-dirty" if match.group(1).endswith("-dirty") else "")


def documents_dir(outdir, scratch):
    """OUTDIR itself, or the bundle gpu-check left there, unpacked into `scratch`."""
    if os.path.isfile(os.path.join(outdir, "seeds.json")):
        return outdir
    bundle = os.path.join(outdir, "gpu-check.tar.gz")
    if not os.path.isfile(bundle):
        fail(f"neither {outdir}/seeds.json nor {bundle} exists")
    with tarfile.open(bundle) as tar:
        try:
            tar.extractall(scratch, filter="data")  # no paths outside scratch
        except TypeError:  # a Python without extraction filters
            tar.extractall(scratch)
    return scratch


# The timing-protocol check's configurations (scripts/timing-protocol-check.sh).
PROTOCOL_CONFIGS = ("cold", "cold-graph", "hot", "hot-graph")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--results-dir", default=os.path.join(ROOT, "docs", "results"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        source = documents_dir(args.outdir, scratch)
        seeds_path = os.path.join(source, "seeds.json")
        seeds = results_document.load(TOOL, seeds_path)
        stem = f"{seeds['started_at'][:10]}_{gpu_slug(seeds.get('device'))}_{commit_of(seeds.get('build'))}"
        files = [(seeds_path, f"{stem}.json")]
        # Each written by its own gpu-check step, if it ran; protocol-* by the timing-protocol check.
        documents = (
            "variants", "variants-half", "examples", "seeds-fp16-nhwc", "seeds-bf16-nhwc", "seeds-backward",
            "examples-backward",
        )
        for document in documents + tuple(f"protocol-{c}" for c in PROTOCOL_CONFIGS):
            path = os.path.join(source, f"{document}.json")
            if os.path.isfile(path):
                results_document.load(TOOL, path)
                files.append((path, f"{stem}_{document}.json"))
        # What each backend would run on that device (kbench plan): a kbench.plan/1 document.
        plan_path = os.path.join(source, "plan.json")
        if os.path.isfile(plan_path):
            with open(plan_path) as f:
                if json.load(f).get("schema") != "kbench.plan/1":
                    fail(f"{plan_path} is not a kbench.plan/1 document")
            files.append((plan_path, f"{stem}_plan.json"))
        for _, name in files:
            if os.path.exists(os.path.join(args.results_dir, name)):
                fail(f"{os.path.join(args.results_dir, name)} exists already")
        for path, name in files:
            shutil.copyfile(path, os.path.join(args.results_dir, name))
            print(f"filed {os.path.join(args.results_dir, name)}")
        # The figures are the seeds' (and their variants'); the examples are for browsing and diffs.
        figures_inputs = [path for path, name in files
                          if not name.endswith(("_examples.json", "_plan.json")) and "_protocol-" not in name]
        summary = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gpu-summary.py")] + figures_inputs,
                                 capture_output=True, text=True)
        sys.stdout.write(summary.stdout)
        sys.stderr.write(summary.stderr)
        return summary.returncode


if __name__ == "__main__":
    sys.exit(main())
