// Streams, events and callbacks of the emulated NPU: each stream has a worker thread that
// runs its work in order; events and callbacks are work on it.
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_rt_state.h"
#include "acl/acl_state.h"

using oc::acl::Fail;
// The shared runtime state (acl_rt_state.h) by the short names the C functions use.
using oc::acl::rt::Context;
using oc::acl::rt::CurrentContext;
using oc::acl::rt::g_rt_mutex;
using oc::acl::rt::g_streams;
using oc::acl::rt::Stream;

namespace {

struct Event {
  std::chrono::steady_clock::time_point at;
  bool recorded = false;
  int pending = 0;         // records submitted to streams and not yet reached
  bool destroyed = false;  // aclrtDestroyEvent came first: the last pending record frees it
};

// Callbacks launched on a subscribed stream are handed to the subscribed thread, which
// runs them inside aclrtProcessReport. A callback the stream reaches while no thread is
// subscribed (aclrtUnSubscribeReport came between) waits for the next subscription of its
// stream: it is never dropped while the stream lives, and a blocking one holds its stream
// until it has run, so synchronizing the stream cannot report success before that.
struct PendingCallback {
  aclrtCallback fn;
  void* data;
  uint32_t stream_id;
  bool done = false;
};
using CallbackQueue = std::deque<std::shared_ptr<PendingCallback>>;
std::mutex g_cb_mutex;
std::condition_variable g_cb_cv;
std::map<uint32_t, uint64_t> g_subscriptions;   // stream id -> thread
std::map<uint64_t, CallbackQueue> g_callbacks;  // per subscribed thread
std::map<uint32_t, CallbackQueue> g_unclaimed;  // per stream id: reached while unsubscribed

// A thread with no subscribed stream and no callback left to run is a report thread no more
// (aclrtProcessReport then says so). The caller holds g_cb_mutex.
void ForgetThreadIfIdle(uint64_t thread) {
  for (const auto& [stream, th] : g_subscriptions)
    if (th == thread) return;
  auto it = g_callbacks.find(thread);
  if (it != g_callbacks.end() && it->second.empty()) g_callbacks.erase(it);
}

// Forgets a stream that is being destroyed (the caller holds g_cb_mutex): its subscription,
// its unclaimed callbacks; its blocking callbacks stop holding it. Those already handed to
// its thread stay for that thread's aclrtProcessReport.
void CloseStreamCallbacks(Stream* s) {
  if (auto it = g_subscriptions.find(s->id); it != g_subscriptions.end()) {
    const uint64_t thread = it->second;
    g_subscriptions.erase(it);
    ForgetThreadIfIdle(thread);
  }
  g_unclaimed.erase(s->id);
  *s->closing = true;
  g_cb_cv.notify_all();
}

// The live stream's id and closing flag; false for an unknown handle.
bool StreamRecord(aclrtStream stream, uint32_t* id, std::shared_ptr<bool>* closing) {
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* s = static_cast<Stream*>(stream);
  if (!g_streams.count(s)) return false;
  *id = s->id;
  if (closing) *closing = s->closing;
  return true;
}
std::condition_variable g_event_cv;
std::set<Event*> g_events;

}  // namespace

namespace oc::acl {

std::shared_ptr<oc::Queue> StreamOf(aclrtStream stream, aclError* error) {
  *error = ACL_SUCCESS;
  if (!stream) return nullptr;
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* s = static_cast<::Stream*>(stream);
  if (!g_streams.count(s)) {
    *error = Fail(ACL_ERROR_INVALID_PARAM, "unknown stream handle");
    return nullptr;
  }
  return s->worker;
}

uint32_t StreamIdOf(aclrtStream stream) {
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* s = static_cast<::Stream*>(stream);
  return stream && g_streams.count(s) ? s->id : 0;
}

size_t ReleaseStreams() {
  std::set<::Stream*> streams;
  {
    std::lock_guard<std::mutex> lock(g_rt_mutex);
    streams.swap(g_streams);
  }
  {
    std::lock_guard<std::mutex> lock(g_cb_mutex);
    for (auto* s : streams) CloseStreamCallbacks(s);
  }
  // Queued work runs (and fails fast: aclFinalize came first), then the join (by the last
  // holder of the queue: a call using it on another thread finishes first).
  for (auto* s : streams) delete s;
  return streams.size();
}

}  // namespace oc::acl

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(stream);
  const auto c = CurrentContext();
  if (!c) return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream: call aclrtSetDevice first");
  static std::atomic<uint32_t> next_id{1};
  auto* s = new Stream();
  s->worker = oc::acl::State::Get().device_backend().CreateQueue();  // the device's queue
  s->device = c.device;
  s->id = next_id++;
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  g_streams.insert(s);
  *stream = s;
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(stream);
  auto* s = static_cast<Stream*>(stream);
  {
    std::lock_guard<std::mutex> lock(g_rt_mutex);
    if (!g_streams.erase(s))
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: unknown stream");
  }
  {
    // A blocking callback still queued holds the stream's worker until a report thread runs
    // it: it stops holding once its stream goes (the callback itself stays queued for
    // aclrtProcessReport), so destroying never waits on a thread that may be this one.
    std::lock_guard<std::mutex> lock(g_cb_mutex);
    CloseStreamCallbacks(s);
  }
  delete s;  // runs what is queued, then joins the worker (unless another call still holds it)
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  OC_ACL_REQUIRE_CONTEXT();
  aclError e = ACL_SUCCESS;
  std::shared_ptr<oc::Queue> worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  if (!worker) return ACL_SUCCESS;
  oc::Status st = worker->Synchronize();
  if (!st.ok()) return oc::acl::FailStatus(st, oc::acl::Phase::kExecute, "aclrtSynchronizeStream");
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  OC_ACL_REQUIRE_CONTEXT();
  if (timeout < -1)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStreamWithTimeout: timeout " +
                                             std::to_string(timeout) + " must be -1 or more");
  aclError e = ACL_SUCCESS;
  std::shared_ptr<oc::Queue> worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  if (!worker) return ACL_SUCCESS;
  oc::Status st = worker->Synchronize(timeout);
  if (st.cann_code() == "507046")
    return Fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                "aclrtSynchronizeStreamWithTimeout: " + st.message());
  if (!st.ok())
    return oc::acl::FailStatus(st, oc::acl::Phase::kExecute, "aclrtSynchronizeStreamWithTimeout");
  return ACL_SUCCESS;
}

aclError aclrtCreateEvent(aclrtEvent* event) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(event);
  auto* e = new Event();
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  g_events.insert(e);
  *event = e;
  return ACL_SUCCESS;
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(event);
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* e = static_cast<Event*>(event);
  if (!g_events.erase(e)) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: unknown event");
  // A record still queued on a stream writes the event when the stream reaches it: it frees
  // the event then, and waiters see it gone.
  if (e->pending > 0)
    e->destroyed = true;
  else
    delete e;
  g_event_cv.notify_all();
  return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(event);
  aclError e = ACL_SUCCESS;
  std::shared_ptr<oc::Queue> worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  auto* ev = static_cast<Event*>(event);
  {
    std::lock_guard<std::mutex> lock(g_rt_mutex);
    if (!g_events.count(ev))
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtRecordEvent: unknown event");
    ++ev->pending;
  }
  auto record = [ev] {
    std::lock_guard<std::mutex> lock(g_rt_mutex);
    ev->at = std::chrono::steady_clock::now();
    ev->recorded = true;
    --ev->pending;
    if (ev->destroyed && ev->pending == 0) delete ev;
    g_event_cv.notify_all();
    return oc::Status::Ok();
  };
  if (worker)
    worker->Submit(record, /*always=*/true);
  else
    record().IgnoreError();
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(event);
  auto* ev = static_cast<Event*>(event);
  std::unique_lock<std::mutex> lock(g_rt_mutex);
  if (!g_events.count(ev))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeEvent: unknown event");
  // Destroyed meanwhile (its last record may have freed it): membership first.
  g_event_cv.wait(lock, [&] { return !g_events.count(ev) || ev->pending == 0; });
  return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent start, aclrtEvent end) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(ms);
  OC_ACL_CHECK_NULL(start);
  OC_ACL_CHECK_NULL(end);
  std::lock_guard<std::mutex> lock(g_rt_mutex);
  auto* a = static_cast<Event*>(start);
  auto* b = static_cast<Event*>(end);
  if (!g_events.count(a) || !g_events.count(b))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: unknown event");
  if (!a->recorded || !b->recorded || a->pending || b->pending)
    return Fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                "aclrtEventElapsedTime: an event has not completed; synchronize it first");
  *ms = std::chrono::duration<float, std::milli>(b->at - a->at).count();
  return ACL_SUCCESS;
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(stream);
  uint32_t id = 0;
  if (!StreamRecord(stream, &id, nullptr))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSubscribeReport: unknown stream handle");
  std::lock_guard<std::mutex> lock(g_cb_mutex);
  if (g_subscriptions.count(id))
    return Fail(ACL_ERROR_REPEAT_SUBSCRIBE,
                "aclrtSubscribeReport: the stream is already subscribed");
  g_subscriptions[id] = threadId;
  CallbackQueue& queue = g_callbacks[threadId];
  // Callbacks the stream reached while it had no thread are this one's now.
  if (auto it = g_unclaimed.find(id); it != g_unclaimed.end()) {
    for (auto& cb : it->second) queue.push_back(std::move(cb));
    g_unclaimed.erase(it);
  }
  g_cb_cv.notify_all();  // a thread waiting in aclrtProcessReport for its subscription
  return ACL_SUCCESS;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  OC_ACL_REQUIRE_CONTEXT();
  OC_ACL_CHECK_NULL(fn);
  OC_ACL_CHECK_NULL(stream);
  aclError e = ACL_SUCCESS;
  std::shared_ptr<oc::Queue> worker = oc::acl::StreamOf(stream, &e);
  if (e != ACL_SUCCESS) return e;
  if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: unknown block type");
  uint32_t id = 0;
  std::shared_ptr<bool> closing;
  if (!StreamRecord(stream, &id, &closing))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: unknown stream handle");
  {
    std::lock_guard<std::mutex> lock(g_cb_mutex);
    if (!g_subscriptions.count(id))
      return Fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE,
                  "aclrtLaunchCallback: call aclrtSubscribeReport for this stream first");
  }
  const bool block = blockType == ACL_CALLBACK_BLOCK;
  worker->Submit(
      [=] {
        std::unique_lock<std::mutex> lock(g_cb_mutex);
        if (*closing) return oc::Status::Ok();  // the stream is being destroyed: dropped
        auto cb = std::make_shared<PendingCallback>(PendingCallback{fn, userData, id});
        // The thread subscribed when the stream reaches the callback runs it.
        auto sub = g_subscriptions.find(id);
        if (sub != g_subscriptions.end())
          g_callbacks[sub->second].push_back(cb);
        else
          g_unclaimed[id].push_back(cb);
        g_cb_cv.notify_all();
        // A blocking callback holds the stream until it has run (or the stream is being
        // destroyed): until then the stream's work is not done.
        if (block) g_cb_cv.wait(lock, [&] { return cb->done || *closing; });
        return oc::Status::Ok();
      },
      /*always=*/true);
  return ACL_SUCCESS;
}

aclError aclrtProcessReport(int32_t timeout) {
  OC_ACL_REQUIRE_INIT();
  if (timeout < -1)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtProcessReport: timeout must be -1 or more");
  const uint64_t self = static_cast<uint64_t>(pthread_self());
  std::unique_lock<std::mutex> lock(g_cb_mutex);
  // CANN's samples start the report thread before the channel that subscribes it: a call
  // with a timeout waits that long for a subscription instead of returning at once into a
  // busy loop (-1 does not wait: no subscription may ever come).
  auto subscribed = [&] { return g_callbacks.count(self) > 0; };
  if (!subscribed() &&
      (timeout < 0 || !g_cb_cv.wait_for(lock, std::chrono::milliseconds(timeout), subscribed)))
    return Fail(
        ACL_ERROR_THREAD_NOT_SUBSCRIBE,
        "aclrtProcessReport: no stream is subscribed to this thread (aclrtSubscribeReport)");
  // Ready when a callback is there, or when the thread's last stream went meanwhile.
  auto ready = [&] {
    auto it = g_callbacks.find(self);
    return it == g_callbacks.end() || !it->second.empty();
  };
  if (timeout < 0) {
    g_cb_cv.wait(lock, ready);
  } else if (!g_cb_cv.wait_for(lock, std::chrono::milliseconds(timeout), ready)) {
    return Fail(ACL_ERROR_WAIT_CALLBACK_TIMEOUT,
                "aclrtProcessReport: no callback within the timeout");
  }
  auto it = g_callbacks.find(self);
  if (it == g_callbacks.end())
    return Fail(ACL_ERROR_THREAD_NOT_SUBSCRIBE,
                "aclrtProcessReport: the thread's streams were unsubscribed while it waited");
  auto cb = it->second.front();
  it->second.pop_front();
  lock.unlock();
  const double t0 = oc::acl::NowUs();
  cb->fn(cb->data);
  oc::acl::TimelineEvent("callback", "callback", t0);
  lock.lock();
  cb->done = true;
  ForgetThreadIfIdle(self);
  g_cb_cv.notify_all();
  return ACL_SUCCESS;
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  OC_ACL_REQUIRE_INIT();
  OC_ACL_CHECK_NULL(stream);
  uint32_t id = 0;
  // A stale or made-up stream is that, not "not subscribed".
  if (!StreamRecord(stream, &id, nullptr))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtUnSubscribeReport: unknown stream handle");
  std::lock_guard<std::mutex> lock(g_cb_mutex);
  auto it = g_subscriptions.find(id);
  if (it == g_subscriptions.end() || it->second != threadId)
    return Fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE,
                "aclrtUnSubscribeReport: the stream is not subscribed to this thread");
  g_subscriptions.erase(it);
  // The stream's callbacks not yet run wait for its next subscription (a blocking one keeps
  // holding the stream meanwhile); the thread keeps those of its other streams.
  CallbackQueue& mine = g_callbacks[threadId];
  CallbackQueue kept;
  for (auto& cb : mine) (cb->stream_id == id ? g_unclaimed[id] : kept).push_back(std::move(cb));
  mine.swap(kept);
  ForgetThreadIfIdle(threadId);
  g_cb_cv.notify_all();
  return ACL_SUCCESS;
}

}  // extern "C"
