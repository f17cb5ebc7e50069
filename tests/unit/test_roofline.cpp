#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "roofline/device_peaks.hpp"
#include "roofline/floor.hpp"

using namespace kbench;

TEST_SUITE("roofline") {
  TEST_CASE("the table knows the seeds' GPUs by key and by CUDA name") {
    for (const char* key : {"h100-sxm", "h100-pcie", "h200", "a100-80gb", "a100-40gb"})
      CHECK(find_device(key).has_value());
    CHECK(find_device("NVIDIA H100 80GB HBM3")->key == "h100-sxm");
    CHECK(find_device("nvidia h200")->key == "h200");
    CHECK_FALSE(find_device("NVIDIA GeForce 256").has_value());
    CHECK(find_device("h200")->bandwidth_Bps == doctest::Approx(4.8e12));
  }

  TEST_CASE("floor: the larger term binds, headroom is time over floor") {
    ProblemMetrics m;
    m.flops = 549.7e9;
    m.input_bytes = 8.5898e9;
    m.output_bytes = 5.7264e9;
    m.weight_bytes = 98304;
    const DevicePeaks h200 = *find_device("h200");
    const Floor fp32 = compute_floor(m, h200, MathMode::fp32);
    CHECK(fp32.binds == "compute");
    CHECK(fp32.compute_units == ComputeUnits::split_tf32);
    CHECK(fp32.compute_s == doctest::Approx(3.334e-3).epsilon(1e-3));  // 549.7 G / (494.7 T / 3)
    CHECK(fp32.memory_s == doctest::Approx(2.98e-3).epsilon(1e-2));    // 14.3 GB / 4.8 TB/s
    CHECK(binding_text(fp32) == "compute, 3xTF32");
    const Floor tf32 = compute_floor(m, h200, MathMode::tf32);
    CHECK(tf32.binds == "memory");
    CHECK(tf32.compute_units == ComputeUnits::tf32);
    CHECK(tf32.floor_s == doctest::Approx(tf32.memory_s));
    CHECK(binding_text(tf32) == "memory");
    CHECK(headroom(2 * fp32.floor_s, fp32) == doctest::Approx(2.0));
    // headroom-v1: input bytes only at datasheet bandwidth (H100 SXM: 2.56 ms for problem 76).
    const Floor published = compute_floor(m, *find_device("h100-sxm"), MathMode::fp32);
    CHECK(published.published_input_only_s == doctest::Approx(2.564e-3).epsilon(1e-3));
  }

  TEST_CASE("the fp32 peak is the faster of FFMA and a third of the TF32 rate") {
    DevicePeaks p;
    p.fp32_flops = 67e12;
    p.tf32_flops = 494.7e12;  // Hopper: three TF32 products beat FFMA 2.5x
    CHECK(p.flops_for(MathMode::fp32) == doctest::Approx(164.9e12));
    CHECK(p.compute_units_for(MathMode::fp32) == ComputeUnits::split_tf32);
    CHECK(p.flops_for(MathMode::tf32) == doctest::Approx(494.7e12));
    p.tf32_flops = 150e12;  // a tensor rate under 3x FFMA (e.g. sm_86's): FFMA stays the fp32 peak
    CHECK(p.flops_for(MathMode::fp32) == doctest::Approx(67e12));
    CHECK(p.compute_units_for(MathMode::fp32) == ComputeUnits::ffma);
    p.tf32_flops = p.fp32_flops;  // no tensor cores: derived peaks set TF32 to the FFMA rate
    CHECK(p.compute_units_for(MathMode::fp32) == ComputeUnits::ffma);
    for (ComputeUnits units : {ComputeUnits::ffma, ComputeUnits::split_tf32, ComputeUnits::tf32,
                               ComputeUnits::fp16_tensor, ComputeUnits::bf16_tensor})
      CHECK(parse_compute_units(to_string(units)) == units);
    CHECK_FALSE(parse_compute_units("3xtf32").has_value());
  }

  TEST_CASE("a peaks file overrides, bad files name the key") {
    const std::string path = "kbench_test_peaks.json";
    std::ofstream(path) << R"({"name": "lab GPU", "bandwidth_GBps": 4300, "fp32_TFLOPs": 60, "tf32_TFLOPs": 400})";
    const DevicePeaks p = load_peaks_file(path);
    CHECK(p.bandwidth_Bps == doctest::Approx(4.3e12));
    CHECK(p.source == "file:" + path);
    std::ofstream(path) << R"({"name": "lab GPU", "bandwidth_GBps": -1, "fp32_TFLOPs": 60, "tf32_TFLOPs": 400})";
    CHECK_THROWS_WITH_AS(load_peaks_file(path), doctest::Contains("bandwidth_GBps"), InputError);
    std::ofstream(path) << R"({"name": "x", "bandwidth": 1, "fp32_TFLOPs": 60, "tf32_TFLOPs": 400})";
    CHECK_THROWS_WITH_AS(load_peaks_file(path), doctest::Contains("bandwidth: unknown key"), InputError);
    std::ofstream(path) << "{not json";
    CHECK_THROWS_AS(load_peaks_file(path), InputError);
    std::ofstream(path) << R"({"name": "g", "bandwidth_GBps": 1, "fp32_TFLOPs": 60, "tf32_TFLOPs": 400,
                               "fp16_tensor_TFLOPs": 900, "bf16_tensor_TFLOPs": 850, "fp16_TFLOPs": 120})";
    const DevicePeaks half = load_peaks_file(path);
    CHECK(half.half_tensor_flops(DType::fp16) == doctest::Approx(900e12));
    CHECK(half.half_tensor_flops(DType::bf16) == doctest::Approx(850e12));
    CHECK(half.fp16_vector_flops() == doctest::Approx(120e12));
    CHECK(p.half_tensor_flops(DType::fp16) == doctest::Approx(800e12));  // left out: 2 x TF32
    CHECK(p.fp16_vector_flops() == doctest::Approx(120e12));             // left out: 2 x FFMA
    std::ofstream(path) << R"({"name": "g", "bandwidth_GBps": 1, "fp32_TFLOPs": 60, "tf32_TFLOPs": 400,
                               "fp16_tensor_TFLOPs": 0})";
    CHECK_THROWS_WITH_AS(load_peaks_file(path), doctest::Contains("fp16_tensor_TFLOPs: expected a finite positive"),
                         InputError);
    std::ofstream(path) << R"({"name": "g", "bandwidth_GBps": 1, "fp32_TFLOPs": 60, "tf32_TFLOPs": 400,
                               "fp16_tensor_tflops": 1})";
    CHECK_THROWS_WITH_AS(load_peaks_file(path), doctest::Contains("fp16_tensor_tflops: unknown key"), InputError);
    std::remove(path.c_str());
    CHECK_THROWS_AS(load_peaks_file("/no/such/peaks.json"), InputError);
  }

  TEST_CASE("half precision: every listed GPU has its datasheet dense tensor rate, and half floors use it") {
    CHECK(find_device("h100-sxm")->half_tensor_flops(DType::fp16) == doctest::Approx(989.4e12));
    CHECK(find_device("h200")->half_tensor_flops(DType::bf16) == doctest::Approx(989.4e12));
    CHECK(find_device("h200")->fp16_flops == doctest::Approx(133.8e12));
    CHECK(find_device("h100-pcie")->half_tensor_flops(DType::fp16) == doctest::Approx(756e12));
    CHECK(find_device("a100-80gb")->half_tensor_flops(DType::bf16) == doctest::Approx(312e12));
    for (const DevicePeaks& d : known_devices()) {
      CAPTURE(d.key);
      CHECK(d.fp16_tensor_flops > d.tf32_flops);  // written in the table, not derived
      CHECK(d.bf16_tensor_flops == d.fp16_tensor_flops);
      CHECK(d.fp16_flops > d.fp32_flops);
    }
    ProblemMetrics m;
    m.flops = 989.4e9;    // one millisecond of tensor work on an H200
    m.input_bytes = 1e6;  // negligible traffic
    const DevicePeaks h200 = *find_device("h200");
    for (MathMode math : {MathMode::fp32, MathMode::tf32}) {
      const Floor fp16 = compute_floor(m, h200, math, DType::fp16);
      CHECK(fp16.compute_s == doctest::Approx(1e-3));
      CHECK(fp16.compute_units == ComputeUnits::fp16_tensor);
      CHECK(binding_text(fp16) == "compute, FP16");
      CHECK(compute_floor(m, h200, math, DType::bf16).compute_units == ComputeUnits::bf16_tensor);
    }
    CHECK(compute_floor(m, h200, MathMode::fp32).compute_units == ComputeUnits::split_tf32);  // fp32 as before
  }
}
