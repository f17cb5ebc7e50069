// DLPack views of kbench's buffers as the torch backend hands them to torch.utils.dlpack.from_dlpack:
// the spec's layout, shapes and strides in elements, and a deleter that frees the view, never the data.
#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include "problem/memory_layout.hpp"
#include "torch/dlpack.hpp"
#include "torch/torch_session.hpp"

using namespace kbench::torch::dlpack;
using kbench::ChannelAxes;
using kbench::DType;

TEST_CASE("torch dlpack: the structs have the public specification's layout (x86-64)") {
  // dlpack.h: DLDevice {int32, int32}; DLDataType {uint8, uint8, uint16}; DLTensor as below.
  CHECK(sizeof(DLDevice) == 8);
  CHECK(sizeof(DLDataType) == 4);
  CHECK(offsetof(DLTensor, data) == 0);
  CHECK(offsetof(DLTensor, device) == 8);
  CHECK(offsetof(DLTensor, ndim) == 16);
  CHECK(offsetof(DLTensor, dtype) == 20);
  CHECK(offsetof(DLTensor, shape) == 24);
  CHECK(offsetof(DLTensor, strides) == 32);
  CHECK(offsetof(DLTensor, byte_offset) == 40);
  CHECK(sizeof(DLTensor) == 48);
  CHECK(offsetof(DLManagedTensor, manager_ctx) == 48);
  CHECK(offsetof(DLManagedTensor, deleter) == 56);
  CHECK(kDLCPU == 1);
  CHECK(kDLCUDA == 2);
  CHECK(kDLFloat == 2);
}

TEST_CASE("torch dlpack: row-major strides in elements") {
  CHECK(row_major_strides({2, 6, 9, 20}) == std::vector<std::int64_t>{1080, 180, 20, 1});
  CHECK(row_major_strides({7}) == std::vector<std::int64_t>{1});
  CHECK(row_major_strides({3, 1, 5}) == std::vector<std::int64_t>{5, 5, 1});
}

// Channels-last strides must address each logical element where kbench's layout stores it
// (problem/memory_layout.hpp): the same arithmetic the fills, the kernels and the reference use.
TEST_CASE("torch dlpack: channels-last strides address kbench's nhwc storage") {
  for (const std::vector<std::int64_t>& shape : std::vector<std::vector<std::int64_t>>{
           {2, 3, 5}, {2, 3, 4, 5}, {1, 6, 2, 3, 4}, {3, 1, 2, 2}, {4, 5, 1, 1}}) {
    CAPTURE(shape.size());
    const std::vector<std::int64_t> strides = channels_last_strides(shape);
    REQUIRE(strides.size() == shape.size());
    std::int64_t spatial = 1;
    for (std::size_t d = 2; d < shape.size(); ++d) spatial *= shape[d];
    const ChannelAxes axes{shape[1], spatial};
    std::int64_t count = 1;
    for (const std::int64_t n : shape) count *= n;
    for (std::int64_t logical = 0; logical < count; ++logical) {
      std::int64_t rest = logical, offset = 0;
      for (std::size_t d = shape.size(); d-- > 0;) {
        offset += rest % shape[d] * strides[d];
        rest /= shape[d];
      }
      REQUIRE(offset == channels_last_offset(logical, axes));
    }
  }
  CHECK(channels_last_strides({2, 3, 4, 5}) == std::vector<std::int64_t>{60, 1, 15, 3});
  CHECK(channels_last_strides({7}) == std::vector<std::int64_t>{1});  // a bias: one axis, as it is
}

TEST_CASE("torch dlpack: element types") {
  CHECK(kDLBfloat == 4);
  const DLDataType fp16 = kbench::torch::dlpack_dtype(DType::fp16);
  CHECK((fp16.code == kDLFloat && fp16.bits == 16 && fp16.lanes == 1));
  const DLDataType bf16 = kbench::torch::dlpack_dtype(DType::bf16);
  CHECK((bf16.code == kDLBfloat && bf16.bits == 16 && bf16.lanes == 1));
  const DLDataType fp32 = kbench::torch::dlpack_dtype(DType::fp32);
  CHECK((fp32.code == kDLFloat && fp32.bits == 32 && fp32.lanes == 1));
}

TEST_CASE("torch dlpack: an fp32 view of kbench's memory") {
  std::vector<float> buffer(2 * 3 * 4, 1.5f);
  DLManagedTensor* view =
      make_view(buffer.data(), DLDevice{kDLCUDA, 3}, DLDataType{kDLFloat, 32, 1}, {2, 3, 4}, row_major_strides({2, 3, 4}));
  REQUIRE(view != nullptr);
  const DLTensor& t = view->dl_tensor;
  CHECK(t.data == buffer.data());
  CHECK(t.device.device_type == kDLCUDA);
  CHECK(t.device.device_id == 3);
  CHECK(t.ndim == 3);
  CHECK(t.dtype.code == kDLFloat);
  CHECK(t.dtype.bits == 32);
  CHECK(t.dtype.lanes == 1);
  CHECK(t.shape[0] == 2);
  CHECK(t.shape[2] == 4);
  CHECK(t.strides[0] == 12);
  CHECK(t.strides[1] == 4);
  CHECK(t.strides[2] == 1);
  CHECK(t.byte_offset == 0);
  CHECK(view->manager_ctx != nullptr);
  const bool has_deleter = view->deleter != nullptr;
  REQUIRE(has_deleter);
  view->deleter(view);  // frees the view (ASan would see a leak or a double free), not the buffer
  CHECK(buffer[23] == 1.5f);
}

TEST_CASE("torch dlpack: a view needs a shape") {
  float x = 0;
  CHECK_THROWS(make_view(&x, DLDevice{kDLCPU, 0}, DLDataType{kDLFloat, 32, 1}, {}, {}));
  CHECK_THROWS(make_view(&x, DLDevice{kDLCPU, 0}, DLDataType{kDLFloat, 32, 1}, {1, 1}, {1}));
}
