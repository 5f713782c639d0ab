/* OpenCANN: VENC of DVPP's media API (hi_dvpp.h): H.264/H.265 encoding and JPEG encoding
 * (JPEGE) of pictures in DVPP memory; streams taken back with get_stream. */
#ifndef OPENCANN_HI_DVPP_VENC_H
#define OPENCANN_HI_DVPP_VENC_H

#include "hi_dvpp_common.h"

#ifdef __cplusplus
extern "C" {
#endif
/* The library exports these functions whatever visibility it is built with. */
#pragma GCC visibility push(default)

#define HI_VENC_MAX_PACK_INFO_NUM 8
#define HI_VENC_MAX_MPF_NUM 2
#define HI_VENC_PRORES_MAX_ID_CHAR_NUM 4
#define HI_VENC_JPEG_QT_COEF_NUM 64
#define HI_VENC_QP_HIST_NUM 52
#define HI_VENC_MAX_SSE_NUM 8

#define HI_ERR_VENC_INVALID_CHN_ID 0xA0088002
#define HI_ERR_VENC_ILLEGAL_PARAM 0xA0088003
#define HI_ERR_VENC_EXIST 0xA0088004
#define HI_ERR_VENC_UNEXIST 0xA0088005
#define HI_ERR_VENC_NULL_PTR 0xA0088006
#define HI_ERR_VENC_NOT_CFG 0xA0088007
#define HI_ERR_VENC_NOT_SUPPORT 0xA0088008
#define HI_ERR_VENC_NOT_PERM 0xA0088009
#define HI_ERR_VENC_NO_MEM 0xA008800C
#define HI_ERR_VENC_NO_BUF 0xA008800D
#define HI_ERR_VENC_BUF_EMPTY 0xA008800E
#define HI_ERR_VENC_BUF_FULL 0xA008800F
#define HI_ERR_VENC_SYS_NOT_READY 0xA0088010
#define HI_ERR_VENC_BAD_ADDR 0xA0088011
#define HI_ERR_VENC_BUSY 0xA0088012
#define HI_ERR_VENC_SYS_ERROR 0xA0088015

typedef hi_s32 hi_venc_chn;

typedef enum {
  HI_VENC_H264_NALU_B_SLICE = 0,
  HI_VENC_H264_NALU_P_SLICE = 1,
  HI_VENC_H264_NALU_I_SLICE = 2,
  HI_VENC_H264_NALU_IDR_SLICE = 5,
  HI_VENC_H264_NALU_SEI = 6,
  HI_VENC_H264_NALU_SPS = 7,
  HI_VENC_H264_NALU_PPS = 8,
  HI_VENC_H264_NALU_BUTT = 9
} hi_venc_h264_nalu_type;

typedef enum {
  HI_VENC_H265_NALU_B_SLICE = 0,
  HI_VENC_H265_NALU_P_SLICE = 1,
  HI_VENC_H265_NALU_I_SLICE = 2,
  HI_VENC_H265_NALU_IDR_SLICE = 19,
  HI_VENC_H265_NALU_VPS = 32,
  HI_VENC_H265_NALU_SPS = 33,
  HI_VENC_H265_NALU_PPS = 34,
  HI_VENC_H265_NALU_SEI = 39,
  HI_VENC_H265_NALU_ENHANCE = 64,
  HI_VENC_H265_NALU_BUTT = 65
} hi_venc_h265_nalu_type;

typedef enum {
  HI_VENC_JPEG_PACK_ECS = 5,
  HI_VENC_JPEG_PACK_APP = 6,
  HI_VENC_JPEG_PACK_VDO = 7,
  HI_VENC_JPEG_PACK_PIC = 8,
  HI_VENC_JPEG_PACK_DCF = 9,
  HI_VENC_JPEG_PACK_DCF_PIC = 10,
  HI_VENC_JPEG_PACK_BUTT = 11
} hi_venc_jpege_pack_type;

typedef enum { HI_VENC_PRORES_PACK_PIC = 1, HI_VENC_PRORES_PACK_BUTT = 2 } hi_venc_prores_pack_type;

typedef enum {
  HI_VENC_BASE_IDR_SLICE = 0,
  HI_VENC_BASE_P_SLICE_REF_TO_IDR = 1,
  HI_VENC_BASE_P_SLICE_REF_BY_BASE = 2,
  HI_VENC_BASE_P_SLICE_REF_BY_ENHANCE = 3,
  HI_VENC_ENHANCE_P_SLICE_REF_BY_ENHANCE = 4,
  HI_VENC_ENHANCE_P_SLICE_NOT_FOR_REF = 5,
  HI_VENC_P_SLICE_BUTT = 6
} hi_venc_ref_type;

typedef enum {
  HI_VENC_PIC_RECV_SINGLE = 0,
  HI_VENC_PIC_RECV_MULTI = 1,
  HI_VENC_PIC_RECV_BUTT = 2
} hi_venc_pic_recv_mode;

typedef enum {
  HI_VENC_RC_MODE_H264_CBR = 1,
  HI_VENC_RC_MODE_H264_VBR = 2,
  HI_VENC_RC_MODE_H264_AVBR = 3,
  HI_VENC_RC_MODE_H264_QVBR = 4,
  HI_VENC_RC_MODE_H264_CVBR = 5,
  HI_VENC_RC_MODE_H264_FIXQP = 6,
  HI_VENC_RC_MODE_H264_QPMAP = 7,
  HI_VENC_RC_MODE_MJPEG_CBR = 8,
  HI_VENC_RC_MODE_MJPEG_VBR = 9,
  HI_VENC_RC_MODE_MJPEG_FIXQP = 10,
  HI_VENC_RC_MODE_H265_CBR = 11,
  HI_VENC_RC_MODE_H265_VBR = 12,
  HI_VENC_RC_MODE_H265_AVBR = 13,
  HI_VENC_RC_MODE_H265_QVBR = 14,
  HI_VENC_RC_MODE_H265_CVBR = 15,
  HI_VENC_RC_MODE_H265_FIXQP = 16,
  HI_VENC_RC_MODE_H265_QPMAP = 17,
  HI_VENC_RC_MODE_BUTT = 18
} hi_venc_rc_mode;

typedef enum {
  HI_VENC_RC_QPMAP_MODE_MEAN_QP = 0,
  HI_VENC_RC_QPMAP_MODE_MIN_QP = 1,
  HI_VENC_RC_QPMAP_MODE_MAX_QP = 2,
  HI_VENC_RC_QPMAP_MODE_BUTT = 3
} hi_venc_rc_qpmap_mode;

typedef enum {
  HI_VENC_GOP_MODE_NORMAL_P = 0,
  HI_VENC_GOP_MODE_DUAL_P = 1,
  HI_VENC_GOP_MODE_SMART_P = 2,
  HI_VENC_GOP_MODE_ADV_SMART_P = 3,
  HI_VENC_GOP_MODE_BIPRED_B = 4,
  HI_VENC_GOP_MODE_LOW_DELAY_B = 5,
  HI_VENC_GOP_MODE_BUTT = 6
} hi_venc_gop_mode;

typedef enum {
  HI_VENC_SCENE_0 = 0,
  HI_VENC_SCENE_1 = 1,
  HI_VENC_SCENE_2 = 2,
  HI_VENC_SCENE_BUTT = 3
} hi_venc_scene_mode;

typedef struct {
  hi_bool enable;
  hi_u64 sse_val;
} hi_venc_sse_info;

typedef union {
  hi_venc_h264_nalu_type h264_type;
  hi_venc_jpege_pack_type jpeg_type;
  hi_venc_h265_nalu_type h265_type;
  hi_venc_prores_pack_type prores_type;
} hi_venc_data_type;

typedef struct {
  hi_venc_data_type pack_type;
  hi_u32 pack_offset;
  hi_u32 pack_len;
} hi_venc_pack_info;

/* One piece of a stream: addr + offset holds len - offset bytes; input_addr is the picture
 * (virt_addr[0]) it was encoded from. */
typedef struct {
  union {
    hi_u64 phys_addr;
    hi_u64 input_addr;
  };
  hi_u8* ATTRIBUTE addr;
  hi_u32 ATTRIBUTE len;
  hi_u64 pts;
  hi_bool is_frame_end;
  hi_venc_data_type data_type;
  hi_u32 offset;
  hi_u32 data_num;
  hi_venc_pack_info pack_info[HI_VENC_MAX_PACK_INFO_NUM];
} hi_venc_pack;

typedef struct {
  hi_u32 pic_bytes, inter16x16_mb_num, inter8x8_mb_num, intra16_mb_num, intra8_mb_num,
      intra4_mb_num;
  hi_venc_ref_type ref_type;
  hi_u32 update_attr_cnt, start_qp, mean_qp;
  hi_bool is_p_skip;
} hi_venc_h264_stream_info;

typedef struct {
  hi_u32 pic_bytes, inter64x64_cu_num, inter32x32_cu_num, inter16x16_cu_num, inter8x8_cu_num,
      intra32x32_cu_num, intra16x16_cu_num, intra8x8_cu_num, intra4x4_cu_num;
  hi_venc_ref_type ref_type;
  hi_u32 update_attr_cnt, start_qp, mean_qp;
  hi_bool is_p_skip;
} hi_venc_h265_stream_info;

typedef struct {
  hi_u32 pic_bytes, update_attr_cnt, qfactor;
} hi_venc_jpeg_stream_info;

typedef struct {
  hi_u32 pic_bytes, update_attr_cnt;
} hi_venc_prores_stream_info;

typedef struct {
  hi_u32 residual_bits, head_bits, madi_val, madp_val;
  hi_double psnr_val;
  hi_u32 sse_lcu_cnt;
  hi_u64 sse_sum;
  hi_venc_sse_info sse_info[HI_VENC_MAX_SSE_NUM];
  hi_u32 qp_hist[HI_VENC_QP_HIST_NUM];
  hi_u32 move_scene16x16_num, move_scene_bits;
} hi_venc_h264_adv_stream_info;

typedef struct {
  hi_u32 residual_bits, head_bits, madi_val, madp_val;
  hi_double psnr_val;
  hi_u32 sse_lcu_cnt;
  hi_u64 sse_sum;
  hi_venc_sse_info sse_info[HI_VENC_MAX_SSE_NUM];
  hi_u32 qp_hist[HI_VENC_QP_HIST_NUM];
  hi_u32 move_scene32x32_num, move_scene_bits;
} hi_venc_h265_adv_stream_info;

/* get_stream fills pack[0 .. pack_cnt) (the caller gives the array) and the counts. */
typedef struct {
  hi_venc_pack* ATTRIBUTE pack;
  hi_u32 ATTRIBUTE pack_cnt;
  hi_u32 seq;
  union {
    hi_venc_h264_stream_info h264_info;
    hi_venc_jpeg_stream_info jpeg_info;
    hi_venc_h265_stream_info h265_info;
    hi_venc_prores_stream_info prores_info;
  };
  union {
    hi_venc_h264_adv_stream_info h264_adv_info;
    hi_venc_h265_adv_stream_info h265_adv_info;
  };
} hi_venc_stream;

typedef struct {
  hi_venc_ref_type ref_type;
  hi_u32 pic_bytes, pic_cnt, start_qp, mean_qp;
  hi_bool is_p_skip;
  hi_u32 residual_bits, head_bits, madi_val, madp_val;
  hi_u64 sse_sum;
  hi_u32 sse_lcu_cnt;
  hi_double psnr_val;
} hi_venc_stream_info;

typedef struct {
  hi_u32 left_pics;
  hi_u32 left_stream_bytes;
  hi_u32 left_stream_frames;
  hi_u32 cur_packs; /* packs of the next stream get_stream returns (0: none waiting) */
  hi_u32 left_recv_pics;
  hi_u32 left_enc_pics;
  hi_bool is_jpeg_snap_end;
  hi_u64 release_pic_pts;
  hi_venc_stream_info stream_info;
} hi_venc_chn_status;

typedef struct {
  hi_bool rcn_ref_share_buf_en;
  hi_u32 frame_buf_ratio;
} hi_venc_h264_attr;

typedef struct {
  hi_bool rcn_ref_share_buf_en;
  hi_u32 frame_buf_ratio;
} hi_venc_h265_attr;

typedef struct {
  hi_u8 large_thumbnail_num;
  hi_video_size large_thumbnail_size[HI_VENC_MAX_MPF_NUM];
} hi_venc_mpf_cfg;

typedef struct {
  hi_bool dcf_en;
  hi_venc_mpf_cfg mpf_cfg;
  hi_venc_pic_recv_mode recv_mode;
} hi_venc_jpeg_attr;

typedef struct {
  hi_char identifier[HI_VENC_PRORES_MAX_ID_CHAR_NUM];
  hi_u32 frame_rate_code;
  hi_u32 aspect_ratio;
} hi_venc_prores_attr;

/* profile: H.264 0 baseline, 1 main, 2 high; H.265 0 main; JPEG 0. */
typedef struct {
  hi_payload_type type;
  hi_u32 max_pic_width;
  hi_u32 max_pic_height;
  hi_u32 buf_size;
  hi_u32 profile;
  hi_bool is_by_frame;
  hi_u32 pic_width;
  hi_u32 pic_height;
  union {
    hi_venc_h264_attr h264_attr;
    hi_venc_h265_attr h265_attr;
    hi_venc_jpeg_attr jpeg_attr;
    hi_venc_prores_attr prores_attr;
  };
} hi_venc_attr;

typedef struct {
  hi_u32 gop, stats_time, src_frame_rate, dst_frame_rate, bit_rate;
} hi_venc_h264_cbr;
typedef struct {
  hi_u32 gop, stats_time, src_frame_rate, dst_frame_rate, max_bit_rate;
} hi_venc_h264_vbr;
typedef struct {
  hi_u32 gop, stats_time, src_frame_rate, dst_frame_rate, max_bit_rate, short_term_stats_time,
      long_term_stats_time, long_term_max_bit_rate, long_term_min_bit_rate;
} hi_venc_h264_cvbr;
typedef struct {
  hi_u32 gop, stats_time, src_frame_rate, dst_frame_rate, max_bit_rate;
} hi_venc_h264_avbr;
typedef struct {
  hi_u32 gop, stats_time, src_frame_rate, dst_frame_rate;
} hi_venc_h264_qpmap;
typedef struct {
  hi_u32 gop, stats_time, src_frame_rate, dst_frame_rate, target_bit_rate;
} hi_venc_h264_qvbr;
typedef struct {
  hi_u32 gop, stats_time, src_frame_rate, dst_frame_rate;
  hi_venc_rc_qpmap_mode qpmap_mode;
} hi_venc_h265_qpmap;
typedef struct {
  hi_u32 src_frame_rate, dst_frame_rate, qfactor;
} hi_venc_mjpeg_fixqp;
typedef struct {
  hi_u32 stats_time, src_frame_rate, dst_frame_rate, bit_rate;
} hi_venc_mjpeg_cbr;
typedef struct {
  hi_u32 stats_time, src_frame_rate, dst_frame_rate, max_bit_rate;
} hi_venc_mjpeg_vbr;
typedef struct {
  hi_u32 gop, src_frame_rate, dst_frame_rate, i_qp, p_qp, b_qp;
} hi_venc_h264_fixqp;
typedef hi_venc_h264_cbr hi_venc_h265_cbr;
typedef hi_venc_h264_vbr hi_venc_h265_vbr;
typedef hi_venc_h264_avbr hi_venc_h265_avbr;
typedef hi_venc_h264_fixqp hi_venc_h265_fixqp;
typedef hi_venc_h264_qvbr hi_venc_h265_qvbr;
typedef hi_venc_h264_cvbr hi_venc_h265_cvbr;

typedef struct {
  hi_venc_rc_mode rc_mode;
  union {
    hi_venc_h264_cbr h264_cbr;
    hi_venc_h264_vbr h264_vbr;
    hi_venc_h264_avbr h264_avbr;
    hi_venc_h264_qvbr h264_qvbr;
    hi_venc_h264_cvbr h264_cvbr;
    hi_venc_h264_fixqp h264_fixqp;
    hi_venc_h264_qpmap h264_qpmap;
    hi_venc_mjpeg_cbr mjpeg_cbr;
    hi_venc_mjpeg_vbr mjpeg_vbr;
    hi_venc_mjpeg_fixqp mjpeg_fixqp;
    hi_venc_h265_cbr h265_cbr;
    hi_venc_h265_vbr h265_vbr;
    hi_venc_h265_avbr h265_avbr;
    hi_venc_h265_qvbr h265_qvbr;
    hi_venc_h265_cvbr h265_cvbr;
    hi_venc_h265_fixqp h265_fixqp;
    hi_venc_h265_qpmap h265_qpmap;
  };
} hi_venc_rc_attr;

typedef struct {
  hi_s32 ip_qp_delta;
} hi_venc_gop_normal_p;
typedef struct {
  hi_u32 sp_interval;
  hi_s32 sp_qp_delta;
  hi_s32 ip_qp_delta;
} hi_venc_gop_dual_p;
typedef struct {
  hi_u32 bg_interval;
  hi_s32 bg_qp_delta;
  hi_s32 vi_qp_delta;
} hi_venc_gop_smart_p;
typedef struct {
  hi_u32 bg_interval;
  hi_s32 bg_qp_delta;
  hi_s32 vi_qp_delta;
} hi_venc_gop_adv_smart_p;
typedef struct {
  hi_u32 b_frame_num;
  hi_s32 b_qp_delta;
  hi_s32 ip_qp_delta;
} hi_venc_gop_bipred_b;

typedef struct {
  hi_venc_gop_mode gop_mode;
  union {
    hi_venc_gop_normal_p normal_p;
    hi_venc_gop_dual_p dual_p;
    hi_venc_gop_smart_p smart_p;
    hi_venc_gop_adv_smart_p adv_smart_p;
    hi_venc_gop_bipred_b bipred_b;
  };
} hi_venc_gop_attr;

typedef struct {
  hi_venc_attr venc_attr;
  hi_venc_rc_attr rc_attr;
  hi_venc_gop_attr gop_attr;
} hi_venc_chn_attr;

/* recv_pic_num: pictures the channel takes before it stops (-1: no limit). */
typedef struct {
  hi_s32 recv_pic_num;
} hi_venc_start_param;

/* qfactor 1-100; the quantisation tables get_jpeg_param reports for it. */
typedef struct {
  hi_u32 qfactor;
  hi_u8 y_qt[HI_VENC_JPEG_QT_COEF_NUM];
  hi_u8 cb_qt[HI_VENC_JPEG_QT_COEF_NUM];
  hi_u8 cr_qt[HI_VENC_JPEG_QT_COEF_NUM];
  hi_u32 mcu_per_ecs;
  hi_bool ecs_output_en;
} hi_venc_jpeg_param;

typedef struct {
  hi_bool enable;
  hi_rect rect;
} hi_crop_info;

typedef struct {
  hi_s32 src_frame_rate;
  hi_s32 dst_frame_rate;
} hi_frame_rate_ctrl;

typedef struct {
  hi_bool color_to_grey_en;
  hi_u32 priority;
  hi_u32 max_stream_cnt;
  hi_u32 poll_wake_up_frame_cnt;
  hi_crop_info crop_info;
  hi_frame_rate_ctrl frame_rate;
} hi_venc_chn_param;

typedef struct {
  hi_u32 max_i_proportion, min_i_proportion, max_qp, min_qp, max_i_qp, min_i_qp;
  hi_s32 max_reencode_times;
  hi_bool qpmap_en;
} hi_venc_h264_cbr_param;
typedef struct {
  hi_s32 chg_pos;
  hi_u32 max_i_proportion, min_i_proportion;
  hi_s32 max_reencode_times;
  hi_bool qpmap_en;
  hi_u32 max_qp, min_qp, max_i_qp, min_i_qp;
} hi_venc_h264_vbr_param;
typedef struct {
  hi_s32 chg_pos;
  hi_u32 max_i_proportion, min_i_proportion;
  hi_s32 max_reencode_times;
  hi_bool qpmap_en;
  hi_s32 min_still_percent;
  hi_u32 max_still_qp, min_still_psnr, max_qp, min_qp, max_i_qp, min_i_qp, min_qp_delta,
      motion_sensitivity;
  hi_bool save_bitrate_en;
} hi_venc_h264_avbr_param;
typedef struct {
  hi_u32 max_i_proportion, min_i_proportion;
  hi_s32 max_reencode_times;
  hi_bool qpmap_en;
  hi_u32 max_qp, min_qp, max_i_qp, min_i_qp;
  hi_s32 max_bit_percent, min_bit_percent, max_psnr_fluctuate, min_psnr_fluctuate;
} hi_venc_h264_qvbr_param;
typedef struct {
  hi_u32 max_i_proportion, min_i_proportion;
  hi_s32 max_reencode_times;
  hi_bool qpmap_en;
  hi_u32 max_qp, min_qp, max_i_qp, min_i_qp, min_qp_delta, max_qp_delta, extra_bit_percent,
      long_term_stats_time_unit;
  hi_bool save_bitrate_en;
} hi_venc_h264_cvbr_param;
typedef struct {
  hi_u32 max_qfactor, min_qfactor;
} hi_venc_mjpeg_cbr_param;
typedef struct {
  hi_s32 chg_pos;
  hi_u32 max_qfactor, min_qfactor;
} hi_venc_mjpeg_vbr_param;
typedef struct {
  hi_u32 max_i_proportion, min_i_proportion, max_qp, min_qp, max_i_qp, min_i_qp;
  hi_s32 max_reencode_times;
  hi_bool qpmap_en;
  hi_venc_rc_qpmap_mode qpmap_mode;
} hi_venc_h265_cbr_param;
typedef struct {
  hi_s32 chg_pos;
  hi_u32 max_i_proportion, min_i_proportion;
  hi_s32 max_reencode_times;
  hi_u32 max_qp, min_qp, max_i_qp, min_i_qp;
  hi_bool qpmap_en;
  hi_venc_rc_qpmap_mode qpmap_mode;
} hi_venc_h265_vbr_param;
typedef struct {
  hi_s32 chg_pos;
  hi_u32 max_i_proportion, min_i_proportion;
  hi_s32 max_reencode_times;
  hi_s32 min_still_percent;
  hi_u32 max_still_qp, min_still_psnr, max_qp, min_qp, max_i_qp, min_i_qp, min_qp_delta,
      motion_sensitivity;
  hi_bool qpmap_en;
  hi_venc_rc_qpmap_mode qpmap_mode;
} hi_venc_h265_avbr_param;
typedef struct {
  hi_u32 max_i_proportion, min_i_proportion;
  hi_s32 max_reencode_times;
  hi_bool qpmap_en;
  hi_venc_rc_qpmap_mode qpmap_mode;
  hi_u32 max_qp, min_qp, max_i_qp, min_i_qp;
  hi_s32 max_bit_percent, min_bit_percent, max_psnr_fluctuate, min_psnr_fluctuate;
} hi_venc_h265_qvbr_param;
typedef struct {
  hi_u32 max_i_proportion, min_i_proportion;
  hi_s32 max_reencode_times;
  hi_bool qpmap_en;
  hi_venc_rc_qpmap_mode qpmap_mode;
  hi_u32 max_qp, min_qp, max_i_qp, min_i_qp, min_qp_delta, max_qp_delta, extra_bit_percent,
      long_term_stats_time_unit;
} hi_venc_h265_cvbr_param;

typedef struct {
  hi_bool detect_scene_chg_en;
  hi_bool adapt_insert_idr_frame_en;
} hi_venc_scene_chg_detect;

/* The rate control's tuning (the hardware's rate control; OpenCANN's encoders keep their own:
 * these values are recorded and reported back). */
typedef struct {
  hi_u32 threshold_i[16];
  hi_u32 threshold_p[16];
  hi_u32 threshold_b[16];
  hi_u32 direction;
  hi_u32 row_qp_delta;
  hi_s32 first_frame_start_qp;
  hi_venc_scene_chg_detect scene_chg_detect;
  union {
    hi_venc_h264_cbr_param h264_cbr_param;
    hi_venc_h264_vbr_param h264_vbr_param;
    hi_venc_h264_avbr_param h264_avbr_param;
    hi_venc_h264_qvbr_param h264_qvbr_param;
    hi_venc_h264_cvbr_param h264_cvbr_param;
    hi_venc_h265_cbr_param h265_cbr_param;
    hi_venc_h265_vbr_param h265_vbr_param;
    hi_venc_h265_avbr_param h265_avbr_param;
    hi_venc_h265_qvbr_param h265_qvbr_param;
    hi_venc_h265_cvbr_param h265_cvbr_param;
    hi_venc_mjpeg_cbr_param mjpeg_cbr_param;
    hi_venc_mjpeg_vbr_param mjpeg_vbr_param;
  };
} hi_venc_rc_param;

hi_s32 hi_mpi_venc_create_chn(hi_venc_chn chn, const hi_venc_chn_attr* attr);
hi_s32 hi_mpi_venc_destroy_chn(hi_venc_chn chn);
hi_s32 hi_mpi_venc_start_chn(hi_venc_chn chn, const hi_venc_start_param* recv_param);
hi_s32 hi_mpi_venc_stop_chn(hi_venc_chn chn);
hi_s32 hi_mpi_venc_query_status(hi_venc_chn chn, hi_venc_chn_status* status);
/* A picture (NV12/NV21; JPEG also packed 4:2:2) to encode; its stream comes from get_stream. */
hi_s32 hi_mpi_venc_send_frame(hi_venc_chn chn, const hi_video_frame_info* frame, hi_s32 milli_sec);
/* JPEGE into the caller's buffer (get_stream then returns that buffer as pack[0].addr). */
hi_s32 hi_mpi_venc_send_jpege_frame(hi_venc_chn chn, const hi_video_frame_info* frame,
                                    const hi_img_stream* jpege_stream, hi_s32 milli_sec);
hi_s32 hi_mpi_venc_get_jpege_predicted_size(const hi_video_frame_info* frame,
                                            const hi_venc_jpeg_param* jpeg_param, hi_u32* size);
hi_s32 hi_mpi_venc_get_stream(hi_venc_chn chn, hi_venc_stream* stream, hi_s32 milli_sec);
hi_s32 hi_mpi_venc_release_stream(hi_venc_chn chn, hi_venc_stream* stream);
/* A descriptor readable while the channel holds streams (hi_mpi_sys_ctl_epoll). */
hi_s32 hi_mpi_venc_get_fd(hi_venc_chn chn);
hi_s32 hi_mpi_venc_close_fd(hi_venc_chn chn);
hi_s32 hi_mpi_venc_set_chn_param(hi_venc_chn chn, const hi_venc_chn_param* chn_param);
hi_s32 hi_mpi_venc_get_chn_param(hi_venc_chn chn, hi_venc_chn_param* chn_param);
hi_s32 hi_mpi_venc_set_jpeg_param(hi_venc_chn chn, const hi_venc_jpeg_param* jpeg_param);
hi_s32 hi_mpi_venc_get_jpeg_param(hi_venc_chn chn, hi_venc_jpeg_param* jpeg_param);
hi_s32 hi_mpi_venc_set_rc_param(hi_venc_chn chn, const hi_venc_rc_param* rc_param);
hi_s32 hi_mpi_venc_get_rc_param(hi_venc_chn chn, hi_venc_rc_param* rc_param);
hi_s32 hi_mpi_venc_set_scene_mode(hi_venc_chn chn, const hi_venc_scene_mode scene_mode);
hi_s32 hi_mpi_venc_request_idr(hi_venc_chn chn, hi_bool instant);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif /* OPENCANN_HI_DVPP_VENC_H */
