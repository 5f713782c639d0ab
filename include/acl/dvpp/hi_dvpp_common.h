/* OpenCANN: the types DVPP's media API (hi_dvpp.h, libacl_dvpp_mpi.so) shares between its
 * modules: integer types, error codes, pixel formats, payload types, video frames, image
 * streams and DVPP memory. Names and numbers follow CANN's documentation so that programs
 * written for it compile unchanged. */
#ifndef OPENCANN_HI_DVPP_COMMON_H
#define OPENCANN_HI_DVPP_COMMON_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports these functions whatever visibility it is built with. */
#pragma GCC visibility push(default)

typedef unsigned char hi_u8;
typedef signed char hi_s8;
typedef unsigned short hi_u16;
typedef short hi_s16;
typedef unsigned int hi_u32;
typedef int hi_s32;
typedef unsigned long long hi_u64;
typedef long long hi_s64;
typedef char hi_char;
typedef float hi_float;
typedef double hi_double;
typedef hi_u32 hi_fr32;
#define hi_void void
#define HI_NULL 0L
#define HI_SUCCESS 0
#define HI_FAILURE (-1)

typedef enum { HI_FALSE = 0, HI_TRUE = 1 } hi_bool;

#define ALIGN_NUM 8
#define DEFAULT_ALIGN 32U
#define ATTRIBUTE __attribute__((aligned(ALIGN_NUM)))
#define ALIGN_UP(x, a) ((((x) + ((a)-1U)) / (a)) * (a))
#define HI_MAX_COLOR_COMPONENT 3
#define HI_MAX_USER_DATA_NUM 2

/* An error code: 0xA0000000 | module << 16 | level << 13 | errno. */
#define HI_ERR_APP_ID (0x80000000U + 0x20000000U)
#define HI_DEFINE_ERR(mod, level, err_id) \
  ((hi_s32)((HI_ERR_APP_ID) | ((hi_u32)(mod) << 16) | ((hi_u32)(level) << 13) | ((hi_u32)(err_id))))

typedef enum {
  HI_ERR_INVALID_DEV_ID = 1,
  HI_ERR_INVALID_CHN_ID = 2,
  HI_ERR_ILLEGAL_PARAM = 3,
  HI_ERR_EXIST = 4,
  HI_ERR_UNEXIST = 5,
  HI_ERR_NULL_PTR = 6,
  HI_ERR_NOT_CFG = 7,
  HI_ERR_NOT_SUPPORT = 8,
  HI_ERR_NOT_PERM = 9,
  HI_ERR_INVALID_PIPE_ID = 10,
  HI_ERR_INVALID_GRP_ID = 11,
  HI_ERR_NO_MEM = 12,
  HI_ERR_NO_BUF = 13,
  HI_ERR_BUF_EMPTY = 14,
  HI_ERR_BUF_FULL = 15,
  HI_ERR_NOT_READY = 16,
  HI_ERR_BAD_ADDR = 17,
  HI_ERR_BUSY = 18,
  HI_ERR_SIZE_NOT_ENOUGH = 19,
  HI_ERR_TIMEOUT = 20,
  HI_ERR_SYS_ERROR = 21,
  HI_ERR_BUTT = 63
} hi_errno;

typedef enum {
  HI_ERR_LEVEL_DEBUG = 0,
  HI_ERR_LEVEL_INFO = 1,
  HI_ERR_LEVEL_NOTICE = 2,
  HI_ERR_LEVEL_WARNING = 3,
  HI_ERR_LEVEL_ERROR = 4,
  HI_ERR_LEVEL_CRIT = 5,
  HI_ERR_LEVEL_ALERT = 6,
  HI_ERR_LEVEL_FATAL = 7,
  HI_ERR_LEVEL_BUTT = 8
} hi_err_level;

/* The modules DVPP's calls and error codes name (the media platform's numbering). */
typedef enum {
  HI_ID_CMPI = 0,
  HI_ID_VB = 1,
  HI_ID_SYS = 2,
  HI_ID_RGN = 3,
  HI_ID_CHNL = 4,
  HI_ID_VDEC = 5,
  HI_ID_AVS = 6,
  HI_ID_VPC = 7,
  HI_ID_VENC = 8,
  HI_ID_SVP = 9,
  HI_ID_H264E = 10,
  HI_ID_JPEGE = 11,
  HI_ID_MPEG4E = 12,
  HI_ID_H265E = 13,
  HI_ID_JPEGD = 14,
  HI_ID_VO = 15,
  HI_ID_VI = 16,
  HI_ID_DIS = 17,
  HI_ID_VALG = 18,
  HI_ID_RC = 19,
  HI_ID_AIO = 20,
  HI_ID_AI = 21,
  HI_ID_AO = 22,
  HI_ID_AENC = 23,
  HI_ID_ADEC = 24,
  HI_ID_VPU = 25,
  HI_ID_PCIV = 26,
  HI_ID_PCIVFMW = 27,
  HI_ID_ISP = 28,
  HI_ID_IVE = 29,
  HI_ID_USER = 30,
  HI_ID_DCCM = 31,
  HI_ID_DCCS = 32,
  HI_ID_PROC = 33,
  HI_ID_LOG = 34,
  HI_ID_VFMW = 35,
  HI_ID_H264D = 36,
  HI_ID_GDC = 37,
  HI_ID_PHOTO = 38,
  HI_ID_FB = 39,
  HI_ID_HDMI = 40,
  HI_ID_VOIE = 41,
  HI_ID_TDE = 42,
  HI_ID_HDR = 43,
  HI_ID_PRORES = 44,
  HI_ID_VGS = 45,
  HI_ID_FD = 47,
  HI_ID_ODT = 48,
  HI_ID_VQA = 49,
  HI_ID_LPR = 50,
  HI_ID_SVP_NNIE = 51,
  HI_ID_SVP_DSP = 52,
  HI_ID_DPU_RECT = 53,
  HI_ID_DPU_MATCH = 54,
  HI_ID_MOTIONSENSOR = 55,
  HI_ID_MOTIONFUSION = 56,
  HI_ID_GYRODIS = 57,
  HI_ID_PM = 58,
  HI_ID_SVP_ALG = 59,
  HI_ID_IVP = 60,
  HI_ID_MCF = 61,
  HI_ID_VPSS = 62,
  HI_ID_DRV_VPC = 63,
  HI_ID_PNGD = 64,
  HI_ID_VDEC_ADAPT = 65,
  HI_ID_DCC = 66,
  HI_ID_VDEC_SERVER = 67,
  HI_ID_BUTT = 0x100
} hi_mod_id;

/* Payload types (RTP's numbers, and the media platform's above 1000). */
typedef enum {
  HI_PT_PCMU = 0,
  HI_PT_PCMA = 8,
  HI_PT_JPEG = 26,
  HI_PT_H261 = 31,
  HI_PT_MPEGVIDEO = 32,
  HI_PT_MPEG2TS = 33,
  HI_PT_H263 = 34,
  HI_PT_MPEG2VIDEO = 36,
  HI_PT_AAC = 37,
  HI_PT_MP3 = 43,
  HI_PT_H264 = 96,
  HI_PT_MP4VIDEO = 230,
  HI_PT_H265 = 265,
  HI_PT_VP8 = 266,
  HI_PT_MVC = 267,
  HI_PT_PNG = 268,
  HI_PT_AMR = 1001,
  HI_PT_MJPEG = 1002,
  HI_PT_AMRWB = 1003,
  HI_PT_PRORES = 1006,
  HI_PT_OPUS = 1007,
  HI_PT_VPC = 2000,
  HI_PT_BUTT = 2001
} hi_payload_type;

typedef enum {
  HI_DATA_BIT_WIDTH_8 = 0,
  HI_DATA_BIT_WIDTH_10 = 1,
  HI_DATA_BIT_WIDTH_12 = 2,
  HI_DATA_BIT_WIDTH_14 = 3,
  HI_DATA_BIT_WIDTH_16 = 4,
  HI_DATA_BIT_WIDTH_BUTT = 5
} hi_data_bit_width;

/* Pixel formats: 0-17 are acldvppPixelFormat's numbers too. */
typedef enum {
  HI_PIXEL_FORMAT_YUV_400 = 0,
  HI_PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1,
  HI_PIXEL_FORMAT_YVU_SEMIPLANAR_420 = 2,
  HI_PIXEL_FORMAT_YUV_SEMIPLANAR_422 = 3,
  HI_PIXEL_FORMAT_YVU_SEMIPLANAR_422 = 4,
  HI_PIXEL_FORMAT_YUV_SEMIPLANAR_444 = 5,
  HI_PIXEL_FORMAT_YVU_SEMIPLANAR_444 = 6,
  HI_PIXEL_FORMAT_YUYV_PACKED_422 = 7,
  HI_PIXEL_FORMAT_UYVY_PACKED_422 = 8,
  HI_PIXEL_FORMAT_YVYU_PACKED_422 = 9,
  HI_PIXEL_FORMAT_VYUY_PACKED_422 = 10,
  HI_PIXEL_FORMAT_YUV_PACKED_444 = 11,
  HI_PIXEL_FORMAT_RGB_888 = 12,
  HI_PIXEL_FORMAT_BGR_888 = 13,
  HI_PIXEL_FORMAT_ARGB_8888 = 14,
  HI_PIXEL_FORMAT_ABGR_8888 = 15,
  HI_PIXEL_FORMAT_RGBA_8888 = 16,
  HI_PIXEL_FORMAT_BGRA_8888 = 17,
  HI_PIXEL_FORMAT_YUV_SEMI_PLANNER_420_10BIT = 18,
  HI_PIXEL_FORMAT_YVU_SEMI_PLANNER_420_10BIT = 19,
  HI_PIXEL_FORMAT_YVU_PLANAR_420 = 20,
  HI_PIXEL_FORMAT_YVU_PLANAR_422 = 21,
  HI_PIXEL_FORMAT_YVU_PLANAR_444 = 22,
  HI_PIXEL_FORMAT_RGB_444 = 23,
  HI_PIXEL_FORMAT_BGR_444 = 24,
  HI_PIXEL_FORMAT_ARGB_4444 = 25,
  HI_PIXEL_FORMAT_ABGR_4444 = 26,
  HI_PIXEL_FORMAT_RGBA_4444 = 27,
  HI_PIXEL_FORMAT_BGRA_4444 = 28,
  HI_PIXEL_FORMAT_RGB_555 = 29,
  HI_PIXEL_FORMAT_BGR_555 = 30,
  HI_PIXEL_FORMAT_RGB_565 = 31,
  HI_PIXEL_FORMAT_BGR_565 = 32,
  HI_PIXEL_FORMAT_ARGB_1555 = 33,
  HI_PIXEL_FORMAT_ABGR_1555 = 34,
  HI_PIXEL_FORMAT_RGBA_1555 = 35,
  HI_PIXEL_FORMAT_BGRA_1555 = 36,
  HI_PIXEL_FORMAT_ARGB_8565 = 37,
  HI_PIXEL_FORMAT_ABGR_8565 = 38,
  HI_PIXEL_FORMAT_RGBA_8565 = 39,
  HI_PIXEL_FORMAT_BGRA_8565 = 40,
  HI_PIXEL_FORMAT_ARGB_CLUT2 = 41,
  HI_PIXEL_FORMAT_ARGB_CLUT4 = 42,
  HI_PIXEL_FORMAT_RGB_BAYER_8BPP = 50,
  HI_PIXEL_FORMAT_RGB_BAYER_10BPP = 51,
  HI_PIXEL_FORMAT_RGB_BAYER_12BPP = 52,
  HI_PIXEL_FORMAT_RGB_BAYER_14BPP = 53,
  HI_PIXEL_FORMAT_RGB_BAYER_16BPP = 54,
  HI_PIXEL_FORMAT_YUV_PLANAR_420 = 55,
  HI_PIXEL_FORMAT_YUV_PLANAR_422 = 56,
  HI_PIXEL_FORMAT_YUV_PLANAR_444 = 57,
  HI_PIXEL_FORMAT_YVU_PACKED_444 = 58,
  HI_PIXEL_FORMAT_XYUV_PACKED_444 = 59,
  HI_PIXEL_FORMAT_XYVU_PACKED_444 = 60,
  HI_PIXEL_FORMAT_YUV_SEMIPLANAR_411 = 61,
  HI_PIXEL_FORMAT_YVU_SEMIPLANAR_411 = 62,
  HI_PIXEL_FORMAT_YUV_PLANAR_411 = 63,
  HI_PIXEL_FORMAT_YVU_PLANAR_411 = 64,
  HI_PIXEL_FORMAT_YUV_PLANAR_440 = 65,
  HI_PIXEL_FORMAT_YVU_PLANAR_440 = 66,
  HI_PIXEL_FORMAT_RGB_888_PLANAR = 69,
  HI_PIXEL_FORMAT_BGR_888_PLANAR = 70,
  HI_PIXEL_FORMAT_HSV_888_PACKAGE = 71,
  HI_PIXEL_FORMAT_HSV_888_PLANAR = 72,
  HI_PIXEL_FORMAT_LAB_888_PACKAGE = 73,
  HI_PIXEL_FORMAT_LAB_888_PLANAR = 74,
  HI_PIXEL_FORMAT_S8C1 = 75,
  HI_PIXEL_FORMAT_S8C2_PACKAGE = 76,
  HI_PIXEL_FORMAT_S8C2_PLANAR = 77,
  HI_PIXEL_FORMAT_S16C1 = 78,
  HI_PIXEL_FORMAT_U8C1 = 79,
  HI_PIXEL_FORMAT_U16C1 = 80,
  HI_PIXEL_FORMAT_S32C1 = 81,
  HI_PIXEL_FORMAT_U32C1 = 82,
  HI_PIXEL_FORMAT_U64C1 = 83,
  HI_PIXEL_FORMAT_S64C1 = 84,
  HI_PIXEL_FORMAT_YUV_SEMIPLANAR_440 = 1000,
  HI_PIXEL_FORMAT_YVU_SEMIPLANAR_440 = 1001,
  HI_PIXEL_FORMAT_FLOAT32 = 1002,
  HI_PIXEL_FORMAT_BUTT = 1003,
  HI_PIXEL_FORMAT_UNKNOWN = 10000
} hi_pixel_format;

typedef enum {
  HI_VIDEO_FORMAT_LINEAR = 0,
  HI_VIDEO_FORMAT_TILE_64x16 = 1,
  HI_VIDEO_FORMAT_BUTT = 2
} hi_video_format;

typedef enum {
  HI_COMPRESS_MODE_NONE = 0,
  HI_COMPRESS_MODE_SEG = 1,
  HI_COMPRESS_MODE_TILE = 2,
  HI_COMPRESS_MODE_HFBC = 3,
  HI_COMPRESS_MODE_BUTT = 4
} hi_compress_mode;

typedef enum {
  HI_COLOR_GAMUT_BT601 = 0,
  HI_COLOR_GAMUT_BT709 = 1,
  HI_COLOR_GAMUT_BT2020 = 2,
  HI_COLOR_GAMUT_USER = 3,
  HI_COLOR_GAMUT_BUTT = 4
} hi_color_gamut;

typedef enum {
  HI_DYNAMIC_RANGE_SDR8 = 0,
  HI_DYNAMIC_RANGE_SDR10 = 1,
  HI_DYNAMIC_RANGE_HDR10 = 2,
  HI_DYNAMIC_RANGE_HLG = 3,
  HI_DYNAMIC_RANGE_SLF = 4,
  HI_DYNAMIC_RANGE_XDR = 5,
  HI_DYNAMIC_RANGE_BUTT = 6
} hi_dynamic_range;

typedef enum {
  HI_VIDEO_FIELD_TOP = 0x1,
  HI_VIDEO_FIELD_BOTTOM = 0x2,
  HI_VIDEO_FIELD_INTERLACED = 0x3,
  HI_VIDEO_FIELD_FRAME = 0x4,
  HI_VIDEO_FIELD_BUTT = 0x5
} hi_video_field;

typedef enum {
  HI_VIDEO_OUT_ORDER_DISPLAY = 0,
  HI_VIDEO_OUT_ORDER_DEC = 1,
  HI_VIDEO_OUT_ORDER_BUTT = 2
} hi_video_out_order;

/* A JPEG's chroma sampling as hi_mpi_dvpp_get_image_info reports it. */
typedef enum {
  HI_JPEG_RAW_FORMAT_YUV444 = 0,
  HI_JPEG_RAW_FORMAT_YUV422 = 1,
  HI_JPEG_RAW_FORMAT_YUV420 = 2,
  HI_JPEG_RAW_FORMAT_YUV440 = 3,
  HI_JPEG_RAW_FORMAT_YUV400 = 4,
  HI_JPEG_RAW_FORMAT_YUV411 = 5,
  HI_JPEG_RAW_FORMAT_MAX = 100
} hi_jpeg_raw_format;

/* A PNG's colour type (PNG's own numbers). */
typedef enum {
  HI_PNG_COLOR_FORMAT_GRAY = 0x0,
  HI_PNG_COLOR_FORMAT_RGB = 0x2,
  HI_PNG_COLOR_FORMAT_CLUT = 0x3,
  HI_PNG_COLOR_FORMAT_AGRAY = 0x4,
  HI_PNG_COLOR_FORMAT_ARGB = 0x6,
  HI_PNG_COLOR_FORMAT_BUTT = 0x100
} hi_png_color_format;

typedef enum {
  HI_CSC_MATRIX_BT601_WIDE = 0,
  HI_CSC_MATRIX_BT601_NARROW = 1,
  HI_CSC_MATRIX_BT709_WIDE = 2,
  HI_CSC_MATRIX_BT709_NARROW = 3,
  HI_CSC_MATRIX_BT2020_WIDE = 4,
  HI_CSC_MATRIX_BT2020_NARROW = 5,
  HI_CSC_MATRIX_USER = 100,
  HI_CSC_MATRIX_BUTT = 101
} hi_csc_matrix;

/* A 3x3 colour matrix (row r, column c) and its offsets. */
typedef struct {
  hi_double csc_matrix_r0_c0, csc_matrix_r0_c1, csc_matrix_r0_c2;
  hi_double csc_matrix_r1_c0, csc_matrix_r1_c1, csc_matrix_r1_c2;
  hi_double csc_matrix_r2_c0, csc_matrix_r2_c1, csc_matrix_r2_c2;
  hi_double csc_bias_r0, csc_bias_r1, csc_bias_r2;
} hi_coefficient;

typedef struct {
  hi_coefficient yuv_to_rgb_coefficient;
  hi_coefficient rgb_to_yuv_coefficient;
} hi_csc_coefficient;

typedef struct {
  hi_u64 misc_info_phys_addr;
  hi_u64 jpeg_dcf_phys_addr;
  hi_u64 isp_info_phys_addr;
  hi_u64 low_delay_phys_addr;
  hi_u64 bnr_rnt_phys_addr;
  hi_u64 motion_data_phys_addr;
  hi_u64 frame_dng_phys_addr;
  hi_void* ATTRIBUTE misc_info_virt_addr;
  hi_void* ATTRIBUTE jpeg_dcf_virt_addr;
  hi_void* ATTRIBUTE isp_info_virt_addr;
  hi_void* ATTRIBUTE low_delay_virt_addr;
  hi_void* ATTRIBUTE bnr_mot_virt_addr;
  hi_void* ATTRIBUTE motion_data_virt_addr;
  hi_void* ATTRIBUTE frame_dng_virt_addr;
} hi_video_supplement;

/* A picture in DVPP memory as the video modules pass it: planes [0] luma, [1] chroma. */
typedef struct {
  hi_u32 width;
  hi_u32 height;
  hi_video_field field;
  hi_pixel_format pixel_format;
  hi_video_format video_format;
  hi_compress_mode compress_mode;
  hi_dynamic_range dynamic_range;
  hi_color_gamut color_gamut;
  hi_u32 header_stride[HI_MAX_COLOR_COMPONENT];
  hi_u32 width_stride[HI_MAX_COLOR_COMPONENT];
  hi_u32 height_stride[HI_MAX_COLOR_COMPONENT];
  hi_u64 header_phys_addr[HI_MAX_COLOR_COMPONENT];
  hi_u64 phys_addr[HI_MAX_COLOR_COMPONENT];
  hi_void* header_virt_addr[HI_MAX_COLOR_COMPONENT];
  hi_void* virt_addr[HI_MAX_COLOR_COMPONENT];
  hi_u32 time_ref;
  hi_u64 pts;
  hi_u64 user_data[HI_MAX_USER_DATA_NUM];
  hi_u32 frame_flag; /* 0: decoded; otherwise why not (bits may combine) */
  hi_video_supplement supplement;
} hi_video_frame;

typedef struct {
  hi_video_frame v_frame;
  hi_u32 pool_id;
  hi_mod_id mod_id;
} hi_video_frame_info;

typedef struct {
  hi_u32 width;
  hi_u32 height;
} hi_video_size;

/* What hi_mpi_dvpp_get_image_info and hi_mpi_png_get_image_info report. */
typedef struct {
  hi_u32 width;
  hi_u32 height;
  hi_u32 width_stride;
  hi_u32 height_stride;
  hi_u32 img_buf_size;
  union {
    hi_jpeg_raw_format pixel_format;
    hi_png_color_format png_pixel_format;
    hi_pixel_format img_pixel_format;
  };
  hi_u32 reserved[4];
} hi_img_info;

typedef struct {
  hi_u32 width;
  hi_u32 height;
  hi_u32 align;
  hi_data_bit_width bit_width;
  hi_pixel_format pixel_format;
  hi_compress_mode compress_mode;
} hi_pic_buf_attr;

typedef struct {
  hi_payload_type type;
  hi_u8* ATTRIBUTE addr;
  hi_u32 len;
  hi_u64 pts;
  hi_s32 reserved[2];
} hi_img_stream;

typedef struct {
  hi_void* picture_address;
  hi_u32 picture_buffer_size;
  hi_u32 picture_width;
  hi_u32 picture_height;
  hi_u32 picture_width_stride;
  hi_u32 picture_height_stride;
  hi_pixel_format picture_format;
} hi_pic_info;

typedef struct {
  hi_s32 x;
  hi_s32 y;
  hi_u32 width;
  hi_u32 height;
} hi_rect;

/* DVPP memory (device memory the media engines reach); dev_id is the device. */
hi_s32 hi_mpi_dvpp_malloc(hi_u32 dev_id, hi_void** dev_ptr, hi_u64 size);
hi_s32 hi_mpi_dvpp_free(hi_void* dev_ptr);
hi_s32 hi_mpi_dvpp_get_version(hi_s32* major_version, hi_s32* minor_version, hi_s32* patch_version);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif /* OPENCANN_HI_DVPP_COMMON_H */
