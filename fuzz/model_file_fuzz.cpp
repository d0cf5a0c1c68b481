// Fuzzes model files (models/io/model_file.h) through the registry's load_model_from_bytes, as a
// user loading a file of unknown origin does. Each input is read twice: as it is, which exercises
// the header and checksum checks, and repaired: when it starts with the magic, its body size and
// CRC-32 are rewritten first, so that mutations get past the checksum to the archive and to every
// estimator's loader (the seeds are the conformance suite's fitted models, one per estimator).
// Oracle: only dagml::Error escapes, and none of it is an InternalError (a broken invariant means
// a loader accepted an inconsistent model); a loaded model predicts, on an input of its column
// count, with at most a dagml::Error; and saving it is a fixed point (save, load, save gives the
// same bytes).
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz/fuzz_check.h"
#include "graph/threads.h"
#include "models/data/file_io.h"
#include "models/io/registry.h"

using namespace dagml;

namespace {

constexpr std::size_t kHeaderSize = 8 + 4 + 8 + 4;  // magic, format version, body size, CRC-32

// The input with its body size and checksum made consistent with its body.
std::string repaired(std::string bytes) {
  if (bytes.size() < kHeaderSize || bytes.compare(0, 8, "DAGMLMOD") != 0) return bytes;
  const std::uint64_t body_size = bytes.size() - kHeaderSize;
  const auto crc = static_cast<std::uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(bytes.data() + kHeaderSize), static_cast<uInt>(body_size)));
  std::memcpy(bytes.data() + 12, &body_size, sizeof body_size);  // little-endian, as the format is
  std::memcpy(bytes.data() + 20, &crc, sizeof crc);
  return bytes;
}

void exercise(const AnyEstimator& model) {
  if (!model.fitted()) return;
  const Index d = model.num_features();
  if (d <= 0 || d > 4096) return;
  Tensor X(3, d);
  for (Index k = 0; k < X.size(); ++k) X.data()[k] = static_cast<double>(k % 5) - 1.5;
  const Capabilities& c = model.info().capabilities;
  if (c.predict) fuzz::accepts([&] { model.predict(X); });
  if (c.predict_proba) fuzz::accepts([&] { model.predict_proba(X); });
  if (c.decision_function) fuzz::accepts([&] { model.decision_function(X); });
  if (c.transform) fuzz::accepts([&] { model.transform(X); });
}

void load_and_use(std::string bytes) {
  fuzz::accepts([&] {
    const AnyEstimator model = load_model_from_bytes(std::move(bytes), "<fuzz>");
    exercise(model);
    const std::string saved = model.to_bytes();
    std::string again;
    if (!fuzz::accepts([&] { again = load_model_from_bytes(saved, "<saved>").to_bytes(); })) {
      fuzz::fail("a loaded model, saved again, does not load");
    }
    fuzz::check(again == saved, "save, load, save does not give the same bytes");
  });
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  set_file_allocation_limit(std::size_t{64} << 20);
  set_num_threads(1);  // one input at a time: TBB's workers would only wait (and share the core)
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  load_and_use(bytes);
  if (std::string fixed = repaired(bytes); fixed != bytes) load_and_use(std::move(fixed));
  return 0;
}
