// What libacl_dvpp exports beyond acl_dvpp.h for libacl_dvpp_mpi (C linkage, not in the public
// headers): whether memory lies in one DVPP block, so that both generations of the API apply
// one memory rule to blocks from acldvppMalloc and hi_mpi_dvpp_malloc alike.
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
__attribute__((visibility("default"))) int oc_internal_dvpp_range(const void* p, size_t bytes);
#ifdef __cplusplus
}
#endif
