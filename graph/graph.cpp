#include "graph/graph.h"

#include <fmt/format.h>

#include <limits>
#include <mutex>
#include <utility>

#include "graph/error.h"

namespace dagml {

const char* to_string(NodeKind kind) {
  switch (kind) {
    case NodeKind::Input: return "input";
    case NodeKind::Parameter: return "parameter";
    case NodeKind::Constant: return "constant";
    case NodeKind::Op: return "op";
  }
  return "?";
}

// The table of graph slots; see Note [Graph lifetime] in graph.h.
namespace {

class SlotTable {
 public:
  // A free slot for `graph`, and the generation its handles carry.
  detail::GraphSlot* acquire(Graph* graph, std::uint32_t& generation) {
    std::lock_guard lock(mutex_);
    if (free_ == nullptr) grow();
    detail::GraphSlot* slot = free_;
    free_ = slot->next_free;
    slot->next_free = nullptr;
    generation = slot->generation.load(std::memory_order_relaxed);
    slot->graph.store(graph, std::memory_order_release);
    return slot;
  }

  // Expires every handle of the slot's current generation and makes the slot free again, unless
  // its generation is exhausted: then it is retired, so that no old handle can match a new graph.
  void release(detail::GraphSlot* slot) noexcept {
    slot->graph.store(nullptr, std::memory_order_release);
    const std::uint32_t next = slot->generation.load(std::memory_order_relaxed) + 1;
    slot->generation.store(next, std::memory_order_release);
    if (next == std::numeric_limits<std::uint32_t>::max()) return;
    std::lock_guard lock(mutex_);
    slot->next_free = free_;
    free_ = slot;
  }

 private:
  static constexpr std::size_t kBlock = 64;
  void grow() {
    blocks_.push_back(std::make_unique<detail::GraphSlot[]>(kBlock));
    for (std::size_t i = kBlock; i-- > 0;) {
      blocks_.back()[i].next_free = free_;
      free_ = &blocks_.back()[i];
    }
  }

  std::mutex mutex_;
  detail::GraphSlot* free_ = nullptr;
  std::vector<std::unique_ptr<detail::GraphSlot[]>> blocks_;  // never freed: stale Vars read them
};

// Never destroyed, so that graphs (and Vars) that outlive main's return still find it.
SlotTable& slot_table() {
  static SlotTable* const table = new SlotTable;
  return *table;
}

}  // namespace

namespace detail {
void throw_no_graph(const GraphSlot* slot, int id) {
  if (slot == nullptr) throw ValueError("an empty Var (default-constructed: it names no node) was used");
  throw ValueError(fmt::format(
      "node #{} was used after its graph was destroyed: a Var can be used only while its Graph lives "
      "(moving the Graph is fine; keep it alive, e.g. as a member or in a std::vector, as long as its Vars "
      "are used)",
      id));
}
}  // namespace detail

Var::Var(Graph* graph, int id) : Var(graph->var(id)) {}

const Tensor& Var::value() const { return graph().node(id_).value; }

Scalar Var::item() const {
  const Graph& g = graph();
  const Tensor& v = g.node(id_).value;
  if (v.rows() != 1 || v.cols() != 1)
    throw ShapeError(fmt::format("item(): expected a 1×1 node, found {} of shape {}", describe(g, id_),
                                 to_string(shape_of(v))));
  return v(0, 0);
}

const std::string& Var::name() const { return graph().node(id_).name; }

Var Var::named(std::string name) const {
  graph().set_name(id_, std::move(name));
  return *this;
}

VarList Op::vjp(const VjpArgs&) const {
  throw ValueError(fmt::format("op '{}' has no derivative", name()));
}

VarList Op::batched_vjp(const BatchedVjpArgs&) const { return {}; }

std::optional<Var> Op::jvp(const JvpArgs&) const { return std::nullopt; }

void shape_error(const Op& op, std::span<const Shape> in, const std::string& detail) {
  std::string args;
  for (std::size_t i = 0; i < in.size(); ++i)
    args += fmt::format("{}{}", i ? ", " : "", to_string(in[i]));
  throw ShapeError(fmt::format("{}({}): {}", op.name(), args, detail));
}

std::string describe(const Graph& graph, int id) {
  const Node& n = graph.node(id);
  const char* what = n.kind == NodeKind::Op ? n.op->name() : to_string(n.kind);
  std::string shape = to_string(shape_of(n.value));
  if (n.name.empty()) return fmt::format("node #{} ({}, {})", id, what, shape);
  return fmt::format("'{}' ({}, {})", n.name, what, shape);
}

Graph::~Graph() { release(); }

Graph::Graph(Graph&& other) noexcept { take(other); }

Graph& Graph::operator=(Graph&& other) noexcept {
  if (this != &other) {
    release();
    take(other);
  }
  return *this;
}

void Graph::take(Graph& other) noexcept {
  chunks_ = std::move(other.chunks_);
  other.chunks_.clear();
  size_ = std::exchange(other.size_, 0);
  inputs_ = std::move(other.inputs_);
  other.inputs_.clear();
  shape_version_ = std::exchange(other.shape_version_, 0);
  slot_ = std::exchange(other.slot_, nullptr);
  generation_ = other.generation_;
  if (slot_ != nullptr) slot_->graph.store(this, std::memory_order_release);  // the Vars follow
}

void Graph::release() noexcept {
  if (slot_ != nullptr) slot_table().release(std::exchange(slot_, nullptr));
}

detail::GraphSlot* Graph::own_slot() {
  if (slot_ == nullptr) slot_ = slot_table().acquire(this, generation_);
  return slot_;
}

const char* Graph::not_owned(const Var& v) const {
  if (!v.valid()) return "an empty Var";
  if (v.slot_ == slot_ && v.generation_ == generation_ && v.id_ >= 0 && v.id_ < size_) return nullptr;
  return v.expired() ? "a node of a destroyed graph" : "a node of another graph";
}

Node& Graph::emplace_node() {
  if (slot_ == nullptr) [[unlikely]]
    own_slot();
  if ((size_ & (kChunkSize - 1)) == 0) chunks_.push_back(std::make_unique<Node[]>(kChunkSize));
  return at(size_++);
}

Var Graph::add_leaf(NodeKind kind, Tensor value, std::string name) {
  Node& n = emplace_node();
  n.kind = kind;
  n.value = std::move(value);
  n.name = std::move(name);
  n.first_input = static_cast<int>(inputs_.size());
  return Var(slot_, generation_, size() - 1);
}

Var Graph::input(std::string name, Index rows, Index cols) {
  if (rows < 0 || cols < 0)
    throw ShapeError(fmt::format("input '{}': negative shape {}×{}", name, rows, cols));
  return add_leaf(NodeKind::Input, Tensor::Zero(rows, cols), std::move(name));
}

Var Graph::input(std::string name, Tensor value) {
  return add_leaf(NodeKind::Input, std::move(value), std::move(name));
}

Var Graph::parameter(std::string name, Tensor value) {
  return add_leaf(NodeKind::Parameter, std::move(value), std::move(name));
}

Var Graph::constant(Tensor value, std::string name) {
  return add_leaf(NodeKind::Constant, std::move(value), std::move(name));
}

void Graph::check_owns(Var v, const char* what) const {
  if (not_owned(v) == nullptr) return;
  if (!v.valid()) throw ValueError(fmt::format("{}: an empty Var was given", what));
  throw ValueError(fmt::format("{}: node #{} belongs to {}", what, v.id(),
                               v.expired() ? "a graph that was destroyed" : "another graph"));
}

Var Graph::apply(std::shared_ptr<Op> op, std::span<const Var> inputs) {
  constexpr std::size_t kInline = 8;
  Shape shape_buf[kInline];
  const Tensor* value_buf[kInline];
  const Op* op_buf[kInline];
  std::vector<Shape> shape_vec;
  std::vector<const Tensor*> value_vec;
  std::vector<const Op*> op_vec;
  Shape* shapes = shape_buf;
  const Tensor** values = value_buf;
  const Op** ops = op_buf;
  if (inputs.size() > kInline) {
    shape_vec.resize(inputs.size());
    value_vec.resize(inputs.size());
    op_vec.resize(inputs.size());
    shapes = shape_vec.data();
    values = value_vec.data();
    ops = op_vec.data();
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Var& v = inputs[i];
    if (const char* why = not_owned(v)) throw ValueError(fmt::format("{}: argument {} is {}", op->name(), i, why));
    const Node& n = node(v.id());
    values[i] = &n.value;
    shapes[i] = shape_of(n.value);
    ops[i] = n.kind == NodeKind::Op ? n.op.get() : nullptr;
  }
  const Shape out_shape = op->infer_shape({shapes, inputs.size()});
  Tensor out(out_shape.rows, out_shape.cols);
  op->forward(ForwardArgs{{values, inputs.size()}, {ops, inputs.size()}, out});

  Node& n = emplace_node();
  n.kind = NodeKind::Op;
  n.op = std::move(op);
  n.first_input = static_cast<int>(inputs_.size());
  n.num_inputs = static_cast<int>(inputs.size());
  n.value = std::move(out);
  for (const Var& v : inputs) inputs_.push_back(v.id());
  return Var(slot_, generation_, size() - 1);
}

void Graph::set_value(Var leaf, const Tensor& value) {
  check_owns(leaf, "set_value");
  Node& n = at(leaf.id());
  if (n.kind == NodeKind::Input) {
    if (value.cols() != n.value.cols())
      throw ShapeError(fmt::format("input '{}' expects {} columns, was given {}", n.name,
                                   n.value.cols(), to_string(shape_of(value))));
  } else if (n.kind == NodeKind::Parameter) {
    if (shape_of(value) != shape_of(n.value))
      throw ShapeError(fmt::format("parameter '{}' has shape {}, was given {}", n.name,
                                   to_string(shape_of(n.value)), to_string(shape_of(value))));
  } else {
    throw ValueError(fmt::format("set_value: {} is not an input or a parameter",
                                 describe(*this, leaf.id())));
  }
  if (value.rows() != n.value.rows()) ++shape_version_;
  n.value = value;
}

Tensor& Graph::input_value(Var input) {
  check_owns(input, "input_value");
  Node& n = at(input.id());
  if (n.kind != NodeKind::Input)
    throw ValueError(fmt::format("input_value: {} is not an input", describe(*this, input.id())));
  return n.value;
}

Tensor& Graph::parameter_value(Var parameter) {
  check_owns(parameter, "parameter_value");
  Node& n = at(parameter.id());
  if (n.kind != NodeKind::Parameter)
    throw ValueError(fmt::format("parameter_value: {} is not a parameter",
                                 describe(*this, parameter.id())));
  return n.value;
}

void Graph::set_name(int id, std::string name) { at(id).name = std::move(name); }

Graph Graph::clone() const {
  Graph copy;
  for (int id = 0; id < size_; ++id) {
    Node& n = copy.emplace_node();
    n = at(id);
    if (n.op) n.op = n.op->clone(n.op);
  }
  copy.inputs_ = inputs_;
  copy.shape_version_ = shape_version_;
  return copy;
}

}  // namespace dagml
