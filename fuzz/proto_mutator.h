// Structure-aware mutation of protobuf inputs for the libFuzzer harnesses of the readers
// whose files are protobuf messages (ONNX ModelProto, Caffe NetParameter, TensorFlow
// GraphDef, GE ModelDef for AIR). The input is parsed as its message, changed by one to four
// mutations through protobuf reflection (generic) or through the format's own knowledge
// (domain mutations, written beside each harness), and serialized back; bytes that do not
// parse go to libFuzzer's own byte mutator. Every choice comes from libFuzzer's seed, so
// `-seed=N` mutates the same way again.
#pragma once

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace oc::fuzz {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  uint64_t Next() { return engine_(); }
  size_t Below(size_t n) { return n ? static_cast<size_t>(engine_() % n) : 0; }  // [0, n)
  bool OneIn(size_t n) { return Below(n) == 0; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Below(v.size())];
  }
  template <typename T, size_t N>
  const T& Pick(const T (&v)[N]) {
    return v[Below(N)];
  }

 private:
  std::mt19937_64 engine_;
};

// Values at the edges: 0, -1, 1, the int32/int64 limits, 2^31, 2^32, 2^40, small counts,
// and `current` moved by one or doubled.
int64_t BoundaryInt(Rng& rng, int64_t current = 0);
// 0, -0, +-1, NaN, +-inf, the float limits, a denormal, 2^31, `current` negated or doubled.
double BoundaryFloat(Rng& rng, double current = 0);
// "", one of `names` (a duplicate), invalid UTF-8, very long, `current` cut or extended.
std::string BoundaryString(Rng& rng, const std::vector<std::string>& names,
                           const std::string& current = "");

// The words of `text` (lists of op types and attribute names, written as one string); the
// word '' stands for the empty string.
std::vector<std::string> Words(const char* text);

// Every message in the tree whose type is `type` (the root included), depth-first.
std::vector<google::protobuf::Message*> MessagesOfType(google::protobuf::Message& root,
                                                       const google::protobuf::Descriptor* type);
template <typename T>
std::vector<T*> All(google::protobuf::Message& root) {
  std::vector<T*> out;
  for (auto* m : MessagesOfType(root, T::descriptor())) out.push_back(static_cast<T*>(m));
  return out;
}
// Every value of every `string` (not `bytes`) field in the tree: names to duplicate.
std::vector<std::string> CollectStrings(const google::protobuf::Message& root);

// Repeated fields of the typed API (RepeatedField / RepeatedPtrField).
template <typename R>
void RemoveAt(R* repeated, size_t i) {
  for (size_t k = i; k + 1 < static_cast<size_t>(repeated->size()); ++k)
    repeated->SwapElements(static_cast<int>(k), static_cast<int>(k + 1));
  repeated->RemoveLast();
}

// One generic mutation somewhere in the tree: a scalar to a boundary value, an enum to
// another or an unknown number, a string to BoundaryString, a repeated field cleared,
// shortened, an element removed, duplicated, swapped or added, a submessage cleared or
// replaced by a same-typed message from elsewhere in the tree. False when nothing changed.
bool MutateGeneric(google::protobuf::Message& root, Rng& rng);
// A submessage of `donor` copied over or added to a same-typed place in `root`.
bool CrossOverGeneric(google::protobuf::Message& root, const google::protobuf::Message& donor,
                      Rng& rng);

// A format's own mutation; false when the message has nothing it could change.
using DomainMutation = bool (*)(google::protobuf::Message& root, Rng& rng);

// 1-4 mutations, two in three domain-aware (when the format has some).
void MutateMessage(google::protobuf::Message& root, Rng& rng,
                   const std::vector<DomainMutation>& domain);

// A message type and how its bytes look.
struct ProtoFormat {
  const google::protobuf::Message* prototype = nullptr;
  std::vector<DomainMutation> domain;
  bool text = false;  // protobuf text format (a prototxt) instead of the wire format
};
bool ParseAs(const ProtoFormat& format, const std::string& bytes, google::protobuf::Message& out);
bool SerializeAs(const ProtoFormat& format, const google::protobuf::Message& message,
                 std::string* out);

// One of `keys`' list attributes gets an integer at a boundary, or loses its list: GE's
// AttrDef and TensorFlow's AttrValue share the shape (list().i).
template <typename AttrMap>
bool MutateIntList(AttrMap& attrs, const std::vector<std::string>& keys, Rng& rng) {
  for (const auto& key : keys) {
    auto& a = attrs[key];
    if (!a.has_list() || a.list().i_size() == 0) continue;
    if (rng.OneIn(3))
      a.mutable_list()->clear_i();
    else
      a.mutable_list()->set_i(static_cast<int>(rng.Below(a.list().i_size())), BoundaryInt(rng, 1));
    return true;
  }
  return false;
}

// The bodies of LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver for a format whose
// whole input is one message. The mutator tries a few structured mutations that fit in
// max_size; one call in ten, and whenever the input does not parse, it is
// LLVMFuzzerMutate's byte-level mutation instead.
size_t MutateProtoInput(const ProtoFormat& format, uint8_t* data, size_t size, size_t max_size,
                        unsigned int seed);
size_t CrossOverProtoInputs(const ProtoFormat& format, const uint8_t* data1, size_t size1,
                            const uint8_t* data2, size_t size2, uint8_t* out, size_t max_out_size,
                            unsigned int seed);

// Mutates the serialized message `in` into `out`: false when `in` does not parse.
bool MutateSerialized(const ProtoFormat& format, const std::string& in, std::string* out, Rng& rng);
// Byte-level splice of two inputs (the fallback crossover): a prefix of one, a suffix of the
// other.
size_t SpliceBytes(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                   uint8_t* out, size_t max_out_size, Rng& rng);

// Protobuf's own log lines (invalid UTF-8 on serialization, parse errors) switched off.
void QuietProtobuf();

}  // namespace oc::fuzz
