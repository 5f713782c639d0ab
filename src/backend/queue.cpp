#include "backend/queue.h"

#include <chrono>

namespace oc {

namespace {
thread_local bool t_queue_worker = false;
}  // namespace

bool Queue::OnWorkerThread() { return t_queue_worker; }

HostQueue::HostQueue()
    : worker_([this] {
        t_queue_worker = true;
        Work();
      }) {}

HostQueue::~HostQueue() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

void HostQueue::Submit(std::function<Status()> task, bool always) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.emplace_back(std::move(task), always);
  }
  wake_.notify_one();
}

Status HostQueue::Synchronize() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return queue_.empty() && running_ == 0; });
  Status s = error_;
  error_ = Status::Ok();
  return s;
}

Status HostQueue::Synchronize(int32_t timeout_ms) {
  if (timeout_ms < 0) return Synchronize();
  std::unique_lock<std::mutex> lock(mutex_);
  if (!idle_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                      [&] { return queue_.empty() && running_ == 0; }))
    return Status(StatusCode::kInternal,
                  "the stream's work did not finish within " + std::to_string(timeout_ms) + " ms",
                  "507046");
  Status s = error_;
  error_ = Status::Ok();
  return s;
}

void HostQueue::Work() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) {
      if (stop_) return;
      continue;
    }
    auto [task, always] = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    const bool skip = !error_.ok() && !always;
    lock.unlock();
    Status s = skip ? Status::Ok() : task();
    lock.lock();
    --running_;
    if (!s.ok() && error_.ok()) error_ = s;
    if (queue_.empty() && running_ == 0) idle_.notify_all();
  }
}

}  // namespace oc
