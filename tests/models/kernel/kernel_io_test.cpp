// Kernels as option values (models/kernel/kernel_io.h): the text form round-trips every built-in
// kernel exactly, accepts spaces, any parameter order and the documented defaults, refuses
// anything else with a message naming the fault, sets a KernelPtr field by text, and stores
// kernels in model files (a custom kernel is refused; a damaged text is a ParseError).
#include "models/kernel/kernel_io.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "graph/error.h"
#include "models/io/archive.h"
#include "models/io/option_fields.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

struct WithKernel {
  KernelPtr kernel{};
  template <class V>
  void visit(V&& v) {
    v("kernel", kernel, "a kernel");
  }
};

KernelPtr round_trip(const KernelPtr& kernel) {
  std::string bytes;
  {
    ModelOutputArchive out(bytes);
    out(kernel);
  }
  ModelInputArchive in(bytes, "test");
  KernelPtr back = std::make_shared<LinearKernel>();
  in(back);
  EXPECT_EQ(in.remaining(), 0u);
  return back;
}

TEST(KernelText, BuiltInKernelsRoundTripExactly) {
  const KernelPtr kernels[] = {std::make_shared<LinearKernel>(), std::make_shared<PolynomialKernel>(3, 1.0 / 3, 0.1),
                               std::make_shared<RbfKernel>(0.7071067811865476)};
  for (const KernelPtr& k : kernels) {
    const KernelPtr back = parse_kernel(format_option(k));
    EXPECT_EQ(back->name(), k->name());
    EXPECT_EQ(round_trip(k)->name(), k->name());
  }
  const auto poly = std::dynamic_pointer_cast<const PolynomialKernel>(parse_kernel(format_option(kernels[1])));
  ASSERT_TRUE(poly);
  EXPECT_EQ(poly->degree(), 3);
  EXPECT_EQ(poly->gamma(), 1.0 / 3);  // bitwise: the shortest text that reads back to the same double
  EXPECT_EQ(poly->coef0(), 0.1);
  EXPECT_EQ(round_trip(nullptr), nullptr);
}

TEST(KernelText, SpacesOrderAndDefaults) {
  EXPECT_EQ(parse_kernel(" rbf( gamma = 0.5 ) ")->name(), "rbf(gamma=0.5)");
  EXPECT_EQ(parse_kernel("linear()")->name(), "linear");
  EXPECT_EQ(parse_kernel("polynomial(degree=2)")->name(), "polynomial(degree=2, gamma=1, coef0=1)");
  EXPECT_EQ(parse_kernel("polynomial(coef0=0, degree=4, gamma=2)")->name(), "polynomial(degree=4, gamma=2, coef0=0)");
}

TEST(KernelText, BadTextsSayWhatIsWrong) {
  EXPECT_THAT([] { parse_kernel("rbf"); }, ThrowsMessage<ValueError>(HasSubstr("gamma is required")));
  EXPECT_THAT([] { parse_kernel("sigmoid(gamma=1)"); },
              ThrowsMessage<ValueError>(HasSubstr("unknown kernel 'sigmoid'")));
  EXPECT_THAT([] { parse_kernel("rbf(gamma=1, beta=2)"); },
              ThrowsMessage<ValueError>(HasSubstr("unknown parameter beta")));
  EXPECT_THAT([] { parse_kernel("linear(gamma=1)"); }, ThrowsMessage<ValueError>(HasSubstr("unknown parameter gamma")));
  EXPECT_THAT([] { parse_kernel("polynomial(degree=2.5)"); }, ThrowsMessage<ValueError>(HasSubstr("integer")));
  EXPECT_THAT([] { parse_kernel("rbf(gamma=x)"); }, ThrowsMessage<ValueError>(HasSubstr("expected a number at offset 10")));
  EXPECT_THAT([] { parse_kernel("rbf(gamma=1, gamma=2)"); }, ThrowsMessage<ValueError>(HasSubstr("given twice")));
  EXPECT_THAT([] { parse_kernel("rbf(gamma=1"); }, ThrowsMessage<ValueError>(HasSubstr("expected ')' at offset 11")));
  EXPECT_THAT([] { parse_kernel("rbf(gamma)"); }, ThrowsMessage<ValueError>(HasSubstr("expected '=' at offset 9")));
  EXPECT_THROW(parse_kernel("rbf(gamma=-1)"), ValueError);  // the kernel's own check
  EXPECT_THROW(parse_kernel("polynomial(degree=0)"), ValueError);
}

TEST(KernelText, OptionFieldBySetAndSchema) {
  WithKernel o;
  EXPECT_TRUE(set_option(o, "kernel", "polynomial(degree=3, gamma=0.5)"));
  EXPECT_EQ(o.kernel->name(), "polynomial(degree=3, gamma=0.5, coef0=1)");
  EXPECT_TRUE(set_option(o, "kernel", ""));
  EXPECT_EQ(o.kernel, nullptr);
  EXPECT_THAT([&] { set_option(o, "kernel", "rbf"); }, ThrowsMessage<ValueError>(HasSubstr("option kernel:")));
  const auto schema = option_schema<WithKernel>();
  ASSERT_EQ(schema.size(), 1u);
  EXPECT_EQ(schema[0].type, "kernel");
  EXPECT_EQ(schema[0].default_value, "");
}

TEST(KernelText, ModelFilesRefuseCustomKernelsAndDamagedText) {
  const KernelPtr custom = std::make_shared<CustomKernel>(
      "dot", [](Eigen::Ref<const Vector> a, Eigen::Ref<const Vector> b) { return a.dot(b); });
  std::string bytes;
  ModelOutputArchive out(bytes);
  EXPECT_THAT([&] { out(custom); }, ThrowsMessage<ValueError>(HasSubstr("kernel dot contains user code")));
  std::string damaged;
  {
    ModelOutputArchive ar(damaged);
    ar(std::string("rbf(gamma=0)"));
  }
  ModelInputArchive in(damaged, "damaged.model");
  KernelPtr k;
  EXPECT_THAT([&] { in(k); }, ThrowsMessage<ParseError>(HasSubstr("damaged.model")));
}

}  // namespace
}  // namespace dagml
