# KernelBench files are code: `kbench import kernelbench` runs each in a child Python, so a file that
# raises, exits, ends the interpreter, loops forever, asks for a huge allocation, does not parse or imports
# what is not there is exit 2 naming the file (and its line where Python has one), never a crash or hang of
# kbench; a file that prints leaves the spec on stdout whole. Run against kbench's torch stub (python3 on
# PATH, with or without torch), and in torch too where /usr/bin/python3 has it. Without any Python, import
# kernelbench is exit 2 saying what to install, and the rest of kbench works as before.
source "$(dirname "$0")/lib.sh"
MODEL='class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(2, 2, 3)
    def forward(self, x):
        return self.conv(x)
def get_inputs():
    return [torch.randn(1, 2, 8)]'
# hostile NAME LINE3: a module whose line 3 is LINE3, after the two imports.
hostile() { printf 'import torch\nimport torch.nn as nn\n%s\n%s\n' "$2" "$MODEL" >"$WORK/$1.py"; }
hostile raises 'raise RuntimeError("needs a GPU")'
hostile exits 'import sys; sys.exit(3)'
hostile loops 'while True: pass'
hostile allocates 'x = bytearray(8 << 30)'
hostile imports 'import kbench_no_such_module'
hostile syntax 'k = 1 +* 2'
hostile ends 'import os; os._exit(7)'
hostile prints 'print("hello from the file"); import os; os.write(1, b"raw bytes on fd 1\n")'

# expect READER NAME TEXT: exit 2 and TEXT on stderr.
expect() {
  local reader=$1 name=$2 text=$3
  "$KBENCH" import kernelbench "$WORK/$name.py" --reader "$reader" --timeout 2 >"$WORK/out" 2>"$WORK/err"
  local status=$?
  [ $status -eq 2 ] || { cat "$WORK/err"; fail "--reader $reader $name.py: exit $status, expected 2"; }
  grep -qF -- "$text" "$WORK/err" || { cat "$WORK/err"; fail "--reader $reader $name.py: expected '$text'"; }
  [ ! -s "$WORK/out" ] || fail "--reader $reader $name.py: a refused import printed a spec"
}
readers=stub
if /usr/bin/python3 -c "import torch" >/dev/null 2>&1; then
  readers="stub torch"
  export KBENCH_PYTHON=/usr/bin/python3  # python3 on PATH may lack torch; the stub runs in any Python
fi
expect stub exits "$WORK/exits.py:3: SystemExit: 3"
expect stub imports "$WORK/imports.py:3: ModuleNotFoundError: No module named 'kbench_no_such_module'"
expect stub syntax "$WORK/syntax.py:3: SyntaxError: invalid syntax"
for reader in $readers; do  # the isolation, the same in torch (each run there starts torch: seconds)
  expect $reader raises "$WORK/raises.py:3: RuntimeError: needs a GPU"
  expect $reader loops "$WORK/loops.py:3: the file ran longer than 2 s (--timeout); stopped"
  expect $reader ends "$WORK/ends.py: Python stopped while running this file (exit 7"
  "$KBENCH" import kernelbench "$WORK/prints.py" --reader $reader >"$WORK/out.yaml" 2>"$WORK/err" ||
    { cat "$WORK/err"; fail "--reader $reader prints.py: exit $?"; }
  "$KBENCH" plan "$WORK/out.yaml" --backends reference >/dev/null 2>&1 ||
    { cat "$WORK/out.yaml"; fail "--reader $reader prints.py: the file's prints spoilt the spec"; }
done
# The stub's address space is bounded: the file's allocation fails. (kbench's kill of a child that ignores
# the alarm is tested in unit/test_import_kernelbench.cpp, where the start-up slack can be short.)
expect stub allocates "$WORK/allocates.py:3: MemoryError"

# Several files, one that ends the interpreter: the error names that file.
cp "$SRC/tests/data/import/keyword_arguments_separable.py" "$WORK/fine.py"
"$KBENCH" import kernelbench "$WORK/fine.py" "$WORK/ends.py" --reader stub >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && grep -qF "$WORK/ends.py: Python stopped while running this file (exit 7" "$WORK/err" ||
  { cat "$WORK/err"; fail "the file that ended Python is not named"; }

# auto where importing torch ends Python (a broken install): the stub reads the files, and the note says why.
mkdir -p "$WORK/crashing/torch"
echo 'import os; os._exit(9)' >"$WORK/crashing/torch/__init__.py"
PYTHONPATH="$WORK/crashing" "$KBENCH" import kernelbench "$WORK/fine.py" >"$WORK/out.yaml" 2>"$WORK/err" ||
  { cat "$WORK/err"; fail "auto with a torch that ends Python: exit $?"; }
grep -qF "against kbench's torch stub" "$WORK/err" && grep -qF "importing torch ended Python" "$WORK/err" &&
  grep -qF "(exit 9;" "$WORK/err" || { cat "$WORK/err"; fail "auto: no note of the stub and why"; }
grep -q "^- name: fine-depthwise$" "$WORK/out.yaml" || fail "auto with a torch that ends Python: no spec"

# No Python at all (PATH holds none, KBENCH_PYTHON unset): exit 2 saying what to install; the rest works.
( unset KBENCH_PYTHON; PATH=/nonexistent "$KBENCH" import kernelbench "$WORK/fine.py" >/dev/null 2>"$WORK/err" )
[ $? -eq 2 ] || { cat "$WORK/err"; fail "import kernelbench without any Python: expected exit 2"; }
grep -qF "Python 'python3' (from PATH) cannot be run" "$WORK/err" && grep -qF "apt install python3" "$WORK/err" ||
  { cat "$WORK/err"; fail "without Python: the error must say so and what to install"; }
( unset KBENCH_PYTHON; PATH=/nonexistent "$KBENCH" plan "$SRC/tests/data/cli/small_conv2d.yaml" --backends reference \
  >/dev/null 2>"$WORK/err" ) || { cat "$WORK/err"; fail "kbench plan without any Python: exit $?"; }

# The old reader's name says what replaced it.
"$KBENCH" import kernelbench "$WORK/fine.py" --reader parser >/dev/null 2>"$WORK/err"
[ $? -eq 2 ] && grep -qF -- "'parser' is not one of auto, torch, stub: kbench's own parser of KernelBench files is gone" "$WORK/err" ||
  { cat "$WORK/err"; fail "--reader parser must be refused saying what replaced it"; }
echo "ok"
