// cpu/batch/invmod.cpp: batch modular inverse r = a^-1 mod m (shared modulus or one per item).
// Variable time (default): Lehmer's extended Euclidean algorithm for any modulus
// (cpu/mpn/gcd/invmod_lehmer.cpp). With the context's constant-time mode
// set to MPB_CT_ON: its constant-time form (cpu/mpn/gcd/sec_invmod_bingcd.cpp, odd moduli only), whose
// invertibility flag is computed without branches and looked at only after the whole batch.
// Results are gathered in a temporary block (invertibility is known only after computing, and a
// failing call writes nothing), so r may overlap the inputs. CPU only (no CUDA kernel).
#include <cstring>

#include "batch/call.h"
#include "batch/cost_model.h"
#include "batch/validate.h"

using namespace mpb;
using namespace mpb::batch;

namespace {

// Work units (64x64-bit products) per item of n limbs.
double work_inv(size_t n, bool ct) {
  return (ct ? 40.0 : 16.0) * (double)n * (double)n + 64.0 * (double)n;
}

} // namespace

extern "C" MPB_API int mpb_batch_invmod(mpb_ctx *ctx, uint64_t *r, const uint64_t *a,
                                        const uint64_t *m, size_t m_rows, size_t width,
                                        size_t count, mpb_call_info *info) {
  Call call(info);
  Settings s;
  int st;
  if (begin_call(call, ctx, CallShape(width, count).ct_when_on(), s, &st,
                 {{r, MPB_ARG_R}, {a, MPB_ARG_A}, {m, MPB_ARG_M}}))
    return st;
  const bool ct = (s.ct == MPB_CT_ON);
  if ((st = check_rows(call, m_rows, count, MPB_ARG_M))) return st;
  size_t per = 0;
  for (size_t i = 0; i < m_rows; i++) {
    const limb *mi = m + i * width;
    size_t mn = mpn::normalized_size(mi, width);
    if (mn == 0 || (mn == 1 && mi[0] == 1))
      return call.fail(MPB_EVAL, MPB_ARG_M, (int64_t)i, "modulus must be > 1");
    if (ct && (mi[0] & 1) == 0)
      return call.fail(MPB_EVAL, MPB_ARG_M, (int64_t)i,
                       "constant-time inverse (MPB_CT_ON) needs an odd modulus");
    size_t need = ct ? mpn::sec_invmod_itch(width, mn) : mpn::invmod_itch(width, mn);
    if (need > per) per = need;
  }

  const bool shared = (m_rows == 1);
  // results (count rows) and one invertibility flag per item, in one block
  const size_t res_bytes = count * width * sizeof(limb);
  const size_t tmp_bytes = res_bytes + count;
  void *blk = mem_alloc(tmp_bytes);
  if (!blk) return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for the result block");
  limb *tmp = static_cast<limb *>(blk);
  uint8_t *okf = static_cast<uint8_t *>(blk) + res_bytes;
  int T = threads_for(s, count, work_inv(width, ct));
  const int grain = grain_for(work_inv(width, ct));
  ThreadScratch scr(T, per, ct);
  if (!scr.ok()) {
    mem_free(blk, tmp_bytes);
    return call.fail(MPB_EMEM, MPB_ARG_NONE, -1, "out of memory for scratch");
  }
  call.set_ct(ct);
  call.choose(MPB_BACKEND_CPU_SCALAR, T,
              ct ? "cpu: constant-time binary gcd inversion per item (MPB_CT_ON)"
                 : "cpu: variable-time Lehmer extended gcd inversion per item");
  for_items(T, &scr, count, grain, [&](size_t i, limb *ws) {
    const size_t o = i * width;
    const limb *mi = m + (shared ? 0 : o);
    const size_t mn = mpn::normalized_size(mi, width);
    limb *ti = tmp + o;
    if (ct) okf[i] = declassify((uint8_t)mpn::sec_invmod(ti, a + o, width, mi, mn, ws));  // outcome: public
    else okf[i] = mpn::invmod(ti, a + o, width, mi, mn, ws) ? 1 : 0;
    if (width > mn) mpn::zero(ti + mn, width - mn);
  });
  int64_t bad = -1;
  for (size_t i = 0; i < count; i++)
    if (!okf[i]) {
      bad = (int64_t)i;
      break;
    }
  if (bad < 0) std::memcpy(r, tmp, res_bytes);
  if (ct) secure_zero(blk, tmp_bytes);
  mem_free(blk, tmp_bytes);
  if (bad >= 0) return call.fail(MPB_ENOTINV, MPB_ARG_A, bad, "gcd(a, m) != 1: not invertible");
  return call.finish(MPB_OK);
}
