/* Destroy while in use: threads share slots of AscendCL handles (datasets, data buffers, device
 * memory, tensor descriptions, model descriptions, streams, events, contexts, operator
 * attributes, AIPP sets, loaded models) and, in random order, use them and destroy and
 * recreate them under each other's feet. Every call must return success or one of the clean
 * error codes a stale handle earns (ACL_ERROR_INVALID_PARAM, the runtime's codes for an
 * unknown stream or a freed pointer, ACL_ERROR_INVALID_MODEL_ID), never crash, and, in a
 * sanitizer build, never read freed memory.
 *
 * What the threads race on is the handles. The bytes in device memory are another matter: two
 * executions writing one output buffer at once race in the application, whatever the
 * library does, and a stale pointer may name memory another slot uses now. So every call that
 * reads or writes device memory's contents holds g_memory (as an application orders its
 * uses), and the destroys, recreations and handle queries run beside them unordered.
 *
 * usage: oc_acl_race MODEL.om [THREADS] [ITERATIONS]
 * Prints "race: ..." and exits 0 when every code was an expected one. */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define SLOTS 3
#define MAX_IO 8
#define MAX_THREADS 64

static const char* g_model_path;
static uint32_t g_model;
static size_t g_inputs, g_outputs, g_in_size[MAX_IO], g_out_size[MAX_IO];
static int64_t g_in_dims[ACL_MAX_DIM_CNT];
static int g_in_rank;
static atomic_long g_ops, g_clean_errors, g_unexpected;
static pthread_mutex_t g_memory = PTHREAD_MUTEX_INITIALIZER;

/* The device memory of a slot's datasets, owned by whoever swaps it out (the buffers' addresses
 * are not read back: aclUpdateDataBuffer on a stale buffer whose address came back as a new
 * buffer may change them, as an application's stale handle would). */
struct RunMem {
  void* in[MAX_IO];
  void* out[MAX_IO];
};

/* One set of handles that threads use and replace. Fields are read one at a time: a reader
 * may see a mix of old and new handles, or a handle destroyed right after it read it. */
struct Slot {
  _Atomic(aclmdlDataset*) in;
  _Atomic(aclmdlDataset*) out;
  _Atomic(void*) dev_in;  /* the first input's device memory */
  _Atomic(void*) dev_out; /* the first output's device memory */
  _Atomic(struct RunMem*) mem;
  _Atomic(aclTensorDesc*) desc;
  _Atomic(aclmdlDesc*) mdesc;
  _Atomic(aclrtStream) stream;
  _Atomic(aclrtEvent) event;
  _Atomic(aclrtContext) context;
  _Atomic(aclopAttr*) attr;
  _Atomic(aclmdlAIPP*) aipp;
  _Atomic(uint32_t) model; /* a model of its own, loaded and unloaded */
};
static struct Slot g_slots[SLOTS];

/* Host memory the queued copies write into: lives until every stream is gone. */
static unsigned char* g_host[MAX_THREADS];
static size_t g_host_size;

/* Counts rc: success, one of the n expected error codes, or unexpected (printed). */
static void Expect(const char* what, aclError rc, int n, ...) {
  atomic_fetch_add(&g_ops, 1);
  if (rc == ACL_SUCCESS) return;
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; ++i)
    if (rc == va_arg(ap, int)) {
      va_end(ap);
      atomic_fetch_add(&g_clean_errors, 1);
      return;
    }
  va_end(ap);
  atomic_fetch_add(&g_unexpected, 1);
  fprintf(stderr, "unexpected: %s returned %d: %s\n", what, rc, aclGetRecentErrMsg());
}

/* A stale dataset or buffer; memory freed under a copy; a failed queued execution. */
#define CLEAN                                                                         \
  4, ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_PARAM_INVALID, ACL_ERROR_INVALID_MODEL_ID, \
      ACL_ERROR_RT_MODEL_EXECUTE

static void DestroyRun(aclmdlDataset* in, aclmdlDataset* out, struct RunMem* mem) {
  for (aclmdlDataset* ds = in;; ds = out) {
    if (ds) {
      size_t n = aclmdlGetDatasetNumBuffers(ds);
      for (size_t i = 0; i < n; ++i)
        Expect("aclDestroyDataBuffer", aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i)), 0);
      Expect("aclmdlDestroyDataset", aclmdlDestroyDataset(ds), 0);
    }
    if (ds == out) break;
  }
  if (!mem) return;
  for (size_t i = 0; i < g_inputs; ++i) Expect("aclrtFree", aclrtFree(mem->in[i]), 0);
  for (size_t o = 0; o < g_outputs; ++o) Expect("aclrtFree", aclrtFree(mem->out[o]), 0);
  free(mem);
}

/* Datasets over fresh device memory, swapped into the slot; the old ones destroyed. */
static void ReplaceRun(struct Slot* s) {
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  struct RunMem* mem = calloc(1, sizeof(struct RunMem));
  void* first_in = NULL;
  void* first_out = NULL;
  for (size_t i = 0; i < g_inputs; ++i) {
    void* p = NULL;
    Expect("aclrtMalloc", aclrtMalloc(&p, g_in_size[i], ACL_MEM_MALLOC_HUGE_FIRST), 0);
    pthread_mutex_lock(&g_memory);
    Expect("aclrtMemset", aclrtMemset(p, g_in_size[i], 0, g_in_size[i]), 0);
    pthread_mutex_unlock(&g_memory);
    Expect("aclmdlAddDatasetBuffer",
           aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(p, g_in_size[i])), 0);
    mem->in[i] = p;
    if (i == 0) first_in = p;
  }
  for (size_t o = 0; o < g_outputs; ++o) {
    void* p = NULL;
    Expect("aclrtMalloc", aclrtMalloc(&p, g_out_size[o], ACL_MEM_MALLOC_HUGE_FIRST), 0);
    Expect("aclmdlAddDatasetBuffer",
           aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(p, g_out_size[o])), 0);
    mem->out[o] = p;
    if (o == 0) first_out = p;
  }
  aclmdlDataset* old_in = atomic_exchange(&s->in, in);
  aclmdlDataset* old_out = atomic_exchange(&s->out, out);
  atomic_exchange(&s->dev_in, first_in);
  atomic_exchange(&s->dev_out, first_out);
  struct RunMem* old_mem = atomic_exchange(&s->mem, mem);
  /* This thread alone holds the old ones now: each destroy must succeed, whatever the other
   * threads are doing with them (a queued execution finishes first). */
  DestroyRun(old_in, old_out, old_mem);
}

static void ReplaceOthers(struct Slot* s, int which) {
  switch (which) {
    case 0: {
      aclTensorDesc* d = aclCreateTensorDesc(ACL_FLOAT, g_in_rank, g_in_dims, ACL_FORMAT_ND);
      if (!d) Expect("aclCreateTensorDesc", ACL_ERROR_FAILURE, 0);
      aclDestroyTensorDesc(atomic_exchange(&s->desc, d));
      break;
    }
    case 1: {
      aclmdlDesc* d = aclmdlCreateDesc();
      aclmdlDesc* old = atomic_exchange(&s->mdesc, d);
      if (old) Expect("aclmdlDestroyDesc", aclmdlDestroyDesc(old), 0);
      break;
    }
    case 2: {
      aclrtStream st = NULL;
      Expect("aclrtCreateStream", aclrtCreateStream(&st), 0);
      aclrtStream old = atomic_exchange(&s->stream, st);
      if (old) Expect("aclrtDestroyStream", aclrtDestroyStream(old), 0);
      break;
    }
    case 3: {
      aclrtEvent ev = NULL;
      Expect("aclrtCreateEvent", aclrtCreateEvent(&ev), 0);
      aclrtEvent old = atomic_exchange(&s->event, ev);
      if (old) Expect("aclrtDestroyEvent", aclrtDestroyEvent(old), 0);
      break;
    }
    case 4: {
      aclrtContext c = NULL;
      Expect("aclrtCreateContext", aclrtCreateContext(&c, 0), 0);
      aclrtContext old = atomic_exchange(&s->context, c);
      if (old) Expect("aclrtDestroyContext", aclrtDestroyContext(old), 0);
      Expect("aclrtSetDevice", aclrtSetDevice(0), 0); /* back to the default context */
      break;
    }
    case 5: {
      aclopDestroyAttr(atomic_exchange(&s->attr, aclopCreateAttr()));
      aclmdlAIPP* old = atomic_exchange(&s->aipp, aclmdlCreateAIPP(1));
      if (old) Expect("aclmdlDestroyAIPP", aclmdlDestroyAIPP(old), 0);
      break;
    }
    default: {
      uint32_t id = 0;
      Expect("aclmdlLoadFromFile", aclmdlLoadFromFile(g_model_path, &id), 0);
      uint32_t old = atomic_exchange(&s->model, id);
      if (old) Expect("aclmdlUnload", aclmdlUnload(old), 0);
      break;
    }
  }
}

/* A thread's own device memory for the model's inputs and outputs. */
struct Private {
  void* in[MAX_IO];
  void* out[MAX_IO];
};

/* One use of a slot's handles, of the given kind. */
static void Use(struct Slot* s, int kind, aclrtStream own, unsigned char* host,
                const struct Private* mine) {
  aclmdlDataset* in = atomic_load(&s->in);
  aclmdlDataset* out = atomic_load(&s->out);
  switch (kind) {
    case 0:
      pthread_mutex_lock(&g_memory);
      Expect("aclmdlExecute", aclmdlExecute(g_model, in, out), CLEAN);
      pthread_mutex_unlock(&g_memory);
      break;
    case 1:
      pthread_mutex_lock(&g_memory);
      Expect("aclmdlExecuteAsync", aclmdlExecuteAsync(g_model, in, out, own), CLEAN);
      Expect("aclrtSynchronizeStream", aclrtSynchronizeStream(own), CLEAN);
      pthread_mutex_unlock(&g_memory);
      break;
    case 2: { /* on the slot's stream, which another thread may destroy meanwhile (so a
               * failed synchronization does not mean the work is over): datasets of its own
               * over this thread's memory, whose destroy waits for the work queued with them */
      aclrtStream st = atomic_load(&s->stream);
      void* tmp = NULL;
      pthread_mutex_lock(&g_memory);
      aclmdlDataset *fin = aclmdlCreateDataset(), *fout = aclmdlCreateDataset();
      for (size_t i = 0; i < g_inputs; ++i)
        Expect("aclmdlAddDatasetBuffer",
               aclmdlAddDatasetBuffer(fin, aclCreateDataBuffer(mine->in[i], g_in_size[i])), 0);
      for (size_t o = 0; o < g_outputs; ++o)
        Expect("aclmdlAddDatasetBuffer",
               aclmdlAddDatasetBuffer(fout, aclCreateDataBuffer(mine->out[o], g_out_size[o])), 0);
      Expect("aclrtMalloc", aclrtMalloc(&tmp, g_out_size[0], ACL_MEM_MALLOC_HUGE_FIRST), 0);
      Expect("aclmdlExecuteAsync", aclmdlExecuteAsync(g_model, fin, fout, st), CLEAN);
      Expect("aclrtMemcpyAsync",
             aclrtMemcpyAsync(tmp, g_out_size[0], mine->out[0], g_out_size[0],
                              ACL_MEMCPY_DEVICE_TO_DEVICE, st),
             CLEAN);
      Expect("aclrtSynchronizeStream", aclrtSynchronizeStream(st), CLEAN);
      DestroyRun(fin, fout, NULL);            /* after the queued execution */
      Expect("aclrtFree", aclrtFree(tmp), 0); /* after the queued copy */
      pthread_mutex_unlock(&g_memory);
      break;
    }
    case 3: { /* reading the datasets, buffers and descriptions */
      size_t n = aclmdlGetDatasetNumBuffers(in);
      aclDataBuffer* b = aclmdlGetDatasetBuffer(in, 0);
      void* addr = aclGetDataBufferAddr(b);
      size_t size = aclGetDataBufferSizeV2(b);
      if (addr) Expect("aclUpdateDataBuffer", aclUpdateDataBuffer(b, addr, size), CLEAN);
      (void)n;
      aclTensorDesc* owned = aclmdlGetDatasetTensorDesc(in, 0);
      (void)aclGetTensorDescType(owned);
      (void)aclGetTensorDescSize(owned);
      aclTensorDesc* d = atomic_load(&s->desc);
      int64_t dim = 0;
      Expect("aclGetTensorDescDimV2", aclGetTensorDescDimV2(d, 0, &dim), CLEAN);
      (void)aclGetTensorDescNumDims(d);
      (void)aclGetTensorDescElementCount(d);
      Expect("aclmdlSetDatasetTensorDesc", aclmdlSetDatasetTensorDesc(in, d, 0), CLEAN);
      break;
    }
    case 4: { /* copies and fills of device memory another thread frees */
      void* dev = atomic_load(&s->dev_out);
      pthread_mutex_lock(&g_memory);
      Expect("aclrtMemcpy",
             aclrtMemcpy(host, g_host_size, dev, g_out_size[0], ACL_MEMCPY_DEVICE_TO_HOST), CLEAN);
      Expect("aclrtMemset", aclrtMemset(atomic_load(&s->dev_in), g_in_size[0], 0, g_in_size[0]),
             CLEAN);
      pthread_mutex_unlock(&g_memory);
      break;
    }
    case 5: { /* model descriptions */
      aclmdlDesc* d = atomic_load(&s->mdesc);
      aclmdlIODims dims;
      Expect("aclmdlGetDesc", aclmdlGetDesc(d, g_model), CLEAN);
      (void)aclmdlGetNumInputs(d);
      (void)aclmdlGetInputSizeByIndex(d, 0);
      Expect("aclmdlGetInputDims", aclmdlGetInputDims(d, 0, &dims), CLEAN);
      (void)aclmdlGetInputDataType(d, 0);
      break;
    }
    case 6: { /* events, recorded on this thread's stream */
      aclrtEvent ev = atomic_load(&s->event);
      float ms = 0;
      Expect("aclrtRecordEvent", aclrtRecordEvent(ev, own), CLEAN);
      Expect("aclrtSynchronizeEvent", aclrtSynchronizeEvent(ev), CLEAN);
      Expect("aclrtEventElapsedTime", aclrtEventElapsedTime(&ms, ev, ev), 2,
             ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
      Expect("aclrtSynchronizeStream", aclrtSynchronizeStream(own), CLEAN);
      break;
    }
    case 7: { /* contexts */
      aclrtContext c = NULL;
      Expect("aclrtSetCurrentContext", aclrtSetCurrentContext(atomic_load(&s->context)), CLEAN);
      Expect("aclrtGetCurrentContext", aclrtGetCurrentContext(&c), 1, ACL_ERROR_RT_CONTEXT_NULL);
      Expect("aclrtSetDevice", aclrtSetDevice(0), 0);
      break;
    }
    case 8: /* operator attributes and AIPP sets */
      Expect("aclopSetAttrInt", aclopSetAttrInt(atomic_load(&s->attr), "n", 3), CLEAN);
      Expect("aclmdlSetAIPPSrcImageSize", aclmdlSetAIPPSrcImageSize(atomic_load(&s->aipp), 8, 8),
             CLEAN);
      break;
    default: /* a model another thread unloads */
      pthread_mutex_lock(&g_memory);
      Expect("aclmdlExecute", aclmdlExecute(atomic_load(&s->model), in, out), CLEAN);
      pthread_mutex_unlock(&g_memory);
      break;
  }
}

struct Worker {
  int index, iterations;
};

static void* WorkerMain(void* arg) {
  struct Worker* w = (struct Worker*)arg;
  unsigned rng = 0x2545F491u * (unsigned)(w->index + 1);
  aclrtStream own = NULL;
  struct Private mine;
  memset(&mine, 0, sizeof(mine));
  Expect("aclrtSetDevice", aclrtSetDevice(0), 0);
  Expect("aclrtCreateStream", aclrtCreateStream(&own), 0);
  pthread_mutex_lock(&g_memory);
  for (size_t i = 0; i < g_inputs; ++i) {
    Expect("aclrtMalloc", aclrtMalloc(&mine.in[i], g_in_size[i], ACL_MEM_MALLOC_HUGE_FIRST), 0);
    Expect("aclrtMemset", aclrtMemset(mine.in[i], g_in_size[i], 0, g_in_size[i]), 0);
  }
  for (size_t o = 0; o < g_outputs; ++o)
    Expect("aclrtMalloc", aclrtMalloc(&mine.out[o], g_out_size[o], ACL_MEM_MALLOC_HUGE_FIRST), 0);
  pthread_mutex_unlock(&g_memory);
  for (int i = 0; i < w->iterations; ++i) {
    struct Slot* s = &g_slots[rand_r(&rng) % SLOTS];
    const unsigned r = rand_r(&rng) % 100;
    if (r < 12)
      ReplaceRun(s);
    else if (r < 26) {
      const int which = (int)(rand_r(&rng) % 24);
      ReplaceOthers(s, which < 23 ? which % 6 : 6); /* a model load now and then: slower */
    } else
      Use(s, (int)(rand_r(&rng) % 10), own, g_host[w->index], &mine);
  }
  Expect("aclrtSynchronizeStream", aclrtSynchronizeStream(own), CLEAN);
  Expect("aclrtDestroyStream", aclrtDestroyStream(own), 0);
  for (size_t i = 0; i < g_inputs; ++i) Expect("aclrtFree", aclrtFree(mine.in[i]), 0);
  for (size_t o = 0; o < g_outputs; ++o) Expect("aclrtFree", aclrtFree(mine.out[o]), 0);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MODEL.om [THREADS] [ITERATIONS]\n", argv[0]);
    return 2;
  }
  g_model_path = argv[1];
  const int threads = argc > 2 ? atoi(argv[2]) : 8;
  const int iterations = argc > 3 ? atoi(argv[3]) : 200;
  if (threads < 1 || threads > MAX_THREADS || iterations < 0) return 2;
  if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  if (aclmdlLoadFromFile(g_model_path, &g_model) != ACL_SUCCESS) {
    fprintf(stderr, "load failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  aclmdlDesc* desc = aclmdlCreateDesc();
  aclmdlIODims dims;
  aclmdlGetDesc(desc, g_model);
  g_inputs = aclmdlGetNumInputs(desc);
  g_outputs = aclmdlGetNumOutputs(desc);
  if (g_inputs == 0 || g_outputs == 0 || g_inputs > MAX_IO || g_outputs > MAX_IO) return 2;
  for (size_t i = 0; i < g_inputs; ++i) g_in_size[i] = aclmdlGetInputSizeByIndex(desc, i);
  for (size_t o = 0; o < g_outputs; ++o) g_out_size[o] = aclmdlGetOutputSizeByIndex(desc, o);
  if (aclmdlGetInputDims(desc, 0, &dims) != ACL_SUCCESS || dims.dimCount > 8) return 2;
  g_in_rank = (int)dims.dimCount;
  for (int i = 0; i < g_in_rank; ++i) g_in_dims[i] = dims.dims[i];
  aclmdlDestroyDesc(desc);
  g_host_size = g_out_size[0];
  for (int t = 0; t < threads; ++t) g_host[t] = malloc(g_host_size);

  for (int k = 0; k < SLOTS; ++k) {
    ReplaceRun(&g_slots[k]);
    for (int which = 0; which < 7; ++which) ReplaceOthers(&g_slots[k], which);
  }
  /* Only the counts of what the threads do. */
  atomic_store(&g_ops, 0);
  atomic_store(&g_clean_errors, 0);

  pthread_t tid[MAX_THREADS];
  struct Worker work[MAX_THREADS];
  for (int t = 0; t < threads; ++t) {
    work[t].index = t;
    work[t].iterations = iterations;
    pthread_create(&tid[t], NULL, WorkerMain, &work[t]);
  }
  for (int t = 0; t < threads; ++t) pthread_join(tid[t], NULL);
  const long ops = atomic_load(&g_ops), clean = atomic_load(&g_clean_errors);

  /* Teardown: everything left destroys cleanly. */
  for (int k = 0; k < SLOTS; ++k) {
    struct Slot* s = &g_slots[k];
    aclrtStream st = atomic_exchange(&s->stream, NULL);
    Expect("aclrtDestroyStream", aclrtDestroyStream(st), 0);
    aclmdlDataset* last_in = atomic_exchange(&s->in, NULL);
    aclmdlDataset* last_out = atomic_exchange(&s->out, NULL);
    DestroyRun(last_in, last_out, atomic_exchange(&s->mem, NULL));
    aclDestroyTensorDesc(atomic_exchange(&s->desc, NULL));
    Expect("aclmdlDestroyDesc", aclmdlDestroyDesc(atomic_exchange(&s->mdesc, NULL)), 0);
    Expect("aclrtDestroyEvent", aclrtDestroyEvent(atomic_exchange(&s->event, NULL)), 0);
    Expect("aclrtDestroyContext", aclrtDestroyContext(atomic_exchange(&s->context, NULL)), 0);
    aclopDestroyAttr(atomic_exchange(&s->attr, NULL));
    Expect("aclmdlDestroyAIPP", aclmdlDestroyAIPP(atomic_exchange(&s->aipp, NULL)), 0);
    Expect("aclmdlUnload", aclmdlUnload(atomic_exchange(&s->model, 0)), 0);
  }
  Expect("aclmdlUnload", aclmdlUnload(g_model), 0);
  Expect("aclrtResetDevice", aclrtResetDevice(0), 0);
  Expect("aclFinalize", aclFinalize(), 0);
  for (int t = 0; t < threads; ++t) free(g_host[t]);
  const long unexpected = atomic_load(&g_unexpected);
  printf(
      "race: %d threads, %ld operations, %ld clean errors from racing destroys, %ld "
      "unexpected codes\n",
      threads, ops, clean, unexpected);
  return unexpected ? 1 : 0;
}
