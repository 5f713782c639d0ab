// Queues: the backend seam's ordered work. A backend runs submitted work in submission
// order and different queues concurrently; an aclrtStream is a queue of the device's
// backend, an aclrtEvent a task recorded on one. The first failure is kept until
// Synchronize reports it, and later work on the queue is skipped meanwhile (a failed stream
// stops, as on an NPU); `always` tasks (event records, callbacks) run even then, so nobody
// waiting on them hangs.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "base/status.h"

namespace oc {

class Queue {
 public:
  virtual ~Queue() = default;
  virtual void Submit(std::function<Status()> task, bool always = false) = 0;
  // Waits until everything submitted so far has run; returns (and clears) the first error.
  virtual Status Synchronize() = 0;
  // Waits at most timeout_ms (negative: forever); a timeout leaves the work queued and says
  // so with CANN's ACL_ERROR_RT_STREAM_SYNC_TIMEOUT.
  virtual Status Synchronize(int32_t timeout_ms) = 0;

  // True on a thread that runs a queue's tasks: work on a stream runs in the context the
  // stream belongs to, so the runtime's "current context" rule is met there.
  static bool OnWorkerThread();
};

// The host's queue: a worker thread that runs the tasks in order. The default queue of a
// backend (Backend::CreateQueue); the destructor finishes queued work, then joins.
class HostQueue final : public Queue {
 public:
  HostQueue();
  ~HostQueue() override;
  HostQueue(const HostQueue&) = delete;
  HostQueue& operator=(const HostQueue&) = delete;

  void Submit(std::function<Status()> task, bool always = false) override;
  Status Synchronize() override;
  Status Synchronize(int32_t timeout_ms) override;

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
