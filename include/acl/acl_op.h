/* AscendCL single-operator API (declarations kept for source compatibility). */
#ifndef OPENCANN_ACL_ACL_OP_H_
#define OPENCANN_ACL_ACL_OP_H_

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclopAttr aclopAttr;

#ifdef __cplusplus
}
#endif

#endif
