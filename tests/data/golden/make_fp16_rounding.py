#!/usr/bin/env python3
"""Writes fp16_rounding.txt: fp32 bit patterns and the fp16 bit patterns numpy's float16 rounds them to.

The inputs are the cases that decide a rounding: every fp16 value, the midpoints between neighbours
(ties to even) and one ulp of fp32 either side of them, over the subnormal range, the smallest normals
and the overflow threshold, plus seeded random fp32 values of every exponent fp16 can see.
Run with Debian's numpy: /usr/bin/python3 tests/data/golden/make_fp16_rounding.py > tests/data/golden/fp16_rounding.txt
"""
import numpy as np

rng = np.random.default_rng(20261202)
halves = np.arange(0, 0x7C01, dtype=np.uint16).view(np.float16).astype(np.float64)  # +0 .. +Inf
picked = np.concatenate([halves[:80], halves[0x3F0:0x410], halves[0x3BF0:0x3C10], halves[0x7BE0:]])
mids = (picked[:-1] + picked[1:]) / 2
mids = mids[np.isfinite(mids)].astype(np.float32)
near = np.concatenate([np.nextafter(mids, np.float32(0)), mids, np.nextafter(mids, np.float32(np.inf))])
special = np.array([0.0, 65504.0, 65519.99, 65520.0, 65536.0, 1e10, np.inf, 2.0**-24, 2.0**-25, 2.0**-26,
                    2.0**-14, 1.0, 1.0 / 3, 0.1], dtype=np.float32)
exponents = rng.integers(-30, 17, size=3000)
rand = (rng.random(3000) + 0.5) * np.exp2(exponents.astype(np.float64))
values = np.concatenate([near, special, rand.astype(np.float32)])
values = np.concatenate([values, -values])
print("# fp32_bits fp16_bits  (numpy", np.__version__, "float32.astype(float16))")
for v in values:
    print(f"{int(np.float32(v).view(np.uint32)):08x} {int(np.float32(v).astype(np.float16).view(np.uint16)):04x}")
