/* OpenCANN: VPC of DVPP's media API (hi_dvpp.h, libacl_dvpp_mpi.so): crop, resize, paste,
 * borders, colour conversion, pyramid and histogram on pictures in DVPP memory. Every call
 * returns a task id; hi_mpi_vpc_get_process_result waits for it. */
#ifndef OPENCANN_HI_DVPP_VPC_H
#define OPENCANN_HI_DVPP_VPC_H

#include "hi_dvpp_common.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports these functions whatever visibility it is built with. */
#pragma GCC visibility push(default)

/* Channel ids are below this constant; a chip has fewer (256 on 310P/910B, 128 on 310B). */
#define VPC_MAX_CHN_NUM 512

#define HI_ERR_VPC_INVALID_CHN_ID 0xA0078002
#define HI_ERR_VPC_ILLEGAL_PARAM 0xA0078003
#define HI_ERR_VPC_EXIST 0xA0078004
#define HI_ERR_VPC_UNEXIST 0xA0078005
#define HI_ERR_VPC_NULL_PTR 0xA0078006
#define HI_ERR_VPC_NOT_CFG 0xA0078007
#define HI_ERR_VPC_NOT_SUPPORT 0xA0078008
#define HI_ERR_VPC_NOT_PERM 0xA0078009
#define HI_ERR_VPC_NO_MEM 0xA007800C
#define HI_ERR_VPC_NO_BUF 0xA007800D
#define HI_ERR_VPC_BUF_EMPTY 0xA007800E
#define HI_ERR_VPC_BUF_FULL 0xA007800F
#define HI_ERR_VPC_SYS_NOT_READY 0xA0078010
#define HI_ERR_VPC_BAD_ADDR 0xA0078011
#define HI_ERR_VPC_BUSY 0xA0078012
#define HI_ERR_VPC_SYS_ERROR 0xA0078015

typedef hi_s32 hi_vpc_chn;

typedef enum {
  HI_BORDER_CONSTANT = 0,
  HI_BORDER_REPLICATE = 1,
  HI_BORDER_REFLECT = 2,
  HI_BORDER_REFLECT_101 = 3,
  HI_BORDER_WRAP = 4
} hi_vpc_bord_type;

typedef struct {
  hi_double val[4];
} hi_vpc_scalar;

typedef struct {
  hi_u32 top;
  hi_u32 bottom;
  hi_u32 left;
  hi_u32 right;
  hi_vpc_bord_type border_type;
  hi_vpc_scalar scalar_value;
} hi_vpc_make_border_info;

typedef struct {
  hi_void* picture_address;
  hi_u32 picture_buffer_size;
  hi_u32 picture_width;
  hi_u32 picture_height;
  hi_u32 picture_width_stride;
  hi_u32 picture_height_stride;
  hi_pixel_format picture_format;
} hi_vpc_pic_info;

typedef struct {
  hi_u32 top_offset;
  hi_u32 left_offset;
  hi_u32 crop_width;
  hi_u32 crop_height;
} hi_vpc_crop_region;

typedef struct {
  hi_vpc_pic_info dest_pic_info;
  hi_vpc_crop_region crop_region;
} hi_vpc_crop_region_info;

/* interpolation: 0 bilinear, 1 nearest neighbour. */
typedef struct {
  hi_u32 resize_width;
  hi_u32 resize_height;
  hi_u32 interpolation;
} hi_vpc_resize_info;

typedef struct {
  hi_vpc_pic_info dest_pic_info;
  hi_vpc_crop_region crop_region;
  hi_vpc_resize_info resize_info;
} hi_vpc_crop_resize_region;

typedef struct {
  hi_vpc_pic_info dest_pic_info;
  hi_vpc_crop_region crop_region;
  hi_vpc_resize_info resize_info;
  hi_u32 dest_top_offset;
  hi_u32 dest_left_offset;
} hi_vpc_crop_resize_paste_region;

typedef struct {
  hi_vpc_pic_info dest_pic_info;
  hi_vpc_crop_region crop_region;
  hi_vpc_resize_info resize_info;
  hi_u32 dest_top_offset;
  hi_u32 dest_left_offset;
  hi_vpc_bord_type border_type;
  hi_vpc_scalar scalar_value;
} hi_vpc_crop_resize_border_region;

typedef struct {
  hi_s32 attr; /* reserved */
  hi_u32 pic_width;
  hi_u32 pic_height;
} hi_vpc_chn_attr;

typedef struct {
  hi_u32 histogram_y_or_r[256];
  hi_u32 histogram_u_or_g[256];
  hi_u32 histogram_v_or_b[256];
} hi_vpc_histogram_config;

typedef struct {
  hi_u8 map_value_y_or_r[256];
  hi_u8 map_value_u_or_g[256];
  hi_u8 map_value_v_or_b[256];
} hi_vpc_lut_remap;

typedef struct {
  hi_u32 alpha;
  hi_u32 attr[4]; /* reserved */
} hi_csc_conf;

/* Channels. */
hi_s32 hi_mpi_vpc_create_chn(hi_vpc_chn chn, const hi_vpc_chn_attr* attr);
hi_s32 hi_mpi_vpc_sys_create_chn(hi_vpc_chn* chnl, const hi_vpc_chn_attr* attr);
hi_s32 hi_mpi_vpc_destroy_chn(hi_vpc_chn chn);

/* Operations: milli_sec -1 blocks, 0 does not, > 0 is a timeout; *task_id names the task. */
hi_s32 hi_mpi_vpc_crop(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                       hi_vpc_crop_region_info crop_info[], hi_u32 count, hi_u32* task_id,
                       hi_s32 milli_sec);
/* dest_pic's size, or when it is 0 x 0 the source's scaled by fx, fy. */
hi_s32 hi_mpi_vpc_resize(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                         hi_vpc_pic_info* dest_pic, hi_double fx, hi_double fy,
                         hi_u32 interpolation, hi_u32* task_id, hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_crop_resize(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                              hi_vpc_crop_resize_region crop_resize_info[], hi_u32 count,
                              hi_u32* task_id, hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_crop_resize_paste(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                                    hi_vpc_crop_resize_paste_region crop_resize_paste_info[],
                                    hi_u32 count, hi_u32* task_id, hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_batch_crop_resize_paste(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic[],
                                          hi_u32 pic_num,
                                          hi_vpc_crop_resize_paste_region crop_resize_paste_info[],
                                          hi_u32 count[], hi_u32* task_id, hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_crop_resize_make_border(
    hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
    hi_vpc_crop_resize_border_region crop_resize_make_border_info[], hi_u32 count, hi_u32* task_id,
    hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_batch_crop_resize_make_border(
    hi_vpc_chn chn, const hi_vpc_pic_info* source_pic[], hi_u32 pic_num,
    hi_vpc_crop_resize_border_region crop_resize_make_border_info[], hi_u32 count[],
    hi_u32* task_id, hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_convert_color(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                                hi_vpc_pic_info* dest_pic, hi_u32* task_id, hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_convert_color_to_yuv420(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                                          hi_vpc_pic_info* dest_pic, hi_u32* task_id,
                                          hi_s32 milli_sec);
/* conf->alpha fills the alpha channel of an RGBA/BGRA/ARGB/ABGR output. */
hi_s32 hi_mpi_vpc_convert_color_v2(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                                   hi_vpc_pic_info* dest_pic, hi_csc_conf* conf, hi_u32* task_id,
                                   hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_copy_make_border(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                                   hi_vpc_pic_info* dest_pic,
                                   hi_vpc_make_border_info make_border_info, hi_u32* task_id,
                                   hi_s32 milli_sec);
/* filter_level pictures (1-4), each half the one before, through the 5x5 kernel / divisor. */
hi_s32 hi_mpi_vpc_pyrdown(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                          hi_vpc_pic_info dest_pic[], hi_u32 filter_level,
                          hi_s8 gaussian_filter[][5], hi_u16 divisor,
                          hi_vpc_make_border_info make_border_info, hi_u32* task_id,
                          hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_calc_hist(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                            hi_vpc_histogram_config* hist_config, hi_u32* task_id,
                            hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_equalize_hist(hi_vpc_chn chn, const hi_vpc_pic_info* source_pic,
                                hi_vpc_pic_info* dest_pic, const hi_vpc_lut_remap* lut_remap,
                                hi_u32* task_id, hi_s32 milli_sec);
hi_s32 hi_mpi_vpc_get_process_result(hi_vpc_chn chn, hi_u32 task_id, hi_s32 milli_sec);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif /* OPENCANN_HI_DVPP_VPC_H */
