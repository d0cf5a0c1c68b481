#include "autodiff/conv.h"

#include <fmt/format.h>

#include "graph/error.h"

namespace dagml {

ImageShape Conv2dGeometry::output() const {
  return {filters, (input.height + 2 * padding - kernel_height) / stride + 1,
          (input.width + 2 * padding - kernel_width) / stride + 1};
}

void Conv2dGeometry::validate() const {
  if (input.channels < 1 || input.height < 1 || input.width < 1 || filters < 1 || kernel_height < 1 ||
      kernel_width < 1 || stride < 1 || padding < 0)
    throw ValueError(fmt::format("conv2d: expected positive sizes, stride ≥ 1 and padding ≥ 0; found input "
                                 "{}×{}×{}, {} filters of {}×{}, stride {}, padding {}",
                                 input.channels, input.height, input.width, filters, kernel_height, kernel_width,
                                 stride, padding));
  if (kernel_height > input.height + 2 * padding || kernel_width > input.width + 2 * padding)
    throw ValueError(fmt::format("conv2d: the {}×{} kernel is larger than the padded {}×{} image", kernel_height,
                                 kernel_width, input.height + 2 * padding, input.width + 2 * padding));
}

ImageShape Pool2dGeometry::output() const {
  const Index s = effective_stride();
  return {input.channels, (input.height - window) / s + 1, (input.width - window) / s + 1};
}

void Pool2dGeometry::validate() const {
  if (input.channels < 1 || input.height < 1 || input.width < 1 || window < 1 || stride < 0)
    throw ValueError(fmt::format("pool2d: expected positive sizes; found input {}×{}×{}, window {}, stride {}",
                                 input.channels, input.height, input.width, window, stride));
  if (window > input.height || window > input.width)
    throw ValueError(fmt::format("pool2d: the {}×{} window is larger than the {}×{} image", window, window,
                                 input.height, input.width));
}

}  // namespace dagml
