#include "models/nn/conv2d_layer.h"

#include <fmt/format.h>

namespace dagml::nn {

Conv2dGeometry conv2d_geometry(const Conv2dOptions& options) {
  return {.input = options.input,
          .filters = options.filters,
          .kernel_height = options.kernel,
          .kernel_width = options.kernel,
          .stride = options.stride,
          .padding = options.padding};
}

Conv2d::Conv2d(const Conv2dOptions& options) : options_(options), geometry_(conv2d_geometry(options)) {
  geometry_.validate();
  std::mt19937_64 rng(options.seed);
  const Index area = options.kernel * options.kernel;
  filters_ = {"filters", initial_weights(options.init, options.filters, geometry_.filter_size(),
                                         geometry_.filter_size(), options.filters * area, rng)};
  bias_ = {"bias", Tensor::Zero(1, options.filters)};
}

std::string Conv2d::describe() const {
  const ImageShape in = geometry_.input, out = geometry_.output();
  return fmt::format("conv2d {}×{}×{} → {}×{}×{} ({}×{} kernel, stride {}, padding {})", in.channels, in.height,
                     in.width, out.channels, out.height, out.width, options_.kernel, options_.kernel, options_.stride,
                     options_.padding);
}

Var Conv2d::build(Var x, BuildContext& ctx) const {
  Conv2dGeometry geometry = geometry_;
  geometry.products = ctx.products();
  if (options_.bias) return conv2d(x, ctx.parameter(filters_), ctx.parameter(bias_), geometry);
  return conv2d(x, ctx.parameter(filters_), geometry);
}

std::vector<const Parameter*> Conv2d::list_parameters() const {
  if (options_.bias) return {&filters_, &bias_};
  return {&filters_};
}

}  // namespace dagml::nn
