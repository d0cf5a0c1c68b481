// Fuzzes the reader of NIST StRD nonlinear regression files (models/data/nist_strd.h). Oracle:
// only dagml::Error escapes, and an accepted problem is consistent: one start, certified value and
// deviation per parameter of its model, one response per data row.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "models/data/nist_strd.h"

using namespace dagml;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  NistProblem p;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (!fuzz::accepts([&] { p = parse_nist_problem(text, "<fuzz>"); })) return 0;
  const Index k = p.certified.size();
  fuzz::check(k >= 1 && p.starts[0].size() == k && p.starts[1].size() == k && p.certified_deviation.size() == k,
              "the parameter vectors disagree in length");
  fuzz::check(p.x.rows() == p.y.size(), "one response per data row");
  return 0;
}
