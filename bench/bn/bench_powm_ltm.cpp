// LibTomMath side of bench_powm (own translation unit: tommath.h and mpbatch/bn.h clash).
// Values cross the boundary as big-endian byte strings; the caller drives the timing.
#include <tommath.h>

#include <vector>

namespace {
struct LtmCase {
  mp_int a, e, m, r;
};
} // namespace

// Set up a^e mod m; NULL on error.
void *ltm_setup(const std::vector<unsigned char> &a, const std::vector<unsigned char> &e,
                const std::vector<unsigned char> &m) {
  LtmCase *c = new LtmCase;
  if (mp_init_multi(&c->a, &c->e, &c->m, &c->r, NULL) != MP_OKAY) {
    delete c;
    return nullptr;
  }
  if (mp_from_ubin(&c->a, a.data(), a.size()) != MP_OKAY ||
      mp_from_ubin(&c->e, e.data(), e.size()) != MP_OKAY ||
      mp_from_ubin(&c->m, m.data(), m.size()) != MP_OKAY) {
    mp_clear_multi(&c->a, &c->e, &c->m, &c->r, NULL);
    delete c;
    return nullptr;
  }
  return c;
}
// One mp_exptmod; false on error.
bool ltm_run(void *p) {
  LtmCase *c = static_cast<LtmCase *>(p);
  return mp_exptmod(&c->a, &c->e, &c->m, &c->r) == MP_OKAY;
}
// The last result, big-endian, and release.
std::vector<unsigned char> ltm_finish(void *p) {
  LtmCase *c = static_cast<LtmCase *>(p);
  std::vector<unsigned char> out(mp_ubin_size(&c->r));
  size_t w = 0;
  if (mp_to_ubin(&c->r, out.data(), out.size(), &w) != MP_OKAY) w = 0;
  out.resize(w);
  mp_clear_multi(&c->a, &c->e, &c->m, &c->r, NULL);
  delete c;
  return out;
}
