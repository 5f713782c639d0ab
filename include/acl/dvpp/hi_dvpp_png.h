/* OpenCANN: PNGD of DVPP's media API (hi_dvpp.h): PNG files decoded to packed RGB/RGBA. */
#ifndef OPENCANN_HI_DVPP_PNG_H
#define OPENCANN_HI_DVPP_PNG_H

#include "hi_dvpp_common.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports these functions whatever visibility it is built with. */
#pragma GCC visibility push(default)

#define PNGD_MAX_CHN_NUM 128

#define HI_ERR_PNGD_INVALID_CHN_ID 0xA0408002
#define HI_ERR_PNGD_ILLEGAL_PARAM 0xA0408003
#define HI_ERR_PNGD_EXIST 0xA0408004
#define HI_ERR_PNGD_UNEXIST 0xA0408005
#define HI_ERR_PNGD_NULL_PTR 0xA0408006
#define HI_ERR_PNGD_NOT_CFG 0xA0408007
#define HI_ERR_PNGD_NOT_SUPPORT 0xA0408008
#define HI_ERR_PNGD_NOT_PERM 0xA0408009
#define HI_ERR_PNGD_NO_MEM 0xA040800C
#define HI_ERR_PNGD_NO_BUF 0xA040800D
#define HI_ERR_PNGD_BUF_EMPTY 0xA040800E
#define HI_ERR_PNGD_BUF_FULL 0xA040800F
#define HI_ERR_PNGD_SYS_NOT_READY 0xA0408010
#define HI_ERR_PNGD_BAD_ADDR 0xA0408011
#define HI_ERR_PNGD_BUSY 0xA0408012
#define HI_ERR_PNGD_TIMEOUT 0xA0408014
#define HI_ERR_PNGD_SYS_ERROR 0xA0408015

typedef hi_s32 hi_pngd_chn;

typedef struct {
  hi_u32 stream_que_cnt; /* reserved */
  hi_u64 reserved[4];
} hi_pngd_chn_attr;

hi_s32 hi_mpi_pngd_create_chn(hi_pngd_chn chn, const hi_pngd_chn_attr* attr);
hi_s32 hi_mpi_pngd_destroy_chn(hi_pngd_chn chn);
/* Decodes the file into png_pic_info's buffer; get_image_data hands the result back. */
hi_s32 hi_mpi_pngd_send_stream(hi_pngd_chn chn, const hi_img_stream* stream,
                               hi_pic_info* png_pic_info, hi_s32 milli_sec);
hi_s32 hi_mpi_pngd_get_image_data(hi_pngd_chn chn, hi_pic_info* png_pic_info, hi_img_stream* stream,
                                  hi_s32 milli_sec);
/* A PNG's size, colour type and the buffer its decode needs (the stream may be host memory). */
hi_s32 hi_mpi_png_get_image_info(const hi_img_stream* png_stream, hi_img_info* img_info);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif /* OPENCANN_HI_DVPP_PNG_H */
