/* hi_dvpp.h misused: every rule DVPP checks returns its module's code, and bad streams are
 * errors, never crashes. Run with OCANN_SOC=Ascend310P3 (argv[1] "310p"), Ascend910B3
 * ("910b") or Ascend310 ("310": no media API). Exits non-zero naming the first failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "hi_dvpp.h"

static int failures = 0;
#define EXPECT(call, code)                                                               \
  do {                                                                                   \
    hi_s32 got_ = (hi_s32)(call);                                                        \
    if (got_ != (hi_s32)(code)) {                                                        \
      fprintf(stderr, "%s:%d: %s = %#x, expected %#x (%s)\n", __FILE__, __LINE__, #call, \
              (unsigned)got_, (unsigned)(code), aclGetRecentErrMsg());                   \
      ++failures;                                                                        \
    }                                                                                    \
  } while (0)

static hi_vpc_pic_info Nv12(void* data, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs) {
  hi_vpc_pic_info p;
  memset(&p, 0, sizeof p);
  p.picture_address = data;
  p.picture_width = w;
  p.picture_height = h;
  p.picture_width_stride = ws;
  p.picture_height_stride = hs;
  p.picture_buffer_size = ws * hs * 3 / 2;
  p.picture_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  return p;
}

int main(int argc, char** argv) {
  const char* chip = argc > 1 ? argv[1] : "310p";
  if (aclInit(NULL) != 0 || aclrtSetDevice(0) != 0) return 2;
  if (!strcmp(chip, "310")) {
    EXPECT(hi_mpi_sys_init(), HI_ERR_SYS_NOT_SUPPORT);
    return failures ? 1 : 0;
  }
  hi_vpc_chn chn = 0;
  hi_vpc_chn_attr attr;
  memset(&attr, 0, sizeof attr);
  EXPECT(hi_mpi_vpc_sys_create_chn(&chn, &attr), HI_ERR_VPC_SYS_NOT_READY);
  EXPECT(hi_mpi_sys_exit(), HI_ERR_SYS_NOT_PERM);
  EXPECT(hi_mpi_sys_init(), HI_SUCCESS);

  /* Memory. */
  void* dvpp = NULL;
  EXPECT(hi_mpi_dvpp_malloc(0, &dvpp, 0), HI_ERR_SYS_ILLEGAL_PARAM);
  EXPECT(hi_mpi_dvpp_malloc(9, &dvpp, 64), HI_ERR_SYS_ILLEGAL_PARAM);
  EXPECT(hi_mpi_dvpp_malloc(0, &dvpp, 64 * 64 * 3), HI_SUCCESS);
  void* device = NULL;
  if (aclrtMalloc(&device, 64 * 64 * 3, ACL_MEM_MALLOC_HUGE_FIRST) != 0) return 2;
  EXPECT(hi_mpi_dvpp_free(device), HI_ERR_SYS_ILLEGAL_PARAM);
  static uint8_t host[128 * 128 * 3];

  /* Channels. */
  EXPECT(hi_mpi_vpc_create_chn(-1, &attr), HI_ERR_VPC_INVALID_CHN_ID);
  EXPECT(hi_mpi_vpc_create_chn(256, &attr), HI_ERR_VPC_INVALID_CHN_ID);
  EXPECT(hi_mpi_vpc_create_chn(3, NULL), HI_ERR_VPC_NULL_PTR);
  EXPECT(hi_mpi_vpc_create_chn(3, &attr), HI_SUCCESS);
  EXPECT(hi_mpi_vpc_create_chn(3, &attr), HI_ERR_VPC_EXIST);
  EXPECT(hi_mpi_vpc_destroy_chn(4), HI_ERR_VPC_UNEXIST);

  /* Pictures and the memory rule. */
  hi_u32 task = 0;
  hi_vpc_pic_info in = Nv12(dvpp, 64, 64, 64, 64), out = Nv12(dvpp, 32, 32, 32, 32);
  void* out_mem = NULL;
  EXPECT(hi_mpi_dvpp_malloc(0, &out_mem, 64 * 64 * 3 / 2), HI_SUCCESS);
  out.picture_address = out_mem;
  EXPECT(hi_mpi_vpc_resize(3, &in, &out, 0, 0, 0, NULL, -1), HI_ERR_VPC_NULL_PTR);
  EXPECT(hi_mpi_vpc_resize(3, &in, &out, 0, 0, 7, &task, -1), HI_ERR_VPC_ILLEGAL_PARAM);
  EXPECT(hi_mpi_vpc_resize(3, &in, &out, 0, 0, 0, &task, -1), HI_SUCCESS);
  EXPECT(hi_mpi_vpc_get_process_result(3, task, -1), HI_SUCCESS);
  EXPECT(hi_mpi_vpc_get_process_result(3, task, -1), HI_ERR_VPC_ILLEGAL_PARAM);
  hi_vpc_pic_info from_host = Nv12(host, 64, 64, 64, 64);
  EXPECT(hi_mpi_vpc_resize(3, &from_host, &out, 0, 0, 0, &task, -1), HI_ERR_VPC_ILLEGAL_PARAM);
  hi_vpc_pic_info from_device = Nv12(device, 64, 64, 64, 64);
  /* 310P reaches DVPP memory only; 910B any device memory. */
  EXPECT(hi_mpi_vpc_resize(3, &from_device, &out, 0, 0, 0, &task, -1),
         strcmp(chip, "910b") ? HI_ERR_VPC_ILLEGAL_PARAM : HI_SUCCESS);
  if (!strcmp(chip, "910b")) EXPECT(hi_mpi_vpc_get_process_result(3, task, -1), HI_SUCCESS);
  hi_vpc_pic_info odd_stride = Nv12(dvpp, 40, 40, 40, 40);
  EXPECT(hi_mpi_vpc_resize(3, &odd_stride, &out, 0, 0, 0, &task, -1),
         strcmp(chip, "910b") ? HI_ERR_VPC_ILLEGAL_PARAM : HI_SUCCESS);
  if (!strcmp(chip, "910b")) EXPECT(hi_mpi_vpc_get_process_result(3, task, -1), HI_SUCCESS);
  hi_vpc_pic_info short_buffer = in;
  short_buffer.picture_buffer_size = 100;
  EXPECT(hi_mpi_vpc_resize(3, &short_buffer, &out, 0, 0, 0, &task, -1), HI_ERR_VPC_ILLEGAL_PARAM);
  hi_vpc_pic_info huge = Nv12(out_mem, 4096, 32, 4096, 32); /* 64x64 -> 4096 wide: 64x */
  huge.picture_buffer_size = 64 * 64 * 3 / 2;
  EXPECT(hi_mpi_vpc_resize(3, &in, &huge, 0, 0, 0, &task, -1), HI_ERR_VPC_ILLEGAL_PARAM);
  hi_vpc_crop_resize_region region;
  memset(&region, 0, sizeof region);
  region.dest_pic_info = out;
  region.crop_region = (hi_vpc_crop_region){40, 40, 32, 32}; /* past the 64x64 picture */
  region.resize_info = (hi_vpc_resize_info){32, 32, 0};
  EXPECT(hi_mpi_vpc_crop_resize(3, &in, &region, 1, &task, -1), HI_ERR_VPC_ILLEGAL_PARAM);
  EXPECT(hi_mpi_vpc_crop_resize(3, &in, &region, 0, &task, -1), HI_ERR_VPC_ILLEGAL_PARAM);
  hi_vpc_make_border_info wrap;
  memset(&wrap, 0, sizeof wrap);
  wrap.border_type = HI_BORDER_WRAP;
  EXPECT(hi_mpi_vpc_copy_make_border(3, &in, &out, wrap, &task, -1), HI_ERR_VPC_NOT_SUPPORT);
  EXPECT(hi_mpi_sys_set_chn_csc_matrix(HI_ID_VPC, 3, HI_CSC_MATRIX_BT709_NARROW, NULL),
         HI_ERR_SYS_NOT_SUPPORT);
  EXPECT(hi_mpi_sys_set_chn_csc_matrix(HI_ID_VPC, 3, HI_CSC_MATRIX_BT601_WIDE, NULL), HI_SUCCESS);
  EXPECT(hi_mpi_vpc_destroy_chn(3), HI_SUCCESS);
  EXPECT(hi_mpi_vpc_resize(3, &in, &out, 0, 0, 0, &task, -1), HI_ERR_VPC_UNEXIST);

  /* VDEC. */
  hi_vdec_chn_attr vattr;
  memset(&vattr, 0, sizeof vattr);
  vattr.type = HI_PT_H264;
  vattr.mode = HI_VDEC_SEND_MODE_STREAM;
  vattr.pic_width = 1920;
  vattr.pic_height = 1080;
  EXPECT(hi_mpi_vdec_create_chn(1, &vattr), HI_ERR_VDEC_NOT_SUPPORT);
  vattr.mode = HI_VDEC_SEND_MODE_FRAME;
  vattr.pic_width = 64;
  EXPECT(hi_mpi_vdec_create_chn(1, &vattr), HI_ERR_VDEC_ILLEGAL_PARAM);
  vattr.pic_width = 1920;
  vattr.type = HI_PT_MP4VIDEO;
  EXPECT(hi_mpi_vdec_create_chn(1, &vattr), HI_ERR_VDEC_NOT_SUPPORT);
  vattr.type = HI_PT_H264;
  EXPECT(hi_mpi_vdec_create_chn(256, &vattr), HI_ERR_VDEC_INVALID_CHN_ID);
  EXPECT(hi_mpi_vdec_create_chn(1, &vattr), HI_SUCCESS);
  hi_vdec_stream stream;
  memset(&stream, 0, sizeof stream);
  uint8_t* bytes = dvpp;
  memset(bytes, 0, 64 * 64 * 3);
  bytes[2] = 1;
  bytes[3] = 0x65; /* an IDR slice start code followed by garbage */
  memset(bytes + 4, 0xA5, 600);
  stream.addr = bytes;
  stream.len = 604;
  stream.end_of_frame = HI_TRUE;
  hi_vdec_pic_info pic;
  memset(&pic, 0, sizeof pic);
  pic.vir_addr = (hi_u64)(uintptr_t)out_mem;
  pic.buffer_size = 64 * 64 * 3 / 2;
  pic.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  EXPECT(hi_mpi_vdec_send_stream(1, &stream, &pic, -1), HI_ERR_VDEC_NOT_PERM);
  EXPECT(hi_mpi_vdec_start_recv_stream(1), HI_SUCCESS);
  hi_vdec_stream from_host_stream = stream;
  from_host_stream.addr = host;
  EXPECT(hi_mpi_vdec_send_stream(1, &from_host_stream, &pic, -1), HI_ERR_VDEC_ILLEGAL_PARAM);
  hi_video_frame_info frame;
  EXPECT(hi_mpi_vdec_get_frame(1, &frame, NULL, NULL, 0), HI_ERR_VDEC_BUF_EMPTY);
  EXPECT(hi_mpi_vdec_get_frame(1, &frame, NULL, NULL, 20), HI_ERR_VDEC_BUF_EMPTY);
  EXPECT(hi_mpi_vdec_send_stream(1, &stream, &pic, -1), HI_SUCCESS); /* garbage: no crash */
  hi_vdec_stream eos;
  memset(&eos, 0, sizeof eos);
  eos.end_of_stream = HI_TRUE;
  EXPECT(hi_mpi_vdec_send_stream(1, &eos, &pic, -1), HI_SUCCESS);
  /* The garbage's buffer comes back, marked as not decoded. */
  EXPECT(hi_mpi_vdec_get_frame(1, &frame, NULL, NULL, 1000), HI_SUCCESS);
  if (frame.v_frame.frame_flag == 0 || frame.v_frame.virt_addr[0] != out_mem) {
    fprintf(stderr, "the garbage frame came back with flag 0 or another buffer\n");
    ++failures;
  }
  EXPECT(hi_mpi_vdec_release_frame(1, &frame), HI_SUCCESS);
  EXPECT(hi_mpi_vdec_release_frame(1, &frame), HI_ERR_VDEC_ILLEGAL_PARAM);
  EXPECT(hi_mpi_vdec_reset_chn(1), HI_ERR_VDEC_NOT_PERM);
  EXPECT(hi_mpi_vdec_stop_recv_stream(1), HI_SUCCESS);
  EXPECT(hi_mpi_vdec_reset_chn(1), HI_SUCCESS);
  EXPECT(hi_mpi_vdec_destroy_chn(1), HI_SUCCESS);
  EXPECT(hi_mpi_vdec_destroy_chn(1), HI_ERR_VDEC_UNEXIST);

  /* JPEG through VDEC: a truncated file is an error or a failed frame, never a crash. */
  vattr.type = HI_PT_JPEG;
  EXPECT(hi_mpi_vdec_create_chn(2, &vattr), HI_SUCCESS);
  EXPECT(hi_mpi_vdec_start_recv_stream(2), HI_SUCCESS);
  hi_vdec_stream jpeg = stream;
  bytes[0] = 0xFF;
  bytes[1] = 0xD8;
  jpeg.len = 64;
  EXPECT(hi_mpi_vdec_send_stream(2, &jpeg, &pic, -1), HI_ERR_VDEC_ILLEGAL_PARAM);
  hi_img_info info;
  EXPECT(hi_mpi_dvpp_get_image_info(HI_PT_JPEG, &jpeg, &info), HI_ERR_VDEC_ILLEGAL_PARAM);
  EXPECT(hi_mpi_dvpp_get_image_info(HI_PT_H264, &jpeg, &info), HI_ERR_VDEC_NOT_SUPPORT);
  EXPECT(hi_mpi_vdec_destroy_chn(2), HI_SUCCESS);

  /* PNGD. */
  hi_pngd_chn_attr pattr;
  memset(&pattr, 0, sizeof pattr);
  EXPECT(hi_mpi_pngd_create_chn(128, &pattr), HI_ERR_PNGD_INVALID_CHN_ID);
  EXPECT(hi_mpi_pngd_create_chn(0, &pattr), HI_SUCCESS);
  hi_img_stream png = {HI_PT_PNG, bytes, 64, 0, {0, 0}};
  hi_pic_info ppic;
  memset(&ppic, 0, sizeof ppic);
  ppic.picture_address = out_mem;
  ppic.picture_buffer_size = 64 * 64 * 3 / 2;
  EXPECT(hi_mpi_pngd_send_stream(0, &png, &ppic, -1), HI_ERR_PNGD_ILLEGAL_PARAM);
  EXPECT(hi_mpi_pngd_get_image_data(0, &ppic, &png, 0), HI_ERR_PNGD_BUF_EMPTY);
  EXPECT(hi_mpi_png_get_image_info(&png, &info), HI_ERR_PNGD_ILLEGAL_PARAM);
  EXPECT(hi_mpi_pngd_destroy_chn(0), HI_SUCCESS);

  /* VENC. */
  hi_venc_chn_attr eattr;
  memset(&eattr, 0, sizeof eattr);
  eattr.venc_attr.type = HI_PT_H264;
  eattr.venc_attr.max_pic_width = eattr.venc_attr.pic_width = 128;
  eattr.venc_attr.max_pic_height = eattr.venc_attr.pic_height = 128;
  eattr.rc_attr.rc_mode = HI_VENC_RC_MODE_H264_FIXQP;
  eattr.rc_attr.h264_vbr = (hi_venc_h264_vbr){30, 1, 30, 30, 2000};
  EXPECT(hi_mpi_venc_create_chn(0, &eattr), HI_ERR_VENC_NOT_SUPPORT);
  eattr.rc_attr.rc_mode = HI_VENC_RC_MODE_H265_VBR;
  EXPECT(hi_mpi_venc_create_chn(0, &eattr), HI_ERR_VENC_ILLEGAL_PARAM);
  eattr.rc_attr.rc_mode = HI_VENC_RC_MODE_H264_VBR;
  eattr.gop_attr.gop_mode = HI_VENC_GOP_MODE_BIPRED_B;
  EXPECT(hi_mpi_venc_create_chn(0, &eattr), HI_ERR_VENC_NOT_SUPPORT);
  eattr.gop_attr.gop_mode = HI_VENC_GOP_MODE_NORMAL_P;
  eattr.venc_attr.pic_width = 100; /* below 128 */
  EXPECT(hi_mpi_venc_create_chn(0, &eattr), HI_ERR_VENC_ILLEGAL_PARAM);
  eattr.venc_attr.pic_width = 128;
  EXPECT(hi_mpi_venc_create_chn(0, &eattr), HI_SUCCESS);
  EXPECT(hi_mpi_venc_create_chn(0, &eattr), HI_ERR_VENC_EXIST);
  hi_video_frame_info vframe;
  memset(&vframe, 0, sizeof vframe);
  vframe.v_frame.width = vframe.v_frame.height = 128;
  vframe.v_frame.pixel_format = HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420;
  vframe.v_frame.width_stride[0] = vframe.v_frame.width_stride[1] = 128;
  vframe.v_frame.virt_addr[0] = host; /* not DVPP memory */
  vframe.v_frame.virt_addr[1] = host + 128 * 128;
  EXPECT(hi_mpi_venc_send_frame(0, &vframe, -1), HI_ERR_VENC_NOT_PERM);
  hi_venc_start_param start = {0};
  EXPECT(hi_mpi_venc_start_chn(0, &start), HI_ERR_VENC_ILLEGAL_PARAM);
  start.recv_pic_num = 1;
  EXPECT(hi_mpi_venc_start_chn(0, &start), HI_SUCCESS);
  EXPECT(hi_mpi_venc_send_frame(0, &vframe, -1), HI_ERR_VENC_ILLEGAL_PARAM);
  void* frame_mem = NULL;
  EXPECT(hi_mpi_dvpp_malloc(0, &frame_mem, 128 * 128 * 3 / 2), HI_SUCCESS);
  vframe.v_frame.virt_addr[0] = frame_mem;
  vframe.v_frame.virt_addr[1] = (uint8_t*)frame_mem + 128 * 128;
  vframe.v_frame.width_stride[0] = 120; /* not 16-aligned */
  EXPECT(hi_mpi_venc_send_frame(0, &vframe, -1), HI_ERR_VENC_ILLEGAL_PARAM);
  vframe.v_frame.width_stride[0] = 128;
  EXPECT(hi_mpi_venc_send_frame(0, &vframe, -1), HI_SUCCESS);
  EXPECT(hi_mpi_venc_send_frame(0, &vframe, -1), HI_ERR_VENC_NOT_PERM); /* took its 1 */
  hi_venc_pack pack;
  hi_venc_stream vstream;
  memset(&vstream, 0, sizeof vstream);
  vstream.pack = &pack;
  EXPECT(hi_mpi_venc_get_stream(0, &vstream, 0), HI_ERR_VENC_ILLEGAL_PARAM); /* pack_cnt 0 */
  vstream.pack_cnt = 1;
  EXPECT(hi_mpi_venc_get_stream(0, &vstream, 0), HI_SUCCESS);
  EXPECT(hi_mpi_venc_get_stream(0, &vstream, 0), HI_ERR_VENC_BUF_EMPTY);
  EXPECT(hi_mpi_venc_release_stream(0, &vstream), HI_SUCCESS);
  EXPECT(hi_mpi_venc_release_stream(0, &vstream), HI_ERR_VENC_ILLEGAL_PARAM);
  hi_venc_jpeg_param jparam;
  EXPECT(hi_mpi_venc_get_jpeg_param(0, &jparam), HI_ERR_VENC_NOT_PERM); /* not JPEG */
  EXPECT(hi_mpi_venc_set_scene_mode(0, (hi_venc_scene_mode)7), HI_ERR_VENC_ILLEGAL_PARAM);
  EXPECT(hi_mpi_venc_destroy_chn(0), HI_SUCCESS);
  eattr.venc_attr.type = HI_PT_JPEG;
  EXPECT(hi_mpi_venc_create_chn(1, &eattr), HI_SUCCESS);
  EXPECT(hi_mpi_venc_get_jpeg_param(1, &jparam), HI_SUCCESS);
  jparam.qfactor = 0;
  EXPECT(hi_mpi_venc_set_jpeg_param(1, &jparam), HI_ERR_VENC_ILLEGAL_PARAM);
  hi_u32 predicted = 0;
  jparam.qfactor = 90;
  EXPECT(hi_mpi_venc_get_jpege_predicted_size(&vframe, &jparam, &predicted), HI_SUCCESS);
  if (predicted < 128 * 128) ++failures;
  EXPECT(hi_mpi_venc_start_chn(1, &start), HI_SUCCESS);
  hi_img_stream small = {HI_PT_JPEG, (hi_u8*)out_mem, 16, 0, {0, 0}};
  EXPECT(hi_mpi_venc_send_jpege_frame(1, &vframe, &small, -1), HI_ERR_VENC_NO_BUF);
  EXPECT(hi_mpi_venc_destroy_chn(1), HI_SUCCESS);
  EXPECT(hi_mpi_dvpp_free(frame_mem), HI_SUCCESS);

  /* epoll. */
  hi_s32 epoll_fd = -1, n = -1;
  EXPECT(hi_mpi_sys_create_epoll(0, &epoll_fd), HI_ERR_SYS_ILLEGAL_PARAM);
  EXPECT(hi_mpi_sys_create_epoll(1, &epoll_fd), HI_SUCCESS);
  hi_dvpp_epoll_event events[2];
  EXPECT(hi_mpi_sys_wait_epoll(epoll_fd, events, 2, 10, &n), HI_SUCCESS);
  if (n != 0) ++failures;
  EXPECT(hi_mpi_sys_ctl_epoll(epoll_fd, 9, 0, events), HI_ERR_SYS_ILLEGAL_PARAM);
  EXPECT(hi_mpi_sys_close_epoll(epoll_fd), HI_SUCCESS);

  EXPECT(hi_mpi_dvpp_free(dvpp), HI_SUCCESS);
  EXPECT(hi_mpi_dvpp_free(dvpp), HI_ERR_SYS_ILLEGAL_PARAM);
  EXPECT(hi_mpi_dvpp_free(out_mem), HI_SUCCESS);
  aclrtFree(device);
  EXPECT(hi_mpi_sys_exit(), HI_SUCCESS);
  aclrtResetDevice(0);
  aclFinalize();
  if (failures) fprintf(stderr, "%d failures\n", failures);
  return failures ? 1 : 0;
}
