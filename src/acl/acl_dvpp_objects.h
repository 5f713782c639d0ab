// What libacl_dvpp's files share: its objects behind the opaque handles of acl_dvpp.h, the
// registry that tells live handles from stale ones, DVPP memory, and error reporting through
// AscendCL (aclGetRecentErrMsg, the plog).
#pragma once

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

#include "acl/ops/acl_dvpp.h"
#include "base/status.h"
#include "dvpp/picture.h"
#include "dvpp/vpc.h"

struct acldvppPicDesc {
  oc::dvpp::Picture picture;
  uint32_t ret_code = 0;
};
struct acldvppRoiConfig {
  oc::dvpp::Roi roi;
};
struct acldvppResizeConfig {
  uint32_t interpolation = 0;
};
struct acldvppBorderConfig {
  double value[4] = {0, 0, 0, 0};
  int32_t type = BORDER_CONSTANT;
  uint32_t top = 0, bottom = 0, left = 0, right = 0;
};
struct acldvppJpegeConfig {
  uint32_t level = 100;
};
struct acldvppStreamDesc {
  void* data = nullptr;
  uint32_t size = 0;
  int32_t format = 0;
  uint64_t timestamp = 0;
  uint32_t ret_code = 0;
  uint8_t eos = 0;
};
struct aclvdecFrameConfig {
  int unused = 0;
};
struct acldvppChannelDesc {
  uint32_t mode = DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_JPEGE;
  uint64_t channel_id = 0;
  bool created = false;
};

namespace oc::acl_dvpp {

// An enum argument's value read as its bytes: a C caller may pass a number outside the
// enumerators, which a C++ load of the enum type may not hold.
template <typename E>
int32_t EnumBits(const E& e) {
  int32_t v = 0;
  std::memcpy(&v, &e, sizeof v < sizeof e ? sizeof v : sizeof e);
  return v;
}

enum class Kind {
  kBatchPicDesc,
  kBorderConfig,
  kPicDesc,
  kRoi,
  kResize,
  kChannelDesc,
  kJpegeConfig,
  kStreamDesc,
  kVdecChannel,
  kVdecFrameConfig,
  kVencChannel,
  kVencFrameConfig,
  kLutMap,
  kHist
};

// A call the chip's DVPP does not have: ACL_ERROR_FEATURE_UNSUPPORTED naming it and the chip.
aclError Unavailable(const char* fn, dvpp::Chip chip);

// Handle bookkeeping (the lock guards the objects' use too: calls are short).
std::mutex& Mutex();
void Add(const void* handle, Kind kind);
bool Remove(const void* handle, Kind kind);
bool Live(const void* handle, Kind kind);

// Records the error for aclGetRecentErrMsg and the plog, and returns the code.
aclError Fail(aclError code, const std::string& message);
// A Status from the DVPP core as CANN's code: unsupported -> ACL_ERROR_FEATURE_UNSUPPORTED.
aclError FailStatus(const Status& s, const char* fn);

// Whether [p, p + bytes) lies in one acldvppMalloc block.
bool InDvppMemory(const void* p, size_t bytes);
// The chip whose rules apply (aclrtGetSocName).
dvpp::Chip CurrentChip();
// The memory rule: DVPP buffers come from acldvppMalloc on 310, 910 and 310P; 910B and 310B
// take device memory from aclrtMalloc too.
aclError CheckBuffer(const void* p, size_t bytes, const char* fn, const char* what);

// Runs `set` on a live handle of `kind` under the lock; a stale or foreign handle is
// ACL_ERROR_INVALID_PARAM naming the call.
template <typename T, typename F>
aclError SetLive(T* t, Kind kind, const char* fn, F set) {
  std::lock_guard<std::mutex> lock(Mutex());
  if (!t || !Live(t, kind))
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": not a live handle");
  set(*t);
  return ACL_SUCCESS;
}

// The same for a VDEC/VENC channel description, which is fixed once its channel exists.
template <typename T, typename F>
aclError SetUncreated(T* t, Kind kind, const char* fn, F set) {
  bool created = false;
  const aclError e = SetLive(t, kind, fn, [&](T& c) {
    created = c.created;
    if (!created) set(c);
  });
  if (e == ACL_SUCCESS && created)
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(fn) + ": the channel is created; set the description before");
  return e;
}

// A getter's value from a live handle, or CANN's default for a stale one.
template <typename R, typename T, typename F>
R GetLive(const T* t, Kind kind, R fallback, F get) {
  std::lock_guard<std::mutex> lock(Mutex());
  if (!t || !Live(t, kind)) return fallback;
  return get(*t);
}

// VDEC/VENC channels: their calls (create, send, destroy) run one at a time under the
// channel's own lock, and the description stays alive while one is in progress
// (aclvdecDestroyChannelDesc refuses meanwhile).
struct ChannelGate {
  std::mutex work;
  uint32_t calls = 0;  // calls in progress (under Mutex())
};

// One call on a channel whose description T has `ChannelGate gate` and `bool created`.
template <typename T>
class ChannelCall {
 public:
  explicit ChannelCall(T* t) : t_(t) {}
  ChannelCall(const ChannelCall&) = delete;
  ChannelCall& operator=(const ChannelCall&) = delete;
  ~ChannelCall() {
    if (!counted_) return;
    if (work_.owns_lock()) work_.unlock();
    std::lock_guard<std::mutex> lock(Mutex());
    --t_->gate.calls;
  }
  // The description live (kind) and, once the channel's lock is held, created or not as the
  // call needs; ACL_ERROR_INVALID_PARAM naming the call otherwise.
  aclError Enter(Kind kind, const char* fn, bool want_created) {
    {
      std::lock_guard<std::mutex> lock(Mutex());
      if (!t_ || !Live(t_, kind))
        return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": not a live channel description");
      ++t_->gate.calls;
      counted_ = true;
    }
    work_ = std::unique_lock<std::mutex>(t_->gate.work);
    std::lock_guard<std::mutex> lock(Mutex());
    if (t_->created != want_created)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + (want_created ? ": the channel is not created"
                                                  : ": the channel is created already"));
    return ACL_SUCCESS;
  }

 private:
  T* t_;
  bool counted_ = false;
  std::unique_lock<std::mutex> work_;
};

// VDEC's and VENC's callbacks reach the application through a stream of the channel's own,
// subscribed to its report thread (aclrtProcessReport there runs them). Close waits until the
// thread has run every callback, as CANN's channel destroy does.
aclError OpenReportStream(uint64_t thread, const char* fn, aclrtStream* stream);
aclError CloseReportStream(uint64_t thread, aclrtStream stream);

// The start of every single-picture VPC call (acl_dvpp_ops.cpp): waits for the stream's
// earlier work, copies the pictures out of live handles (no output when out_pic is null) and
// checks them against the chip's VPC rules and the DVPP memory rule.
aclError BeginVpc(const char* fn, const acldvppChannelDesc* ch, const acldvppPicDesc* in,
                  const acldvppPicDesc* out, aclrtStream stream, dvpp::Picture* in_pic,
                  dvpp::Picture* out_pic);
// A written picture's ret code, if its description is still live.
void SetPicRetCode(acldvppPicDesc* p, uint32_t code);

// One VPC operation: waits for the stream's earlier work, checks the
// pictures, regions and configuration against the chip's rules, and writes the output.
// same_size: the output must have the input's size (colour conversion).
aclError RunVpc(const char* fn, acldvppChannelDesc* ch, acldvppPicDesc* in, acldvppPicDesc* out,
                const acldvppRoiConfig* crop, const acldvppRoiConfig* paste,
                const acldvppResizeConfig* resize, aclrtStream stream, bool same_size);

}  // namespace oc::acl_dvpp
