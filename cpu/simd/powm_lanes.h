// cpu/simd/powm_lanes.h: modular exponentiation of several items at once, one item per SIMD lane.
//
//  - powm_x8*: AVX-512 IFMA (VPMADD52LUQ/HUQ), 8 lanes, radix 2^52 digits.
//  - powm_x8f*: AVX-512F alone (VPMULUDQ on 512-bit vectors), 8 lanes, digits of 26..28 bits
//    (narrow_digit_bits).
//  - powm_x4*: AVX2 (VPMULUDQ), 4 lanes, digits of 26..28 bits.
// Both use almost-Montgomery multiplication (operands kept in [0, 2m), carries propagated
// once per multiplication) and a fixed 5-bit window with a lane-interleaved table. All lanes
// run in lock-step: the exponents share one length `en` (pad the shorter ones with zero limbs).
//
// Calling convention (both widths, all variants):
//  - limb arrays are little-endian 64-bit limbs; m (or each m[l]) has n limbs, odd, nonzero
//    (leading zero limbs allowed); each base has n limbs and must be < its modulus;
//    each exponent has en limbs (en may be 0: every result is then 1 mod m).
//  - r[l] == nullptr marks lane l as unused: base[l], exp[l] (and m[l]) are then not read.
//    At least one lane may be used; a call with no used lane returns MPB_OK and does nothing.
//  - r[l] gets n limbs, the value base[l]^exp[l] mod m, fully reduced (< m).
//    r[l] may alias base[l] or exp[l] (outputs are written only at the very end).
//  - ebits (last argument, default all): only the low min(ebits, 64*en) exponent bits are
//    used, the exponents taken mod 2^ebits (a public length bound that is not a multiple of
//    64, e.g. a DH group's 225-bit private keys: fewer windows).
//  - base_two (last argument): every used lane's base is 2 (still given in base[]; a DH public
//    key g^x with g = 2): the AVX-512F and AVX2 engines then square and double per exponent bit
//    (no table, no products by its entries); the IFMA engine computes with the base as given.
//  - constant_time: the sequence of instructions and memory addresses depends only on
//    (n, en, ebits, the moduli's bit lengths) and never on bases or exponents: the window loop runs
//    over all min(en*64, ebits) exponent bits and the table entries are selected by masked blends over
//    all 32 entries. With constant_time == false the loop starts at the highest set bit over
//    all lanes (this leaks the maximum exponent length, nothing else).
//    The moduli are public in both modes.
//  - scratch: at least powm_x8_itch(n) / powm_x4_itch(n) limbs, any alignment.
//    It is wiped (secure_zero) before return when constant_time is true.
//  - returns MPB_OK, MPB_ENULL (null pointer for a used lane / scratch / modulus),
//    MPB_ERANGE (n == 0 or n > 256 limbs = 16384 bits), MPB_EVAL (an even or zero modulus, or a base >= its modulus), or
//    MPB_EUNSUPPORTED (the CPU lacks the instruction set: check *_available() first).
//    On error no output is written.
// Thread safety: reentrant; each thread needs its own scratch.
#pragma once
#include <cstddef>
#include <cstdint>

namespace mpb {
namespace simd {

// Run-time checks (cpu/core/cpu_features.h, so force_portable(true) makes both return false).
bool ifma_available();     // AVX-512F + AVX-512 IFMA (or the emulation below)
bool avx512f_available();  // AVX-512F
bool avx2_available();     // AVX2

// R^2 mod m per lane computed ahead (e.g. once per RSA key, cpu/batch/rsa_crt.cpp), R =
// 2^(K*N) for K-bit digits (IFMA 52, AVX-512F narrow_digit_bits(the largest modulus bit length
// of the call)) and N = lanes_digits(K, the largest modulus
// bit length of the call): lane l uses v[l] when it is not null and (K, N) are the call's, and
// computes R^2 as usual otherwise (an unused lane takes the first used lane's). Each v[l] has n
// limbs and must be R^2 mod that lane's modulus. With v[l], vb[l] (n limbs, < the modulus) may
// replace R^2 as the factor that takes lane l's base into the Montgomery domain: vb[l] = R^2 *
// 2^(64k) mod m (lanes_r2's extra = 64k) for a base given as b / 2^(64k) mod m (a scalar REDC's
// output, cpu/batch/rsa_crt.cpp) makes the exponentiation b's.
struct LaneR2 {
  unsigned K = 0;
  size_t N = 0;
  const uint64_t *v[8] = {};
  const uint64_t *vb[8] = {};
};
size_t lanes_digits(unsigned K, size_t mbits);
// How many exponentiations of n-limb moduli (64n bits) the IFMA engine runs on its few-lane path
// instead of one 8-lane run (cpu/simd/lanes_impl.h ifma_single_max_pairs): 2, 4, or 0 (none).
size_t ifma_single_max_exps(size_t n);
// The digit bits of the AVX-512F and AVX2 engines (32-bit multipliers) for moduli of at most
// mbits bits: 28 up to 1174 bits, 27 up to 4588, else 26 (the widest whose lazy accumulators
// stay < 2^63, cpu/simd/lanes_loop.h).
unsigned narrow_digit_bits(size_t mbits);
// r2 (n limbs) = R^2 * 2^extra mod m for R = 2^(K*N), constant time in m (its limb count is
// public). With extra = 64k, a base given as x = b / 2^(64k) mod m (a scalar REDC's output)
// enters the lanes' Montgomery domain as b. scratch: lanes_r2_itch(n) limbs.
size_t lanes_r2_itch(size_t n);
void lanes_r2(uint64_t *r2, const uint64_t *m, size_t n, unsigned K, size_t N, uint64_t *scratch, size_t extra = 0);

// ---- AVX-512 IFMA, 8 lanes (cpu/simd/powm_ifma.cpp) ---------------------------------------
size_t powm_x8_itch(size_t n);
// One modulus m shared by all lanes.
int powm_x8(uint64_t *const r[8], const uint64_t *const base[8], const uint64_t *const exp[8],
            size_t en, const uint64_t *m, size_t n, bool constant_time, uint64_t *scratch,
            const LaneR2 *r2 = nullptr, size_t ebits = SIZE_MAX,
            bool base_two = false);
// A different modulus per lane (all of n limbs), e.g. RSA-CRT halves of 8 different keys.
int powm_x8_multi(uint64_t *const r[8], const uint64_t *const base[8],
                  const uint64_t *const exp[8], size_t en, const uint64_t *const m[8], size_t n,
                  bool constant_time, uint64_t *scratch, const LaneR2 *r2 = nullptr, size_t ebits = SIZE_MAX,
            bool base_two = false);

// ---- AVX-512F, 8 lanes (cpu/simd/powm_avx512.cpp): the same calling convention ------------
size_t powm_x8f_itch(size_t n);
int powm_x8f(uint64_t *const r[8], const uint64_t *const base[8], const uint64_t *const exp[8],
             size_t en, const uint64_t *m, size_t n, bool constant_time, uint64_t *scratch,
             const LaneR2 *r2 = nullptr, size_t ebits = SIZE_MAX,
            bool base_two = false);
int powm_x8f_multi(uint64_t *const r[8], const uint64_t *const base[8],
                   const uint64_t *const exp[8], size_t en, const uint64_t *const m[8], size_t n,
                   bool constant_time, uint64_t *scratch, const LaneR2 *r2 = nullptr, size_t ebits = SIZE_MAX,
            bool base_two = false);

// ---- AVX2, 4 lanes (cpu/simd/powm_avx2.cpp) ---------------------------------------------
size_t powm_x4_itch(size_t n);
int powm_x4(uint64_t *const r[4], const uint64_t *const base[4], const uint64_t *const exp[4],
            size_t en, const uint64_t *m, size_t n, bool constant_time, uint64_t *scratch,
            const LaneR2 *r2 = nullptr, size_t ebits = SIZE_MAX,
            bool base_two = false);
int powm_x4_multi(uint64_t *const r[4], const uint64_t *const base[4],
                  const uint64_t *const exp[4], size_t en, const uint64_t *const m[4], size_t n,
                  bool constant_time, uint64_t *scratch, const LaneR2 *r2 = nullptr, size_t ebits = SIZE_MAX,
            bool base_two = false);
// The AVX2 engine behind the 8-lane interface (what the batch layer's groups of 8 call): lanes
// 0..3 and 4..7 as two 4-lane runs (a half with no used lane is skipped), every lane's
// arguments checked before either runs; r2 as for the 8-lane engines (K = the AVX2 digit size).
size_t powm_x4x2_itch(size_t n);
int powm_x4x2(uint64_t *const r[8], const uint64_t *const base[8], const uint64_t *const exp[8],
              size_t en, const uint64_t *m, size_t n, bool constant_time, uint64_t *scratch,
              const LaneR2 *r2 = nullptr, size_t ebits = SIZE_MAX,
            bool base_two = false);
int powm_x4x2_multi(uint64_t *const r[8], const uint64_t *const base[8],
                    const uint64_t *const exp[8], size_t en, const uint64_t *const m[8], size_t n,
                    bool constant_time, uint64_t *scratch, const LaneR2 *r2 = nullptr, size_t ebits = SIZE_MAX,
            bool base_two = false);

// ---- portable, 2 lanes (cpu/simd/powm_portable.cpp): the same calling convention ----------
// The AVX2 / AVX-512F engines' arithmetic in plain C++ on any CPU: the reference instance the
// tests run everywhere (AUTO does not use it).
size_t powm_x2p_itch(size_t n);
int powm_x2p(uint64_t *const r[2], const uint64_t *const base[2], const uint64_t *const exp[2],
             size_t en, const uint64_t *m, size_t n, bool constant_time, uint64_t *scratch,
             const LaneR2 *r2 = nullptr, size_t ebits = SIZE_MAX, bool base_two = false);
int powm_x2p_multi(uint64_t *const r[2], const uint64_t *const base[2],
                   const uint64_t *const exp[2], size_t en, const uint64_t *const m[2], size_t n,
                   bool constant_time, uint64_t *scratch, const LaneR2 *r2 = nullptr, size_t ebits = SIZE_MAX,
                   bool base_two = false);

// Test support: with the IFMA emulation on, ifma_available() is true on any CPU (unless
// force_portable) and powm_x8 / powm_x8_multi run the emulated kernel (powm_x8e), so that the
// layers above (the batch layer's RSA-CRT half packing, DH, powm, the cost model's splits) take
// their IFMA paths where the CPU has no IFMA. Off unless a test turns it on (tests/support/
// catch_main.cpp: MPB_TEST_IFMA_EMULATION=1); the library never does. Process-wide: flip it
// only while no other thread is computing.
void set_ifma_emulation(bool on);
bool ifma_emulation();

// ---- the IFMA kernel emulated, 8 lanes (cpu/simd/powm_ifma_emu.cpp): the same calling convention
// The IFMA engine's kernel (cpu/simd/ifma_kernel.h) with VPMADD52LUQ/HUQ computed in plain C++
// on any CPU, bit for bit the IFMA engine's results: the reference instance the tests and the
// constant-time checks run where the CPU has no AVX-512 IFMA (AUTO does not use it; ~50-100x
// slower than the instructions).
size_t powm_x8e_itch(size_t n);
int powm_x8e(uint64_t *const r[8], const uint64_t *const base[8], const uint64_t *const exp[8],
             size_t en, const uint64_t *m, size_t n, bool constant_time, uint64_t *scratch,
             const LaneR2 *r2 = nullptr, size_t ebits = SIZE_MAX, bool base_two = false);
int powm_x8e_multi(uint64_t *const r[8], const uint64_t *const base[8],
                   const uint64_t *const exp[8], size_t en, const uint64_t *const m[8], size_t n,
                   bool constant_time, uint64_t *scratch, const LaneR2 *r2 = nullptr, size_t ebits = SIZE_MAX,
                   bool base_two = false);

} // namespace simd
} // namespace mpb
