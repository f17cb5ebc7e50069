#!/usr/bin/env python3
"""The medians of one workload under each timing configuration, side by side.

    timing-protocol-summary.py protocol-cold.json protocol-cold-graph.json ... [--output FILE]

Each document is one `kbench run` of the same spec; its configuration (cold or hot, eager or graph)
is read from its `settings` (`cold`, `graph`). One row per workload, backend and math mode, one column per
configuration, then the ratios the protocol check looks at: graph / eager and hot / cold (cold eager
is the reference), flagged when a switch that should only remove work makes a result slower by more
than 5%.
"""
import argparse
import json
import sys

SLOWER_THAN_EXPECTED = 1.05


def configuration(doc):
    settings = doc.get("settings", {})
    cold = settings.get("cold", True)
    graph = settings.get("graph", False)
    return ("cold" if cold else "hot") + ("-graph" if graph else "")


def medians(doc):
    out = {}
    for r in doc.get("results", []):
        key = (r["workload"], r.get("implementation") or r["backend"], r["math_requested"])
        timing = r.get("timing")
        out[key] = timing["stats"]["median"] if r.get("status") == "ok" and timing else r.get("status", "?")
    return out


def cell(value):
    return f"{value * 1e6:.1f} us" if isinstance(value, float) else str(value)


def ratio(a, b):
    if isinstance(a, float) and isinstance(b, float) and b > 0:
        flag = " (!)" if a / b > SLOWER_THAN_EXPECTED else ""
        return f"{a / b:.3f}{flag}"
    return "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("documents", nargs="+")
    parser.add_argument("--output")
    args = parser.parse_args()
    columns = {}
    for path in args.documents:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        columns[configuration(doc)] = medians(doc)
    order = [c for c in ("cold", "cold-graph", "hot", "hot-graph") if c in columns]
    keys = sorted({k for c in columns.values() for k in c})
    lines = ["| workload | implementation | math | " + " | ".join(order) +
             " | graph/eager (cold) | hot/cold (eager) |",
             "|---|---|---|" + "---|" * len(order) + "---|---|"]
    for key in keys:
        get = lambda c: columns.get(c, {}).get(key, "-")
        row = [key[0], key[1], key[2]] + [cell(get(c)) for c in order]
        row += [ratio(get("cold-graph"), get("cold")), ratio(get("hot"), get("cold"))]
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    lines.append(f"(!) marks a switch that should only remove work making the result over "
                 f"{(SLOWER_THAN_EXPECTED - 1) * 100:.0f}% slower.")
    text = "\n".join(lines) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
