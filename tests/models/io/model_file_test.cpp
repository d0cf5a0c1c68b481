// The model file format: exact round trips and clear errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "dagml/dagml.h"
#include "models/io/text_model_file.h"

namespace dagml {
namespace {

TEST(ModelFile, RoundTripsExactly) {
  ModelWriter w("Ridge");
  const Tensor t = (Tensor(2, 3) << 0.1, -1e-300, 3.141592653589793, 1.0 / 3.0, 2e200, -0.0).finished();
  w.put_tensor("coef", t);
  w.put_scalar("intercept", 0.7);
  w.put_vector("v", (Vector(2) << 1, 2).finished());
  w.put_text("kernel", "rbf(gamma=0.5)");
  const ModelReader r = ModelReader::parse(w.contents(), "Ridge", "memory");
  EXPECT_EQ(r.tensor("coef"), t);
  EXPECT_EQ(r.scalar("intercept"), 0.7);
  EXPECT_EQ(r.vector("v")(1), 2);
  EXPECT_EQ(r.text("kernel"), "rbf(gamma=0.5)");
}

TEST(ModelFile, MalformedFilesAreParseErrors) {
  ModelWriter w("Ridge");
  w.put_tensor("coef", Tensor::Ones(2, 2));
  EXPECT_THAT([&] { ModelReader::parse(w.contents(), "Lasso", "m.txt"); },
              ::testing::ThrowsMessage<ParseError>(::testing::HasSubstr("expected the header 'dagml-model Lasso 1'")));
  std::string truncated = w.contents();
  truncated.resize(truncated.size() - 4);
  EXPECT_THROW(ModelReader::parse(truncated, "Ridge", "m.txt"), ParseError);
  EXPECT_THROW(ModelReader::parse("dagml-model Ridge 1\ncoef 1 2\n1 x\n", "Ridge", "m.txt"), ParseError);
  EXPECT_THROW(ModelReader::parse(w.contents(), "Ridge", "m.txt").tensor("missing"), ParseError);
  EXPECT_THROW(ModelReader("/nonexistent/model.txt", "Ridge"), IoError);
  EXPECT_THROW(ModelWriter("two words"), ValueError);
}

}  // namespace
}  // namespace dagml
