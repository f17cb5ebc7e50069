#!/usr/bin/env python3
"""kernel-stats.py - registers, spills and main-loop instruction mix of the implicit-GEMM kernels.

Compiles kernels/cuda/implicit_gemm/igemm_{ffma,tf32,tf32x3}.cu for sm_90 (igemm_wgmma.cu for sm_90a,
where ptxas also says when it serializes the wgmma products) with `-Xptxas -v`, and
when cuobjdump (with nvdisasm) is available, finds each instance's main loop in the SASS (the
backward branch enclosing the most HMMA/FFMA instructions) and counts its instructions: the
instructions issued per tensor-core or FMA instruction is what bounds the issue-limited kernels.
A loop that holds two bodies (input_patch: the full and the masked last chunk) counts both; blocks
the loop jumps over on most chunks (the resident-A kernel's tile epilogue and column decode, run
once per tile) are left out, so the count is one chunk's path.

Usage: scripts/kernel-stats.py [--nvcc PATH] [--cuobjdump PATH]   (run from anywhere; no GPU needed)
Prints one Markdown table row per kernel instance, the format docs/kernels/implicit_gemm.md keeps ("Registers, spills and main-loop instruction mix").
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (label, source, target): the wgmma kernel exists for sm_90a only; its instances name their math.
UNITS = [("ffma", "igemm_ffma.cu", "arch=compute_90,code=sm_90"),
         ("tf32", "igemm_tf32.cu", "arch=compute_90,code=sm_90"),
         ("tf32x3", "igemm_tf32x3.cu", "arch=compute_90,code=sm_90"),
         ("wgmma", "igemm_wgmma.cu", "arch=compute_90a,code=sm_90a")]
GEMM_MATHS = ["ffma", "tf32", "tf32x3"]  # GemmMath's order
ORDERS = ["channel_blocks", "k_table", "input_patch"]


def instance_of(mangled):
    if "igemm_wgmma_kernel" in mangled:
        return "96x256", "input_patch, wgmma"
    if "Tile128Resident" in mangled:  # igemm_resident_kernel: channel_blocks only
        return "128x256", "channel_blocks, resident A"
    tile = re.search(r"TileILi(\d)ELi(\d)ELi(\d)E", mangled)
    order = re.search(r"KOrderE(\d)", mangled)
    if not tile or not order:
        return None
    bm = 16 * int(tile.group(1)) * int(tile.group(2))
    bn = 64 * int(tile.group(3))
    return f"{bm}x{bn}", ORDERS[int(order.group(1))]


def serialized_wgmma(log):
    """Functions whose wgmma products ptxas serialized (its C7512 performance warning)."""
    return set(re.findall(r"wgmma\.mma_async instructions are serialized.*?function '([^']+)'", log))


def math_of(label, mangled):
    m = re.search(r"GemmMathE(\d)", mangled) if label == "wgmma" else None
    return GEMM_MATHS[int(m.group(1))] if m else label


def is_math(ins):
    return "HMMA" in ins or "HGMMA" in ins or re.search(r"\bFFMA\b", ins) is not None


def ptxas_facts(log):
    facts = {}
    for entry in re.split(r"Compiling entry function '", log)[1:]:
        name = entry.split("'")[0]
        inst = instance_of(name)
        if not inst:
            continue
        regs = re.search(r"Used (\d+) registers", entry).group(1)
        stack, st, ld = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                                  entry).groups()
        facts[(name, inst)] = (int(regs), int(stack), int(st), int(ld))
    return facts


def per_chunk_path(loop):
    """The loop's instructions less the blocks a chunk normally jumps over: a forward branch inside the
    loop over more than 100 instructions with no math and no LDGSTS is a once-per-tile block (the
    resident-A kernel's epilogue and its loader's column decode at a tile change)."""
    pos = {addr: i for i, (addr, _) in enumerate(loop)}
    skipped = set()
    for i, (addr, ins) in enumerate(loop):
        m = re.search(r"BRA\s.*?(0x[0-9a-f]+)", ins)
        if not m or int(m.group(1), 16) <= addr or int(m.group(1), 16) not in pos:
            continue
        block = loop[i + 1:pos[int(m.group(1), 16)]]
        if len(block) > 100 and not any(is_math(x) or "LDGSTS" in x for _, x in block):
            skipped.update(range(i + 1, pos[int(m.group(1), 16)]))
    return [x for j, (_, x) in enumerate(loop) if j not in skipped]


def loop_mix(sass):
    mixes = {}
    for body in re.split(r"\n\s+Function : ", sass)[1:]:
        name = body.split("\n")[0].strip()
        lines = []
        for line in body.split("\n"):
            m = re.search(r"/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
            if m:
                lines.append((int(m.group(1), 16), m.group(2)))
        index = {addr: i for i, (addr, _) in enumerate(lines)}
        best = None
        for i, (addr, ins) in enumerate(lines):
            m = re.search(r"BRA\s.*?(0x[0-9a-f]+)", ins)
            if not m or int(m.group(1), 16) >= addr or int(m.group(1), 16) not in index:
                continue
            seg = per_chunk_path(lines[index[int(m.group(1), 16)]:i + 1])
            math = sum(is_math(x) for x in seg)
            if math and (best is None or math > best[0]):
                lds = sum(re.search(r"\bLDS", x) is not None for x in seg)
                ldgsts = sum("LDGSTS" in x for x in seg)
                local = sum(re.search(r"\b(LDL|STL)", x) is not None for x in seg)
                best = (math, len(seg), lds, ldgsts, local)
        if best:
            mixes[name] = best
    return mixes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    parser.add_argument("--cuobjdump", default=shutil.which("cuobjdump"))
    args = parser.parse_args()
    print("| math | tile | order | regs | stack | spill st/ld | loop instr | math instr | instr per math | LDS | LDGSTS | LDL/STL in loop |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for label, source, target in UNITS:
            obj = os.path.join(tmp, f"{label}.o")
            cmd = [args.nvcc, "-std=c++20", "-O3", "-gencode", target,
                   "--expt-relaxed-constexpr", "-Xptxas", "-v", "-I", os.path.join(ROOT, "kernels"),
                   "-I", os.path.join(ROOT, "lib"), "-c",
                   os.path.join(ROOT, "kernels", "cuda", "implicit_gemm", source), "-o", obj]
            built = subprocess.run(cmd, capture_output=True, text=True)
            if built.returncode != 0:
                sys.exit(f"nvcc failed for {source}:\n{built.stderr}")
            facts = ptxas_facts(built.stderr + built.stdout)
            serialized = serialized_wgmma(built.stderr + built.stdout)
            mixes = {}
            if args.cuobjdump:
                sass = subprocess.run([args.cuobjdump, "-sass", obj], capture_output=True, text=True)
                if sass.returncode == 0:
                    mixes = loop_mix(sass.stdout)
            for (name, (tile, order)), (regs, stack, st, ld) in sorted(facts.items(), key=lambda kv: kv[0][1]):
                mix = mixes.get(name)
                loop = (f"{mix[1]} | {mix[0]} | {mix[1] / mix[0]:.1f} | {mix[2]} | {mix[3]} | {mix[4]}"
                        if mix else "- | - | - | - | - | -")
                note = " (wgmma serialized by ptxas)" if name in serialized else ""
                print(f"| {math_of(label, name)} | {tile} | {order}{note} | {regs} | {stack} | {st}/{ld} | {loop} |")


if __name__ == "__main__":
    main()
