/* Many threads using AscendCL at once, in random order: load and unload models (from a file
 * and from memory), execute synchronously and asynchronously on their own streams, record,
 * wait for and destroy events, destroy streams with work queued, unload the model and free
 * its buffers while its executions are still queued. Every output must equal,
 * bit for bit, what one thread computed first for the same input. A second mode calls
 * aclFinalize while the threads still have executions queued: it must return, and the
 * threads' later calls must return codes, not crash.
 *
 * usage: oc_acl_stress MODEL.om [THREADS] [ITERATIONS] [--finalize-in-flight]
 * Prints "stress: ..." and exits 0 when every check held. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define SEEDS 8
#define MAX_IO 8

static const char* g_model_path;
static void* g_model_bytes;
static size_t g_model_size;
static uint32_t g_shared_model;
static size_t g_in_size[MAX_IO], g_out_size[MAX_IO];
static size_t g_inputs, g_outputs;
static unsigned char* g_reference[SEEDS][MAX_IO]; /* single-threaded outputs per seed */
static atomic_long g_ops, g_mismatches, g_errors;
static atomic_int g_ready, g_finalized;

static void Error(const char* what, aclError code) {
  atomic_fetch_add(&g_errors, 1);
  fprintf(stderr, "error: %s returned %d: %s\n", what, code, aclGetRecentErrMsg());
}

#define TRY(call)             \
  do {                        \
    aclError rc_ = (call);    \
    if (rc_ != ACL_SUCCESS) { \
      Error(#call, rc_);      \
      goto done;              \
    }                         \
  } while (0)

/* Input bytes for a seed: small floats, the same for every thread. */
static void FillInput(unsigned char* host, size_t size, int seed, size_t index) {
  float* f = (float*)host;
  for (size_t i = 0; i < size / sizeof(float); ++i)
    f[i] = (float)((int)((i * 7 + (size_t)seed * 13 + index * 5) % 17) - 8) / 8.0f;
  for (size_t i = size / sizeof(float) * sizeof(float); i < size; ++i) host[i] = 0;
}

/* Device buffers and datasets for one execution. */
struct Run {
  aclmdlDataset* in;
  aclmdlDataset* out;
  void* dev_in[MAX_IO];
  void* dev_out[MAX_IO];
  int seed;
};

static int RunCreate(struct Run* r, int seed) {
  memset(r, 0, sizeof(*r));
  r->seed = seed;
  r->in = aclmdlCreateDataset();
  r->out = aclmdlCreateDataset();
  if (!r->in || !r->out) return -1;
  for (size_t i = 0; i < g_inputs; ++i) {
    unsigned char* host = malloc(g_in_size[i]);
    FillInput(host, g_in_size[i], seed, i);
    aclError rc = aclrtMalloc(&r->dev_in[i], g_in_size[i], ACL_MEM_MALLOC_HUGE_FIRST);
    if (rc == ACL_SUCCESS)
      rc = aclrtMemcpy(r->dev_in[i], g_in_size[i], host, g_in_size[i], ACL_MEMCPY_HOST_TO_DEVICE);
    free(host);
    if (rc != ACL_SUCCESS) return Error("input buffer", rc), -1;
    aclmdlAddDatasetBuffer(r->in, aclCreateDataBuffer(r->dev_in[i], g_in_size[i]));
  }
  for (size_t o = 0; o < g_outputs; ++o) {
    aclError rc = aclrtMalloc(&r->dev_out[o], g_out_size[o], ACL_MEM_MALLOC_HUGE_FIRST);
    if (rc != ACL_SUCCESS) return Error("output buffer", rc), -1;
    aclrtMemset(r->dev_out[o], g_out_size[o], 0xAB, g_out_size[o]);
    aclmdlAddDatasetBuffer(r->out, aclCreateDataBuffer(r->dev_out[o], g_out_size[o]));
  }
  return 0;
}

/* Copies the outputs back; compares with (or, with store, records) the reference. */
static void RunCheck(struct Run* r, int store) {
  for (size_t o = 0; o < g_outputs; ++o) {
    unsigned char* host = malloc(g_out_size[o]);
    aclError rc =
        aclrtMemcpy(host, g_out_size[o], r->dev_out[o], g_out_size[o], ACL_MEMCPY_DEVICE_TO_HOST);
    if (rc != ACL_SUCCESS) {
      Error("aclrtMemcpy", rc);
      free(host);
      continue;
    }
    if (store) {
      g_reference[r->seed][o] = host;
      continue;
    }
    if (memcmp(host, g_reference[r->seed][o], g_out_size[o]) != 0) {
      atomic_fetch_add(&g_mismatches, 1);
      fprintf(stderr, "mismatch: output %zu of seed %d\n", o, r->seed);
    }
    free(host);
  }
}

static void RunDestroy(struct Run* r) {
  for (size_t i = 0; i < g_inputs; ++i) {
    if (r->in && aclmdlGetDatasetBuffer(r->in, i))
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(r->in, i));
    if (r->dev_in[i]) aclrtFree(r->dev_in[i]);
  }
  for (size_t o = 0; o < g_outputs; ++o) {
    if (r->out && aclmdlGetDatasetBuffer(r->out, o))
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(r->out, o));
    if (r->dev_out[o]) aclrtFree(r->dev_out[o]);
  }
  if (r->in) aclmdlDestroyDataset(r->in);
  if (r->out) aclmdlDestroyDataset(r->out);
}

/* One random operation of the given kind; failures and mismatches are counted. */
static void Operation(int kind, unsigned* rng) {
  struct Run a, b;
  int have_a = 0, have_b = 0;
  aclrtStream stream = NULL;
  aclrtEvent event = NULL;
  uint32_t id = 0;
  int loaded = 0;
  if (RunCreate(&a, (int)(rand_r(rng) % SEEDS)) != 0) goto done;
  have_a = 1;
  switch (kind) {
    case 0: /* load from the file, execute, unload */
      TRY(aclmdlLoadFromFile(g_model_path, &id));
      loaded = 1;
      TRY(aclmdlExecute(id, a.in, a.out));
      RunCheck(&a, 0);
      break;
    case 1: /* the shared model, synchronously */
      TRY(aclmdlExecute(g_shared_model, a.in, a.out));
      RunCheck(&a, 0);
      break;
    case 2: /* async on an own stream, waited for through an event */
      TRY(aclrtCreateStream(&stream));
      TRY(aclmdlExecuteAsync(g_shared_model, a.in, a.out, stream));
      TRY(aclrtCreateEvent(&event));
      TRY(aclrtRecordEvent(event, stream));
      TRY(aclrtSynchronizeEvent(event));
      RunCheck(&a, 0);
      break;
    case 3: /* two executions queued, the stream destroyed without a sync */
      if (RunCreate(&b, (int)(rand_r(rng) % SEEDS)) != 0) goto done;
      have_b = 1;
      TRY(aclrtCreateStream(&stream));
      TRY(aclmdlExecuteAsync(g_shared_model, a.in, a.out, stream));
      TRY(aclmdlExecuteAsync(g_shared_model, b.in, b.out, stream));
      TRY(aclrtDestroyStream(stream)); /* waits for its work */
      stream = NULL;
      RunCheck(&a, 0);
      RunCheck(&b, 0);
      break;
    case 4: /* an event destroyed while its record is still queued */
      TRY(aclrtCreateStream(&stream));
      TRY(aclmdlExecuteAsync(g_shared_model, a.in, a.out, stream));
      TRY(aclrtCreateEvent(&event));
      TRY(aclrtRecordEvent(event, stream));
      TRY(aclrtDestroyEvent(event));
      event = NULL;
      TRY(aclrtSynchronizeStream(stream));
      RunCheck(&a, 0);
      break;
    case 6: { /* unload, destroy and free with work queued: each waits for the work */
      TRY(aclmdlLoadFromMem(g_model_bytes, g_model_size, &id));
      loaded = 1;
      TRY(aclrtCreateStream(&stream));
      unsigned char* host[MAX_IO];
      for (size_t o = 0; o < g_outputs; ++o) host[o] = malloc(g_out_size[o]);
      for (int k = 0; k < 3; ++k) TRY(aclmdlExecuteAsync(id, a.in, a.out, stream));
      for (size_t o = 0; o < g_outputs; ++o)
        TRY(aclrtMemcpyAsync(host[o], g_out_size[o], a.dev_out[o], g_out_size[o],
                             ACL_MEMCPY_DEVICE_TO_HOST, stream));
      TRY(aclmdlUnload(id)); /* the executions queued before it have finished */
      loaded = 0;
      RunDestroy(&a); /* buffers, datasets and device memory: the copies finish first */
      have_a = 0;
      TRY(aclrtSynchronizeStream(stream));
      for (size_t o = 0; o < g_outputs; ++o) {
        if (memcmp(host[o], g_reference[a.seed][o], g_out_size[o]) != 0) {
          atomic_fetch_add(&g_mismatches, 1);
          fprintf(stderr, "mismatch: released run, output %zu of seed %d\n", o, a.seed);
        }
        free(host[o]);
      }
      break;
    }
    default: { /* load from memory, look at it, execute, unload */
      TRY(aclmdlLoadFromMem(g_model_bytes, g_model_size, &id));
      loaded = 1;
      aclmdlDesc* desc = aclmdlCreateDesc();
      aclError rc = aclmdlGetDesc(desc, id);
      if (rc != ACL_SUCCESS || aclmdlGetNumInputs(desc) != g_inputs ||
          aclmdlGetInputSizeByIndex(desc, 0) != g_in_size[0])
        Error("aclmdlGetDesc", rc);
      aclmdlDestroyDesc(desc);
      TRY(aclmdlExecute(id, a.in, a.out));
      RunCheck(&a, 0);
      break;
    }
  }
  atomic_fetch_add(&g_ops, 1);
done:
  if (event) aclrtDestroyEvent(event);
  if (stream) {
    aclrtSynchronizeStream(stream);
    aclrtDestroyStream(stream);
  }
  if (loaded) {
    aclError rc = aclmdlUnload(id);
    if (rc != ACL_SUCCESS) Error("aclmdlUnload", rc);
  }
  if (have_a) RunDestroy(&a);
  if (have_b) RunDestroy(&b);
}

struct Worker {
  int index;
  int iterations;
  int finalize_mode;
};

static void* WorkerMain(void* arg) {
  struct Worker* w = (struct Worker*)arg;
  unsigned rng = 0x9E3779B9u * (unsigned)(w->index + 1);
  aclError rc = aclrtSetDevice(0);
  if (rc != ACL_SUCCESS) {
    Error("aclrtSetDevice", rc);
    return NULL;
  }
  if (!w->finalize_mode) {
    for (int i = 0; i < w->iterations; ++i) Operation((int)(rand_r(&rng) % 7), &rng);
    return NULL;
  }
  /* Queue work, tell the main thread, and use the stream after aclFinalize. */
  struct Run runs[4];
  aclrtStream stream = NULL;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) {
    Error("aclrtCreateStream", 1);
    atomic_fetch_add(&g_ready, 1);
    return NULL;
  }
  int made = 0;
  for (; made < 4; ++made) {
    if (RunCreate(&runs[made], made) != 0) {
      RunDestroy(&runs[made]);
      break;
    }
    for (int k = 0; k < 5; ++k)
      aclmdlExecuteAsync(g_shared_model, runs[made].in, runs[made].out, stream);
  }
  atomic_fetch_add(&g_ready, 1);
  while (!atomic_load(&g_finalized)) sched_yield();
  /* After aclFinalize: codes, whatever they are, and no crash. */
  aclrtSynchronizeStream(stream);
  aclrtDestroyStream(stream);
  for (int i = 0; i < made; ++i) RunDestroy(&runs[i]);
  atomic_fetch_add(&g_ops, 1);
  return NULL;
}

static void* ReadFile(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  void* data = malloc(*size ? *size : 1);
  if (fread(data, 1, *size, f) != *size) *size = 0;
  fclose(f);
  return data;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MODEL.om [THREADS] [ITERATIONS] [--finalize-in-flight]\n", argv[0]);
    return 2;
  }
  g_model_path = argv[1];
  const int threads = argc > 2 ? atoi(argv[2]) : 16;
  const int iterations = argc > 3 ? atoi(argv[3]) : 50;
  const int finalize_mode = argc > 4 && strcmp(argv[4], "--finalize-in-flight") == 0;
  if (threads < 1 || threads > 256 || iterations < 0) return 2;
  g_model_bytes = ReadFile(g_model_path, &g_model_size);
  if (!g_model_bytes || g_model_size == 0) return fprintf(stderr, "cannot read the model\n"), 2;

  if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  if (aclmdlLoadFromFile(g_model_path, &g_shared_model) != ACL_SUCCESS) {
    fprintf(stderr, "load failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  aclmdlDesc* desc = aclmdlCreateDesc();
  aclmdlGetDesc(desc, g_shared_model);
  g_inputs = aclmdlGetNumInputs(desc);
  g_outputs = aclmdlGetNumOutputs(desc);
  if (g_inputs > MAX_IO || g_outputs > MAX_IO || g_outputs == 0) return 2;
  for (size_t i = 0; i < g_inputs; ++i) g_in_size[i] = aclmdlGetInputSizeByIndex(desc, i);
  for (size_t o = 0; o < g_outputs; ++o) g_out_size[o] = aclmdlGetOutputSizeByIndex(desc, o);
  aclmdlDestroyDesc(desc);

  /* The reference: one thread, every seed. */
  for (int s = 0; s < SEEDS; ++s) {
    struct Run r;
    if (RunCreate(&r, s) != 0 || aclmdlExecute(g_shared_model, r.in, r.out) != ACL_SUCCESS)
      return fprintf(stderr, "reference run failed: %s\n", aclGetRecentErrMsg()), 1;
    RunCheck(&r, 1);
    RunDestroy(&r);
  }

  pthread_t tid[256];
  struct Worker work[256];
  for (int t = 0; t < threads; ++t) {
    work[t].index = t;
    work[t].iterations = iterations;
    work[t].finalize_mode = finalize_mode;
    pthread_create(&tid[t], NULL, WorkerMain, &work[t]);
  }
  int finalize_rc = -1;
  if (finalize_mode) {
    while (atomic_load(&g_ready) < threads) sched_yield();
    finalize_rc = aclFinalize(); /* with up to 20 executions queued per thread */
    atomic_store(&g_finalized, 1);
  }
  for (int t = 0; t < threads; ++t) pthread_join(tid[t], NULL);
  if (!finalize_mode) {
    if (aclmdlUnload(g_shared_model) != ACL_SUCCESS) Error("aclmdlUnload", 1);
    aclrtResetDevice(0);
    finalize_rc = aclFinalize();
  }
  for (int s = 0; s < SEEDS; ++s)
    for (size_t o = 0; o < g_outputs; ++o) free(g_reference[s][o]);
  free(g_model_bytes);
  printf("stress: %d threads, %ld operations, %ld mismatches, %ld errors, aclFinalize %d\n",
         threads, atomic_load(&g_ops), atomic_load(&g_mismatches), atomic_load(&g_errors),
         finalize_rc);
  return atomic_load(&g_mismatches) || atomic_load(&g_errors) || finalize_rc != 0;
}
