/* The video-analysis pipeline in C, on DVPP's media API (hi_dvpp.h) as the Atlas inference
 * (310P) cards run it: VDEC decodes an H.264 clip on one thread while another takes the
 * frames, VPC resizes each to the model's 16x16 grey, and AscendCL classifies it.
 *
 *   video_analysis digits16.om digits.h264 labels.txt
 *
 * analyze.py --save DIR makes the three files. Prints the accuracy and frames per second. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "acl/dvpp/hi_dvpp.h"

#define SIDE 64       /* the clip's frames */
#define MODEL_SIDE 16 /* the model's input */
#define MAX_FRAMES 4096

#define CHECK(call)                                                                          \
  do {                                                                                       \
    int ret_ = (int)(call);                                                                  \
    if (ret_ != 0) {                                                                         \
      fprintf(stderr, "%s failed: %#x (%s)\n", #call, (unsigned)ret_, aclGetRecentErrMsg()); \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

static uint8_t* ReadFile(const char* path, uint32_t* size) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* data = malloc((size_t)n + 1);
  if (fread(data, 1, (size_t)n, f) != (size_t)n) exit(1);
  fclose(f);
  *size = (uint32_t)n;
  return data;
}

/* The clip's access units start at its access unit delimiters (00 00 01 09). */
static int SplitUnits(const uint8_t* d, uint32_t size, uint32_t* starts) {
  int n = 0;
  for (uint32_t i = 0; i + 3 < size && n < MAX_FRAMES; ++i)
    if (d[i] == 0 && d[i + 1] == 0 && d[i + 2] == 1 && d[i + 3] == 9)
      starts[n++] = i > 0 && d[i - 1] == 0 ? i - 1 : i;
  starts[n] = size;
  return n;
}

struct Pipeline {
  aclrtContext context;
  uint32_t model;
  aclmdlDataset *input, *output;
  void *model_in, *model_out, *small;
  size_t out_size;
  hi_vpc_chn vpc;
  int frames, predictions[MAX_FRAMES];
};

/* The getter: each decoded frame through VPC and the classifier. */
static void* Classify(void* arg) {
  struct Pipeline* p = arg;
  CHECK(aclrtSetCurrentContext(p->context));
  /* VPC writes 16x16 grey with a 32-byte row stride (its minimum; the NPU enforces it). */
  hi_vpc_pic_info small = {p->small,   32 * MODEL_SIDE,        MODEL_SIDE, MODEL_SIDE, 32,
                           MODEL_SIDE, HI_PIXEL_FORMAT_YUV_400};
  float pixels[MODEL_SIDE * MODEL_SIDE];
  uint8_t luma[32 * MODEL_SIDE];
  for (int k = 0; k < p->frames; ++k) {
    hi_video_frame_info frame;
    hi_vdec_stream stream;
    CHECK(hi_mpi_vdec_get_frame(0, &frame, NULL, &stream, 5000));
    const hi_video_frame* v = &frame.v_frame;
    p->predictions[k] = -1;
    if (v->frame_flag == 0) {
      hi_vpc_pic_info in = {v->virt_addr[0],    v->width_stride[0] * v->height_stride[0] * 3 / 2,
                            v->width,           v->height,
                            v->width_stride[0], v->height_stride[0],
                            v->pixel_format};
      hi_u32 task = 0;
      CHECK(hi_mpi_vpc_resize(p->vpc, &in, &small, 0, 0, 0 /* bilinear */, &task, -1));
      CHECK(hi_mpi_vpc_get_process_result(p->vpc, task, -1));
      CHECK(aclrtMemcpy(luma, sizeof luma, p->small, sizeof luma, ACL_MEMCPY_DEVICE_TO_HOST));
      for (int y = 0; y < MODEL_SIDE; ++y)
        for (int x = 0; x < MODEL_SIDE; ++x) pixels[y * MODEL_SIDE + x] = luma[y * 32 + x] / 255.0f;
      CHECK(aclrtMemcpy(p->model_in, sizeof pixels, pixels, sizeof pixels,
                        ACL_MEMCPY_HOST_TO_DEVICE));
      CHECK(aclmdlExecute(p->model, p->input, p->output));
      float logits[10];
      CHECK(aclrtMemcpy(logits, sizeof logits, p->model_out, sizeof logits,
                        ACL_MEMCPY_DEVICE_TO_HOST));
      int best = 0;
      for (int c = 1; c < 10; ++c)
        if (logits[c] > logits[best]) best = c;
      p->predictions[k] = best;
    }
    CHECK(hi_mpi_vdec_release_frame(0, &frame));
    CHECK(hi_mpi_dvpp_free(v->virt_addr[0]));
    CHECK(hi_mpi_dvpp_free(stream.addr));
  }
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s digits16.om digits.h264 labels.txt\n", argv[0]);
    return 2;
  }
  static struct Pipeline p;
  static uint32_t starts[MAX_FRAMES + 1];
  uint32_t clip_size = 0, labels_size = 0;
  uint8_t* clip = ReadFile(argv[2], &clip_size);
  char* labels = (char*)ReadFile(argv[3], &labels_size);
  labels[labels_size] = 0;
  p.frames = SplitUnits(clip, clip_size, starts);

  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  CHECK(aclrtGetCurrentContext(&p.context));
  CHECK(hi_mpi_sys_init());

  /* The classifier: one float input [1,1,16,16], ten logits out. */
  CHECK(aclmdlLoadFromFile(argv[1], &p.model));
  aclmdlDesc* desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, p.model));
  p.out_size = aclmdlGetOutputSizeByIndex(desc, 0);
  CHECK(aclrtMalloc(&p.model_in, aclmdlGetInputSizeByIndex(desc, 0), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&p.model_out, p.out_size, ACL_MEM_MALLOC_HUGE_FIRST));
  p.input = aclmdlCreateDataset();
  p.output = aclmdlCreateDataset();
  CHECK(aclmdlAddDatasetBuffer(
      p.input, aclCreateDataBuffer(p.model_in, aclmdlGetInputSizeByIndex(desc, 0))));
  CHECK(aclmdlAddDatasetBuffer(p.output, aclCreateDataBuffer(p.model_out, p.out_size)));

  hi_vpc_chn_attr vpc_attr;
  memset(&vpc_attr, 0, sizeof vpc_attr);
  CHECK(hi_mpi_vpc_sys_create_chn(&p.vpc, &vpc_attr));
  CHECK(hi_mpi_dvpp_malloc(0, &p.small, 32 * MODEL_SIDE));

  hi_vdec_chn_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.type = HI_PT_H264;
  attr.mode = HI_VDEC_SEND_MODE_FRAME;
  attr.pic_width = 1920;
  attr.pic_height = 1080;
  attr.frame_buf_cnt = 8;
  CHECK(hi_mpi_vdec_create_chn(0, &attr));
  CHECK(hi_mpi_vdec_start_recv_stream(0));
  hi_img_base_info base;
  memset(&base, 0, sizeof base);
  base.width = SIDE;
  base.height = SIDE;
  base.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  hi_module_type module = HI_MOD_VDEC;
  hi_img_align_info align;
  CHECK(hi_mpi_sys_get_image_align_info(&module, 1, &base, &align));

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pthread_t getter;
  pthread_create(&getter, NULL, Classify, &p);
  for (int k = 0; k < p.frames; ++k) {
    /* Each unit and each output picture in DVPP memory; the getter frees both. */
    const uint32_t len = starts[k + 1] - starts[k];
    void *unit = NULL, *picture = NULL;
    CHECK(hi_mpi_dvpp_malloc(0, &unit, len));
    CHECK(aclrtMemcpy(unit, len, clip + starts[k], len, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(hi_mpi_dvpp_malloc(0, &picture, align.img_buf_size));
    hi_vdec_stream stream;
    memset(&stream, 0, sizeof stream);
    stream.addr = unit;
    stream.len = len;
    stream.pts = (hi_u64)k;
    stream.end_of_frame = HI_TRUE;
    stream.need_display = HI_TRUE;
    hi_vdec_pic_info out;
    memset(&out, 0, sizeof out);
    out.width = SIDE;
    out.height = SIDE;
    out.width_stride = align.width_stride;
    out.height_stride = align.height_stride;
    out.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
    out.vir_addr = (hi_u64)(uintptr_t)picture;
    out.buffer_size = (hi_u32)align.img_buf_size;
    CHECK(hi_mpi_vdec_send_stream(0, &stream, &out, -1));
  }
  hi_vdec_stream eos;
  memset(&eos, 0, sizeof eos);
  eos.end_of_stream = HI_TRUE;
  CHECK(hi_mpi_vdec_send_stream(0, &eos, NULL, -1));
  pthread_join(getter, NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  const double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;

  int right = 0, classified = 0;
  const char* label = labels;
  for (int k = 0; k < p.frames && *label; ++k) {
    classified += p.predictions[k] >= 0;
    right += p.predictions[k] == atoi(label);
    label = strchr(label, '\n');
    if (!label) break;
    ++label;
  }
  printf("frames: %d, classified: %d, right: %d (%.1f %%)\n", p.frames, classified, right,
         p.frames ? 100.0 * right / p.frames : 0.0);
  printf(
      "pipeline: %.1f frames/s (VDEC + VPC + inference on the CPU emulation; an NPU's rate "
      "differs)\n",
      p.frames / seconds);

  CHECK(hi_mpi_vdec_stop_recv_stream(0));
  CHECK(hi_mpi_vdec_destroy_chn(0));
  CHECK(hi_mpi_vpc_destroy_chn(p.vpc));
  CHECK(hi_mpi_dvpp_free(p.small));
  CHECK(aclmdlUnload(p.model));
  aclDestroyDataBuffer(aclmdlGetDatasetBuffer(p.input, 0));
  aclDestroyDataBuffer(aclmdlGetDatasetBuffer(p.output, 0));
  aclmdlDestroyDataset(p.input);
  aclmdlDestroyDataset(p.output);
  aclmdlDestroyDesc(desc);
  CHECK(aclrtFree(p.model_in));
  CHECK(aclrtFree(p.model_out));
  CHECK(hi_mpi_sys_exit());
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  free(clip);
  free(labels);
  return right >= p.frames * 9 / 10 ? 0 : 1;
}
