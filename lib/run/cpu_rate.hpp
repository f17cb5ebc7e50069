#pragma once
// How fast the CPU reference runs on this machine, measured once on a small problem, so the
// runner can tell ahead of time whether a workload fits the time budget.
namespace kbench {

// FLOP/s of reference::convolve on this machine (all threads); measured on first use, then cached.
double reference_flops_per_second();

}  // namespace kbench
