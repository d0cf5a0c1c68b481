// Tests for ColumnEncoder: one-hot columns by category text, classes by name.
#include "models/data/column_encoder.h"

#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <gtest/gtest.h>

#include <cmath>

#include "graph/error.h"
#include "models/data/csv.h"
#include "models/io/archive.h"

namespace dagml {
namespace {

const CsvOptions kCategorical{.categorical = {"colour", "label"}};

TEST(ColumnEncoderTest, OneHotByCategoryTextWhateverTheCodesOfTheLaterFile) {
  ColumnEncoder encoder;
  encoder.fit(parse_csv("colour,x,label\nred,1,b\nblue,2,a\ngreen,3,c\n", kCategorical));
  EXPECT_EQ(encoder.encoded_feature_names(), (std::vector<std::string>{"colour=blue", "colour=green", "colour=red", "x"}));
  EXPECT_EQ(encoder.categorical_columns(), std::vector<std::string>{"colour"});
  EXPECT_EQ(encoder.class_names(), (std::vector<std::string>{"a", "b", "c"}));
  // The later file has only red and green (coded 0 and 1 by read_csv) and only class c.
  const Dataset later = parse_csv("colour,x,label\nred,7,c\ngreen,8,c\n", kCategorical);
  const Tensor X = encoder.transform(later);
  const Tensor expected = (Tensor(2, 4) << 0, 0, 1, 7,  //
                           0, 1, 0, 8)
                              .finished();
  EXPECT_EQ(X, expected);
  EXPECT_EQ(encoder.target(later), (Vector(2) << 2, 2).finished());
}

TEST(ColumnEncoderTest, MissingCategorySetsNoIndicator) {
  ColumnEncoder encoder;
  encoder.fit(parse_csv("colour,label\nred,a\nblue,b\n", kCategorical));
  const Dataset later = parse_csv("colour,label\nNA,a\n", {.missing_as_nan = true, .categorical = {"colour", "label"}});
  EXPECT_EQ(encoder.transform(later), Tensor::Zero(1, 2));
}

TEST(ColumnEncoderTest, NumericColumnsPassThroughAndNumericTargetsStayNumbers) {
  ColumnEncoder encoder;
  const Dataset d = parse_csv("a,b,y\n1,2,0.5\n3,4,1.5\n");
  encoder.fit(d);
  EXPECT_TRUE(encoder.identity());
  EXPECT_TRUE(encoder.class_names().empty());
  EXPECT_EQ(encoder.transform(d), d.features);
  EXPECT_EQ(encoder.target(d), d.target);
}

TEST(ColumnEncoderTest, ErrorsNameWhatWasExpectedAndFound) {
  ColumnEncoder encoder;
  EXPECT_THROW(encoder.transform(parse_csv("a,y\n1,2\n")), NotFittedError);
  encoder.fit(parse_csv("colour,label\nred,a\nblue,b\n", kCategorical));
  const auto message = [&](const Dataset& d, bool target) {
    try {
      if (target) {
        encoder.target(d);
      } else {
        encoder.transform(d);
      }
    } catch (const ValueError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(parse_csv("colour,label\npurple,a\n", kCategorical), false),
            "column 'colour', data row 1: expected one of the categories seen at fit (blue, red), found 'purple'");
  EXPECT_EQ(message(parse_csv("colour,label\nred,z\n", kCategorical), true),
            "target 'label', data row 1: expected one of the classes seen at fit (a, b), found 'z'");
  EXPECT_EQ(message(parse_csv("shade,label\nred,a\n", {.categorical = {"shade", "label"}}), false),
            "expected the columns colour (as at fit), found shade");
  EXPECT_EQ(message(parse_csv("colour,label\n1,a\n", {.categorical = {"label"}}), false),
            "column 'colour': expected categorical values (as at fit), found numbers");
  EXPECT_EQ(message(parse_csv("colour,label\nred,1\n", {.categorical = {"colour"}}), true),
            "target 'label': expected class-name values (as at fit), found numbers");
}

TEST(ColumnEncoderTest, RoundTripsThroughTheModelArchiveAndRejectsInconsistentState) {
  ColumnEncoder encoder;
  encoder.fit(parse_csv("colour,x,label\nred,1,b\nblue,2,a\n", kCategorical));
  std::string bytes;
  {
    ModelOutputArchive out(bytes);
    out(encoder);
  }
  ColumnEncoder back;
  ModelInputArchive in(bytes, "encoder", 1);
  in(back);
  EXPECT_EQ(back.encoded_feature_names(), encoder.encoded_feature_names());
  EXPECT_EQ(back.class_names(), encoder.class_names());

  // A hand-made state with two columns but one category list, or unsorted categories.
  for (const std::vector<std::vector<std::string>>& categories :
       {std::vector<std::vector<std::string>>{{}}, std::vector<std::vector<std::string>>{{"red", "blue"}, {}}}) {
    std::string bad;
    {
      ModelOutputArchive out(bad);
      out(true, std::vector<std::string>{"a", "b"}, categories, std::string("y"), std::vector<std::string>{});
    }
    ColumnEncoder loaded;
    ModelInputArchive in_bad(bad, "bad encoder", 1);
    EXPECT_THROW(in_bad(loaded), ParseError);
  }
}

}  // namespace
}  // namespace dagml
