#!/usr/bin/env python3
"""merge-results.py IN.json... --output OUT.json - one kbench.results/1 document from several.

scripts/gpu-check.sh runs each seed (and each math mode of the variants) in a kbench process of its
own, so a kernel fault, which poisons its process's CUDA context, loses that part only; this puts
the parts back together as the single document docs/results/ keeps and gpu-summary.py reads.

The parts must come from one device and one build. The merged document keeps the first part's
header (version, build, host, device, peaks), the earliest start, every workload once (first
occurrence), every result in order, the union of the settings' backends and math modes (the other
settings must agree), every note once, and `interrupted` if any part was. Exit status: 0 on
success, 2 when a part cannot be read or does not fit with the others.
"""
import argparse
import json

import results_document


def fail(message):
    results_document.fail("merge-results", message)


def load(path):
    return results_document.load("merge-results", path)


def union(first, more):
    out = list(first)
    out.extend(x for x in more if x not in out)
    return out


def merge(parts):
    (first_path, merged), rest = parts[0], parts[1:]
    merged = json.loads(json.dumps(merged))  # a copy
    names = {w["name"] for w in merged["workloads"]}
    for path, doc in rest:
        for key in ("device", "build", "kbench_version"):
            if doc.get(key) != merged.get(key):
                fail(f"{path}: {key} {doc.get(key)!r} differs from {first_path}'s {merged.get(key)!r}")
        settings, base = doc["settings"], merged["settings"]
        for key in settings.keys() | base.keys():
            if key not in ("backends", "math_modes") and settings.get(key) != base.get(key):
                fail(f"{path}: setting {key} {settings.get(key)!r} differs from {first_path}'s {base.get(key)!r}")
        base["backends"] = union(base["backends"], settings["backends"])
        base["math_modes"] = union(base["math_modes"], settings["math_modes"])
        merged["started_at"] = min(merged["started_at"], doc["started_at"])
        merged["interrupted"] = merged["interrupted"] or doc["interrupted"]
        merged["notes"] = union(merged["notes"], doc["notes"])
        for w in doc["workloads"]:
            if w["name"] not in names:
                names.add(w["name"])
                merged["workloads"].append(w)
        merged["results"].extend(doc["results"])
    return merged


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("parts", nargs="+")
    parser.add_argument("--output", required=True)
    args = parser.parse_args()
    merged = merge([(path, load(path)) for path in args.parts])
    with open(args.output, "w") as f:
        json.dump(merged, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
