// Fuzzes the dataset loaders (models/data/datasets.h) through the files they read: the input is
// written as one bundled CSV dataset (DAGML_DATA_DIR points at a private folder) or as the two
// IDX files of a Fashion-MNIST split. The first byte chooses the target, the next two (for
// Fashion-MNIST) where the images end and the labels begin. Oracle: only dagml::Error escapes,
// and a loaded dataset has the shape and the labels its loader promises.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/fuzz_check.h"
#include "models/data/datasets.h"
#include "models/data/file_io.h"

using namespace dagml;

namespace {

std::filesystem::path folder;

void write(const std::filesystem::path& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) fuzz::fail("cannot write the input file");
}

bool labels_below(const Vector& y, Index classes) {
  for (Index i = 0; i < y.size(); ++i) {
    if (!(y(i) >= 0 && y(i) < static_cast<double>(classes) && y(i) == static_cast<double>(static_cast<Index>(y(i))))) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  folder = std::filesystem::temp_directory_path() / ("dagml-dataset-fuzz-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  ::setenv("DAGML_DATA_DIR", folder.c_str(), 1);
  set_file_allocation_limit(std::size_t{64} << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const std::vector<std::string> names = dataset_names();
  const std::size_t target = data[0] % (names.size() + 1);
  if (target < names.size()) {
    const std::string& name = names[target];
    write(folder / (name + ".csv"), data + 1, size - 1);
    Dataset d;
    if (!fuzz::accepts([&] { d = load_dataset(name); })) return 0;
    fuzz::check(d.features.rows() == d.target.size() && d.features.cols() == static_cast<Index>(d.feature_names.size()),
                "a bundled dataset's parts disagree in size");
    if (!d.target_names.empty()) {
      fuzz::check(labels_below(d.target, static_cast<Index>(d.target_names.size())), "a label outside 0..K−1");
    }
    return 0;
  }
  const std::size_t rest = size - 3;
  const std::size_t split = (data[1] | (std::size_t{data[2]} << 8)) % (rest + 1);
  write(folder / "t10k-images-idx3-ubyte.gz", data + 3, split);
  write(folder / "t10k-labels-idx1-ubyte.gz", data + 3 + split, rest - split);
  Dataset d;
  const FashionMnistOptions options{.split = FashionMnistSplit::Test, .max_samples = -1, .dir = folder};
  if (!fuzz::accepts([&] { d = load_fashion_mnist(options); })) return 0;
  fuzz::check(d.features.rows() == d.target.size() && labels_below(d.target, 10), "a Fashion-MNIST label outside 0..9");
  return 0;
}
