// DLPack views of kbench's buffers as the torch backend hands them to torch.utils.dlpack.from_dlpack:
// the spec's layout, shapes and strides in elements, and a deleter that frees the view, never the data.
#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include "torch/dlpack.hpp"

using namespace kbench::torch::dlpack;

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

TEST_CASE("torch dlpack: an fp32 view of kbench's memory") {
  std::vector<float> buffer(2 * 3 * 4, 1.5f);
  DLManagedTensor* view = make_fp32_view(buffer.data(), DLDevice{kDLCUDA, 3}, {2, 3, 4});
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
  CHECK_THROWS(make_fp32_view(&x, DLDevice{kDLCPU, 0}, {}));
}
