#pragma once
// DLPack, the tensor-exchange ABI torch.utils.dlpack.from_dlpack reads, written from the public
// specification (dmlc/dlpack, include/dlpack/dlpack.h, the unversioned DLManagedTensor that every
// torch since 1.x accepts) rather than copied in: only the structs kbench fills. A DLManagedTensor
// travels in a PyCapsule named "dltensor"; the consumer renames the capsule "used_dltensor" and
// calls the deleter when its tensor goes, so kbench's buffers are shared, never copied.
#include <cstdint>
#include <vector>

namespace kbench::torch::dlpack {

enum DeviceType : std::int32_t { kDLCPU = 1, kDLCUDA = 2 };
enum DataTypeCode : std::uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4 };

struct DLDevice {
  std::int32_t device_type;  // DeviceType
  std::int32_t device_id;
};

struct DLDataType {
  std::uint8_t code;  // DataTypeCode
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null means compact row-major
  std::uint64_t byte_offset;
};

struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

inline constexpr const char* kCapsuleName = "dltensor";
inline constexpr const char* kUsedCapsuleName = "used_dltensor";

// A DLManagedTensor over memory kbench owns: shape and strides (in elements) live in the same
// allocation (manager_ctx), the deleter frees only that, never `data`. The buffer must outlive
// every tensor made from it (a torch run drops its tensors before its buffers go).
DLManagedTensor* make_view(void* data, DLDevice device, DLDataType dtype, const std::vector<std::int64_t>& shape,
                           const std::vector<std::int64_t>& strides);

// Row-major strides, in elements, of a compact tensor of `shape`.
std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape);
// The strides of a compact tensor of logical `shape` [d0, d1, spatial...] stored channels last,
// [d0, spatial..., d1] (problem/memory_layout.hpp): what torch calls channels_last (channels_last_3d).
std::vector<std::int64_t> channels_last_strides(const std::vector<std::int64_t>& shape);

}  // namespace kbench::torch::dlpack
