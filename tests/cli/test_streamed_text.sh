# At a terminal, `kbench run` prints each workload's table as soon as the workload finishes, the progress
# line (stderr, the same terminal) staying beneath: under script(1), the first workload's table comes
# before the progress line reaches the second workload. Stripped of the progress line, the terminal shows
# what a pipe gets at the end: the header once, every workload in order, the legend once. A pipe and
# `compare` still get the report in one piece. TERM is set: a dumb or unset one gets no escapes. Skips
# (77) without script(1).
source "$(dirname "$0")/lib.sh"
command -v script >/dev/null || { echo "SKIP: no script(1) (util-linux)"; exit 77; }
spec="$SRC/tests/data/cli/torch_small.yaml"
run=("$KBENCH" run "$spec" --backends reference --iterations 2 --seed 3)
printf -v command '%q ' "${run[@]}"
NO_COLOR=1 TERM=xterm script -qec "$command" /dev/null >"$WORK/terminal.txt" 2>&1 || fail "kbench run at a terminal: exit $?"
NO_COLOR=1 "${run[@]}" >"$WORK/pipe.txt" 2>/dev/null || fail "kbench run into a pipe: exit $?"
python3 - "$WORK/terminal.txt" "$WORK/pipe.txt" <<'PY' || fail "the terminal's report is not streamed as expected"
import re, sys
raw = open(sys.argv[1], encoding="utf-8", newline="").read()  # the terminal's \r kept
piped = open(sys.argv[2], encoding="utf-8").read()
names = re.findall(r"^(\S+) · fp32 nchw", piped, re.M)
assert len(names) == 7, names
# Streamed: workload 1's table is on the terminal before the progress line names workload 2.
first_table = raw.index(names[0] + " · fp32 nchw")
assert first_table < raw.index("[workload 2/7]"), "the first table came only after the second workload started"
assert raw.index(names[-2] + " · fp32 nchw") < raw.index("[workload 7/7]")
# Without the progress line, the same report: header once, workloads in order, legend once, at the end.
shown = re.sub(r"\r\x1b\[2K(\[workload [^\r\n]*)?", "", raw).replace("\r\n", "\n")
shown = re.sub(r"kbench: done: [^\n]*\n?$", "", shown)  # the closing line (stderr, the same terminal)
assert re.findall(r"^(\S+) · fp32 nchw", shown, re.M) == names, re.findall(r"^(\S+) · fp32 nchw", shown, re.M)
for text in (shown, piped):
    assert text.count("\nkbench ") + text.startswith("kbench ") == 1
    assert text.count("median, spread (") == 1 and text.rstrip().endswith("not every element)"), text[-300:]
    assert text.index("median, spread (") > text.index(names[-1] + " · fp32 nchw")
def lines(text):  # the parts that do not change from run to run
    return [l for l in text.splitlines() if re.match(r"^(\S+ · fp32|  (problem|shapes|work|computes) )", l)]
assert lines(shown) == lines(piped), (lines(shown)[:5], lines(piped)[:5])
PY
# compare waits for every result: its side-by-side table is printed once, after the run.
compare=("$KBENCH" compare "$spec" --backends reference,torch --python /nonexistent/python3 --iterations 2 --seed 3)
printf -v command '%q ' "${compare[@]}"
NO_COLOR=1 TERM=xterm script -qec "$command" /dev/null >"$WORK/compare.txt" 2>&1 || fail "kbench compare at a terminal: exit $?"
python3 - "$WORK/compare.txt" <<'PY' || fail "compare's report is not printed after the run"
import sys
raw = open(sys.argv[1], encoding="utf-8", newline="").read()  # the terminal's \r kept
# The progress line is redrawn at most ten times a second, so not every workload's state is shown: the
# table must follow the last one that is.
assert raw.rindex("[workload ") < raw.index("torch-conv1d"), "compare printed a workload before the run ended"
PY
echo "ok"
