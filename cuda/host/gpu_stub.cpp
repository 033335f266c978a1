// cuda/host/gpu_stub.cpp: the CUDA backend's interface (cuda/host/gpu_backend.h) in a build
// without CUDA: no device, no kernel for any size, and every operation MPB_EUNSUPPORTED. The
// batch layer calls the same functions in every build; this is the only place that knows
// CUDA is absent.
#include <cstdio>

#include <mpbatch/common.h>

#include "cuda/host/gpu_backend.h"

namespace mpb {
namespace gpu {
namespace {
constexpr const char *kNone = "built without CUDA";
int none(char *why, size_t len) {
  if (why && len) std::snprintf(why, len, "%s", kNone);
  return MPB_EUNSUPPORTED;
}
} // namespace

bool built() { return false; }
void install_powm_variants(const PowmVariants *) {}
void install_gf2x_variants(const Gf2xVariants *) {}
int gf2x_variant_count() { return 0; }
const char *gf2x_variant_name(int, int) { return nullptr; }
int device_count(char *why, size_t why_len) {
  none(why, why_len);
  return 0;
}
int device_description(int, char *out, size_t out_len) { return none(out, out_len); }
int device_versions(char *driver, char *runtime, size_t len) {
  none(driver, len);
  return none(runtime, len);
}
int device_sm_clock(int, int *, double *) { return MPB_EUNSUPPORTED; }

bool powm_width_supported(size_t) { return false; }
bool rsa_half_width_supported(size_t) { return false; }
int powm_tpi(size_t, int) { return 0; }
int rsa_tpi(size_t, int) { return 0; }
bool tuning_only_tpi(bool, size_t, int) { return false; }
bool mul_width_supported(size_t) { return false; }
bool gf2x_width_supported(size_t) { return false; }
bool gf2x_mulmod_width_supported(size_t) { return false; }
int modmul_kernel_for(size_t) { return 0; }
bool modmul_even_supported(size_t) { return false; }

int powm(uint64_t *, const uint64_t *, const uint64_t *, size_t, size_t, const uint64_t *, size_t, size_t,
         size_t, const Options &, char *why, size_t why_len) {
  return none(why, why_len);
}
int rsa_crt(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *,
            const uint64_t *, size_t, size_t, size_t, size_t, const Options &, char *why, size_t why_len) {
  return none(why, why_len);
}
int modmul(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *, size_t, size_t, size_t,
           const Options &, char *why, size_t why_len) {
  return none(why, why_len);
}
int mul(uint64_t *, const uint64_t *, const uint64_t *, size_t, size_t, bool, const Options &, char *why,
        size_t why_len) {
  return none(why, why_len);
}
int gf2x_mul(uint64_t *, const uint64_t *, const uint64_t *, size_t, size_t, const Options &, char *why,
             size_t why_len) {
  return none(why, why_len);
}
int gf2x_sqr(uint64_t *, const uint64_t *, size_t, size_t, const Options &, char *why, size_t why_len) {
  return none(why, why_len);
}
int gf2x_mulmod(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *, size_t, size_t, const Options &,
                char *why, size_t why_len) {
  return none(why, why_len);
}

} // namespace gpu
} // namespace mpb
