#!/usr/bin/env python3
"""Hand-made kbench.results/1 documents for the CLI tests, derived from real `kbench run` output.

  retime IN OUT --scale S --jitter J --seed K [--count N] [--only WORKLOAD/BACKEND]
      Replaces the samples of every verified, timed result (or only the one named) by N samples of
      the original median x S, each off by up to +-J (relative), from a seeded generator.
  add-gpu-results IN OUT
      Adds verified, timed results for made-up GPU backends ("cudnn" fp32 and tf32, "cuda" fp32)
      to every workload of IN, at plausible multiples of each workload's floor, plus one wrong and
      one unsupported result: a seed-suite document as a machine with a GPU would write it.

Statistics are recomputed from the samples exactly as kbench does (linear-interpolated p10/p90,
sample standard deviation), so the documents pass kbench's reader and the JSON schema.
"""
import argparse
import json
import random
import statistics


def percentile(sorted_samples, fraction):
    position = fraction * (len(sorted_samples) - 1)
    low = int(position)
    high = min(low + 1, len(sorted_samples) - 1)
    return sorted_samples[low] + (sorted_samples[high] - sorted_samples[low]) * (position - low)


def timing_of(samples):
    ordered = sorted(samples)
    return {
        "samples_s": samples,
        "stats": {
            "count": len(samples),
            "mean": statistics.fmean(samples),
            "median": percentile(ordered, 0.5),
            "stdev": statistics.stdev(samples) if len(samples) > 1 else 0.0,
            "min": ordered[0],
            "max": ordered[-1],
            "p10": percentile(ordered, 0.1),
            "p90": percentile(ordered, 0.9),
        },
        "throttled_samples": 0,
        "budget_exhausted": False,
        "wall_s": sum(samples),
    }


def jittered(center, jitter, count, rng):
    return [center * (1 + jitter * (2 * rng.random() - 1)) for _ in range(count)]


def retime(args):
    doc = json.load(open(args.input))
    rng = random.Random(args.seed)
    for result in doc["results"]:
        if result["status"] != "ok" or result["timing"] is None:
            continue
        if args.only and f'{result["workload"]}/{result["backend"]}' != args.only:
            continue
        median = result["timing"]["stats"]["median"]
        count = args.count or len(result["timing"]["samples_s"])
        result["timing"] = timing_of(jittered(median * args.scale, args.jitter, count, rng))
    json.dump(doc, open(args.output, "w"), indent=2)


def verification(checked):
    return {
        "against": "reference (fp64, CPU)", "full": False, "inputs_unchanged": True,
        "tolerance": {"atol": 1e-4, "rtol": 1e-4}, "checked": checked, "mismatches": 0,
        "max_abs_error": 3e-5, "max_rel_error": 2e-4, "first_mismatch": None, "passed": True,
        "fresh_inputs": None,
    }


def result(workload, backend, implementation, math_requested, math_used, status, reason="", timing=None):
    return {
        "workload": workload, "backend": backend, "variant": "", "implementation": implementation,
        "math_requested": math_requested, "math_used": math_used, "status": status, "reason": reason,
        "verification": verification(4096) if status in ("ok", "wrong") else None,
        "timing": timing, "achieved": None, "headroom": None, "properties": {}, "warnings": [],
    }


def add_gpu_results(args):
    doc = json.load(open(args.input))
    rng = random.Random(7)
    added = []
    for index, workload in enumerate(doc["workloads"]):
        name = workload["name"]
        fp32_floor = workload["floor"]["fp32"]["floor_s"]
        tf32_floor = workload["floor"]["tf32"]["floor_s"]
        for backend, implementation, math, floor, factor in (
            ("cudnn", "cudnn:IMPLICIT_PRECOMP_GEMM", "fp32", fp32_floor, 1.4 + 0.3 * index),
            ("cudnn", "cudnn:IMPLICIT_PRECOMP_GEMM", "tf32", tf32_floor, 2.5 + 0.5 * index),
            ("cuda", "igemm_128x64", "fp32", fp32_floor, 1.9 + 0.4 * index),
        ):
            samples = jittered(floor * factor, 0.03, 30, rng)
            added.append(result(name, backend, implementation, math, math, "ok", timing=timing_of(samples)))
    first = doc["workloads"][0]["name"]
    wrong = result(first, "cuda", "direct_naive", "fp32", "fp32", "wrong",
                   "3 of 4096 checked elements out of tolerance <script>alert(1)</script>")
    wrong["variant"] = "direct_naive"  # as `--backends cuda:direct_naive` asks for it
    added.append(wrong)
    added.append(result(first, "triton", "", "fp32", "fp32", "unsupported", "no kernel for this shape"))
    doc["results"].extend(added)
    json.dump(doc, open(args.output, "w"), indent=2)


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("retime")
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--scale", type=float, required=True)
    p.add_argument("--jitter", type=float, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--count", type=int, default=0)
    p.add_argument("--only", default="")
    p.set_defaults(run=retime)
    p = commands.add_parser("add-gpu-results")
    p.add_argument("input")
    p.add_argument("output")
    p.set_defaults(run=add_gpu_results)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
