/* OpenCANN: the system part of DVPP's media API (hi_dvpp.h): initialisation, the stride and
 * size rules per module, colour matrices per channel, and epoll over channel descriptors. */
#ifndef OPENCANN_HI_DVPP_SYS_H
#define OPENCANN_HI_DVPP_SYS_H

#include "hi_dvpp_common.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports these functions whatever visibility it is built with. */
#pragma GCC visibility push(default)

#define HI_ERR_SYS_ILLEGAL_PARAM 0xA0028003
#define HI_ERR_SYS_EXIST 0xA0028004
#define HI_ERR_SYS_UNEXIST 0xA0028005
#define HI_ERR_SYS_NULL_PTR 0xA0028006
#define HI_ERR_SYS_NOT_SUPPORT 0xA0028008
#define HI_ERR_SYS_NOT_PERM 0xA0028009
#define HI_ERR_SYS_NO_MEM 0xA002800C
#define HI_ERR_SYS_NOT_READY 0xA0028010
#define HI_ERR_SYS_BUSY 0xA0028012
#define HI_ERR_SYS_ERR 0xA0028015

typedef enum {
  HI_DVPP_EPOLL_CTL_ADD = 1,
  HI_DVPP_EPOLL_CTL_MOD = 2,
  HI_DVPP_EPOLL_CTL_DEL = 3,
  HI_DVPP_EPOLL_CTL_BUTT = 4
} hi_dvpp_epoll_ctl_op;

typedef enum {
  HI_DVPP_EPOLL_IN = 1u,
  HI_DVPP_EPOLL_OUT = 1u << 1u,
  HI_DVPP_EPOLL_ET = (hi_u32)1u << 31u
} hi_dvpp_epoll_event_type;

typedef struct {
  hi_u32 events;
  hi_void* data;
} hi_dvpp_epoll_event;

typedef enum {
  HI_MOD_VPC = 0,
  HI_MOD_VENC = 1,
  HI_MOD_VDEC = 2,
  HI_MOD_JPEGE = 3,
  HI_MOD_JPEGD = 4,
  HI_MOD_PNGD = 5,
  HI_MOD_ALL = 100,
  HI_MOD_BUTT = 255
} hi_module_type;

typedef struct {
  hi_u32 width;
  hi_u32 height;
  hi_pixel_format pixel_format;
  hi_u64 reserved[2];
} hi_img_base_info;

typedef struct {
  hi_u32 width_stride;
  hi_u32 height_stride;
  hi_u64 img_buf_size;
  hi_u64 reserved[2];
} hi_img_align_info;

typedef struct {
  hi_mod_id mod_id;
  hi_s32 dev_id;
  hi_s32 chn_id;
} hi_mpp_chn;

/* After aclInit and a device (aclrtSetDevice); sys_init and sys_exit pair up. */
hi_s32 hi_mpi_sys_init(hi_void);
hi_s32 hi_mpi_sys_exit(hi_void);
hi_s32 hi_mpi_sys_full_init(hi_void);

/* epoll over the descriptors hi_mpi_venc_get_fd / hi_mpi_vdec_get_fd return: readable when
 * the channel has output to take. */
hi_s32 hi_mpi_sys_create_epoll(hi_s32 size, hi_s32* epoll_fd);
hi_s32 hi_mpi_sys_ctl_epoll(hi_s32 epoll_fd, hi_s32 operation, hi_s32 fd,
                            hi_dvpp_epoll_event* event);
hi_s32 hi_mpi_sys_wait_epoll(hi_s32 epoll_fd, hi_dvpp_epoll_event* events, hi_s32 max_events,
                             hi_s32 timeout, hi_s32* event_num);
hi_s32 hi_mpi_sys_close_epoll(hi_s32 epoll_fd);

/* The YUV<->RGB matrix a VPC channel's conversions use (BT.601 narrow by default). */
hi_s32 hi_mpi_sys_set_chn_csc_matrix(hi_mod_id mode, hi_s32 chn, hi_csc_matrix csc_matrix,
                                     hi_csc_coefficient* csc_coefficient);
hi_s32 hi_mpi_sys_get_chn_csc_matrix(hi_mod_id mode, hi_s32 chn, hi_csc_matrix* csc_matrix,
                                     hi_csc_coefficient* csc_coefficient);

/* The strides and buffer size a picture needs to pass through every module in mod_type. */
hi_s32 hi_mpi_sys_get_image_align_info(const hi_module_type mod_type[], const hi_u32 mod_num,
                                       const hi_img_base_info* img_base_info,
                                       hi_img_align_info* img_align_info);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif /* OPENCANN_HI_DVPP_SYS_H */
