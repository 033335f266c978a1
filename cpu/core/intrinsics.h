// cpu/core/intrinsics.h: <immintrin.h> for the files with AVX-512 kernels, with the warnings gcc 12
// raises about its own headers (the undefined-value idiom of _mm512_setzero / _mm512_undefined
// inside the intrinsics) silenced for the including file. Only internal-linkage code follows.
// On other architectures it includes nothing: the x86 kernels are compiled out there.
#pragma once
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
