// --dump read back: every tensor in the spec's dtype (fp16 '<f2', bf16 '<u2' bit patterns, fp32 '<f4')
// and memory layout (the .npy shape is the memory shape, the data in that order), the index naming each
// file's dtype, layout and shapes; the reference fp64 in the same layout.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/half.hpp"
#include "data/host_tensors.hpp"
#include "reference/reference_backend.hpp"
#include "reference/reference_conv.hpp"
#include "run/dump_tensor.hpp"
#include "run/runner.hpp"
#include "spec/load.hpp"
#include "temp_dir.hpp"

using namespace kbench;
using kbench::testing::TempDir;

namespace {

struct Npy {
  std::string descr;
  std::vector<std::int64_t> shape;
  std::string data;  // the raw elements
};

// A minimal reader of what data::write_npy writes: format 1.0, C order, a Python dict header.
Npy read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(raw.size() >= 10);
  REQUIRE(raw.compare(0, 6, "\x93NUMPY") == 0);
  const std::size_t header_length = static_cast<unsigned char>(raw[8]) | (static_cast<unsigned char>(raw[9]) << 8);
  const std::string header = raw.substr(10, header_length);
  CHECK((10 + header_length) % 64 == 0);
  CHECK(header.find("'fortran_order': False") != std::string::npos);
  Npy npy;
  const std::size_t descr = header.find("'descr': '") + 10;
  npy.descr = header.substr(descr, header.find('\'', descr) - descr);
  const std::size_t open = header.find("'shape': (") + 10;
  const std::string dims = header.substr(open, header.find(')', open) - open);
  for (std::size_t at = 0; at < dims.size();) {
    const std::size_t comma = dims.find(',', at);
    const std::string part = dims.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (part.find_first_not_of(' ') != std::string::npos) npy.shape.push_back(std::stoll(part));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  npy.data = raw.substr(10 + header_length);
  return npy;
}

template <class T>
std::vector<T> elements(const Npy& npy) {
  std::vector<T> values(npy.data.size() / sizeof(T));
  REQUIRE(values.size() * sizeof(T) == npy.data.size());
  std::memcpy(values.data(), npy.data.data(), npy.data.size());
  return values;
}

// What a file of `dtype` holds, widened to float, in memory order.
std::vector<float> widened(const Npy& npy, DType dtype) {
  if (dtype == DType::fp32) {
    CHECK(npy.descr == "<f4");
    return elements<float>(npy);
  }
  CHECK(npy.descr == (dtype == DType::fp16 ? "<f2" : "<u2"));
  std::vector<float> out;
  for (const std::uint16_t bits : elements<std::uint16_t>(npy))
    out.push_back(dtype == DType::fp16 ? float_from_fp16_bits(bits) : float_from_bf16_bits(bits));
  return out;
}

const nlohmann::json& file_entry(const nlohmann::json& index, const std::string& role) {
  for (const auto& f : index.at("files"))
    if (f.at("role") == role) return f;
  FAIL("no file of role " << role);
  static const nlohmann::json none;
  return none;
}

}  // namespace

TEST_SUITE("dump") {
  TEST_CASE("dump: memory shapes, and memory order against logical order") {
    ConvProblem p;
    p.batch = 2;
    p.in_channels = 3;
    p.out_channels = 4;
    p.spatial_rank = 2;
    p.input = Dims{{5, 6, 1}};
    p.kernel = Dims{{3, 2, 1}};
    p.layout = Layout::nhwc;
    CHECK(memory_shape(p, Operand::input) == std::vector<std::int64_t>{2, 5, 6, 3});
    CHECK(memory_shape(p, Operand::weight) == std::vector<std::int64_t>{4, 3, 2, 3});
    CHECK(memory_shape(p, Operand::output) == std::vector<std::int64_t>{2, 3, 5, 4});
    p.op = OpKind::conv_transpose;  // weight [C_in, C_out/g, k...] -> [C_in, k..., C_out/g]
    CHECK(memory_shape(p, Operand::weight) == std::vector<std::int64_t>{3, 3, 2, 4});
    p.layout = Layout::nchw;
    CHECK(memory_shape(p, Operand::input) == std::vector<std::int64_t>{2, 3, 5, 6});
    // Element (n=1, c=2, h=4, w=5) of the input: logical index ((1*3+2)*5+4)*6+5, in memory at ((1*5+4)*6+5)*3+2.
    p.layout = Layout::nhwc;
    std::vector<int> logical(static_cast<std::size_t>(p.input_elements()));
    for (std::size_t i = 0; i < logical.size(); ++i) logical[i] = static_cast<int>(i);
    const auto memory = to_memory_order(p, Operand::input, std::span<const int>(logical));
    CHECK(memory[static_cast<std::size_t>(((1 * 5 + 4) * 6 + 5) * 3 + 2)] == ((1 * 3 + 2) * 5 + 4) * 6 + 5);
  }

  TEST_CASE("dump: every tensor in the spec's dtype and memory layout, the reference fp64 in that layout") {
    for (const char* dtype_name : {"fp32", "fp16", "bf16"})
      for (const char* layout_name : {"nchw", "nhwc"})
        for (const char* op : {"conv", "conv_transpose"}) {
          CAPTURE(dtype_name);
          CAPTURE(layout_name);
          CAPTURE(op);
          const TempDir dir("dump");
          const Workload workload = parse_workloads(fmt::format("name: w\nop: {}\ndtype: {}\nlayout: {}\ninput: [2, 4, "
                                                                "5, 3]\nout_channels: 6\nkernel: [3, 2]\ngroups: 2\n"
                                                                "bias: true\n",
                                                                op, dtype_name, layout_name),
                                                    "<test>")
                                        .front();
          const ConvProblem& p = workload.problem;
          Registry registry;
          registry.add(make_reference_backend());
          RunConfig config;
          config.backends = parse_backend_list("reference");
          config.seed = 7;
          config.measure.warmups = 0;
          config.measure.iterations = 1;
          config.peaks = *find_device("h100-sxm");
          config.dump_dir = dir.path.string();
          const RunReport report = run_workloads({workload}, registry, config);
          REQUIRE(report.results.size() == 1);
          REQUIRE(report.results[0].status == ResultStatus::ok);

          std::ifstream index_file(dir.path / "w.index.json");
          const nlohmann::json index = nlohmann::json::parse(index_file);
          CHECK(index.at("dtype") == dtype_name);
          CHECK(index.at("layout") == layout_name);
          const std::string numpy_name = dump_dtype_name(p.dtype);
          const data::HostTensors inputs = data::make_host_tensors(p, 7);
          const struct {
            const char* role;
            Operand operand;
            const std::vector<float>* logical;
          } tensors[] = {{"x", Operand::input, &inputs.input},
                         {"weight", Operand::weight, &inputs.weight},
                         {"bias", Operand::bias, &inputs.bias}};
          for (const auto& t : tensors) {
            CAPTURE(t.role);
            const nlohmann::json& entry = file_entry(index, t.role);
            CHECK(entry.at("dtype") == numpy_name);
            CHECK(entry.at("layout") == layout_name);
            CHECK(entry.at("shape").get<std::vector<std::int64_t>>() == memory_shape(p, t.operand));
            CHECK(entry.at("logical_shape").get<std::vector<std::int64_t>>() == logical_shape(p, t.operand));
            const Npy npy = read_npy((dir.path / entry.at("file").get<std::string>()).string());
            CHECK(npy.shape == memory_shape(p, t.operand));
            CHECK(widened(npy, p.dtype) == to_memory_order(p, t.operand, std::span<const float>(*t.logical)));
          }
          const std::vector<double> exact = reference::convolve(p, inputs);
          const nlohmann::json& out = file_entry(index, "output:reference:fp32");
          CHECK(out.at("dtype") == numpy_name);
          const Npy output = read_npy((dir.path / out.at("file").get<std::string>()).string());
          CHECK(output.shape == memory_shape(p, Operand::output));
          const std::vector<float> got = widened(output, p.dtype);
          const std::vector<double> exact_memory = to_memory_order(p, Operand::output, std::span<const double>(exact));
          REQUIRE(got.size() == exact_memory.size());
          for (std::size_t i = 0; i < got.size(); ++i)
            REQUIRE(std::abs(got[i] - exact_memory[i]) <= unit_roundoff(p.dtype) * std::abs(exact_memory[i]) + 1e-30);
          const nlohmann::json& ref = file_entry(index, "reference");
          CHECK(ref.at("dtype") == "float64");
          const Npy reference_npy = read_npy((dir.path / ref.at("file").get<std::string>()).string());
          CHECK(reference_npy.descr == "<f8");
          CHECK(reference_npy.shape == memory_shape(p, Operand::output));
          CHECK(elements<double>(reference_npy) == exact_memory);
        }
  }
}
