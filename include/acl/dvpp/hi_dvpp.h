/* OpenCANN: DVPP's media API (libacl_dvpp_mpi.so) for the Atlas inference (310P), Atlas A2
 * (910B) and Atlas 200I/500 A2 (310B) chips: VPC, JPEG decode (through VDEC) and encode
 * (through VENC), PNG decode, H.264/H.265 decode and encode, DVPP memory and the system calls.
 * docs/dvpp.md says what OpenCANN computes and which rules it checks. */
#ifndef OPENCANN_HI_DVPP_H
#define OPENCANN_HI_DVPP_H

#include "hi_dvpp_common.h"
#include "hi_dvpp_png.h"
#include "hi_dvpp_sys.h"
#include "hi_dvpp_vdec.h"
#include "hi_dvpp_venc.h"
#include "hi_dvpp_vpc.h"

#endif /* OPENCANN_HI_DVPP_H */
