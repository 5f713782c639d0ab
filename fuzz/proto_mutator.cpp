#include "proto_mutator.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

namespace oc::fuzz {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

constexpr size_t kMaxSites = 20000;
constexpr int kMaxDepth = 64;

int64_t Wrap(uint64_t v) { return static_cast<int64_t>(v); }

// A map's entries in key order, so that "entry i" means the same entry in every run
// (protobuf iterates its maps in a per-process hash order).
std::string MapKey(const Message& entry) {
  const FieldDescriptor* key = entry.GetDescriptor()->map_key();
  const Reflection* r = entry.GetReflection();
  switch (key->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      return r->GetString(entry, key);
    case FieldDescriptor::CPPTYPE_INT32:
      return std::to_string(r->GetInt32(entry, key));
    case FieldDescriptor::CPPTYPE_INT64:
      return std::to_string(r->GetInt64(entry, key));
    case FieldDescriptor::CPPTYPE_UINT32:
      return std::to_string(r->GetUInt32(entry, key));
    case FieldDescriptor::CPPTYPE_UINT64:
      return std::to_string(r->GetUInt64(entry, key));
    case FieldDescriptor::CPPTYPE_BOOL:
      return r->GetBool(entry, key) ? "1" : "0";
    default:
      return "";
  }
}

void SortMap(Message& m, const FieldDescriptor* f) {
  const Reflection* r = m.GetReflection();
  const int n = r->FieldSize(m, f);
  for (int i = 0; i < n; ++i) {
    int least = i;
    for (int k = i + 1; k < n; ++k)
      if (MapKey(r->GetRepeatedMessage(m, f, k)) < MapKey(r->GetRepeatedMessage(m, f, least)))
        least = k;
    if (least != i) r->SwapElements(&m, f, i, least);
  }
}

// Calls visit(message) for every message of the tree, depth-first, maps in key order.
template <typename Visit>
void Walk(Message& m, Visit&& visit, int depth = 0) {
  if (depth > kMaxDepth) return;
  if (!visit(m)) return;
  const Descriptor* d = m.GetDescriptor();
  const Reflection* r = m.GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (f->is_repeated()) {
      if (r->FieldSize(m, f) == 0) continue;
      if (f->is_map()) SortMap(m, f);
      for (int k = 0; k < r->FieldSize(m, f); ++k)
        Walk(*r->MutableRepeatedMessage(&m, f, k), visit, depth + 1);
    } else if (r->HasField(m, f)) {
      Walk(*r->MutableMessage(&m, f), visit, depth + 1);
    }
  }
}

struct Site {
  Message* message;
  const FieldDescriptor* field;
  bool set;
};

std::vector<Site> CollectSites(Message& root) {
  std::vector<Site> sites;
  Walk(root, [&](Message& m) {
    if (sites.size() >= kMaxSites) return false;
    const Descriptor* d = m.GetDescriptor();
    const Reflection* r = m.GetReflection();
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* f = d->field(i);
      const bool set = f->is_repeated() ? r->FieldSize(m, f) > 0 : r->HasField(m, f);
      sites.push_back({&m, f, set});
    }
    return true;
  });
  return sites;
}

// A copy of a message of `type` found in the tree (null when there is none): a copy, since
// the place it goes to may lie inside it.
std::unique_ptr<Message> CopyOfSome(Message& root, const Descriptor* type, Rng& rng) {
  auto found = MessagesOfType(root, type);
  if (found.empty()) return nullptr;
  const Message* pick = found[rng.Below(found.size())];
  std::unique_ptr<Message> copy(pick->New());
  copy->CopyFrom(*pick);
  return copy;
}

// A new value for a scalar or string field. `index` < 0: the singular field; index ==
// FieldSize: a new element; otherwise element `index`.
void SetValue(Message& m, const FieldDescriptor* f, int index, Rng& rng,
              const std::vector<std::string>& names) {
  const Reflection* r = m.GetReflection();
  const bool repeated = f->is_repeated();
  const bool add = repeated && index >= r->FieldSize(m, f);
  const bool existing = repeated && !add;
#define OC_SET(Type, value)                      \
  do {                                           \
    if (!repeated)                               \
      r->Set##Type(&m, f, value);                \
    else if (add)                                \
      r->Add##Type(&m, f, value);                \
    else                                         \
      r->SetRepeated##Type(&m, f, index, value); \
  } while (0)
#define OC_GET(Type) (existing ? r->GetRepeated##Type(m, f, index) : r->Get##Type(m, f))
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      OC_SET(Int32, static_cast<int32_t>(BoundaryInt(rng, add ? 0 : OC_GET(Int32))));
      break;
    case FieldDescriptor::CPPTYPE_INT64:
      OC_SET(Int64, BoundaryInt(rng, add ? 0 : OC_GET(Int64)));
      break;
    case FieldDescriptor::CPPTYPE_UINT32:
      OC_SET(UInt32, static_cast<uint32_t>(BoundaryInt(rng, add ? 0 : OC_GET(UInt32))));
      break;
    case FieldDescriptor::CPPTYPE_UINT64:
      OC_SET(UInt64, static_cast<uint64_t>(
                         BoundaryInt(rng, add ? 0 : static_cast<int64_t>(OC_GET(UInt64)))));
      break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      OC_SET(Double, BoundaryFloat(rng, add ? 0 : OC_GET(Double)));
      break;
    case FieldDescriptor::CPPTYPE_FLOAT: {
      double v = BoundaryFloat(rng, add ? 0 : OC_GET(Float));
      if (std::isfinite(v) && std::fabs(v) > FLT_MAX) v = v > 0 ? INFINITY : -INFINITY;
      OC_SET(Float, static_cast<float>(v));
      break;
    }
    case FieldDescriptor::CPPTYPE_BOOL:
      OC_SET(Bool, add ? rng.OneIn(2) : !OC_GET(Bool));
      break;
    case FieldDescriptor::CPPTYPE_ENUM: {
      const auto* e = f->enum_type();
      int value = rng.OneIn(4) ? static_cast<int32_t>(BoundaryInt(rng, 0))
                               : e->value(static_cast<int>(rng.Below(e->value_count())))->number();
      if (rng.OneIn(8)) value = e->value_count() + static_cast<int>(rng.Below(4));
      OC_SET(EnumValue, value);
      break;
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string current = add ? std::string() : OC_GET(String);
      OC_SET(String, BoundaryString(rng, names, current));
      break;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      break;
  }
#undef OC_GET
#undef OC_SET
}

bool MutateRepeated(Message& root, Message& m, const FieldDescriptor* f, Rng& rng,
                    const std::vector<std::string>& names) {
  const Reflection* r = m.GetReflection();
  const int n = r->FieldSize(m, f);
  const bool message = f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
  switch (rng.Below(8)) {
    case 0:  // remove one element, keeping the order of the rest
      if (n == 0) return false;
      for (int k = static_cast<int>(rng.Below(n)); k + 1 < n; ++k) r->SwapElements(&m, f, k, k + 1);
      r->RemoveLast(&m, f);
      return true;
    case 1: {  // duplicate one element, the copy placed anywhere
      if (n == 0) return false;
      const int from = static_cast<int>(rng.Below(n));
      if (message) {
        std::unique_ptr<Message> copy(r->GetRepeatedMessage(m, f, from).New());
        copy->CopyFrom(r->GetRepeatedMessage(m, f, from));
        r->AddMessage(&m, f)->CopyFrom(*copy);
      } else {
        switch (f->cpp_type()) {
          case FieldDescriptor::CPPTYPE_INT32:
            r->AddInt32(&m, f, r->GetRepeatedInt32(m, f, from));
            break;
          case FieldDescriptor::CPPTYPE_INT64:
            r->AddInt64(&m, f, r->GetRepeatedInt64(m, f, from));
            break;
          case FieldDescriptor::CPPTYPE_UINT32:
            r->AddUInt32(&m, f, r->GetRepeatedUInt32(m, f, from));
            break;
          case FieldDescriptor::CPPTYPE_UINT64:
            r->AddUInt64(&m, f, r->GetRepeatedUInt64(m, f, from));
            break;
          case FieldDescriptor::CPPTYPE_DOUBLE:
            r->AddDouble(&m, f, r->GetRepeatedDouble(m, f, from));
            break;
          case FieldDescriptor::CPPTYPE_FLOAT:
            r->AddFloat(&m, f, r->GetRepeatedFloat(m, f, from));
            break;
          case FieldDescriptor::CPPTYPE_BOOL:
            r->AddBool(&m, f, r->GetRepeatedBool(m, f, from));
            break;
          case FieldDescriptor::CPPTYPE_ENUM:
            r->AddEnumValue(&m, f, r->GetRepeatedEnumValue(m, f, from));
            break;
          case FieldDescriptor::CPPTYPE_STRING:
            r->AddString(&m, f, r->GetRepeatedString(m, f, from));
            break;
          case FieldDescriptor::CPPTYPE_MESSAGE:
            break;
        }
      }
      for (int k = n; k > 0 && !rng.OneIn(3); --k) r->SwapElements(&m, f, k, k - 1);
      return true;
    }
    case 2: {  // swap two elements
      if (n < 2) return false;
      const int a = static_cast<int>(rng.Below(n));
      int b = static_cast<int>(rng.Below(n - 1));
      if (b >= a) ++b;
      r->SwapElements(&m, f, a, b);
      return true;
    }
    case 3:  // clear
      if (n == 0) return false;
      r->ClearField(&m, f);
      return true;
    case 4:  // cut to a prefix
      if (n < 2) return false;
      for (int k = static_cast<int>(rng.Below(n)); k < n; ++k) r->RemoveLast(&m, f);
      return true;
    case 5:  // reverse
      if (n < 2) return false;
      for (int a = 0, b = n - 1; a < b; ++a, --b) r->SwapElements(&m, f, a, b);
      return true;
    case 6:  // a new element
      if (message) {
        auto copy = rng.OneIn(2) ? CopyOfSome(root, f->message_type(), rng) : nullptr;
        Message* added = r->AddMessage(&m, f);
        if (copy) added->CopyFrom(*copy);
      } else {
        SetValue(m, f, n, rng, names);
      }
      return true;
    default:  // change one element (messages change through their own fields)
      if (n == 0 || message) return false;
      SetValue(m, f, static_cast<int>(rng.Below(n)), rng, names);
      return true;
  }
}

bool MutateSite(Message& root, const Site& site, Rng& rng, const std::vector<std::string>& names) {
  Message& m = *site.message;
  const FieldDescriptor* f = site.field;
  const Reflection* r = m.GetReflection();
  if (f->is_repeated()) return MutateRepeated(root, m, f, rng, names);
  if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) {
    if (site.set && rng.OneIn(6)) {
      r->ClearField(&m, f);
      return true;
    }
    SetValue(m, f, -1, rng, names);
    return true;
  }
  switch (rng.Below(3)) {
    case 0:
      if (!site.set) return false;
      r->ClearField(&m, f);
      return true;
    case 1: {
      auto copy = CopyOfSome(root, f->message_type(), rng);
      if (!copy) return false;
      r->MutableMessage(&m, f)->CopyFrom(*copy);
      return true;
    }
    default:
      r->MutableMessage(&m, f)->Clear();
      return true;
  }
}

}  // namespace

int64_t BoundaryInt(Rng& rng, int64_t current) {
  constexpr int64_t kI32Max = std::numeric_limits<int32_t>::max();
  constexpr int64_t kI32Min = std::numeric_limits<int32_t>::min();
  constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
  constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
  constexpr int64_t k2e31 = int64_t{1} << 31;
  static const int64_t kValues[] = {0,         -1,        1,          2,           3,
                                    -2,        255,       256,        65535,       65536,
                                    kI32Max,   kI32Min,   kI64Max,    kI64Min,     k2e31,
                                    k2e31 + 1, k2e31 * 2, k2e31 << 9, k2e31 << 31, -(k2e31 << 9)};
  switch (rng.Below(6)) {
    case 0:
      return Wrap(static_cast<uint64_t>(current) + 1);
    case 1:
      return Wrap(static_cast<uint64_t>(current) - 1);
    case 2:
      return rng.OneIn(2) ? Wrap(static_cast<uint64_t>(current) * 2)
                          : Wrap(0 - static_cast<uint64_t>(current));
    case 3:
      return static_cast<int64_t>(rng.Below(65));
    default:
      return rng.Pick(kValues);
  }
}

double BoundaryFloat(Rng& rng, double current) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  static const double kValues[] = {0.0,   -0.0,    1.0,          -1.0,    0.5,      kNaN,
                                   -kNaN, kInf,    -kInf,        FLT_MAX, -FLT_MAX, FLT_MIN,
                                   1e-45, DBL_MAX, 2147483648.0, 1e20,    -1e20};
  switch (rng.Below(5)) {
    case 0:
      return current * 2;
    case 1:
      return -current;
    case 2:
      return current + 1;
    default:
      return rng.Pick(kValues);
  }
}

std::string BoundaryString(Rng& rng, const std::vector<std::string>& names,
                           const std::string& current) {
  static const char* const kSpecial[] = {" ", ":0", ":1", ":-1", "^", "-1", "0", "../x", "/", "."};
  static const char* const kInvalidUtf8[] = {"\xff", "\xc3\x28", "\xed\xa0\x80", "\xe2\x82",
                                             "\xf0\x28\x8c\x28"};
  static const size_t kLong[] = {255, 1024, 5000};
  switch (rng.Below(9)) {
    case 0:
      return "";
    case 1:
    case 2:
      if (!names.empty()) return names[rng.Below(names.size())];
      return current + "_";
    case 3:
      return rng.OneIn(2) ? current + rng.Pick(kInvalidUtf8)
                          : rng.Pick(kInvalidUtf8) + current.substr(current.size() / 2);
    case 4:
      return std::string(rng.Pick(kLong), static_cast<char>('a' + rng.Below(26)));
    case 5:
      return current.substr(0, current.size() / 2);
    case 6:
      return rng.OneIn(2) ? current + std::string(1, '\0') + current : current + current;
    case 7:
      return current + rng.Pick(kSpecial);
    default: {
      std::string s = current.empty() ? "x" : current;
      s[rng.Below(s.size())] = static_cast<char>(rng.Next());
      return s;
    }
  }
}

std::vector<std::string> Words(const char* text) {
  std::vector<std::string> out;
  for (const char* p = text; *p;) {
    while (*p == ' ' || *p == '\n') ++p;
    const char* start = p;
    while (*p && *p != ' ' && *p != '\n') ++p;
    if (p == start) continue;
    out.emplace_back(start, p);
    if (out.back() == "''") out.back().clear();
  }
  return out;
}

std::vector<Message*> MessagesOfType(Message& root, const Descriptor* type) {
  std::vector<Message*> out;
  Walk(root, [&](Message& m) {
    if (m.GetDescriptor() == type) out.push_back(&m);
    return out.size() < kMaxSites;
  });
  return out;
}

std::vector<std::string> CollectStrings(const Message& root) {
  std::vector<std::string> out;
  // Read-only: a walk over the const tree (maps in their own order: the list is only a
  // pool of names to draw from, sorted below).
  std::vector<const Message*> stack{&root};
  while (!stack.empty() && out.size() < 4096) {
    const Message& m = *stack.back();
    stack.pop_back();
    const Descriptor* d = m.GetDescriptor();
    const Reflection* r = m.GetReflection();
    for (int i = 0; i < d->field_count(); ++i) {
      const FieldDescriptor* f = d->field(i);
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        if (f->is_repeated()) {
          for (int k = 0; k < r->FieldSize(m, f); ++k)
            stack.push_back(&r->GetRepeatedMessage(m, f, k));
        } else if (r->HasField(m, f)) {
          stack.push_back(&r->GetMessage(m, f));
        }
      } else if (f->type() == FieldDescriptor::TYPE_STRING) {
        if (f->is_repeated()) {
          for (int k = 0; k < r->FieldSize(m, f); ++k) out.push_back(r->GetRepeatedString(m, f, k));
        } else if (r->HasField(m, f)) {
          out.push_back(r->GetString(m, f));
        }
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool MutateGeneric(Message& root, Rng& rng) {
  auto sites = CollectSites(root);
  if (sites.empty()) return false;
  std::vector<size_t> set;
  for (size_t i = 0; i < sites.size(); ++i)
    if (sites[i].set) set.push_back(i);
  const auto names = CollectStrings(root);
  for (int attempt = 0; attempt < 8; ++attempt) {
    // Mostly fields the input has: a message type with many optional fields would
    // otherwise draw its unset ones nearly every time.
    const Site& site = !set.empty() && !rng.OneIn(4) ? sites[set[rng.Below(set.size())]]
                                                     : sites[rng.Below(sites.size())];
    if (MutateSite(root, site, rng, names)) return true;
  }
  return false;
}

bool CrossOverGeneric(Message& root, const Message& donor, Rng& rng) {
  std::unique_ptr<Message> donor_copy(donor.New());
  donor_copy->CopyFrom(donor);
  std::vector<Message*> parts;
  Walk(*donor_copy, [&](Message& m) {
    parts.push_back(&m);
    return parts.size() < kMaxSites;
  });
  if (parts.size() < 2) return false;
  auto sites = CollectSites(root);
  for (int attempt = 0; attempt < 8; ++attempt) {
    const Message* part = parts[1 + rng.Below(parts.size() - 1)];
    std::vector<const Site*> fits;
    for (const auto& s : sites)
      if (s.field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE &&
          s.field->message_type() == part->GetDescriptor())
        fits.push_back(&s);
    if (fits.empty()) continue;
    const Site& s = *fits[rng.Below(fits.size())];
    const Reflection* r = s.message->GetReflection();
    if (!s.field->is_repeated()) {
      r->MutableMessage(s.message, s.field)->CopyFrom(*part);
    } else {
      const int n = r->FieldSize(*s.message, s.field);
      if (n > 0 && rng.OneIn(2))
        r->MutableRepeatedMessage(s.message, s.field, static_cast<int>(rng.Below(n)))
            ->CopyFrom(*part);
      else
        r->AddMessage(s.message, s.field)->CopyFrom(*part);
    }
    return true;
  }
  return false;
}

void MutateMessage(Message& root, Rng& rng, const std::vector<DomainMutation>& domain) {
  // Mostly one mutation, sometimes a few (a finding usually needs one change; some need two).
  const size_t count = rng.OneIn(2) ? 1 : 2 + rng.Below(3);
  for (size_t i = 0; i < count; ++i) {
    bool done = false;
    if (!domain.empty() && !rng.OneIn(3))
      for (int attempt = 0; attempt < 4 && !done; ++attempt)
        done = domain[rng.Below(domain.size())](root, rng);
    if (!done) MutateGeneric(root, rng);
  }
}

bool ParseAs(const ProtoFormat& format, const std::string& bytes, Message& out) {
  if (format.text) {
    google::protobuf::TextFormat::Parser parser;
    parser.AllowPartialMessage(true);
    return parser.ParseFromString(bytes, &out);
  }
  return out.ParsePartialFromString(bytes);
}

bool SerializeAs(const ProtoFormat& format, const Message& message, std::string* out) {
  out->clear();
  if (format.text) return google::protobuf::TextFormat::PrintToString(message, out);
  google::protobuf::io::StringOutputStream stream(out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);  // maps in key order: the same bytes every run
  return message.SerializePartialToCodedStream(&coded) && !coded.HadError();
}

bool MutateSerialized(const ProtoFormat& format, const std::string& in, std::string* out,
                      Rng& rng) {
  std::unique_ptr<Message> message(format.prototype->New());
  if (!ParseAs(format, in, *message)) return false;
  MutateMessage(*message, rng, format.domain);
  return SerializeAs(format, *message, out);
}

size_t MutateProtoInput(const ProtoFormat& format, uint8_t* data, size_t size, size_t max_size,
                        unsigned int seed) {
  Rng rng(seed);
  if (!rng.OneIn(10)) {
    const std::string in(reinterpret_cast<const char*>(data), size);
    std::unique_ptr<Message> parsed(format.prototype->New());
    if (ParseAs(format, in, *parsed)) {
      for (int attempt = 0; attempt < 4; ++attempt) {
        std::unique_ptr<Message> message(parsed->New());
        message->CopyFrom(*parsed);
        MutateMessage(*message, rng, format.domain);
        std::string out;
        if (!SerializeAs(format, *message, &out) || out.size() > max_size || out == in) continue;
        std::memcpy(data, out.data(), out.size());
        return out.size();
      }
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

size_t SpliceBytes(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                   uint8_t* out, size_t max_out_size, Rng& rng) {
  const size_t head = std::min(rng.Below(size1 + 1), max_out_size);
  const size_t from = rng.Below(size2 + 1);
  const size_t tail = std::min(size2 - from, max_out_size - head);
  if (head) std::memcpy(out, data1, head);
  if (tail) std::memcpy(out + head, data2 + from, tail);
  return head + tail;
}

size_t CrossOverProtoInputs(const ProtoFormat& format, const uint8_t* data1, size_t size1,
                            const uint8_t* data2, size_t size2, uint8_t* out, size_t max_out_size,
                            unsigned int seed) {
  Rng rng(seed);
  std::unique_ptr<Message> a(format.prototype->New()), b(format.prototype->New());
  if (ParseAs(format, std::string(reinterpret_cast<const char*>(data1), size1), *a) &&
      ParseAs(format, std::string(reinterpret_cast<const char*>(data2), size2), *b)) {
    for (int attempt = 0; attempt < 4; ++attempt) {
      std::unique_ptr<Message> child(a->New());
      child->CopyFrom(*a);
      if (!CrossOverGeneric(*child, *b, rng)) continue;
      std::string bytes;
      if (!SerializeAs(format, *child, &bytes) || bytes.size() > max_out_size) continue;
      std::memcpy(out, bytes.data(), bytes.size());
      return bytes.size();
    }
  }
  return SpliceBytes(data1, size1, data2, size2, out, max_out_size, rng);
}

void QuietProtobuf() {
  static const bool quiet = [] {
    google::protobuf::SetLogHandler(nullptr);
    return true;
  }();
  (void)quiet;
}

}  // namespace oc::fuzz
