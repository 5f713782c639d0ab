/* The secure C library (securec, libc_sec) as CANN's host code, tiling functions and kernels
 * call it: bounds-checked copies, string functions and formatting. Implemented in libc_sec
 * (also exported by libascendcl, libascendc_emu and libopregister, so code linking any of
 * them finds it). Functions return EOK (0) on success, an error number otherwise; the
 * "_AND_RESET" codes mean the destination was emptied. The *printf_s functions return the
 * number of characters written, or -1. */
#ifndef OPENCANN_SECUREC_H_
#define OPENCANN_SECUREC_H_

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET (22 | 128)
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET (34 | 128)
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET (54 | 128)
#endif

#ifndef __STDC_LIB_EXT1__
typedef int errno_t;
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define OC_SECUREC_API __attribute__((visibility("default")))

OC_SECUREC_API errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count);
OC_SECUREC_API errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count);
OC_SECUREC_API errno_t memset_s(void* dest, size_t destMax, int c, size_t count);
OC_SECUREC_API errno_t strcpy_s(char* dest, size_t destMax, const char* src);
OC_SECUREC_API errno_t strncpy_s(char* dest, size_t destMax, const char* src, size_t count);
OC_SECUREC_API errno_t strcat_s(char* dest, size_t destMax, const char* src);
OC_SECUREC_API errno_t strncat_s(char* dest, size_t destMax, const char* src, size_t count);
OC_SECUREC_API int sprintf_s(char* dest, size_t destMax, const char* format, ...)
    __attribute__((format(printf, 3, 4)));
OC_SECUREC_API int snprintf_s(char* dest, size_t destMax, size_t count, const char* format, ...)
    __attribute__((format(printf, 4, 5)));
OC_SECUREC_API int vsprintf_s(char* dest, size_t destMax, const char* format, va_list args);
OC_SECUREC_API int vsnprintf_s(char* dest, size_t destMax, size_t count, const char* format,
                               va_list args);

#ifdef __cplusplus
}
#endif

#endif /* OPENCANN_SECUREC_H_ */
