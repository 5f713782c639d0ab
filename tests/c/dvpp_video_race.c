/* VDEC and VENC under threads, as video applications drive them (run by the sanitizer builds,
 * TSan included): a report thread runs the callbacks; VENC encodes a clip, whose access units
 * the callbacks copy out; then two senders feed the clip to one VDEC channel while a third
 * thread destroys the channel under them, and the main thread destroys its description as
 * soon as the runtime lets it. Every send that was accepted gets exactly one callback, every
 * call returns 0 or CANN's code for a channel that is gone, and nothing crashes.
 * Needs a chip with VENC: run with OCANN_SOC=Ascend310P3. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

#define W 128
#define H 128
#define FRAMES 12
#define MAX_UNIT (W * H * 2)

static int failures = 0;
static aclrtContext g_context;
static atomic_int g_stop;

static void Nap(void) {
  const struct timespec t = {0, 1000000};
  nanosleep(&t, NULL);
}

static void Check(int ok, const char* what) {
  if (!ok) {
    ++failures;
    fprintf(stderr, "FAILED: %s\n", what);
  }
}

static void* ReportLoop(void* arg) {
  (void)arg;
  aclrtSetCurrentContext(g_context);
  while (!atomic_load(&g_stop)) aclrtProcessReport(10);
  return NULL;
}

/* ---- VENC: the clip ---- */
static unsigned char g_units[FRAMES + 4][MAX_UNIT];
static uint32_t g_unit_size[FRAMES + 4];
static atomic_int g_unit_count;

static void OnEncoded(acldvppPicDesc* in, acldvppStreamDesc* out, void* user) {
  (void)in;
  (void)user;
  const uint32_t size = acldvppGetStreamDescSize(out);
  const int k = atomic_fetch_add(&g_unit_count, 1);
  if (k >= FRAMES + 4 || size > MAX_UNIT) return;
  aclrtMemcpy(g_units[k], MAX_UNIT, acldvppGetStreamDescData(out), size, ACL_MEMCPY_DEVICE_TO_HOST);
  g_unit_size[k] = size;
}

static void Encode(uint64_t report_thread) {
  aclvencChannelDesc* v = aclvencCreateChannelDesc();
  aclvencSetChannelDescThreadId(v, report_thread);
  aclvencSetChannelDescCallback(v, OnEncoded);
  aclvencSetChannelDescEnType(v, H264_MAIN_LEVEL);
  aclvencSetChannelDescPicFormat(v, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  aclvencSetChannelDescPicWidth(v, W);
  aclvencSetChannelDescPicHeight(v, H);
  aclvencSetChannelDescKeyFrameInterval(v, 4);
  Check(aclvencCreateChannel(v) == ACL_SUCCESS, "aclvencCreateChannel");
  const uint32_t size = W * H * 3 / 2;
  void* dev = NULL;
  acldvppMalloc(&dev, size);
  unsigned char* host = malloc(size);
  acldvppPicDesc* pic = acldvppCreatePicDesc();
  acldvppSetPicDescData(pic, dev);
  acldvppSetPicDescSize(pic, size);
  acldvppSetPicDescFormat(pic, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  acldvppSetPicDescWidth(pic, W);
  acldvppSetPicDescHeight(pic, H);
  acldvppSetPicDescWidthStride(pic, W);
  acldvppSetPicDescHeightStride(pic, H);
  aclvencFrameConfig* config = aclvencCreateFrameConfig();
  for (int f = 0; f < FRAMES; ++f) {
    for (uint32_t i = 0; i < size; ++i)
      host[i] = (unsigned char)(i < W * H ? (i * 3 + f * 11) : 128);
    aclrtMemcpy(dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE);
    Check(aclvencSendFrame(v, pic, NULL, config, NULL) == ACL_SUCCESS, "aclvencSendFrame");
  }
  aclvencSetFrameConfigEos(config, 1);
  Check(aclvencSendFrame(v, NULL, NULL, config, NULL) == ACL_SUCCESS, "VENC end of stream");
  Check(aclvencDestroyChannel(v) == ACL_SUCCESS, "aclvencDestroyChannel");
  Check(aclvencDestroyChannelDesc(v) == ACL_SUCCESS, "aclvencDestroyChannelDesc");
  aclvencDestroyFrameConfig(config);
  acldvppDestroyPicDesc(pic);
  acldvppFree(dev);
  free(host);
}

/* ---- VDEC: two senders and a destroyer on one channel ---- */
static aclvdecChannelDesc* g_vdec;
static atomic_int g_accepted, g_called;

static void OnDecoded(acldvppStreamDesc* in, acldvppPicDesc* out, void* user) {
  (void)user;
  atomic_fetch_add(&g_called, 1);
  /* The callback owns the send's descriptions and buffers, as CANN's samples free them. */
  acldvppFree(acldvppGetStreamDescData(in));
  acldvppDestroyStreamDesc(in);
  if (out) {
    acldvppFree(acldvppGetPicDescData(out));
    acldvppDestroyPicDesc(out);
  }
}

static void* Sender(void* arg) {
  aclrtSetCurrentContext(g_context);
  const int rounds = (int)(intptr_t)arg;
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < atomic_load(&g_unit_count) && k < FRAMES + 4; ++k) {
      void* data = NULL;
      void* picture = NULL;
      acldvppMalloc(&data, g_unit_size[k]);
      acldvppMalloc(&picture, W * H * 3 / 2);
      aclrtMemcpy(data, g_unit_size[k], g_units[k], g_unit_size[k], ACL_MEMCPY_HOST_TO_DEVICE);
      acldvppStreamDesc* in = acldvppCreateStreamDesc();
      acldvppSetStreamDescData(in, data);
      acldvppSetStreamDescSize(in, g_unit_size[k]);
      acldvppPicDesc* out = acldvppCreatePicDesc();
      acldvppSetPicDescData(out, picture);
      acldvppSetPicDescSize(out, W * H * 3 / 2);
      acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
      const aclError e = aclvdecSendFrame(g_vdec, in, out, NULL, NULL);
      if (e == ACL_SUCCESS) {
        atomic_fetch_add(&g_accepted, 1);
      } else {
        Check(e == ACL_ERROR_INVALID_PARAM, "a send refused with another code than 100000");
        acldvppDestroyStreamDesc(in);
        acldvppDestroyPicDesc(out);
        acldvppFree(data);
        acldvppFree(picture);
      }
    }
  return NULL;
}

static void* Destroyer(void* arg) {
  (void)arg;
  aclrtSetCurrentContext(g_context);
  while (atomic_load(&g_accepted) < 6) Nap(); /* let some sends in first */
  const aclError e = aclvdecDestroyChannel(g_vdec);
  Check(e == ACL_SUCCESS, "aclvdecDestroyChannel");
  return NULL;
}

int main(void) {
  Check(aclInit(NULL) == ACL_SUCCESS, "aclInit");
  Check(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtGetCurrentContext(&g_context);
  pthread_t report;
  pthread_create(&report, NULL, ReportLoop, NULL);
  uint64_t report_id = (uint64_t)report;

  Encode(report_id);
  Check(atomic_load(&g_unit_count) >= FRAMES, "VENC gave an access unit per frame");

  g_vdec = aclvdecCreateChannelDesc();
  aclvdecSetChannelDescChannelId(g_vdec, 1);
  aclvdecSetChannelDescThreadId(g_vdec, report_id);
  aclvdecSetChannelDescCallback(g_vdec, OnDecoded);
  aclvdecSetChannelDescEnType(g_vdec, H264_MAIN_LEVEL);
  aclvdecSetChannelDescOutPicFormat(g_vdec, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
  Check(aclvdecCreateChannel(g_vdec) == ACL_SUCCESS, "aclvdecCreateChannel");
  pthread_t senders[2], destroyer;
  for (int i = 0; i < 2; ++i) pthread_create(&senders[i], NULL, Sender, (void*)(intptr_t)3);
  pthread_create(&destroyer, NULL, Destroyer, NULL);
  /* The description goes as soon as no call on it is in progress and the channel is gone. */
  for (;;) {
    const aclError e = aclvdecDestroyChannelDesc(g_vdec);
    if (e == ACL_SUCCESS) break;
    Check(e == ACL_ERROR_INVALID_PARAM, "aclvdecDestroyChannelDesc refused with 100000");
    Nap();
  }
  pthread_join(destroyer, NULL);
  for (int i = 0; i < 2; ++i) pthread_join(senders[i], NULL);
  Check(atomic_load(&g_accepted) >= 6, "sends were accepted before the destroy");
  Check(atomic_load(&g_called) == atomic_load(&g_accepted),
        "every accepted send got exactly one callback");

  atomic_store(&g_stop, 1);
  pthread_join(report, NULL);
  aclrtResetDevice(0);
  aclFinalize();
  printf("dvpp_video_race: %d accepted sends, %d callbacks, %d failures\n",
         atomic_load(&g_accepted), atomic_load(&g_called), failures);
  return failures ? 1 : 0;
}
