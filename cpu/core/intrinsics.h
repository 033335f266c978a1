// cpu/core/intrinsics.h: <immintrin.h> for the files with AVX-512 kernels, with the warnings gcc 12
// raises about its own headers (the undefined-value idiom of _mm512_setzero / _mm512_undefined
// inside the intrinsics) silenced for the including file. Only internal-linkage code follows.
#pragma once
#include <immintrin.h>

#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
