// Products of a limb array by one limb (portable version).
#include "mpn.h"

namespace mpb {
namespace mpn {

limb mul_1(limb *rp, const limb *ap, size_t n, limb b) {
  limb c = 0;
  for (size_t i = 0; i < n; i++) {
    dlimb p = (dlimb)ap[i] * b + c;
    rp[i] = (limb)p;
    c = (limb)(p >> 64);
  }
  return c;
}

limb addmul_1(limb *rp, const limb *ap, size_t n, limb b) {
  limb c = 0;
  for (size_t i = 0; i < n; i++) {
    dlimb p = (dlimb)ap[i] * b + rp[i] + c;
    rp[i] = (limb)p;
    c = (limb)(p >> 64);
  }
  return c;
}

limb submul_1(limb *rp, const limb *ap, size_t n, limb b) {
  limb c = 0;
  for (size_t i = 0; i < n; i++) {
    dlimb p = (dlimb)ap[i] * b + c;
    limb lo = (limb)p;
    c = (limb)(p >> 64);
    limb r = rp[i];
    rp[i] = r - lo;
    c += (r < lo);
  }
  return c;
}

} // namespace mpn
} // namespace mpb
