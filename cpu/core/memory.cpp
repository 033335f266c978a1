// The allocation hook (mpb_set_allocator) and secure zeroing.
#include "core/memory.h"

#include <cstdlib>
#include <cstring>

#include <mpbatch/common.h>

namespace mpb {
namespace {
void *default_malloc(size_t n) { return std::malloc(n); }
void *default_realloc(void *p, size_t, size_t n) { return std::realloc(p, n); }
void default_free(void *p, size_t) { std::free(p); }
mpb_malloc_fn g_malloc = default_malloc;
mpb_realloc_fn g_realloc = default_realloc;
mpb_free_fn g_free = default_free;
} // namespace

void *mem_alloc(size_t bytes) { return g_malloc(bytes ? bytes : 1); }
void *mem_realloc(void *p, size_t old_bytes, size_t new_bytes) {
  if (!p) return mem_alloc(new_bytes);
  return g_realloc(p, old_bytes, new_bytes ? new_bytes : 1);
}
void mem_free(void *p, size_t bytes) {
  if (p) g_free(p, bytes);
}
// A plain memset (wide stores: the library wipes whole per-call scratch blocks, tens of KiB per
// thread) that the compiler must keep: the pointer escapes into an empty asm statement that may
// read all memory. Elsewhere a byte loop through a volatile pointer (the same effect, ~20x
// slower).
void secure_zero(void *p, size_t bytes) {
  if (!p || !bytes) return;
#if defined(__GNUC__) || defined(__clang__)
  std::memset(p, 0, bytes);
  __asm__ __volatile__("" : : "r"(p) : "memory");
#else
  volatile unsigned char *v = static_cast<volatile unsigned char *>(p);
  while (bytes--) *v++ = 0;
#endif
}
} // namespace mpb

extern "C" MPB_API void mpb_set_allocator(mpb_malloc_fn m, mpb_realloc_fn r, mpb_free_fn f) {
  mpb::g_malloc = m ? m : mpb::default_malloc;
  mpb::g_realloc = r ? r : mpb::default_realloc;
  mpb::g_free = f ? f : mpb::default_free;
}
