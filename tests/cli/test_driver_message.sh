# Without an NVIDIA driver (no libcuda.so.1), kbench says so, in `info`, on stderr and in the report's
# device, rather than the runtime's "CUDA driver version is insufficient", which sends a user to upgrade a
# driver that is not there. "too old" is said only with both versions. Skips where the driver loads.
source "$(dirname "$0")/lib.sh"
if python3 -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null; then
  echo "SKIP: libcuda.so.1 loads here; this test is for a machine without the driver"
  exit 77
fi
"$KBENCH" info > "$WORK/info.txt" 2>&1
grep -q "no CUDA in this build" "$WORK/info.txt" && { echo "SKIP: a build without CUDA"; exit 77; }
grep -q "no NVIDIA driver on this machine" "$WORK/info.txt" || fail "info: $(cat "$WORK/info.txt")"

"$KBENCH" run "$SRC/tests/data/cli/small_conv2d.yaml" --backends reference,cuda --iterations 2 --format json \
  --output "$WORK/out.json" > "$WORK/out.txt" 2> "$WORK/err.txt"
for f in "$WORK/err.txt" "$WORK/out.txt" "$WORK/out.json"; do
  grep -q "insufficient\|too old" "$f" && fail "$f blames the driver's version: $(grep -m1 "insufficient\|too old" "$f")"
done
grep -q "no NVIDIA driver on this machine" "$WORK/err.txt" || fail "stderr: $(cat "$WORK/err.txt")"
json_check "$WORK/out.json" '"no NVIDIA driver on this machine" in doc["device"]'
json_check "$WORK/out.json" 'all("no NVIDIA driver" in r["reason"] for r in doc["results"] if r["backend"] == "cuda")'
echo "ok"
