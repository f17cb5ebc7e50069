#include "torch/dlpack.hpp"

#include <memory>
#include <stdexcept>

namespace kbench::torch::dlpack {

namespace {

// What manager_ctx points at: the managed tensor itself and the arrays its DLTensor points into.
struct View {
  DLManagedTensor managed{};
  std::vector<std::int64_t> shape, strides;
};

void delete_view(DLManagedTensor* self) {
  if (self) delete static_cast<View*>(self->manager_ctx);
}

}  // namespace

std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> strides(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

std::vector<std::int64_t> channels_last_strides(const std::vector<std::int64_t>& shape) {
  if (shape.size() < 2) return row_major_strides(shape);
  std::vector<std::int64_t> strides(shape.size(), 1);
  std::int64_t step = shape[1];  // the channels are innermost; then the spatial axes, last fastest
  for (std::size_t i = shape.size(); i-- > 2;) {
    strides[i] = step;
    step *= shape[i];
  }
  strides[0] = step;
  return strides;
}

DLManagedTensor* make_view(void* data, DLDevice device, DLDataType dtype, const std::vector<std::int64_t>& shape,
                           const std::vector<std::int64_t>& strides) {
  if (shape.empty()) throw std::invalid_argument("dlpack: a view needs at least one dimension");
  if (strides.size() != shape.size()) throw std::invalid_argument("dlpack: one stride per dimension");
  auto view = std::make_unique<View>();
  view->shape = shape;
  view->strides = strides;
  DLTensor& t = view->managed.dl_tensor;
  t.data = data;
  t.device = device;
  t.ndim = static_cast<std::int32_t>(shape.size());
  t.dtype = dtype;
  t.shape = view->shape.data();
  t.strides = view->strides.data();
  t.byte_offset = 0;
  view->managed.manager_ctx = view.get();
  view->managed.deleter = delete_view;
  return &view.release()->managed;
}

}  // namespace kbench::torch::dlpack
