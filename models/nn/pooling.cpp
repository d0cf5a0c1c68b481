#include "models/nn/pooling.h"

#include <fmt/format.h>

namespace dagml::nn {
namespace {
std::string describe_pool(const char* kind, const Pool2dGeometry& g) {
  const ImageShape in = g.input, out = g.output();
  return fmt::format("{} {}×{}×{} → {}×{}×{} (window {}, stride {})", kind, in.channels, in.height, in.width,
                     out.channels, out.height, out.width, g.window, g.effective_stride());
}
}  // namespace

MaxPool2d::MaxPool2d(const Pool2dGeometry& geometry) : geometry_(geometry) { geometry_.validate(); }
std::string MaxPool2d::describe() const { return describe_pool("max_pool2d", geometry_); }

AvgPool2d::AvgPool2d(const Pool2dGeometry& geometry) : geometry_(geometry) { geometry_.validate(); }
std::string AvgPool2d::describe() const { return describe_pool("avg_pool2d", geometry_); }

}  // namespace dagml::nn
