#!/usr/bin/env python3
"""gpu-summary.py SEEDS_JSON [--variants F] [--variants-half F] [--more F ...] [--output FILE] - the figures
a GPU session records.

Reads what scripts/gpu-check.sh writes, and what scripts/record-gpu-run.py files: seeds.json (`kbench
compare` of cuda and cudnn on the KernelBench seeds, fp32 and tf32), variants.json and variants-half.json
(every cuda variant and cuDNN algorithm; every variant of the fp16 NHWC seeds) and, with --more, the
other comparisons of a visit (the fp16 and bf16 NHWC seeds, the backward passes). Writes Markdown for
docs/perf-notes.md:
  1. per seed and math mode, our default kernel against cuDNN, kbench's floor (and what binds it) and
     our time over it, with a verdict by ratios, as issue 35 asks: faster than the fastest cuDNN time
     of the same run (its default, or any algorithm of variants.json), and within 1.3x of the floor.
     Issue 4's absolute targets were set on an H200: printed, and judged, only when the GPU is one. A
     seed with no result reads "not run";
  2. the same table for each --more document, by ratios;
  3. per seed and math mode, the fastest verified variant of each backend (what to make the default
     next), and how many variants verified;
  4. every result that ran and did not verify (wrong, failed), with its reason.
Times are medians of verified runs; a result that did not verify has no time (kbench never writes
one). Exit status: 0 when the documents were read, 2 when one could not be.
"""
import argparse
import os
import re
import sys

import results_document

# Issue 4's targets, milliseconds (median of 100 cold iterations on one H200): for an H200 alone.
TARGETS_GPU = "H200"
TARGETS_MS = {
    "084": {"fp32": 2.3, "tf32": 2.3},
    "076": {"fp32": 10.3, "tf32": 4.2},
    "050": {"fp32": 1.0, "tf32": 0.20},
    "077": {"fp32": 0.50, "tf32": 0.18},
}
NOT_VERIFIED = ("wrong", "failed")
SEEDS = ("050", "076", "077", "084")  # the four KernelBench headline problems gpu-check compares
FLOOR_RATIO_GOAL = 1.3  # issue 35: within 1.3x of kbench's floor


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


def label(workload):
    """'kernelbench-l1-050-conv2d-...-fp16-nhwc.backward_data' -> '050 fp16-nhwc backward_data'."""
    seed = seed_of(workload)
    if seed is None:
        return workload
    base, _, passname = workload.partition(".")
    parts = [seed] + [m.group(0) for m in [re.search(r"(fp16|bf16|fp32)-(nhwc|nchw)$", base)] if m] + [passname]
    return " ".join(p for p in parts if p)


def fastest_cudnn_ms(docs, workload, math):
    """The fastest verified cuDNN time of the run for one workload and math mode: its default or any algorithm."""
    times = [median_ms(r) for doc in docs for r in doc["results"]
             if r["workload"] == workload and r["backend"] == "cudnn" and r["math_requested"] == math]
    times = [t for t in times if t is not None]
    return min(times) if times else None


def verdict(cuda, best_cudnn_ms, floor, target):
    ours = median_ms(cuda)
    if ours is None:
        return "no verified time"
    parts = []
    if best_cudnn_ms is not None:
        parts.append(f"beats cuDNN ({best_cudnn_ms / ours:.2f}x)" if ours < best_cudnn_ms
                     else f"slower than cuDNN ({best_cudnn_ms / ours:.2f}x)")
    if floor and floor.get("floor_s"):
        over = ours / (floor["floor_s"] * 1e3)
        parts.append(f"within {FLOOR_RATIO_GOAL}x of the floor" if over <= FLOOR_RATIO_GOAL
                     else f"{over:.2f}x the floor")
    if target is not None:
        parts.append("meets target" if ours <= target else f"misses target by {ms(ours - target)}")
    return ", ".join(parts) if parts else "—"


def targets_apply(doc):
    """Whether issue 4's absolute targets are for this document's GPU (an H200's, not an H100's)."""
    return TARGETS_GPU.lower() in (doc.get("device") or "").lower()


def headline(doc, cudnn_docs, with_targets, expected_seeds=()):
    """One row per workload and math mode; a seed of `expected_seeds` the document lacks reads "not run"."""
    target_head, target_rule = (" target (H200) |", "---|") if with_targets else ("", "")
    lines = [f"| seed | math | cuda (default) | cudnn (default) | cudnn / cuda | floor | cuda / floor |{target_head} "
             "verdict |",
             f"|---|---|---|---|---|---|---|{target_rule}---|"]
    workloads = workload_names(doc)
    present = {seed_of(w) for w in workloads}
    rows = [(w, seed_of(w)) for w in workloads] + [(None, s) for s in expected_seeds if s not in present]
    rows.sort(key=lambda row: (row[1] or "", row[0] or ""))
    for workload, seed in rows:
        for math in maths(doc):
            if workload is None:
                cells = ["not run"] * 2 + ["—"] * 3 + (["—"] if with_targets else []) + ["not run"]
                lines.append(f"| {seed} | {math} | " + " | ".join(cells) + " |")
                continue
            cuda = default_result(doc, workload, "cuda", math)
            cudnn = default_result(doc, workload, "cudnn", math)
            ours, theirs = median_ms(cuda), median_ms(cudnn)
            speedup = f"{theirs / ours:.2f}x" if ours and theirs else "—"
            target = TARGETS_MS.get(seed, {}).get(math) if with_targets else None
            floor = workload_floor(doc, workload, math)
            target_cell = f" {ms(target) if target else '—'} |" if with_targets else ""
            lines.append(f"| {label(workload)} | {math} | {describe(cuda)} | {describe(cudnn)} | {speedup} | "
                         f"{describe_floor(floor)} | {times_floor(cuda)} |{target_cell} "
                         f"{verdict(cuda, fastest_cudnn_ms(cudnn_docs, workload, math), floor, target)} |")
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
                lines.append(f"| {label(workload)} | {math} | {backend} | `{name}` | "
                             f"{ms(median_ms(best))} | {len(timed)} / {len(runs)} |")
    return lines


def not_verified(docs):
    lines = []
    for name, doc in docs:
        for r in doc["results"]:
            if r["status"] in NOT_VERIFIED:
                variant = f":{r['variant']}" if r["variant"] else ""
                lines.append(f"- {name}: {label(r['workload'])} {r['math_requested']} "
                             f"{r['backend']}{variant} — {r['status']}: {r['reason']}")
    return lines or ["- none"]


def document_name(path):
    """'.../2026-12-05_h100_1234567_seeds-fp16-nhwc.json' or '.../seeds-fp16-nhwc.json' -> 'seeds-fp16-nhwc'."""
    stem = os.path.basename(path)[: -len(".json")] if path.endswith(".json") else os.path.basename(path)
    match = re.match(r"\d{4}-\d{2}-\d{2}_[^_]+_[0-9a-f]{7}(?:-dirty)?(?:_(.+))?$", stem)
    return (match.group(1) or "seeds") if match else stem


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("seeds")
    parser.add_argument("--variants", help="every cuda variant and cuDNN algorithm per seed (variants.json)")
    parser.add_argument("--variants-half", help="every cuda variant of the fp16 NHWC seeds (variants-half.json)")
    parser.add_argument("--more", action="append", default=[], metavar="FILE",
                        help="another comparison of the visit (seeds-fp16-nhwc.json, seeds-backward.json, ...)")
    parser.add_argument("--output")
    args = parser.parse_args()
    seeds = load(args.seeds)
    docs = [("seeds", seeds)]
    variants = load(args.variants) if args.variants else None
    with_targets = targets_apply(seeds)
    out = [f"GPU: {seeds.get('device', '?')}; build: {seeds.get('build', '?')}; started {seeds.get('started_at', '?')}",
           ""]
    if not with_targets:
        out += [f"Issue 4's absolute targets were set on an {TARGETS_GPU}, not this GPU: the verdicts are ratios, "
                f"to the fastest cuDNN time of the same run and to kbench's floor for this device "
                f"(goal: faster than cuDNN, within {FLOOR_RATIO_GOAL}x of the floor).", ""]
    out += ["Our default kernels against cuDNN (seeds.json):", ""]
    out += headline(seeds, [seeds] + ([variants] if variants else []), with_targets, SEEDS)
    for path in args.more:
        doc = load(path)
        name = document_name(path)
        docs.append((name, doc))
        out += ["", f"Our default kernels against cuDNN ({name}):", ""]
        out += headline(doc, [doc], False)
    for name, doc in (("variants", variants), ("variants-half", load(args.variants_half) if args.variants_half else None)):
        if doc is None:
            continue
        docs.append((name, doc))
        out += ["", f"Fastest verified variant per backend ({name}):", ""]
        out += fastest_variants(doc)
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
