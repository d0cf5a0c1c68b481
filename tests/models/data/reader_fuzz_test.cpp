// Fuzz-style tests: random and mutated bytes fed to the CSV and IDX readers must produce a
// result or a dagml::Error, never another exception, a crash or a read past the end (run the
// sanitizer build, DAGML_SANITIZE=ON, to check the last). Seeded, so every run is the same.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>

#include "graph/error.h"
#include "models/data/csv.h"
#include "models/data/idx.h"
#include "models/data/test_files.h"

namespace dagml {
namespace {

using ::dagml::testing::Bytes;
using ::dagml::testing::gzip_bytes;
using ::dagml::testing::make_idx;

// Runs f; a dagml::Error is fine, anything else fails the test.
void expect_only_dagml_errors(const std::function<void()>& f, const std::string& what) {
  try {
    f();
  } catch (const Error&) {
    // documented outcome
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": non-dagml exception: " << e.what();
  } catch (...) {
    ADD_FAILURE() << what << ": unknown exception";
  }
}

// Bytes drawn from `alphabet` (or any byte when it is empty).
std::string random_text(std::mt19937_64& rng, std::size_t n, const std::string& alphabet) {
  std::string s(n, '\0');
  for (char& c : s) {
    c = alphabet.empty() ? static_cast<char>(rng() & 0xFF) : alphabet[rng() % alphabet.size()];
  }
  return s;
}

// Flips, inserts or deletes a few random bytes.
template <typename Seq>
Seq mutate(std::mt19937_64& rng, Seq s) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const std::size_t pos = s.empty() ? 0 : rng() % s.size();
    switch (rng() % 3) {
      case 0:
        if (!s.empty()) s[pos] = static_cast<typename Seq::value_type>(rng() & 0xFF);
        break;
      case 1:
        s.insert(s.begin() + static_cast<std::ptrdiff_t>(pos), static_cast<typename Seq::value_type>(rng() & 0xFF));
        break;
      default:
        if (!s.empty()) s.erase(s.begin() + static_cast<std::ptrdiff_t>(pos));
    }
  }
  return s;
}

TEST(ReaderFuzzTest, CsvRandomAndMutatedText) {
  std::mt19937_64 rng(20240601);
  const std::string csvish = "0123456789.,;\"\n\r\t -+eEnaNAif x";
  const std::string valid = "a,\"b,c\",y\n1.5,-2e3,0\n\"3\",4,1\r\n5,NA,2\n";
  const std::vector<CsvOptions> options = {
      {}, {.missing_as_nan = true}, {.delimiter = ';'}, {.header = false, .target_index = 0},
      {.target = "y"}, {.no_target = true}};
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    switch (round % 3) {
      case 0:
        text = random_text(rng, rng() % 200, csvish);
        break;
      case 1:
        text = random_text(rng, rng() % 200, "");
        break;
      default:
        text = mutate(rng, valid);
    }
    const CsvOptions& o = options[static_cast<std::size_t>(round) % options.size()];
    expect_only_dagml_errors([&] { parse_csv(text, o); }, "csv round " + std::to_string(round));
  }
  for (std::size_t cut = 0; cut <= valid.size(); ++cut) {
    expect_only_dagml_errors([&] { parse_csv(valid.substr(0, cut)); }, "csv prefix " + std::to_string(cut));
  }
}

TEST(ReaderFuzzTest, IdxRandomAndMutatedBytes) {
  std::mt19937_64 rng(777);
  Bytes pixels(2 * 5 * 4);
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<unsigned char>(i * 13);
  const Bytes valid = make_idx(0x08, {2, 5, 4}, pixels);
  const Bytes valid_gz = gzip_bytes(valid);
  const Bytes doubles = make_idx(0x0E, {2}, Bytes(16, 0x3F));
  for (int round = 0; round < 3000; ++round) {
    Bytes b;
    switch (round % 4) {
      case 0: {
        const std::string s = random_text(rng, rng() % 64, "");
        b.assign(s.begin(), s.end());
        if (round % 8 == 0 && b.size() >= 2) b[0] = b[1] = 0;  // reach the header checks
        break;
      }
      case 1:
        b = mutate(rng, valid);
        break;
      case 2:
        b = mutate(rng, valid_gz);
        break;
      default:
        b = mutate(rng, doubles);
    }
    expect_only_dagml_errors([&] { parse_idx(b); }, "idx round " + std::to_string(round));
  }
  for (std::size_t cut = 0; cut <= valid_gz.size(); ++cut) {
    const Bytes prefix(valid_gz.begin(), valid_gz.begin() + static_cast<std::ptrdiff_t>(cut));
    expect_only_dagml_errors([&] { parse_idx(prefix); }, "gzip prefix " + std::to_string(cut));
  }
  for (std::size_t cut = 0; cut < valid.size(); ++cut) {
    const Bytes prefix(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(cut));
    EXPECT_THROW(parse_idx(prefix), ParseError) << "prefix " << cut;
  }
}

}  // namespace
}  // namespace dagml
