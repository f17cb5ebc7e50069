# The main job installs and builds only what it runs: `install-deps.sh --main` leaves out the tests'
# torch, numpy, clang and chromium, and run-main.sh builds the kbench target alone (187 of ~310 objects);
# the test command installs and builds everything.
source "$(dirname "$0")/lib.sh"
main=$(bash "$SRC/scripts/install-deps.sh" --main --list) || fail "install-deps.sh --main --list: exit $?"
all=$(bash "$SRC/scripts/install-deps.sh" --list) || fail "install-deps.sh --list: exit $?"
for p in python3-torch chromium clang python3-numpy; do
  grep -qx "$p" <<< "$main" && fail "the main job installs $p, which only the tests need"
  grep -qx "$p" <<< "$all" || fail "the test command does not install $p"
done
for p in cmake g++ libcli11-dev libfmt-dev nlohmann-json3-dev libyaml-cpp-dev; do
  grep -qx "$p" <<< "$main" || fail "the main job does not install $p, which the build needs"
done
bash "$SRC/scripts/install-deps.sh" --bogus > /dev/null 2>&1
[ $? -eq 2 ] || fail "install-deps.sh with an unknown option should exit 2"
grep -q "^bash scripts/install-deps.sh --main$" "$SRC/scripts/run-main.sh" || fail "run-main.sh installs more than it needs"
grep -q "^bash scripts/build.sh default kbench$" "$SRC/scripts/run-main.sh" || fail "run-main.sh builds more than kbench"
grep -q "^bash scripts/install-deps.sh$" "$SRC/scripts/run-tests.sh" || fail "run-tests.sh must install everything"
grep -q "^KBENCH_FAIL_ON_WARNINGS=1 bash scripts/build.sh default$" "$SRC/scripts/run-tests.sh" || fail "run-tests.sh must build everything, failing on a warning"
echo "ok"
