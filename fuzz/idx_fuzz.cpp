// Fuzzes the IDX reader (models/data/idx.h), plain and gzip. Oracle: only dagml::Error escapes;
// an accepted array has the shape its dimensions declare; and a plain file that reads, gzipped,
// reads to the same array (the reader promises gzip is transparent).
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "models/data/file_io.h"
#include "models/data/idx.h"

using namespace dagml;

namespace {

std::vector<unsigned char> gzip(std::span<const unsigned char> plain) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) fuzz::fail("deflateInit2");
  std::vector<unsigned char> out(deflateBound(&zs, plain.size()) + 32);
  zs.next_in = const_cast<unsigned char*>(plain.data());
  zs.avail_in = static_cast<uInt>(plain.size());
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(out.size());
  if (deflate(&zs, Z_FINISH) != Z_STREAM_END) fuzz::fail("deflate");
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  set_file_allocation_limit(std::size_t{64} << 20);  // a gzip input may inflate this far
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const unsigned char> bytes(data, size);
  IdxArray a;
  if (!fuzz::accepts([&] { a = parse_idx(bytes, "<fuzz>"); })) return 0;
  Index inner = 1;
  for (std::size_t k = 1; k < a.dims.size(); ++k) inner *= a.dims[k];
  fuzz::check(!a.dims.empty() && a.values.rows() == a.dims[0] && a.values.cols() == inner,
              "the array's shape is not the one its dimensions declare");
  if (is_gzip(bytes)) return 0;
  IdxArray b;
  if (!fuzz::accepts([&] { b = parse_idx(gzip(bytes), "<gzipped>"); })) fuzz::fail("a file that reads plain fails gzipped");
  fuzz::check(b.type == a.type && b.dims == a.dims && fuzz::same_values(b.values, a.values),
              "the gzipped file reads to another array");
  return 0;
}
