// libFuzzer target: RSA-CRT with corrupted keys. A valid RSA-1024 key (fixed seed) is damaged
// by the fuzzer (limbs of n, p, q, dp, dq or qinv replaced or bits flipped), and ciphertexts
// come from its bytes. A call that succeeds must give, for every item, Garner's CRT of the key
// parts it was given (computed with GMP); a call that fails must write nothing. The backend is
// AUTO or the scalar one.
#include "fuzz_util.h"

using namespace fz;

namespace {

struct Key {
  Rows n, p, q, dp, dq, qinv;
  Key() {
    SeededRsaKey k(1024, 1024);
    n = of_z(k.key->n, 16), p = of_z(k.key->p, 8), q = of_z(k.key->q, 8);
    dp = of_z(k.key->dp, 8), dq = of_z(k.key->dq, 8), qinv = of_z(k.key->qinv, 8);
  }
};

void run(Input &in) {
  static const Key key;
  static Ctx ctx;
  Key k = key;
  Rows *fields[] = {&k.n, &k.p, &k.q, &k.dp, &k.dq, &k.qinv};
  for (int edits = in.u8() % 4; edits > 0; edits--) {
    Rows &f = *fields[in.u8() % 6];
    uint64_t &limb = f[in.u8() % f.size()];
    if (in.u8() & 1) limb ^= 1ull << (in.u8() % 64);
    else limb = in.limb();
  }
  (void)mpb_ctx_set_constant_time(ctx.c, in.u8() & 1 ? MPB_CT_DEFAULT : MPB_CT_OFF);
  // AUTO, or the scalar backend forced (its items check a key with e mod p and mod q themselves)
  (void)mpb_ctx_set_backend(ctx.c, in.u8() & 1 ? MPB_BACKEND_AUTO : MPB_BACKEND_CPU_SCALAR);
  const size_t count = 1 + in.u8() % 3;
  Rows c = in.rows(16 * count), out(16 * count, CANARY);
  mpb_call_info info;
  // the same call, or through a key prepared first (mpb_rsa_key_create), with or without e: a
  // key with e must refuse a damaged exponent or coefficient at creation or give no result
  const int how = in.u8() % 3;
  int st;
  if (how == 0) {
    st = mpb_batch_rsa_crt(ctx.c, out.data(), c.data(), k.n.data(), k.p.data(), k.q.data(), k.dp.data(),
                           k.dq.data(), k.qinv.data(), 16, 8, 1, count, &info);
  } else {
    const uint64_t e = 65537;
    mpb_rsa_key *pk = reinterpret_cast<mpb_rsa_key *>(&info);  // must stay on error
    st = mpb_rsa_key_create(ctx.c, &pk, k.n.data(), k.p.data(), k.q.data(), k.dp.data(), k.dq.data(),
                            k.qinv.data(), how == 2 ? &e : nullptr, how == 2 ? 1 : 0, 16, 8, &info);
    if (st != MPB_OK) expect(pk == reinterpret_cast<mpb_rsa_key *>(&info), "rsa key written on error");
    if (st == MPB_OK) {
      st = mpb_batch_rsa_crt_key(ctx.c, pk, out.data(), c.data(), count, &info);
      mpb_rsa_key_destroy(pk);
      if (st == MPB_EFAULT) return expect(out == Rows(16 * count, 0), "rsa released a result that failed its check");
    }
  }
  if (st != MPB_OK) return expect(untouched(out), "rsa wrote on error");
  Z zc, zp, zq, zdp, zdq, zqi, m1, m2, h;
  to_z(zp, k.p.data(), 8), to_z(zq, k.q.data(), 8), to_z(zqi, k.qinv.data(), 8);
  to_z(zdp, k.dp.data(), 8), to_z(zdq, k.dq.data(), 8);
  for (size_t i = 0; i < count; i++) {
    to_z(zc, &c[i * 16], 16);
    mpz_powm(m1, zc, zdp, zp);
    mpz_powm(m2, zc, zdq, zq);
    mpz_sub(h, m1, m2);
    mpz_mul(h, h, zqi);
    mpz_mod(h, h, zp);
    mpz_mul(h, h, zq);
    mpz_add(h, h, m2);
    expect(same(out, i * 16, h, 16), "rsa value (Garner's CRT of the given key parts)");
  }
}

} // namespace

MPB_FUZZ_TARGET(run)
