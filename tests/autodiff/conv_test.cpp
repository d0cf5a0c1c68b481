// Convolution and pooling against direct loops, geometry errors, and thread-count independence.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "autodiff/conv.h"
#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/normal_sample.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/executor.h"
#include "graph/graph.h"
#include "graph/tensor.h"
#include "graph/threads.h"

namespace dagml {
namespace {

using ::dagml::testing::normal_sample;

// Direct definition: y[i, k, oy, ox] = b[k] + Σ_{c,dy,dx} W[k, c, dy, dx] · x[i, c, oy·s − p + dy, ox·s − p + dx].
Tensor conv_loops(const Tensor& x, const Tensor& w, const Tensor& b, const Conv2dGeometry& g) {
  const ImageShape o = g.output();
  Tensor y(x.rows(), o.size());
  for (Index i = 0; i < x.rows(); ++i)
    for (Index k = 0; k < g.filters; ++k)
      for (Index oy = 0; oy < o.height; ++oy)
        for (Index ox = 0; ox < o.width; ++ox) {
          double acc = b(0, k);
          for (Index c = 0; c < g.input.channels; ++c)
            for (Index dy = 0; dy < g.kernel_height; ++dy)
              for (Index dx = 0; dx < g.kernel_width; ++dx) {
                const Index yy = oy * g.stride - g.padding + dy, xx = ox * g.stride - g.padding + dx;
                if (yy < 0 || yy >= g.input.height || xx < 0 || xx >= g.input.width) continue;
                acc += w(k, (c * g.kernel_height + dy) * g.kernel_width + dx) *
                       x(i, (c * g.input.height + yy) * g.input.width + xx);
              }
          y(i, (k * o.height + oy) * o.width + ox) = acc;
        }
  return y;
}

Tensor pool_loops(const Tensor& x, const Pool2dGeometry& g, bool max) {
  const ImageShape o = g.output();
  const Index s = g.effective_stride();
  Tensor y(x.rows(), o.size());
  for (Index i = 0; i < x.rows(); ++i)
    for (Index c = 0; c < o.channels; ++c)
      for (Index oy = 0; oy < o.height; ++oy)
        for (Index ox = 0; ox < o.width; ++ox) {
          double acc = max ? -1e300 : 0;
          for (Index dy = 0; dy < g.window; ++dy)
            for (Index dx = 0; dx < g.window; ++dx) {
              const double v = x(i, (c * g.input.height + oy * s + dy) * g.input.width + ox * s + dx);
              acc = max ? std::max(acc, v) : acc + v / static_cast<double>(g.window * g.window);
            }
          y(i, (c * o.height + oy) * o.width + ox) = acc;
        }
  return y;
}

TEST(Conv2d, MatchesDirectLoops) {
  for (const Conv2dGeometry g : {Conv2dGeometry{{1, 8, 8}, 4, 5, 5, 1, 0}, Conv2dGeometry{{3, 7, 6}, 2, 3, 3, 2, 1},
                                 Conv2dGeometry{{2, 5, 5}, 3, 1, 1, 1, 0}, Conv2dGeometry{{2, 6, 9}, 5, 2, 4, 3, 2}}) {
    Graph graph;
    const Tensor x = normal_sample(5, g.input.size(), 1), w = normal_sample(g.filters, g.filter_size(), 2),
                 b = normal_sample(1, g.filters, 3);
    const Var y = conv2d(graph.input("x", x), graph.parameter("w", w), graph.parameter("b", b), g);
    EXPECT_TRUE(y.value().isApprox(conv_loops(x, w, b, g), 1e-12));
    EXPECT_EQ(y.cols(), g.output().size());
  }
}

TEST(Pool2d, MaxAndAverageMatchDirectLoops) {
  for (const Pool2dGeometry g : {Pool2dGeometry{{2, 6, 6}, 2, 0}, Pool2dGeometry{{3, 7, 5}, 3, 2}, Pool2dGeometry{{1, 4, 4}, 4, 0}}) {
    Graph graph;
    const Tensor x = normal_sample(3, g.input.size(), 4);
    EXPECT_TRUE(max_pool2d(graph.input("x", x), g).value().isApprox(pool_loops(x, g, true)));
    EXPECT_TRUE(avg_pool2d(graph.input("x2", x), g).value().isApprox(pool_loops(x, g, false)));
  }
}

TEST(Conv2d, BadGeometryAndShapesAreClearErrors) {
  Graph g;
  const Var x = g.input("x", 2, 16);
  const Var w = g.parameter("w", Tensor::Zero(2, 9));
  EXPECT_THAT([&] { conv2d(x, w, {.input = {1, 4, 4}, .filters = 2, .kernel_height = 5, .kernel_width = 5}); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("larger than the padded 4×4 image")));
  EXPECT_THAT([&] { conv2d(x, w, {.input = {1, 5, 5}, .filters = 2, .kernel_height = 3, .kernel_width = 3}); },
              ::testing::ThrowsMessage<ShapeError>(::testing::HasSubstr("the images (C·H·W) must have 25 columns")));
  EXPECT_THROW(conv2d(x, w, {.input = {1, 4, 4}, .filters = 3, .kernel_height = 3, .kernel_width = 3}), ShapeError);
  EXPECT_THROW(conv2d(x, w, {.input = {1, 4, 4}, .filters = 2, .kernel_height = 3, .kernel_width = 3, .stride = 0}),
               ValueError);
  EXPECT_THROW(max_pool2d(x, {.input = {1, 4, 4}, .window = 5}), ValueError);
}

// The adjoints by direct loops over the same index set as conv_loops: for every (i, k, oy, ox,
// c, dy, dx) with the input pixel inside the image,
//   x̄[i, c, yy, xx] += W[k, c, dy, dx] · G[i, k, oy, ox],   W̄[k, c, dy, dx] += G[i, k, oy, ox] · x[i, c, yy, xx].
void adjoint_loops(const Tensor& x, const Tensor& w, const Tensor& grad, const Conv2dGeometry& g, Tensor& dx_out,
                   Tensor& dw_out) {
  const ImageShape o = g.output();
  dx_out.setZero(x.rows(), x.cols());
  dw_out.setZero(w.rows(), w.cols());
  for (Index i = 0; i < x.rows(); ++i)
    for (Index k = 0; k < g.filters; ++k)
      for (Index oy = 0; oy < o.height; ++oy)
        for (Index ox = 0; ox < o.width; ++ox) {
          const double gv = grad(i, (k * o.height + oy) * o.width + ox);
          for (Index c = 0; c < g.input.channels; ++c)
            for (Index dy = 0; dy < g.kernel_height; ++dy)
              for (Index dx = 0; dx < g.kernel_width; ++dx) {
                const Index yy = oy * g.stride - g.padding + dy, xx = ox * g.stride - g.padding + dx;
                if (yy < 0 || yy >= g.input.height || xx < 0 || xx >= g.input.width) continue;
                const Index f = (c * g.kernel_height + dy) * g.kernel_width + dx;
                const Index pixel = (c * g.input.height + yy) * g.input.width + xx;
                dx_out(i, pixel) += w(k, f) * gv;
                dw_out(k, f) += gv * x(i, pixel);
              }
        }
}

// 37 images: the op works in groups of images (one GEMM per group), here two full groups and a
// short one; values and both adjoints against direct loops.
TEST(Conv2d, GroupedProductsMatchDirectLoopsForManyImages) {
  const std::vector<Conv2dGeometry> geometries{{{1, 12, 12}, 4, 5, 5, 1, 0}, {{3, 7, 6}, 2, 3, 3, 2, 1}};
  for (const Conv2dGeometry& g : geometries) {
    Graph graph;
    const Tensor x = normal_sample(37, g.input.size(), 7), w = normal_sample(g.filters, g.filter_size(), 8),
                 b = normal_sample(1, g.filters, 9), grad = normal_sample(37, g.output().size(), 10);
    const Var xv = graph.input("x", x), wv = graph.parameter("w", w), gv = graph.input("g", grad);
    EXPECT_TRUE(conv2d(xv, wv, graph.parameter("b", b), g).value().isApprox(conv_loops(x, w, b, g), 1e-12));
    Tensor dx, dw;
    adjoint_loops(x, w, grad, g, dx, dw);
    EXPECT_TRUE(conv2d_input_grad(gv, wv, g).value().isApprox(dx, 1e-12));
    EXPECT_TRUE(conv2d_filter_grad(xv, gv, g).value().isApprox(dw, 1e-12));
  }
}

// Precision::Float32: the three ops against the double loops, to float rounding and no closer
// (the products really are float), and their derivatives float32 too.
TEST(Conv2d, Float32ProductsMatchDirectLoopsToFloatRounding) {
  Conv2dGeometry g{{3, 7, 6}, 2, 3, 3, 2, 1};
  g.products = Precision::Float32;
  Graph graph;
  const Tensor x = normal_sample(37, g.input.size(), 7), w = normal_sample(g.filters, g.filter_size(), 8),
               b = normal_sample(1, g.filters, 9), grad = normal_sample(37, g.output().size(), 10);
  const Var xv = graph.input("x", x), wv = graph.parameter("w", w), gv = graph.input("g", grad);
  Tensor dx, dw;
  adjoint_loops(x, w, grad, g, dx, dw);
  const auto close_but_not_equal = [](const Tensor& a, const Tensor& exact) {
    const double error = (a - exact).cwiseAbs().maxCoeff(), scale = exact.cwiseAbs().maxCoeff();
    EXPECT_LE(error, 1e-5 * scale);
    EXPECT_GT(error, 1e-12 * scale);
  };
  const Var y = conv2d(xv, wv, graph.parameter("b", b), g);
  close_but_not_equal(y.value(), conv_loops(x, w, b, g));
  close_but_not_equal(conv2d_input_grad(gv, wv, g).value(), dx);
  close_but_not_equal(conv2d_filter_grad(xv, gv, g).value(), dw);
  // The filter gradient of a loss through the float32 conv is the float32 adjoint's.
  EXPECT_EQ(gradient(sum(y * graph.constant(grad)), wv).value(), conv2d_filter_grad(xv, gv, g).value());
}

TEST(Conv2d, GradientsAreBitwiseIdenticalForOneAndTwoThreads) {
  const Conv2dGeometry geo{{2, 10, 10}, 4, 3, 3, 1, 1};
  auto run = [&](int threads) {
    set_num_threads(threads);
    Graph g;
    const Var x = g.input("x", normal_sample(37, geo.input.size(), 5));
    const Var w = g.parameter("w", normal_sample(geo.filters, geo.filter_size(), 6));
    const Var loss = sum(square(max_pool2d(relu(conv2d(x, w, geo)), {.input = geo.output(), .window = 2})));
    const Tensor dw = gradient(loss, w).value();
    set_num_threads(0);
    return dw;
  };
  EXPECT_EQ(run(1), run(2));
}

}  // namespace
}  // namespace dagml
