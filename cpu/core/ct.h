// cpu/core/ct.h: annotations for the constant-time check (tests/ct). Two builds use them:
// - -DMPB_VALGRIND_CT=ON: valgrind client requests. A test marks the secrets undefined for
//   memcheck, and every branch or memory index that depends on them is reported (the ctgrind
//   method); valgrind runs the scalar and AVX2 kernels, not AVX-512.
// - -DMPB_MSAN_CT=ON (clang): MemorySanitizer's poison / unpoison, the same method on native
//   code, so it runs the AVX-512 IFMA kernels as well.
// MPB_CT_DECLASSIFY marks a value derived from secrets as public where the library decides that
// it is (a key's limb count, a validation's pass / fail), as BoringSSL's CONSTTIME_DECLASSIFY
// does. In every other build they compile to nothing.
#pragma once

#if defined(MPB_VALGRIND_CT) && defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define MPB_CT_DECLASSIFY(p, bytes) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (bytes)))
#define MPB_CT_CLASSIFY(p, bytes) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (bytes)))
#endif
#elif defined(MPB_MSAN_CT) && defined(__has_feature)
#if __has_feature(memory_sanitizer)
#include <sanitizer/msan_interface.h>
#define MPB_CT_DECLASSIFY(p, bytes) __msan_unpoison((p), (bytes))
#define MPB_CT_CLASSIFY(p, bytes) __msan_poison((p), (bytes))
#endif
#endif
#ifndef MPB_CT_DECLASSIFY
#define MPB_CT_DECLASSIFY(p, bytes) ((void)(p), (void)(bytes))
#define MPB_CT_CLASSIFY(p, bytes) ((void)(p), (void)(bytes))
#endif

namespace mpb {
// v, marked public (see above).
template <class T> inline T declassify(T v) {
  MPB_CT_DECLASSIFY(&v, sizeof v);
  return v;
}
} // namespace mpb
