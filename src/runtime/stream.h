// A stream: work submitted to it runs in order on its own worker thread; different
// streams run concurrently. The first failure is kept until Synchronize reports it, and
// later work on the stream is skipped meanwhile (a failed stream stops, as on an NPU).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "base/status.h"

namespace oc {

class Stream {
 public:
  Stream();
  ~Stream();  // finishes queued work, then joins the worker
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // `always` tasks (event records, callbacks) run even after a failure, so nobody waiting
  // on them hangs.
  void Submit(std::function<Status()> task, bool always = false);
  // Waits until everything submitted so far has run; returns (and clears) the first error.
  Status Synchronize();
  // Waits at most timeout_ms (negative: forever); a timeout leaves the work queued and says
  // so with CANN's ACL_ERROR_RT_STREAM_SYNC_TIMEOUT.
  Status Synchronize(int32_t timeout_ms);

 private:
  void Work();

  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::deque<std::pair<std::function<Status()>, bool>> queue_;
  size_t running_ = 0;
  bool stop_ = false;
  Status error_;
  std::thread worker_;
};

}  // namespace oc
