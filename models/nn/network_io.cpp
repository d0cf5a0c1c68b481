#include "models/nn/network_io.h"

#include <fmt/format.h>

#include <limits>
#include <string>
#include <utility>

#include "graph/error.h"
#include "models/io/model_file.h"

namespace dagml::nn {
namespace {

constexpr const char* kNetworkTypeName = "network";

// The writable tensors of a network, parameters then buffers: the order of network_tensors.
std::vector<Parameter*> all_tensors(Layer& network) {
  std::vector<Parameter*> all = network.parameters();
  for (Parameter* p : network.buffers()) all.push_back(p);
  return all;
}

}  // namespace

std::vector<Tensor> network_tensors(const Layer& network) {
  std::vector<Tensor> out;
  // Layer lists its tensors through non-const members only; nothing is written here.
  for (const Parameter* p : const_cast<Layer&>(network).parameters()) out.push_back(p->value);
  for (const Parameter* p : const_cast<Layer&>(network).buffers()) out.push_back(p->value);
  return out;
}

void set_network_tensors(Layer& network, const std::vector<Tensor>& tensors, const ModelInputArchive& archive,
                         const char* what) {
  const std::vector<Parameter*> targets = all_tensors(network);
  if (targets.size() != tensors.size()) {
    archive.fail(fmt::format("expected {} tensors for {}, found {} in the {}", targets.size(), network.describe(),
                             tensors.size(), what));
  }
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    if (shape_of(tensors[i]) != shape_of(targets[i]->value)) {
      archive.fail(fmt::format("expected tensor {} ('{}') of {} to be {}, found {} in the {}", i, targets[i]->name,
                               network.describe(), to_string(shape_of(targets[i]->value)),
                               to_string(shape_of(tensors[i])), what));
    }
  }
  for (std::size_t i = 0; i < tensors.size(); ++i) targets[i]->value = tensors[i];
}

Index num_entries(const std::vector<Tensor>& tensors) {
  Index total = 0;
  for (const Tensor& t : tensors) total += t.size();
  return total;
}

Index size_product(std::initializer_list<Index> factors) {
  constexpr Index kMax = std::numeric_limits<Index>::max();
  Index product = 1;
  for (Index f : factors) {
    if (f < 0 || (f > 0 && product > kMax / f)) {
      std::string list;
      for (Index g : factors) list += (list.empty() ? "" : "×") + std::to_string(g);
      throw ValueError(fmt::format("expected sizes ≥ 0 whose product is at most {}, found {}", kMax, list));
    }
    product *= f;
  }
  return product;
}

EntryCount& EntryCount::add(std::initializer_list<Index> factors) {
  const Index entries = size_product(factors);
  if (entries > std::numeric_limits<Index>::max() - total_)
    throw ValueError(
        fmt::format("expected a network of at most {} entries, found more", std::numeric_limits<Index>::max()));
  total_ += entries;
  return *this;
}

void save_network(const std::string& path, const Layer& network) {
  std::string payload;
  {
    ModelOutputArchive archive(payload);
    archive(network.describe(), network_tensors(network));
  }
  const std::string bytes = frame_model_file(kNetworkTypeName, 1, payload);
  write_file_atomically(
      path, [&](std::ostream& out) { out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())); });
}

void load_network(const std::string& path, Layer& network) {
  const ModelFile file = ModelFile::read(path);
  file.expect(kNetworkTypeName, 1);
  ModelInputArchive archive = file.payload();
  std::string description;
  std::vector<Tensor> tensors;
  archive(description, tensors);
  if (archive.remaining() != 0) archive.fail(fmt::format("{} bytes left over after the network", archive.remaining()));
  const std::string what = fmt::format("file's network, {}", description);
  set_network_tensors(network, tensors, archive, what.c_str());
}

}  // namespace dagml::nn
