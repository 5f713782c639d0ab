// libFuzzer: .om bytes through the loader and one execution. The header's SHA-256 is
// recomputed over whatever the fuzzer made, so mutations reach the partitions and the
// ModelDef instead of stopping at the checksum.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "base/log.h"
#include "base/sha256.h"
#include "fuzz_util.h"
#include "om/om_format.h"
#include "runtime/model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  oc::fuzz::SetUpHarness();
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.size() >= oc::kOmHeaderSize) {
    oc::OmHeader h;
    std::memcpy(&h, bytes.data(), sizeof(h));
    auto digest = oc::Sha256(reinterpret_cast<const uint8_t*>(bytes.data()) + oc::kOmHeaderSize,
                             bytes.size() - oc::kOmHeaderSize);
    std::memcpy(h.checksum, digest.data(), digest.size());
    std::memcpy(bytes.data(), &h, sizeof(h));
  }
  auto model = oc::Model::Load(oc::MappedFile::FromCopy(bytes.data(), bytes.size()));
  if (!model.ok()) return 0;
  // One execution with zeroed inputs of the described sizes (dynamic ones: 1 per -1 dim).
  const auto& m = *model.value();
  std::vector<std::vector<uint8_t>> ins, outs;
  std::vector<const void*> in_ptrs;
  std::vector<size_t> in_sizes, out_sizes;
  std::vector<void*> out_ptrs;
  for (const auto& in : m.inputs()) {
    if (in.bytes > (size_t{1} << 24)) return 0;
    ins.emplace_back(std::max<size_t>(in.bytes, 1));
    in_ptrs.push_back(ins.back().data());
    in_sizes.push_back(in.bytes);
  }
  for (const auto& out : m.outputs()) {
    const size_t bytes_out = out.bytes ? out.bytes : 4096;
    if (bytes_out > (size_t{1} << 24)) return 0;
    outs.emplace_back(bytes_out);
    out_ptrs.push_back(outs.back().data());
    out_sizes.push_back(bytes_out);
  }
  (void)model.value()->Execute(in_ptrs, in_sizes, out_ptrs, out_sizes);
  return 0;
}
