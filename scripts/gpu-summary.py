#!/usr/bin/env python3
"""gpu-summary.py SEEDS_JSON [VARIANTS_JSON] [--output FILE] - the figures a GPU session records.

Reads what scripts/gpu-check.sh writes: seeds.json (`kbench compare` of cuda and cudnn on the
KernelBench seeds, both math modes) and, when given, variants.json (every cuda variant and cuDNN
algorithm). Writes Markdown for docs/perf-notes.md:
  1. per seed and math mode, our default kernel against cuDNN's choice, kbench's roofline floor
     (and what binds it) with our kernel's time over it, and issue 4's target, with a verdict;
  2. per seed and math mode, the fastest verified variant of each backend (what to make the default
     next), and how many variants verified;
  3. every result that ran and did not verify (wrong, failed), with its reason.
Times are medians of verified runs; a result that did not verify has no time (kbench never writes
one). Exit status: 0 when the documents were read, 2 when one could not be.
"""
import argparse
import re
import sys

import results_document

# Issue 4's targets, milliseconds (median of 100 cold iterations on one H200).
TARGETS_MS = {
    "084": {"fp32": 2.3, "tf32": 2.3},
    "076": {"fp32": 10.3, "tf32": 4.2},
    "050": {"fp32": 1.0, "tf32": 0.20},
    "077": {"fp32": 0.50, "tf32": 0.18},
}
NOT_VERIFIED = ("wrong", "failed")


def seed_of(workload):
    match = re.search(r"kernelbench-l1-(\d{3})", workload)
    return match.group(1) if match else None


def median_ms(result):
    if result is None or result.get("status") != "ok" or not result.get("timing"):
        return None
    return result["timing"]["stats"]["median"] * 1e3


def ms(value):
    return "—" if value is None else f"{value:.3g} ms"


def load(path):
    return results_document.load("gpu-summary", path)


def workload_names(doc):
    return [w["name"] for w in doc.get("workloads", [])]


def maths(doc):
    return doc.get("settings", {}).get("math_modes") or ["fp32"]


def default_result(doc, workload, backend, math):
    for r in doc["results"]:
        if (r["workload"] == workload and r["backend"] == backend and r["variant"] == ""
                and r["math_requested"] == math):
            return r
    return None


def workload_floor(doc, workload, math):
    for w in doc.get("workloads", []):
        if w["name"] == workload:
            return w.get("floor", {}).get(math)
    return None


def describe_floor(floor):
    """'3.33 ms (compute, 3xTF32)': the floor, the term that binds and, for compute, its units."""
    if not floor or floor.get("floor_s") is None:
        return "—"
    binds = floor["binds"]
    if binds == "compute" and floor.get("compute_units"):
        binds += ", " + floor["compute_units"]
    return f"{ms(floor['floor_s'] * 1e3)} ({binds})"


def times_floor(result):
    headroom = result.get("headroom") if result else None
    return "—" if headroom is None else f"{headroom:.2f}x"


def describe(result):
    if result is None:
        return "not run"
    if result["status"] != "ok":
        return f"{result['status']}: {result['reason']}"
    return f"`{result['implementation']}` {ms(median_ms(result))}"


def verdict(cuda, cudnn, target):
    ours, theirs = median_ms(cuda), median_ms(cudnn)
    if ours is None:
        return "no verified time"
    parts = []
    if target is not None:
        parts.append("meets target" if ours <= target else f"misses target by {ms(ours - target)}")
    if theirs is not None:
        parts.append("beats cuDNN" if ours < theirs else "slower than cuDNN")
    return ", ".join(parts) if parts else "—"


def headline(doc):
    lines = ["| seed | math | cuda (default) | cudnn (default) | cudnn / cuda | floor | cuda / floor | target "
             "| verdict |",
             "|---|---|---|---|---|---|---|---|---|"]
    for workload in workload_names(doc):
        seed = seed_of(workload)
        for math in maths(doc):
            cuda = default_result(doc, workload, "cuda", math)
            cudnn = default_result(doc, workload, "cudnn", math)
            ours, theirs = median_ms(cuda), median_ms(cudnn)
            speedup = f"{theirs / ours:.2f}x" if ours and theirs else "—"
            target = TARGETS_MS.get(seed, {}).get(math)
            floor = describe_floor(workload_floor(doc, workload, math))
            lines.append(f"| {seed or workload} | {math} | {describe(cuda)} | {describe(cudnn)} | {speedup} | "
                         f"{floor} | {times_floor(cuda)} | {ms(target) if target else '—'} | "
                         f"{verdict(cuda, cudnn, target)} |")
    return lines


def fastest_variants(doc):
    lines = ["| seed | math | backend | fastest verified variant | median | verified / run |",
             "|---|---|---|---|---|---|"]
    for workload in workload_names(doc):
        for math in maths(doc):
            for backend in ("cuda", "cudnn"):
                runs = [r for r in doc["results"] if r["workload"] == workload and r["backend"] == backend
                        and r["math_requested"] == math and r["status"] not in ("unsupported", "unavailable")]
                if not runs:
                    continue
                timed = [r for r in runs if median_ms(r) is not None]
                best = min(timed, key=median_ms) if timed else None
                name = (best["variant"] or best["implementation"]) if best else "none verified"
                lines.append(f"| {seed_of(workload) or workload} | {math} | {backend} | `{name}` | "
                             f"{ms(median_ms(best))} | {len(timed)} / {len(runs)} |")
    return lines


def not_verified(docs):
    lines = []
    for label, doc in docs:
        for r in doc["results"]:
            if r["status"] in NOT_VERIFIED:
                variant = f":{r['variant']}" if r["variant"] else ""
                lines.append(f"- {label}: {seed_of(r['workload']) or r['workload']} {r['math_requested']} "
                             f"{r['backend']}{variant} — {r['status']}: {r['reason']}")
    return lines or ["- none"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seeds")
    parser.add_argument("variants", nargs="?")
    parser.add_argument("--output")
    args = parser.parse_args()
    seeds = load(args.seeds)
    docs = [("seeds", seeds)]
    out = [f"GPU: {seeds.get('device', '?')}; build: {seeds.get('build', '?')}; started {seeds.get('started_at', '?')}",
           "", "Our default kernels against cuDNN's choice (seeds.json):", ""]
    out += headline(seeds)
    if args.variants:
        variants = load(args.variants)
        docs.append(("variants", variants))
        out += ["", "Fastest verified variant per backend (variants.json):", ""]
        out += fastest_variants(variants)
    out += ["", "Results that ran and did not verify:", ""]
    out += not_verified(docs)
    text = "\n".join(out) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
