/* One hi_dvpp.h operation on files, as a CANN 7_dvpp sample would run it: the input read into
 * DVPP memory, the call, its result written de-strided. tests/e2e/test_hi_dvpp.py compares the
 * results with numpy, Pillow and FFmpeg.
 *
 *   vpc OP in W H FMT out OW OH OFMT [ARGS...]   OP: resize crop_resize paste border convert
 *                                                     pyrdown hist equalize
 *   jpegd in.jpg OFMT out                        prints "w h ws hs fmt"
 *   pngd in.png OFMT out                         prints "w h ws hs fmt"
 *   vdec in.h264 TYPE W H OFMT out               frames from a getter thread woken by epoll;
 *                                                prints "frames N failed M"
 *   venc in.nv12 TYPE W H N out [QUALITY]        N NV12 frames to H.264/H.265 (TYPE 96/265)
 *                                                or JPEG files (26: out.0, out.1, ...)  */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "hi_dvpp.h"

#define CHECK(call)                                                             \
  do {                                                                          \
    hi_s32 ret_ = (hi_s32)(call);                                               \
    if (ret_ != 0) {                                                            \
      fprintf(stderr, "%s:%d: %s = %#x: %s\n", __FILE__, __LINE__, #call, ret_, \
              aclGetRecentErrMsg());                                            \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

static uint32_t Align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

static uint8_t* ReadFile(const char* path, uint32_t* size) {
  FILE* f = fopen(path, "rb");
  if (!f) exit(2);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* data = malloc((size_t)n);
  if (fread(data, 1, (size_t)n, f) != (size_t)n) exit(2);
  fclose(f);
  *size = (uint32_t)n;
  return data;
}

static void* ToDevice(const void* data, uint32_t size) {
  void* p = NULL;
  CHECK(hi_mpi_dvpp_malloc(0, &p, size));
  CHECK(aclrtMemcpy(p, size, data, size, ACL_MEMCPY_HOST_TO_DEVICE));
  return p;
}

/* Bytes a row of pixels takes, and the chroma plane's rows per luma row (x2). */
static uint32_t Bpp(int fmt) { return fmt >= 14 && fmt <= 17 ? 4 : fmt >= 12 ? 3 : 1; }
static int HasChroma(int fmt) { return fmt == 1 || fmt == 2; }

/* A picture with VPC's strides (16 pixels, 2 rows), in DVPP memory, optionally filled from a
 * de-strided image. */
static hi_vpc_pic_info Picture(uint32_t w, uint32_t h, int fmt, const uint8_t* image) {
  hi_vpc_pic_info p;
  memset(&p, 0, sizeof p);
  p.picture_width = w;
  p.picture_height = h;
  p.picture_format = (hi_pixel_format)fmt;
  p.picture_width_stride = Align(w, 16) * Bpp(fmt);
  p.picture_height_stride = Align(h, 2);
  const uint32_t plane = p.picture_width_stride * p.picture_height_stride;
  p.picture_buffer_size = HasChroma(fmt) ? plane * 3 / 2 : plane;
  uint8_t* host = calloc(1, p.picture_buffer_size);
  if (image) {
    const uint32_t row = w * Bpp(fmt);
    for (uint32_t r = 0; r < h; ++r)
      memcpy(host + r * p.picture_width_stride, image + r * row, row);
    if (HasChroma(fmt))
      for (uint32_t r = 0; r < h / 2; ++r)
        memcpy(host + plane + r * p.picture_width_stride, image + w * h + r * w, w);
  }
  p.picture_address = ToDevice(host, p.picture_buffer_size);
  free(host);
  return p;
}

static void WritePicture(const hi_vpc_pic_info* p, const char* path) {
  uint8_t* host = malloc(p->picture_buffer_size);
  CHECK(aclrtMemcpy(host, p->picture_buffer_size, p->picture_address, p->picture_buffer_size,
                    ACL_MEMCPY_DEVICE_TO_HOST));
  FILE* f = fopen(path, "wb");
  const int fmt = (int)p->picture_format;
  const uint32_t row = p->picture_width * Bpp(fmt);
  for (uint32_t r = 0; r < p->picture_height; ++r)
    fwrite(host + r * p->picture_width_stride, 1, row, f);
  if (HasChroma(fmt)) {
    const uint8_t* chroma = host + p->picture_width_stride * p->picture_height_stride;
    for (uint32_t r = 0; r < p->picture_height / 2; ++r)
      fwrite(chroma + r * p->picture_width_stride, 1, p->picture_width, f);
  }
  fclose(f);
  free(host);
}

static int Vpc(int argc, char** argv) {
  if (argc < 11) return 2;
  const char* op = argv[2];
  uint32_t size = 0;
  uint8_t* image = ReadFile(argv[3], &size);
  const uint32_t iw = (uint32_t)atoi(argv[4]), ih = (uint32_t)atoi(argv[5]);
  const int ifmt = atoi(argv[6]);
  if (size < iw * ih * Bpp(ifmt) * (HasChroma(ifmt) ? 3 : 2) / 2) return 2;
  hi_vpc_pic_info in = Picture(iw, ih, ifmt, image);
  free(image);
  hi_vpc_pic_info out = Picture(atoi(argv[8]), atoi(argv[9]), atoi(argv[10]), NULL);
  int a[12] = {0};
  for (int i = 11; i < argc && i - 11 < 12; ++i) a[i - 11] = atoi(argv[i]);
  hi_vpc_chn chn = 0;
  hi_vpc_chn_attr attr;
  memset(&attr, 0, sizeof attr);
  CHECK(hi_mpi_vpc_sys_create_chn(&chn, &attr));
  hi_u32 task = 0;
  if (!strcmp(op, "resize")) {
    CHECK(hi_mpi_vpc_resize(chn, &in, &out, 0, 0, (hi_u32)a[0], &task, -1));
  } else if (!strcmp(op, "crop_resize")) {
    hi_vpc_crop_resize_region r;
    memset(&r, 0, sizeof r);
    r.dest_pic_info = out;
    r.crop_region = (hi_vpc_crop_region){(hi_u32)a[1], (hi_u32)a[0], (hi_u32)a[2], (hi_u32)a[3]};
    r.resize_info = (hi_vpc_resize_info){out.picture_width, out.picture_height, (hi_u32)a[4]};
    CHECK(hi_mpi_vpc_crop_resize(chn, &in, &r, 1, &task, -1));
  } else if (!strcmp(op, "paste")) {
    hi_vpc_crop_resize_paste_region r;
    memset(&r, 0, sizeof r);
    r.dest_pic_info = out;
    r.crop_region = (hi_vpc_crop_region){(hi_u32)a[1], (hi_u32)a[0], (hi_u32)a[2], (hi_u32)a[3]};
    r.resize_info = (hi_vpc_resize_info){(hi_u32)a[4], (hi_u32)a[5], 0};
    r.dest_left_offset = (hi_u32)a[6];
    r.dest_top_offset = (hi_u32)a[7];
    const hi_vpc_pic_info* sources[1] = {&in};
    hi_u32 count[1] = {1};
    CHECK(hi_mpi_vpc_batch_crop_resize_paste(chn, sources, 1, &r, count, &task, -1));
  } else if (!strcmp(op, "border")) {
    hi_vpc_make_border_info b;
    memset(&b, 0, sizeof b);
    b.top = (hi_u32)a[0];
    b.bottom = (hi_u32)a[1];
    b.left = (hi_u32)a[2];
    b.right = (hi_u32)a[3];
    b.border_type = (hi_vpc_bord_type)a[4];
    for (int k = 0; k < 3; ++k) b.scalar_value.val[k] = a[5 + k];
    CHECK(hi_mpi_vpc_copy_make_border(chn, &in, &out, b, &task, -1));
  } else if (!strcmp(op, "convert")) {
    hi_csc_conf conf;
    memset(&conf, 0, sizeof conf);
    conf.alpha = (hi_u32)a[0];
    CHECK(hi_mpi_vpc_convert_color_v2(chn, &in, &out, &conf, &task, -1));
  } else if (!strcmp(op, "pyrdown")) {
    hi_vpc_pic_info levels[2];
    levels[0] = out;
    levels[1] = Picture((out.picture_width + 1) / 2, (out.picture_height + 1) / 2, 0, NULL);
    hi_s8 kernel[5][5];
    static const int taps[5] = {1, 4, 6, 4, 1};
    for (int r = 0; r < 5; ++r)
      for (int c = 0; c < 5; ++c) kernel[r][c] = (hi_s8)(taps[r] * taps[c]);
    hi_vpc_make_border_info b;
    memset(&b, 0, sizeof b);
    b.border_type = HI_BORDER_REFLECT_101;
    CHECK(hi_mpi_vpc_pyrdown(chn, &in, levels, 2, kernel, 256, b, &task, -1));
    CHECK(hi_mpi_vpc_get_process_result(chn, task, -1));
    char second[512];
    snprintf(second, sizeof second, "%s.level1", argv[7]);
    WritePicture(&levels[1], second);
  } else if (!strcmp(op, "hist")) {
    hi_vpc_histogram_config hist;
    CHECK(hi_mpi_vpc_calc_hist(chn, &in, &hist, &task, -1));
    FILE* f = fopen(argv[7], "wb");
    fwrite(&hist, sizeof hist, 1, f);
    fclose(f);
  } else if (!strcmp(op, "equalize")) {
    hi_vpc_lut_remap lut;
    for (int v = 0; v < 256; ++v) {
      lut.map_value_y_or_r[v] = (hi_u8)(255 - v);
      lut.map_value_u_or_g[v] = (hi_u8)(v / 2);
      lut.map_value_v_or_b[v] = (hi_u8)v;
    }
    CHECK(hi_mpi_vpc_equalize_hist(chn, &in, &out, &lut, &task, -1));
  } else {
    return 2;
  }
  if (strcmp(op, "pyrdown")) CHECK(hi_mpi_vpc_get_process_result(chn, task, -1));
  if (strcmp(op, "hist")) WritePicture(&out, argv[7]);
  CHECK(hi_mpi_vpc_destroy_chn(chn));
  return 0;
}

/* hi_img_info-sized output, decoded through VDEC (JPEG) or PNGD. */
static int Image(int argc, char** argv, int png) {
  if (argc < 5) return 2;
  uint32_t size = 0;
  uint8_t* file = ReadFile(argv[2], &size);
  const int fmt = atoi(argv[3]);
  hi_img_info info;
  if (png) {
    hi_img_stream s;
    memset(&s, 0, sizeof s);
    s.type = HI_PT_PNG;
    s.addr = file;
    s.len = size;
    CHECK(hi_mpi_png_get_image_info(&s, &info));
  } else {
    hi_vdec_stream s;
    memset(&s, 0, sizeof s);
    s.addr = file;
    s.len = size;
    CHECK(hi_mpi_vdec_get_jpegd_output_info(&s, (hi_pixel_format)fmt, &info));
  }
  void* in = ToDevice(file, size);
  void* out = NULL;
  CHECK(hi_mpi_dvpp_malloc(0, &out, info.img_buf_size));
  uint32_t w = 0, h = 0, ws = 0, hs = 0;
  int got = 0;
  if (png) {
    hi_pngd_chn_attr attr;
    memset(&attr, 0, sizeof attr);
    CHECK(hi_mpi_pngd_create_chn(3, &attr));
    hi_img_stream s = {HI_PT_PNG, (hi_u8*)in, size, 7, {0, 0}};
    hi_pic_info pic;
    memset(&pic, 0, sizeof pic);
    pic.picture_address = out;
    pic.picture_buffer_size = info.img_buf_size;
    pic.picture_width_stride = info.width_stride;
    pic.picture_height_stride = info.height_stride;
    pic.picture_format = (hi_pixel_format)fmt;
    CHECK(hi_mpi_pngd_send_stream(3, &s, &pic, -1));
    hi_pic_info done;
    hi_img_stream back;
    CHECK(hi_mpi_pngd_get_image_data(3, &done, &back, -1));
    if (done.picture_address != out || back.addr != (hi_u8*)in) return 3;
    w = done.picture_width, h = done.picture_height, ws = done.picture_width_stride;
    hs = done.picture_height_stride, got = (int)done.picture_format;
    CHECK(hi_mpi_pngd_destroy_chn(3));
  } else {
    hi_vdec_chn_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.type = HI_PT_JPEG;
    attr.mode = HI_VDEC_SEND_MODE_FRAME;
    attr.pic_width = 8192;
    attr.pic_height = 8192;
    CHECK(hi_mpi_vdec_create_chn(5, &attr));
    CHECK(hi_mpi_vdec_start_recv_stream(5));
    hi_vdec_stream s;
    memset(&s, 0, sizeof s);
    s.addr = (hi_u8*)in;
    s.len = size;
    s.end_of_frame = HI_TRUE;
    s.pts = 42;
    hi_vdec_pic_info pic;
    memset(&pic, 0, sizeof pic);
    pic.vir_addr = (hi_u64)(uintptr_t)out;
    pic.buffer_size = info.img_buf_size;
    pic.pixel_format = (hi_pixel_format)fmt;
    CHECK(hi_mpi_vdec_send_stream(5, &s, &pic, -1));
    hi_video_frame_info frame;
    hi_vdec_stream back;
    CHECK(hi_mpi_vdec_get_frame(5, &frame, NULL, &back, -1));
    if (frame.v_frame.virt_addr[0] != out || back.addr != (hi_u8*)in || frame.v_frame.pts != 42 ||
        frame.v_frame.frame_flag != 0)
      return 3;
    w = frame.v_frame.width, h = frame.v_frame.height, ws = frame.v_frame.width_stride[0];
    hs = frame.v_frame.height_stride[0], got = (int)frame.v_frame.pixel_format;
    CHECK(hi_mpi_vdec_release_frame(5, &frame));
    CHECK(hi_mpi_vdec_stop_recv_stream(5));
    CHECK(hi_mpi_vdec_destroy_chn(5));
  }
  uint8_t* host = malloc(info.img_buf_size);
  CHECK(aclrtMemcpy(host, info.img_buf_size, out, info.img_buf_size, ACL_MEMCPY_DEVICE_TO_HOST));
  FILE* f = fopen(argv[4], "wb");
  fwrite(host, 1, info.img_buf_size, f);
  fclose(f);
  printf("%u %u %u %u %d\n", w, h, ws, hs, got);
  free(host);
  free(file);
  CHECK(hi_mpi_dvpp_free(in));
  CHECK(hi_mpi_dvpp_free(out));
  return 0;
}

/* VDEC on a video: a getter thread waits on the channel's descriptor through hi_mpi epoll. */
struct Getter {
  int chn, frames, failed, expected;
  uint32_t w, h;
  FILE* out;
  aclrtContext context;
};

static void* GetFrames(void* arg) {
  struct Getter* g = arg;
  CHECK(aclrtSetCurrentContext(g->context));
  hi_s32 epoll_fd = -1, n = 0;
  CHECK(hi_mpi_sys_create_epoll(4, &epoll_fd));
  hi_dvpp_epoll_event ev = {HI_DVPP_EPOLL_IN, g};
  CHECK(hi_mpi_sys_ctl_epoll(epoll_fd, HI_DVPP_EPOLL_CTL_ADD, hi_mpi_vdec_get_fd(g->chn), &ev));
  uint8_t* host = malloc(g->w * g->h * 3 / 2);
  while (g->frames + g->failed < g->expected) {
    hi_dvpp_epoll_event got[4];
    CHECK(hi_mpi_sys_wait_epoll(epoll_fd, got, 4, 5000, &n));
    if (n == 0) break; /* five seconds without a frame */
    if (got[0].data != g) exit(4);
    hi_video_frame_info frame;
    hi_vdec_stream stream;
    while (hi_mpi_vdec_get_frame(g->chn, &frame, NULL, &stream, 0) == 0) {
      if (frame.v_frame.frame_flag != 0) {
        ++g->failed;
      } else {
        const hi_video_frame* v = &frame.v_frame;
        const uint32_t ws = v->width_stride[0], hs = v->height_stride[0];
        uint8_t* dev = v->virt_addr[0];
        for (uint32_t r = 0; r < v->height; ++r)
          CHECK(aclrtMemcpy(host + r * v->width, v->width, dev + r * ws, v->width,
                            ACL_MEMCPY_DEVICE_TO_HOST));
        for (uint32_t r = 0; r < v->height / 2; ++r)
          CHECK(aclrtMemcpy(host + v->width * v->height + r * v->width, v->width,
                            dev + ws * hs + r * ws, v->width, ACL_MEMCPY_DEVICE_TO_HOST));
        fwrite(host, 1, v->width * v->height * 3 / 2, g->out);
        ++g->frames;
      }
      CHECK(hi_mpi_vdec_release_frame(g->chn, &frame));
      CHECK(hi_mpi_dvpp_free(frame.v_frame.virt_addr[0]));
    }
  }
  free(host);
  CHECK(hi_mpi_sys_close_epoll(epoll_fd));
  return NULL;
}

/* The Annex-B access units of a stream: each starts at a start code before a slice or a
 * parameter set that follows a slice. Enough for FFmpeg's and x264's single-slice output. */
static uint32_t NextUnit(const uint8_t* d, uint32_t size, uint32_t at, int h265) {
  int seen_slice = 0;
  for (uint32_t i = at; i + 4 < size; ++i) {
    if (!(d[i] == 0 && d[i + 1] == 0 && d[i + 2] == 1)) continue;
    const uint8_t b = d[i + 3];
    const int type = h265 ? (b >> 1) & 0x3f : b & 0x1f;
    const int slice = h265 ? type < 32 : (type == 1 || type == 5);
    const uint32_t start = i > at && d[i - 1] == 0 ? i - 1 : i;
    if (seen_slice && start > at) return start;
    if (slice) seen_slice = 1;
    i += 2;
  }
  return size;
}

static int Vdec(int argc, char** argv) {
  if (argc < 8) return 2;
  uint32_t size = 0;
  uint8_t* file = ReadFile(argv[2], &size);
  const int type = atoi(argv[3]);
  struct Getter g;
  memset(&g, 0, sizeof g);
  g.chn = 7;
  g.w = (uint32_t)atoi(argv[4]);
  g.h = (uint32_t)atoi(argv[5]);
  const int fmt = atoi(argv[6]);
  g.out = fopen(argv[7], "wb");
  CHECK(aclrtGetCurrentContext(&g.context));
  hi_vdec_chn_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.type = (hi_payload_type)type;
  attr.mode = HI_VDEC_SEND_MODE_FRAME;
  attr.pic_width = g.w;
  attr.pic_height = g.h;
  attr.frame_buf_cnt = 8;
  CHECK(hi_mpi_vdec_create_chn(g.chn, &attr));
  hi_vdec_chn_param param;
  CHECK(hi_mpi_vdec_get_chn_param(g.chn, &param));
  param.video_param.compress_mode = HI_COMPRESS_MODE_HFBC;
  param.video_param.video_format = HI_VIDEO_FORMAT_TILE_64x16;
  CHECK(hi_mpi_vdec_set_chn_param(g.chn, &param));
  CHECK(hi_mpi_vdec_start_recv_stream(g.chn));
  uint8_t* dev = ToDevice(file, size);
  /* Count the units first: the getter stops after that many frames. */
  for (uint32_t at = 0; at < size; at = NextUnit(file, size, at, type == HI_PT_H265)) ++g.expected;
  pthread_t thread;
  pthread_create(&thread, NULL, GetFrames, &g);
  hi_img_base_info base;
  memset(&base, 0, sizeof base);
  base.width = g.w;
  base.height = g.h;
  base.pixel_format = (hi_pixel_format)fmt;
  hi_module_type module = HI_MOD_VDEC;
  hi_img_align_info align;
  CHECK(hi_mpi_sys_get_image_align_info(&module, 1, &base, &align));
  for (uint32_t at = 0; at < size;) {
    const uint32_t next = NextUnit(file, size, at, type == HI_PT_H265);
    hi_vdec_stream s;
    memset(&s, 0, sizeof s);
    s.addr = dev + at;
    s.len = next - at;
    s.end_of_frame = HI_TRUE;
    s.need_display = HI_TRUE;
    hi_vdec_pic_info pic;
    memset(&pic, 0, sizeof pic);
    void* buffer = NULL;
    CHECK(hi_mpi_dvpp_malloc(0, &buffer, align.img_buf_size));
    pic.vir_addr = (hi_u64)(uintptr_t)buffer;
    pic.buffer_size = (hi_u32)align.img_buf_size;
    pic.width = g.w;
    pic.height = g.h;
    pic.width_stride = align.width_stride;
    pic.height_stride = align.height_stride;
    pic.pixel_format = (hi_pixel_format)fmt;
    CHECK(hi_mpi_vdec_send_stream(g.chn, &s, &pic, -1));
    at = next;
  }
  hi_vdec_stream eos;
  memset(&eos, 0, sizeof eos);
  eos.end_of_stream = HI_TRUE;
  hi_vdec_pic_info none;
  memset(&none, 0, sizeof none);
  CHECK(hi_mpi_vdec_send_stream(g.chn, &eos, &none, -1));
  pthread_join(thread, NULL);
  hi_vdec_chn_status status;
  CHECK(hi_mpi_vdec_query_status(g.chn, &status));
  CHECK(hi_mpi_vdec_stop_recv_stream(g.chn));
  CHECK(hi_mpi_vdec_close_fd(g.chn));
  CHECK(hi_mpi_vdec_destroy_chn(g.chn));
  CHECK(hi_mpi_dvpp_free(dev));
  fclose(g.out);
  free(file);
  printf("frames %d failed %d left %u\n", g.frames, g.failed, status.left_decoded_frames);
  return 0;
}

/* VENC: frames sent from this thread, streams taken by epoll wake-ups on the same thread. */
static int Venc(int argc, char** argv) {
  if (argc < 8) return 2;
  uint32_t size = 0;
  uint8_t* file = ReadFile(argv[2], &size);
  const int type = atoi(argv[3]);
  const uint32_t w = (uint32_t)atoi(argv[4]), h = (uint32_t)atoi(argv[5]);
  const int n = atoi(argv[6]);
  const hi_venc_chn chn = 9;
  hi_venc_chn_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.venc_attr.type = (hi_payload_type)type;
  attr.venc_attr.max_pic_width = attr.venc_attr.pic_width = w;
  attr.venc_attr.max_pic_height = attr.venc_attr.pic_height = h;
  attr.venc_attr.buf_size = 2 << 20;
  attr.venc_attr.is_by_frame = HI_TRUE;
  attr.venc_attr.profile = type == HI_PT_H264 ? 1 : 0;
  attr.rc_attr.rc_mode = type == HI_PT_H265 ? HI_VENC_RC_MODE_H265_VBR : HI_VENC_RC_MODE_H264_VBR;
  attr.rc_attr.h264_vbr = (hi_venc_h264_vbr){10, 1, 25, 25, 4000};
  attr.gop_attr.gop_mode = HI_VENC_GOP_MODE_NORMAL_P;
  CHECK(hi_mpi_venc_create_chn(chn, &attr));
  if (type == HI_PT_JPEG) {
    hi_venc_jpeg_param param;
    CHECK(hi_mpi_venc_get_jpeg_param(chn, &param));
    param.qfactor = argc > 8 ? (hi_u32)atoi(argv[8]) : 90;
    hi_venc_jpeg_param standard; /* the tables the quality brings, as get reports them */
    CHECK(hi_mpi_venc_set_jpeg_param(chn, &param));
    CHECK(hi_mpi_venc_get_jpeg_param(chn, &standard));
  }
  hi_venc_start_param start = {-1};
  CHECK(hi_mpi_venc_start_chn(chn, &start));
  hi_s32 epoll_fd = -1, events_got = 0;
  CHECK(hi_mpi_sys_create_epoll(2, &epoll_fd));
  hi_dvpp_epoll_event ev = {HI_DVPP_EPOLL_IN, (void*)(long)chn};
  CHECK(hi_mpi_sys_ctl_epoll(epoll_fd, HI_DVPP_EPOLL_CTL_ADD, hi_mpi_venc_get_fd(chn), &ev));
  const uint32_t ws = Align(w, 16), frame_bytes = w * h * 3 / 2;
  void* buffer = NULL;
  CHECK(hi_mpi_dvpp_malloc(0, &buffer, ws * h * 3 / 2));
  FILE* out = type == HI_PT_JPEG ? NULL : fopen(argv[7], "wb");
  int got = 0;
  for (int i = 0; i < n && (uint64_t)(i + 1) * frame_bytes <= size; ++i) {
    const uint8_t* src = file + (size_t)i * frame_bytes;
    uint8_t* dev = buffer;
    for (uint32_t r = 0; r < h; ++r) memcpy(dev + r * ws, src + r * w, w);
    for (uint32_t r = 0; r < h / 2; ++r) memcpy(dev + ws * h + r * ws, src + w * h + r * w, w);
    hi_video_frame_info frame;
    memset(&frame, 0, sizeof frame);
    frame.mod_id = HI_ID_VENC;
    frame.v_frame.width = w;
    frame.v_frame.height = h;
    frame.v_frame.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    frame.v_frame.width_stride[0] = frame.v_frame.width_stride[1] = ws;
    frame.v_frame.virt_addr[0] = buffer;
    frame.v_frame.virt_addr[1] = (uint8_t*)buffer + ws * h;
    frame.v_frame.pts = 1000 + (hi_u64)i;
    CHECK(hi_mpi_venc_send_frame(chn, &frame, -1));
    hi_dvpp_epoll_event woken[2];
    CHECK(hi_mpi_sys_wait_epoll(epoll_fd, woken, 2, 5000, &events_got));
    if (events_got != 1 || woken[0].data != (void*)(long)chn) return 4;
    hi_venc_chn_status status;
    CHECK(hi_mpi_venc_query_status(chn, &status));
    if (status.cur_packs < 1) return 4;
    hi_venc_pack packs[4];
    hi_venc_stream stream;
    memset(&stream, 0, sizeof stream);
    stream.pack = packs;
    stream.pack_cnt = status.cur_packs;
    CHECK(hi_mpi_venc_get_stream(chn, &stream, 0));
    for (hi_u32 k = 0; k < stream.pack_cnt; ++k) {
      const hi_venc_pack* p = &stream.pack[k];
      if (p->pts != frame.v_frame.pts || p->input_addr != (hi_u64)(uintptr_t)buffer) return 5;
      uint8_t* host = malloc(p->len);
      CHECK(aclrtMemcpy(host, p->len, p->addr, p->len, ACL_MEMCPY_DEVICE_TO_HOST));
      if (type == HI_PT_JPEG) {
        char name[512];
        snprintf(name, sizeof name, "%s.%d", argv[7], i);
        FILE* f = fopen(name, "wb");
        fwrite(host + p->offset, 1, p->len - p->offset, f);
        fclose(f);
      } else {
        fwrite(host + p->offset, 1, p->len - p->offset, out);
      }
      free(host);
    }
    CHECK(hi_mpi_venc_release_stream(chn, &stream));
    ++got;
  }
  if (out) fclose(out);
  CHECK(hi_mpi_sys_ctl_epoll(epoll_fd, HI_DVPP_EPOLL_CTL_DEL, hi_mpi_venc_get_fd(chn), NULL));
  CHECK(hi_mpi_sys_close_epoll(epoll_fd));
  CHECK(hi_mpi_venc_stop_chn(chn));
  CHECK(hi_mpi_venc_destroy_chn(chn));
  CHECK(hi_mpi_dvpp_free(buffer));
  free(file);
  printf("streams %d\n", got);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  CHECK(hi_mpi_sys_init());
  int rc = 2;
  if (!strcmp(argv[1], "vpc")) rc = Vpc(argc, argv);
  if (!strcmp(argv[1], "jpegd")) rc = Image(argc, argv, 0);
  if (!strcmp(argv[1], "pngd")) rc = Image(argc, argv, 1);
  if (!strcmp(argv[1], "vdec")) rc = Vdec(argc, argv);
  if (!strcmp(argv[1], "venc")) rc = Venc(argc, argv);
  CHECK(hi_mpi_sys_exit());
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return rc;
}
