#include "ir/graph.h"

#include <set>
#include <sstream>
#include <string_view>

namespace oc {

size_t Node::NumPresentInputs() const {
  size_t n = 0;
  for (const auto& in : inputs) n += !in.empty();
  return n;
}

const Tensor* Graph::FindInitializer(const std::string& v) const {
  auto it = initializers.find(v);
  return it == initializers.end() ? nullptr : &it->second;
}

ValueInfo* Graph::FindValue(const std::string& v) {
  auto it = values.find(v);
  return it == values.end() ? nullptr : &it->second;
}

const ValueInfo* Graph::FindValue(const std::string& v) const {
  auto it = values.find(v);
  return it == values.end() ? nullptr : &it->second;
}

std::unordered_map<std::string, size_t> Graph::ProducerIndex() const {
  std::unordered_map<std::string, size_t> out;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const auto& o : nodes[i].outputs)
      if (!o.empty()) out[o] = i;
  return out;
}

std::unordered_map<std::string, std::vector<size_t>> Graph::ConsumerIndex() const {
  std::unordered_map<std::string, std::vector<size_t>> out;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const auto& in : nodes[i].inputs)
      if (!in.empty()) out[in].push_back(i);
  return out;
}

Status Graph::TopologicalSort() {
  auto producer = ProducerIndex();
  std::vector<int> state(nodes.size(), 0);  // 0 new, 1 visiting, 2 done
  std::vector<size_t> order;
  order.reserve(nodes.size());
  // Iterative DFS keeps deep graphs (hundreds of layers) off the call stack.
  for (size_t root = 0; root < nodes.size(); ++root) {
    if (state[root]) continue;
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
    state[root] = 1;
    while (!stack.empty()) {
      auto& [n, next_input] = stack.back();
      if (next_input < nodes[n].inputs.size()) {
        const std::string& in = nodes[n].inputs[next_input++];
        if (in.empty()) continue;
        auto it = producer.find(in);
        if (it == producer.end()) continue;
        if (state[it->second] == 1)
          return InvalidArgument("graph has a cycle through node [" + nodes[n].name + "]");
        if (state[it->second] == 0) {
          state[it->second] = 1;
          stack.push_back({it->second, 0});
        }
        continue;
      }
      state[n] = 2;
      order.push_back(n);
      stack.pop_back();
    }
  }
  std::vector<Node> sorted;
  sorted.reserve(nodes.size());
  for (size_t i : order) sorted.push_back(std::move(nodes[i]));
  nodes = std::move(sorted);
  return Status::Ok();
}

Status Graph::Verify() const {
  std::set<std::string> defined(inputs.begin(), inputs.end());
  for (const auto& [n, t] : initializers) defined.insert(n);
  for (const auto& node : nodes) {
    for (const auto& in : node.inputs)
      if (!in.empty() && !defined.count(in))
        return InvalidArgument("input [" + in + "] of node [" + node.name + "] (" + node.op_type +
                               ") is not produced before it");
    for (const auto& out : node.outputs) {
      if (out.empty()) continue;
      if (!defined.insert(out).second)
        return InvalidArgument("value [" + out + "] is produced twice (node [" + node.name + "])");
    }
  }
  for (const auto& out : outputs)
    if (!defined.count(out)) return InvalidArgument("graph output [" + out + "] is never produced");
  return Status::Ok();
}

std::string Graph::UniqueValueName(const std::string& hint) const {
  auto used = [&](const std::string& n) {
    if (values.count(n) || initializers.count(n)) return true;
    for (const auto& node : nodes)
      for (const auto& o : node.outputs)
        if (o == n) return true;
    return false;
  };
  if (!used(hint)) return hint;
  for (int i = 1;; ++i) {
    std::string n = hint + "_" + std::to_string(i);
    if (!used(n)) return n;
  }
}

namespace {

// Well-formed UTF-8 as Unicode defines it: no overlong forms, surrogates or code points
// past U+10FFFF.
bool IsUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int n = 0;
    uint32_t cp = 0, min = 0;
    if ((c & 0xE0) == 0xC0)
      n = 1, cp = c & 0x1F, min = 0x80;
    else if ((c & 0xF0) == 0xE0)
      n = 2, cp = c & 0x0F, min = 0x800;
    else if ((c & 0xF8) == 0xF0)
      n = 3, cp = c & 0x07, min = 0x10000;
    else
      return false;
    if (i + static_cast<size_t>(n) >= s.size()) return false;
    for (int k = 1; k <= n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((b & 0xC0) != 0x80) return false;
      cp = cp << 6 | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += static_cast<size_t>(n) + 1;
  }
  return true;
}

std::string Escaped(std::string_view s) {
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7F) {
      out += ch;
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

Status CheckUtf8(const Graph& g, int depth) {
  if (depth > 64) return InvalidArgument("subgraphs are nested more than 64 deep");
  auto check = [](std::string_view what, const std::string& name) {
    return IsUtf8(name) ? Status::Ok()
                        : InvalidArgument(std::string(what) + " [" + Escaped(name) +
                                          "] is not valid UTF-8 text");
  };
  OC_RETURN_IF_ERROR(check("the graph name", g.name));
  for (const auto& [name, vi] : g.values) OC_RETURN_IF_ERROR(check("value name", name));
  for (const auto& [name, t] : g.initializers) OC_RETURN_IF_ERROR(check("constant name", name));
  for (const auto& v : g.inputs) OC_RETURN_IF_ERROR(check("input name", v));
  for (const auto& v : g.outputs) OC_RETURN_IF_ERROR(check("output name", v));
  for (const auto& n : g.nodes) {
    OC_RETURN_IF_ERROR(check("node name", n.name));
    OC_RETURN_IF_ERROR(check("op type", n.op_type));
    OC_RETURN_IF_ERROR(check("op domain", n.domain));
    for (const auto& v : n.inputs) OC_RETURN_IF_ERROR(check("value name", v));
    for (const auto& v : n.outputs) OC_RETURN_IF_ERROR(check("value name", v));
    for (const auto& [name, value] : n.attrs.all()) {
      OC_RETURN_IF_ERROR(check("attribute name", name));
      if (const auto* body = std::get_if<std::shared_ptr<Graph>>(&value))
        if (*body) OC_RETURN_IF_ERROR(CheckUtf8(**body, depth + 1));
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckNamesAreUtf8(const Graph& g) { return CheckUtf8(g, 0); }

namespace {

bool HasNonBinaryByte(const Tensor& t) {
  const auto* b = static_cast<const uint8_t*>(t.data());
  for (int64_t i = 0; i < t.numel(); ++i)
    if (b[i] > 1) return true;
  return false;
}

// `g` and every body under it; bodies are shared pointers to graphs, so a Graph& comes
// through for them whatever the constness of `g`.
template <typename G, typename Fn>
void ForEachGraph(G& g, Fn&& fn) {
  fn(g);
  for (const Node& n : g.nodes)
    for (const auto& [name, value] : n.attrs.all())
      if (const auto* body = std::get_if<std::shared_ptr<Graph>>(&value); body && *body)
        ForEachGraph(**body, fn);
}

}  // namespace

void NormalizeBoolInitializers(Graph& g) {
  ForEachGraph(g, [](Graph& graph) {
    for (auto& [name, t] : graph.initializers) {
      if (t.dtype() != DataType::kBool || !HasNonBinaryByte(t)) continue;
      Tensor copy(DataType::kBool, t.shape());
      const auto* src = static_cast<const uint8_t*>(t.data());
      auto* dst = static_cast<uint8_t*>(copy.mutable_data());
      for (int64_t i = 0; i < t.numel(); ++i) dst[i] = src[i] != 0;
      t = std::move(copy);
    }
  });
}

Status CheckBoolInitializers(const Graph& g) {
  Status status;
  ForEachGraph(g, [&](const Graph& cg) {
    for (const auto& [name, t] : cg.initializers)
      if (status.ok() && t.dtype() == DataType::kBool && HasNonBinaryByte(t))
        status = ParseError("bool weight [" + name + "] holds a byte other than 0 and 1");
  });
  return status;
}

Status CheckNoStringValues(const Graph& g) {
  Status status;
  ForEachGraph(g, [&](const Graph& cg) {
    for (const auto& [name, vi] : cg.values)
      if (status.ok() && vi.dtype == DataType::kString)
        status = Unsupported(
            "value [" + name + "] is a string tensor; OpenCANN computes no strings", "EZ3003");
  });
  return status;
}

std::string GraphToString(const Graph& g) {
  std::ostringstream os;
  os << "graph " << g.name << " (";
  for (size_t i = 0; i < g.inputs.size(); ++i) os << (i ? ", " : "") << g.inputs[i];
  os << ")\n";
  for (const auto& n : g.nodes) {
    os << "  ";
    for (size_t i = 0; i < n.outputs.size(); ++i) os << (i ? ", " : "") << n.outputs[i];
    os << " = " << (n.domain.empty() ? "" : n.domain + ".") << n.op_type << "(";
    for (size_t i = 0; i < n.inputs.size(); ++i) os << (i ? ", " : "") << n.inputs[i];
    os << ")\n";
  }
  os << "  return ";
  for (size_t i = 0; i < g.outputs.size(); ++i) os << (i ? ", " : "") << g.outputs[i];
  os << "\n";
  return os.str();
}

}  // namespace oc
