// A network's tensors in model files: what the network estimators save of their networks, and
// save_network / load_network for networks built with the layer API.
//
// Note [Saving a network]
// A network's architecture is code — layers wired by make_mlp, make_cnn or the user's program —
// and its state is its tensors. So a model file never describes layers. A network estimator
// saves its options and the sizes seen at fit (the number of features, of classes), from which
// fit's own code rebuilds the same architecture on load, and then the values of each network's
// parameters followed by its buffers (running statistics), as one list of tensors in the
// network's fixed order (Layer::parameters(), Layer::buffers()). Loading
//   1. reads the lists (each tensor is bounded by the bytes left in the file: archive.h);
//   2. runs the options through the estimator's constructor checks;
//   3. compares the number of entries the options and sizes imply — computed without building
//      anything (mlp_size, cnn_size) — with the number in the file, so a damaged or crafted file
//      cannot make the loader allocate a network larger than the file;
//   4. builds the networks and copies the tensors in, checking their count and every shape.
// Each failure is a ParseError naming the file, the offset and what disagrees. The alternative,
// one serialize per layer kind with a factory of kinds, would store again what the options fix
// and add a polymorphic registry to every layer, for no gain: the estimators' architectures are
// functions of their options. A network built by hand is saved the same way (save_network): its
// architecture is the caller's code, and loading it into a network of another architecture is a
// ParseError that names both.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "models/nn/layer.h"

namespace dagml {
class ModelInputArchive;
}  // namespace dagml

namespace dagml::nn {

// The values of the network's parameters, then of its buffers, in the network's fixed order.
std::vector<Tensor> network_tensors(const Layer& network);

// Copies `tensors` (as network_tensors lists them) into the network. Throws ParseError through
// `archive` (naming its file and offset) unless their number and every shape are the network's;
// `what` names the saved network in the message ("saved network", "saved encoder").
void set_network_tensors(Layer& network, const std::vector<Tensor>& tensors, const ModelInputArchive& archive,
                         const char* what);

// The entries of all the tensors.
Index num_entries(const std::vector<Tensor>& tensors);

// The product of `factors`; ValueError when one is negative or the product exceeds Index (the
// size of a tensor or an image that cannot exist).
Index size_product(std::initializer_list<Index> factors);

// Counts the entries of a network's tensors from their sizes, before anything is built:
// add({rows, cols}) adds rows·cols. Throws ValueError as size_product, or when the total
// exceeds Index.
class EntryCount {
 public:
  EntryCount& add(std::initializer_list<Index> factors);
  Index total() const { return total_; }

 private:
  Index total_ = 0;
};

// The network's parameters and buffers in a model file of type "network" (Note [Model file
// format] in models/io/model_file.h), written atomically; IoError when it cannot be written.
void save_network(const std::string& path, const Layer& network);
// Reads a file written by save_network into `network`, which must have the architecture of the
// saved one. IoError when the file cannot be read; ParseError for a damaged file, another model
// type, or a different architecture (the message names both networks).
void load_network(const std::string& path, Layer& network);

}  // namespace dagml::nn
