# Every doctest case of the programs ctest discovers case by case (kbench_unit_tests,
# kbench_emu_tests) is registered under its own name. doctest_discover_tests reads the names as a
# CMake list: a ';' in a name split it into two tests whose filters matched nothing, so those cases
# passed without running (fifteen did, until 2026-12-01). Here each listed name must be a ctest test.
source "$(dirname "$0")/lib.sh"
build="$(cd "$(dirname "$KBENCH")/../.." && pwd)"
registered="$(cd "$build" && ctest -N | sed -n 's/^ *Test *#[0-9]*: //p')"
[[ -n "$registered" ]] || fail "ctest -N lists no tests in $build"
checked=0
for name in kbench_unit_tests kbench_emu_tests; do
  program="$build/tests/$name"
  [[ -x "$program" ]] || continue  # kbench_emu_tests is not built under the sanitizers
  cases="$("$program" --list-test-cases --no-version | sed '/^\[doctest\]/d;/^=\{10,\}$/d')"
  [[ -n "$cases" ]] || fail "$name lists no test cases"
  while IFS= read -r case_name; do
    grep -qxF -- "$case_name" <<<"$registered" || fail "$name: test case '$case_name' is not a ctest test (a ';' in its name?)"
    checked=$((checked + 1))
  done <<<"$cases"
done
(( checked > 100 )) || fail "only $checked test cases checked"
echo "$checked test cases, each registered under its own name"
echo "PASS"
