// The entry points libacl_op_compiler and the Python module use inside libascendcl beyond
// the public API (C linkage, exported, not in the public headers): recording an error for
// aclGetRecentErrMsg, reading an operator attribute set as the JSON the single-op model
// records, the configuration's atc (the process's settings live in libascendcl:
// base/config.h), and the host-memory probes.
#pragma once

#include "acl/acl.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) void oc_internal_acl_fail(aclError code,
                                                                 const char* message);
// The attributes as {"name": {"type": ..., "value": ...}}; null when attr is not live. The
// text stays valid until the calling thread's next call.
__attribute__((visibility("default"))) const char* oc_internal_aclop_attr_json(
    const aclopAttr* attr);
// OCANN_ATC (Config::atc): the atc to run; empty when unset. Valid for the process.
__attribute__((visibility("default"))) const char* oc_internal_config_atc(void);
// Whether [p, p + bytes) is mapped host memory (the Python module's check of a pointer an
// application gives it, so a made-up one is an error rather than a segfault).
__attribute__((visibility("default"))) int oc_internal_host_range_mapped(const void* p,
                                                                         size_t bytes);
// Whether [p, p + bytes) lies inside one device allocation (aclrtMalloc, which acldvppMalloc
// uses too): libacl_dvpp's rule that its engines read and write device memory.
__attribute__((visibility("default"))) int oc_internal_device_range(const void* p, size_t bytes);
// Whether every byte of [p, p + bytes) takes a write without a fault (base/memory_probe.h).
__attribute__((visibility("default"))) int oc_internal_host_range_writable(void* p, size_t bytes);

// CANN's omitted optional inputs (ACL_DT_UNDEFINED descriptions without dims): *nin loses the
// trailing ones; one before a given input is ACL_ERROR_FEATURE_UNSUPPORTED (recorded).
__attribute__((visibility("default"))) aclError oc_internal_given_inputs(
    const char* fn, int* nin, const aclTensorDesc* const in[]);

#ifdef __cplusplus
}
#endif
