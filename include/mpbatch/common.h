/* mpbatch: common definitions shared by every public header.
 * Export/attribute macros, the status codes every fallible call returns, and the ABI version. */
#ifndef MPBATCH_COMMON_H
#define MPBATCH_COMMON_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#  define MPB_API __declspec(dllexport)
#else
#  define MPB_API __attribute__((visibility("default")))
#endif
#if defined(__GNUC__) || defined(__clang__)
#  define MPB_WUR __attribute__((warn_unused_result))
#else
#  define MPB_WUR
#endif

#define MPB_ABI_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. 0 is success; every error is negative. The values of MPB_EMEM and MPB_EVAL
 * equal the seed API's MP_MEM and MP_VAL so both families can be compared directly. */
typedef enum mpb_status {
  MPB_OK = 0,
  MPB_EMEM = -2,          /* out of memory (or the allocator hook refused) */
  MPB_EVAL = -3,          /* invalid input value: bad modulus, not invertible, malformed string ... */
  MPB_ERANGE = -4,        /* a size is out of the supported range (limbs, bits, count) */
  MPB_ENULL = -5,         /* a required pointer argument is NULL */
  MPB_ESHAPE = -6,        /* batch shapes do not match (width, count, stride) */
  MPB_EDEVICE = -7,       /* a CUDA/driver error, or the requested device is not usable */
  MPB_EUNSUPPORTED = -8,  /* the requested backend or feature is not built in */
  MPB_ENOTINV = -9,       /* an element is not invertible (batch inverse) */
  MPB_EFAULT = -10        /* a computed result failed its check (an RSA result with the public
                             exponent: a hardware or software fault); no result is released */
} mpb_status;

/* A short English description of a status code (never NULL). */
MPB_API const char *mpb_strerror(int status);
/* The ABI version the library was built with (MPB_ABI_VERSION). */
MPB_API int mpb_abi_version(void);
/* "major.minor.patch" */
MPB_API const char *mpb_version_string(void);
/* The CPU features the library uses on this machine, by the names it knows them ("bmi2 adx avx2
 * avx512f ... avx512ifma pclmul vpclmulqdq", or "none"), followed by what the environment
 * variable MPBATCH_CPU_DISABLE masked, e.g. "(masked by MPBATCH_CPU_DISABLE: avx512ifma)", and
 * any name in it the library did not know. MPBATCH_CPU_DISABLE (comma-separated names, or
 * "all") is read once, the first time the library looks at the CPU, and makes it behave as on a
 * CPU without those features (avx2 also masks AVX-512 and vpclmulqdq; avx512f every AVX-512
 * extension; pclmul vpclmulqdq). Never NULL. */
MPB_API const char *mpb_cpu_features(void);

/* Memory allocation hook used by every allocation inside the library (mp_int digits, GF(2)[x]
 * polynomials, batch scratch). Passing NULL for all three restores malloc/realloc/free.
 * Tests use it to simulate allocation failure. Not thread-safe to change while calls run. */
typedef void *(*mpb_malloc_fn)(size_t size);
typedef void *(*mpb_realloc_fn)(void *ptr, size_t old_size, size_t new_size);
typedef void (*mpb_free_fn)(void *ptr, size_t size);
MPB_API void mpb_set_allocator(mpb_malloc_fn m, mpb_realloc_fn r, mpb_free_fn f);

#ifdef __cplusplus
}
#endif
#endif /* MPBATCH_COMMON_H */
