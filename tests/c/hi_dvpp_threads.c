/* hi_dvpp.h from several threads at once, as CANN's 7_dvpp samples run it: a VPC thread
 * resizing on its own channel while VENC encodes on another (a sender and a getter thread),
 * then VDEC decodes those streams (a sender and an epoll getter thread) while VPC keeps
 * running. Counts and sizes are checked; run under ThreadSanitizer by make test-tsan-ci. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "hi_dvpp.h"

#define W 160
#define H 128
#define FRAMES 16

#define CHECK(call)                                                                     \
  do {                                                                                  \
    hi_s32 r_ = (hi_s32)(call);                                                         \
    if (r_ != 0) {                                                                      \
      fprintf(stderr, "%s:%d: %s = %#x: %s\n", __FILE__, __LINE__, #call, (unsigned)r_, \
              aclGetRecentErrMsg());                                                    \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

static aclrtContext g_context;
static uint8_t* g_units[FRAMES];
static uint32_t g_unit_len[FRAMES];
static int g_vpc_stop = 0;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static void* VpcLoop(void* arg) {
  (void)arg;
  CHECK(aclrtSetCurrentContext(g_context));
  hi_vpc_chn chn = 0;
  hi_vpc_chn_attr attr;
  memset(&attr, 0, sizeof attr);
  CHECK(hi_mpi_vpc_sys_create_chn(&chn, &attr));
  void *in = NULL, *out = NULL;
  CHECK(hi_mpi_dvpp_malloc(0, &in, W * H * 3 / 2));
  CHECK(hi_mpi_dvpp_malloc(0, &out, 64 * 64 * 3 / 2));
  memset(in, 90, W * H * 3 / 2);
  hi_vpc_pic_info src = {in, W * H * 3 / 2, W, H, W, H, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420};
  hi_vpc_pic_info dst = {out, 64 * 64 * 3 / 2, 64, 64, 64, 64, HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420};
  for (int i = 0;; ++i) {
    pthread_mutex_lock(&g_lock);
    const int stop = g_vpc_stop;
    pthread_mutex_unlock(&g_lock);
    if (stop && i > 20) break;
    hi_u32 task = 0;
    CHECK(hi_mpi_vpc_resize(chn, &src, &dst, 0, 0, 0, &task, -1));
    CHECK(hi_mpi_vpc_get_process_result(chn, task, -1));
    if (((uint8_t*)out)[0] != 90) exit(3);
  }
  CHECK(hi_mpi_vpc_destroy_chn(chn));
  CHECK(hi_mpi_dvpp_free(in));
  CHECK(hi_mpi_dvpp_free(out));
  return NULL;
}

static void* VencGetter(void* arg) {
  (void)arg;
  CHECK(aclrtSetCurrentContext(g_context));
  for (int got = 0; got < FRAMES;) {
    hi_venc_pack pack;
    hi_venc_stream s;
    memset(&s, 0, sizeof s);
    s.pack = &pack;
    s.pack_cnt = 1;
    if (hi_mpi_venc_get_stream(1, &s, 100) != 0) continue;
    g_units[got] = malloc(pack.len);
    memcpy(g_units[got], pack.addr + pack.offset, pack.len - pack.offset);
    g_unit_len[got] = pack.len - pack.offset;
    if (pack.pts != (hi_u64)got) exit(4);
    CHECK(hi_mpi_venc_release_stream(1, &s));
    ++got;
  }
  return NULL;
}

static int g_frames = 0;
static void* VdecGetter(void* arg) {
  (void)arg;
  CHECK(aclrtSetCurrentContext(g_context));
  hi_s32 efd = -1, n = 0;
  CHECK(hi_mpi_sys_create_epoll(1, &efd));
  hi_dvpp_epoll_event ev = {HI_DVPP_EPOLL_IN, NULL};
  CHECK(hi_mpi_sys_ctl_epoll(efd, HI_DVPP_EPOLL_CTL_ADD, hi_mpi_vdec_get_fd(2), &ev));
  while (g_frames < FRAMES) {
    hi_dvpp_epoll_event got[1];
    CHECK(hi_mpi_sys_wait_epoll(efd, got, 1, 5000, &n));
    if (n == 0) exit(5);
    hi_video_frame_info f;
    while (hi_mpi_vdec_get_frame(2, &f, NULL, NULL, 0) == 0) {
      if (f.v_frame.frame_flag != 0 || f.v_frame.width != W) exit(6);
      CHECK(hi_mpi_vdec_release_frame(2, &f));
      CHECK(hi_mpi_dvpp_free(f.v_frame.virt_addr[0]));
      ++g_frames;
    }
  }
  CHECK(hi_mpi_sys_close_epoll(efd));
  return NULL;
}

int main(void) {
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  CHECK(aclrtGetCurrentContext(&g_context));
  CHECK(hi_mpi_sys_init());
  pthread_t vpc, getter;
  pthread_create(&vpc, NULL, VpcLoop, NULL);

  hi_venc_chn_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.venc_attr.type = HI_PT_H264;
  attr.venc_attr.max_pic_width = attr.venc_attr.pic_width = W;
  attr.venc_attr.max_pic_height = attr.venc_attr.pic_height = H;
  attr.rc_attr.rc_mode = HI_VENC_RC_MODE_H264_CBR;
  attr.rc_attr.h264_cbr = (hi_venc_h264_cbr){8, 1, 25, 25, 1000};
  CHECK(hi_mpi_venc_create_chn(1, &attr));
  hi_venc_start_param start = {-1};
  CHECK(hi_mpi_venc_start_chn(1, &start));
  pthread_create(&getter, NULL, VencGetter, NULL);
  void* frame_mem = NULL;
  CHECK(hi_mpi_dvpp_malloc(0, &frame_mem, W * H * 3 / 2));
  for (int i = 0; i < FRAMES; ++i) {
    memset(frame_mem, 16 * i, W * H);
    memset((uint8_t*)frame_mem + W * H, 128, W * H / 2);
    hi_video_frame_info f;
    memset(&f, 0, sizeof f);
    f.v_frame.width = W;
    f.v_frame.height = H;
    f.v_frame.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    f.v_frame.width_stride[0] = f.v_frame.width_stride[1] = W;
    f.v_frame.virt_addr[0] = frame_mem;
    f.v_frame.virt_addr[1] = (uint8_t*)frame_mem + W * H;
    f.v_frame.pts = (hi_u64)i;
    CHECK(hi_mpi_venc_send_frame(1, &f, -1));
  }
  pthread_join(getter, NULL);
  CHECK(hi_mpi_venc_stop_chn(1));
  CHECK(hi_mpi_venc_destroy_chn(1));

  hi_vdec_chn_attr vattr;
  memset(&vattr, 0, sizeof vattr);
  vattr.type = HI_PT_H264;
  vattr.mode = HI_VDEC_SEND_MODE_FRAME;
  vattr.pic_width = W;
  vattr.pic_height = H;
  CHECK(hi_mpi_vdec_create_chn(2, &vattr));
  CHECK(hi_mpi_vdec_start_recv_stream(2));
  pthread_create(&getter, NULL, VdecGetter, NULL);
  void* stream_mem = NULL;
  CHECK(hi_mpi_dvpp_malloc(0, &stream_mem, 1 << 20));
  for (int i = 0; i < FRAMES; ++i) {
    memcpy(stream_mem, g_units[i], g_unit_len[i]);
    hi_vdec_stream s;
    memset(&s, 0, sizeof s);
    s.addr = stream_mem;
    s.len = g_unit_len[i];
    s.end_of_frame = HI_TRUE;
    s.pts = (hi_u64)i;
    void* out = NULL;
    CHECK(hi_mpi_dvpp_malloc(0, &out, W * H * 3 / 2));
    hi_vdec_pic_info pic;
    memset(&pic, 0, sizeof pic);
    pic.width = W;
    pic.height = H;
    pic.width_stride = W;
    pic.height_stride = H;
    pic.pixel_format = HI_PIXEL_FORMAT_YVU_SEMIPLANAR_420;
    pic.vir_addr = (hi_u64)(uintptr_t)out;
    pic.buffer_size = W * H * 3 / 2;
    CHECK(hi_mpi_vdec_send_stream(2, &s, &pic, -1));
    free(g_units[i]);
  }
  hi_vdec_stream eos;
  memset(&eos, 0, sizeof eos);
  eos.end_of_stream = HI_TRUE;
  CHECK(hi_mpi_vdec_send_stream(2, &eos, NULL, -1));
  pthread_join(getter, NULL);
  CHECK(hi_mpi_vdec_stop_recv_stream(2));
  CHECK(hi_mpi_vdec_destroy_chn(2));
  pthread_mutex_lock(&g_lock);
  g_vpc_stop = 1;
  pthread_mutex_unlock(&g_lock);
  pthread_join(vpc, NULL);
  CHECK(hi_mpi_dvpp_free(frame_mem));
  CHECK(hi_mpi_dvpp_free(stream_mem));
  CHECK(hi_mpi_sys_exit());
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  printf("decoded %d of %d frames\n", g_frames, FRAMES);
  return g_frames == FRAMES ? 0 : 1;
}
