// cpu/core/memory.h: every allocation in the library goes through these (mpb_set_allocator hook).
#pragma once
#include <cstddef>
#include <cstdint>
#include <new>

namespace mpb {
void *mem_alloc(size_t bytes);                               // NULL on failure
void *mem_realloc(void *p, size_t old_bytes, size_t new_bytes); // NULL on failure (p untouched)
void mem_free(void *p, size_t bytes);                        // p may be NULL
void secure_zero(void *p, size_t bytes);                     // not optimized away

// RAII scratch buffer of limbs: on the stack when small, else from the hook.
// Check ok() after construction; a failed allocation leaves ok() false.
template <size_t StackLimbs = 256>
class ScratchLimbs {
 public:
  explicit ScratchLimbs(size_t n) : n_(n) {
    if (n <= StackLimbs) p_ = stack_;
    else p_ = static_cast<uint64_t *>(mem_alloc(n * sizeof(uint64_t)));
  }
  ~ScratchLimbs() {
    if (p_ && p_ != stack_) mem_free(p_, n_ * sizeof(uint64_t));
  }
  ScratchLimbs(const ScratchLimbs &) = delete;
  ScratchLimbs &operator=(const ScratchLimbs &) = delete;
  bool ok() const { return p_ != nullptr; }
  uint64_t *get() { return p_; }
  size_t size() const { return n_; }
  // wipe before release (secret data)
  void wipe() { if (p_) secure_zero(p_, n_ * sizeof(uint64_t)); }

 private:
  size_t n_;
  uint64_t *p_ = nullptr;
  uint64_t stack_[StackLimbs > 0 ? StackLimbs : 1];
};
} // namespace mpb
