#!/usr/bin/env python3
"""Generates redc_fixed_adx.cpp (in the build tree, at build time; never committed): Montgomery
reduction (REDC) of a 2n-limb value with MULX/ADCX/ADOX as GCC inline assembly, one kernel per n
in REDC_SIZES: a loop over the n rows, each row unrolled for that n.  Same contract and result as
cpu/mpn/mod/redc.cpp's redc_1.

Row i (rdx = q_i = t[i] * minv mod 2^64) adds q_i * m to t at limb i: product j = q_i * m[j]
(MULX), its low word goes to t[i+j] with the carry chain CF (ADCX, t[i+j] read from memory),
the high word of product j-1 with the chain OF (ADOX); the row's carry (the last high word plus
both flags, never overflowing) is parked in t[i], which the row has cleared, and the parked
carries are added to t[n..2n) at the end (as redc_1 does).

What the generic row kernel (cpu/mpn/x86_64/redc_row_adx.h, any n) does not: q_{i+1} depends on
t[i+1], which row i finishes at its second product.  Here that word stays in a register: the next
multiplier is made from it by an IMUL placed after the row's chains (its flags die at the next
row's XOR; a MULX there, which leaves the flags alone, was 1% slower on a Zen 5), which the core
runs out of order during the rest of the row, and row i+1 reads its first word from the register,
not through a store and a reload; no loop control inside a row, no single-limb remainder loop.
Measured on an AMD Zen 3 (TSC cycles, 2026-11-27, in one process): n = 12: 299 -> 197, 16: 377
-> 312, 24: 722 -> 667, 32: 1329 -> 1176 (GMP's mpn_redc_1: 278, 469, 1080, 1877).  A fully
unrolled form (n^2 products of straight code) was as fast up to 16 limbs and slower from 24 on,
where it no longer fits the micro-op cache.

Each row starts with XOR z, z although the last row left CF = OF = 0: the XOR cuts the row's carry
chains loose from the last row's, so the core runs the head of row i+1 beside the tail of row i
(AMD Zen 5, 2026-11-29, `bench_mul --mont`: REDC at 16 limbs 101 -> 91 ns, 32: 369 -> 339,
64: 1,446 -> 1,362).

mont_redc by blocks of 8 rows (gen_redc_blocks, the n of BLOCK_SIZES): the rows above add each
product to t in memory (ADCX from memory and a store per product). Here block b (rows s = 8b ..
s+7) keeps the partial sums of 8 consecutive positions in registers, a window that moves up one
limb per row, and goes over m in chunks of 8 limbs:
- chunk 0 (m[0..8)): the window starts as t[s..s+8); q_k comes from the window's lowest limb,
  is parked in t[s+k] (cleared by its row) and its row adds q_k * m[0..8) to the window, whose
  top limb is the register that just left it;
- chunk c >= 1 (m[8c..8c+8), the parked q's): the window starts as what chunk c-1 left (the
  sums of q*m alone, no t: so the window stays below B^8 before each row, and a row's top limb
  cannot overflow); after row k, position s+8c+k is final for the block and is added to
  t[s+8c+k] in memory with a third carry, kept in a register (BT / ADCX / SBB) between the rows;
- at the block's end the window's last 8 positions are added to t the same way, and the block's
  carry (position s+n+8) is parked in t[s]; the epilogue adds the parked carries of all blocks
  to t[n..2n) (they land at limbs 8b+8 of the result, the last block's on the top).
Three instructions per product (MULX from memory, ADCX, ADOX on registers) instead of four, and
t is read and written once per 8 rows. The result equals the rows' bit for bit (the q's are the
same). Measured on the AMD Zen 5 VM (2026-11-29, `bench_mul --mont`, alternated with the rows,
ns): REDC 16 limbs 91-92 -> 87-88, 24: 191 -> 177, 32: 339-345 -> 304-308, 40: 535-544 -> 463-468,
64: 1,367-1,405 -> 1,182-1,209; mont_sqr_ct 16: 140-141 -> 137-139, 32: 532-535 -> 496-507;
mont_mul_ct 16: 173-175 -> 170-172, 32: 667-684 -> 637-647. At 16 limbs half the products are in
chunk 0, whose quotient chain (MULX, ADCX, IMUL between rows of 8 products) bounds it.

Quotients by pairs in chunk 0 (PAIRS, the unrolled block kernels, 8..32 limbs): q_k and q_{k+1}
both come from positions s+k and s+k+1 before row k, as the two limbs of Q = (t_k + t_{k+1} B) *
(-1/m mod B^2) mod B^2 (one MULX and two IMULs; -1/m mod B^2 = minv + minv2h B, minv2h from m0, m1
and minv in the C++ wrapper). Q is the unique value that clears both limbs, so the q's equal the
rows' one by one. The chain from one pair to the next is then one quotient computation per two
rows instead of one per row. Measured on the Zen 5 VM (2026-11-30, A/B in one harness, ns): REDC
8 limbs 26.2 -> 25.2, 16: 88.3 -> 85.0, 24: 201 -> 203, 32: 338 -> 330; scalar RSA (libraries
side by side, MPBATCH_CPU_DISABLE=avx512ifma,avx2, us per item): 2048 bits 376.6-381.1 ->
372.2-375.0, 3072: 1,276-1,291 -> 1,226-1,229, 4096: 2,758-2,767 -> 2,701-2,715. The loop form has
no operand left for minv2h (GCC's limit of 30) and keeps one quotient per row.

At 16 limbs (FUSED) the two blocks are straight code and the last one ends the REDC (fused_end):
its window is the result's top 8 limbs, so t[24..32), the third carry and block 0's parked carry
go into the registers on two carry chains, and the subtraction of m * top stores the result, from
t[16..24) and from the registers: no store and reload of the window, no separate pass adding the
parked carries. Zen 5 VM, 2026-11-30: REDC 85.9 -> 81.1 ns (A/B in one harness, the results equal
on 3,000 hard inputs); scalar RSA-2048 (64 items, libraries side by side) 374.6-380.7 -> 367.2-372.6
us per item.

Run:  python3 cpu/mpn/x86_64/redc_fixed_adx_gen.py OUT.cpp   (CMake does this: cpu/CMakeLists.txt)
"""

from block_row import BLOCK, block_row  # this folder (sys.path[0])

REDC_SIZES = list(range(4, 65))  # 256..4096-bit moduli (RSA-8192 halves, DH-4096)


def gen_redc(n):
    """n rows in a loop, each row unrolled for this n; t advances one limb per row."""
    L = []
    e = L.append
    T = lambda k: f"{8 * k}(%[tp])"
    M = lambda j: f"{8 * j}(%[mp])"
    lo, hi = ["%[l0]", "%[l1]"], ["%[h0]", "%[h1]"]
    e(f"mov {T(0)}, %[tn]")
    e("mov %[tn], %%rdx")
    e("imul %[minv], %%rdx")                      # q_0
    e("xor %k[z], %k[z]")                       # CF = OF = 0
    e("1:")
    e("xor %k[z], %k[z]")                       # CF = OF = 0 anew (see the docstring)
    e(f"mulx {M(0)}, {lo[0]}, {hi[0]}")
    e(f"adcx %[tn], {lo[0]}")
    for j in range(1, n):
        a, b = lo[j % 2], hi[j % 2]
        p = hi[(j - 1) % 2]
        e(f"mulx {M(j)}, {a}, {b}")
        e(f"adcx {T(j)}, {a}")
        e(f"adox {p}, {a}")
        if j == 1:
            e(f"mov {a}, %[tn]")
        e(f"mov {a}, {T(j)}")
    top = hi[(n - 1) % 2]
    e(f"adcx %[z], {top}")
    e(f"adox %[z], {top}")
    e(f"mov {top}, {T(0)}")
    e("mov %[tn], %%rdx")
    e("imul %[minv], %%rdx")                     # q_{i+1}; the flags die at the XOR above
    e("lea 8(%[tp]), %[tp]")
    e("dec %[cnt]")                               # its flags die at the next row's XOR
    e("jnz 1b")
    return L


def gen_epilogue(n):
    """After the rows (tp advanced by n limbs): rp = t[n..2n) + parked carries t[0..n), then m
    times that sum's carry subtracted (mont_redc's masked subtraction), in the same asm block:
    no add_n / cnd_sub_n calls."""
    L = []
    e = L.append
    T = lambda k: f"{8 * k}(%[tp])"
    x, y, hi = "%[l0]", "%[l1]", "%[h0]"
    for j in range(n):
        e(f"mov {T(j)}, {x}")
        e(f"{'add' if j == 0 else 'adc'} {T(j - n)}, {x}")
        e(f"mov {x}, {8 * j}(%[rp])")
    # rdx = the carry (0 or 1); m[j] * rdx by MULX, which leaves the borrow chain's flags alone
    # (an AND would clear CF), in constant time
    e("mov $0, %%edx")
    e("adc $0, %%rdx")
    sub_m_times_rdx(e, n, lambda j: f"{8 * j}(%[mp])", lambda j: f"{8 * j}(%[rp])", y, hi, x)
    return L


def sub_m_times_rdx(e, n, M, R, y, sink, x):
    """R(0..n) -= m * rdx (rdx = 0 or 1) as one borrow chain: MULX makes m[j] * rdx (y; its
    high half, 0, to sink) and leaves the chain's flags alone."""
    for j in range(n):
        e(f"mulx {M(j)}, {y}, {sink}")
        e(f"mov {R(j)}, {x}")
        e(f"{'sub' if j == 0 else 'sbb'} {y}, {x}")
        e(f"mov {x}, {R(j)}")


PAIRS = True  # quotients by pairs in chunk 0 (see the docstring)
FUSED = True  # n = 16: the last block ends the REDC (gen_redc_blocks' fused_end)
# mont_redc by blocks at these n (the rest: rows + gen_epilogue); from 40 limbs on in the loop
# form. Unrolled at 48 and 56, the block kernel (9-11 KB) beside the Karatsuba square's 24- and
# 28-limb row kernels made mont_sqr_ct slower (48: 1,143 -> 1,550 ns, 56: 1,525 -> 1,560-1,600)
# although the REDC alone was 15% faster: together the code no longer stayed in the core's caches.
# The loop form (Zen 5, `bench_mul --mont`, ns, rows -> loop): mont_sqr_ct 48: 1,197-1,208 ->
# 1,146-1,148, 56: 1,580-1,593 -> 1,531, 64: 2,090-2,127 -> 1,978-2,006 (unrolled 2,005-2,060);
# at 32 the unrolled form stays ahead (524-538 against 545-551), at 40 they are even.
BLOCK_SIZES = [8, 16, 24, 32, 40, 48, 56, 64]
BLOCK_LOOP_SIZES = [40, 48, 56, 64]  # the rest unrolled


def gen_redc_blocks(n, loop=False):
    """mont_redc for n a multiple of 8 (8..64 limbs), rows in blocks of 8, the partial sums in a
    register window (see the docstring's second part). Registers: the window w0..w8 (9, rotating;
    the one outside the window is each product's high-half temporary until the row's last product
    writes the new top limb into it), lo, rdx (the row's q), cy (the memory add's carry, 0 or -1),
    tp, mp: 14, so that it compiles with a frame pointer too (the sanitizer builds).
    loop: chunks 1..nb-1 as one loop body (tp and mp advance by a chunk each pass), so that the
    code does not grow with n; the 8 q's then wait in x0..x7 (MOVQ, SSE2), since t[s..s+8) is no
    longer at a fixed offset from tp; the window is moved back into w0..w8 order after each pass
    (8 rows rotate 9 registers by 8)."""
    assert n % BLOCK == 0
    K = BLOCK
    nb = n // K
    L = []
    e = L.append
    T = lambda k: f"{8 * k}(%[tp])"
    M = lambda j: f"{8 * j}(%[mp])"
    W = [f"%[w{k}]" for k in range(K + 1)]
    lo, Z = "%[lo]", "%[zero]"

    def row(win, mbase):                         # win[0..8) += q * m[mbase..mbase+8)
        block_row(e, M, win, mbase)

    fused = FUSED and not loop and nb == 2       # n = 16: the last block ends the REDC itself
    pairs = PAIRS and not loop                   # (the loop form has no operand left for minv2h)

    def park(k, reg):                            # q_k parked in t[s+k], which its row clears
        e(f"movq {reg}, %[x{k}]" if loop else f"mov {reg}, {T(k)}")

    def finish_row(win, p):
        e("bt $0, %[cy]")                        # final within the block: + t[s+p] + carry
        e(f"adcx {T(p)}, {win[0]}")
        e("sbb %[cy], %[cy]")
        e(f"mov {win[0]}, {T(p)}")

    def emit_block(last):
        """One block of 8 rows; last (fused only): the last block, whose window is the result's
        top 8 limbs: see fused_end."""
        win = W[1:] + W[:1] if loop else W[:]    # loop: chunk 0 ends in w0..w8 order
        for j in range(K):                       # chunk 0: the window is t[s..s+8)
            e(f"mov {T(j)}, {win[j]}")
        for k in range(K):
            if pairs and k % 2 == 0:
                # q_k and q_{k+1} from positions s+k, s+k+1 before row k: Q = (w0 + w1 B) (-1/m)
                # mod B^2, the quotient that the two rows would make one at a time
                e(f"mov {win[0]}, %%rdx")
                e(f"mulx %[minv], %[lo], %[cy]")  # lo = q_k, cy = the high half
                e("imul %[minv2h], %%rdx")
                e("add %%rdx, %[cy]")
                e(f"mov {win[1]}, %%rdx")
                e("imul %[minv], %%rdx")
                e("add %%rdx, %[cy]")            # cy = q_{k+1}
                e("mov %[lo], %%rdx")
                park(k, "%%rdx")
                park(k + 1, "%[cy]")
            elif pairs:
                e("mov %[cy], %%rdx")
            else:
                e(f"mov {win[0]}, %%rdx")
                e("imul %[minv], %%rdx")         # q_k from position s+k
                park(k, "%%rdx")
            row(win, 0)
            win = win[1:] + win[:1]              # position s+k is 0 now
        e("xor %k[cy], %k[cy]")
        if not loop:
            for c in range(1, nb):               # chunks 1..nb-1: m[8c..8c+8), the parked q's
                for k in range(K):
                    e(f"mov {T(k)}, %%rdx")
                    row(win, K * c)
                    finish_row(win, K * c + k)
                    win = win[1:] + win[:1]
            top, back = n, 0
        else:
            e(f"movq ${nb - 1}, %[cc]")
            e(".p2align 5")
            e("2:")
            e("lea 64(%[tp]), %[tp]")            # tp, mp: the chunk's t and m
            e("lea 64(%[mp]), %[mp]")
            for k in range(K):
                e(f"movq %[x{k}], %%rdx")
                row(win, 0)
                finish_row(win, k)
                win = win[1:] + win[:1]
            for i in range(K - 1, 0, -1):        # back into w0..w8 order (renamed moves)
                e(f"mov {W[i - 1]}, {W[i]}")
            e(f"mov {W[K]}, {W[0]}")
            win = W[:]
            e("decq %[cc]")
            e("jnz 2b")
            top, back = K, K * (nb - 1)          # tp is back limbs past the block's start
        if last:
            fused_end(win)
            return
        e("bt $0, %[cy]")                        # the window's last 8 positions: + t, stored
        for j in range(K):
            e(f"adcx {T(top + j)}, {win[j]}")
            e(f"mov {win[j]}, {T(top + j)}")
        e("mov $0, %k[lo]")
        e(f"adc $0, {lo}")
        e(f"mov {lo}, {T(-back)}")               # the block's carry (position s+n+8) parked in t[s]
        e(f"lea {8 * (K - back)}(%[tp]), %[tp]")
        if back:
            e(f"lea {-8 * back}(%[mp]), %[mp]")

    def fused_end(win):
        """n = 16, after the last block's rows (tp = t + 8): the window holds positions 24..32,
        the result's limbs 8..16, without t[24..32) and the third carry, and without block 0's
        carry (parked in t[0]; position 24). Both go into the window on two chains, the top is
        what the chains carry out, and the result is stored as m * top is subtracted: limbs 0..8
        from t[16..24) (final since the rows), limbs 8..16 from the registers. rp may be t + 16
        or t: every limb of t is read before rp's limb at its address is written."""
        e(f"mov {T(-K)}, {lo}")                  # block 0's carry
        e("xor %%edx, %%edx")                    # CF = OF = 0 (BT would leave OF undefined)
        e("mov $1, %%edx")
        e("adcx %[cy], %%rdx")                   # CF = the third carry (cy is 0 or all ones)
        for j in range(K):
            e(f"adcx {T(n + j)}, {win[j]}")
            e(f"adox {lo if j == 0 else Z}, {win[j]}")
        e("mov $0, %%edx")
        e(f"adcx {Z}, %%rdx")
        e(f"adox {Z}, %%rdx")                    # rdx = the top (0 or 1)
        RP = win[8]
        e(f"mov %[rp], {RP}")
        for j in range(n):                       # rp = result - m * top: MULX leaves the borrow alone
            e(f"mulx {M(j)}, {lo}, %[cy]")       # (its high half, 0, dies at once)
            if j < K:
                e(f"mov {T(K + j)}, %[cy]")
                e(f"{'sub' if j == 0 else 'sbb'} {lo}, %[cy]")
                e(f"mov %[cy], {8 * j}({RP})")
            else:
                e(f"sbb {lo}, {win[j - K]}")
                e(f"mov {win[j - K]}, {8 * j}({RP})")

    if fused:
        emit_block(False)                        # block 0, then block 1 and the end, straight
        emit_block(True)
        return L
    e(".p2align 5")                              # (mont_sqr_ct at 16 limbs 144 -> 136-138 ns on
    e("1:")                                      # the Zen 5 VM: the block loop had come unaligned)
    emit_block(False)
    e("decq %[cnt]")
    e("jnz 1b")
    # tp advanced by n. rp = t[n..2n) + the parked carries of blocks 0..nb-2 at limbs 8b+8; the
    # last block's, plus the sum's carry, is the top (0 or 1). The carries are read first, so rp
    # may be tp + n or tp.
    P = W[:nb]
    RP = W[8]
    for b in range(nb):
        e(f"mov {T(K * b - n)}, {P[b]}")
    e(f"mov %[rp], {RP}")
    for j in range(n):
        e(f"mov {T(j)}, {lo}")
        if j >= K and j % K == 0:
            e(f"{'add' if j == K else 'adc'} {P[j // K - 1]}, {lo}")
        elif j > K:
            e(f"adc $0, {lo}")
        e(f"mov {lo}, {8 * j}({RP})")
    e("mov $0, %%edx")
    if nb > 1:
        e("adc $0, %%rdx")
    e(f"add {P[nb - 1]}, %%rdx")
    sub_m_times_rdx(e, n, M, lambda j: f"{8 * j}({RP})", "%[cy]", W[0], lo)  # rp -= m * top
    return L


def asm_function_blocks(name, lines, n, loop):
    body = "\n".join(f'      "{l}\\n\\t"' for l in lines)
    regs = ", ".join(f'[w{k}] "=&r"(w{k})' for k in range(BLOCK + 1))
    outs = f'{regs}, [lo] "=&r"(lo), [cy] "=&r"(cy), "=&d"(dx), [tp] "+r"(tp), [cnt] "+m"(cnt)'
    pairs = PAIRS and not loop
    if loop:
        outs += ", [mp] \"+r\"(mp), [cc] \"=m\"(cc),\n        " + ", ".join(f'[x{k}] "=&x"(x{k})' for k in range(BLOCK))
        ins = '[minv] "m"(minv), [rp] "m"(rp), [zero] "m"(zero)'
    else:
        ins = '[mp] "r"(mp), [minv] "m"(minv), [rp] "m"(rp), [zero] "m"(zero)'
    if pairs:
        ins += ', [minv2h] "m"(minv2h)'
    return "\n".join([
        f"__attribute__((noinline, target(\"bmi2,adx\"))) void {name}(limb *rp, limb *tp, const limb *mp, limb minv, size_t) {{",
        "  limb w0, w1, w2, w3, w4, w5, w6, w7, w8, lo, cy, dx;",
        f"  size_t cnt = {n // BLOCK};",
        "  static const limb zero = 0;"] +
        (["  // -1/m mod B^2 = minv + minv2h B: m (minv + x B) = -1 mod B^2 gives",
          "  // x = (hi(m0 minv) + 1 + m1 minv) minv mod B",
          "  const limb minv2h = (limb)(((unsigned __int128)mp[0] * minv >> 64) + 1 + mp[1] * minv) * minv;"] if pairs else []) +
        (["  size_t cc;", "  __m128i x0, x1, x2, x3, x4, x5, x6, x7;  // the block's q's (loop form)"] if loop else []) + [
        "  __asm__ volatile(\n" + body,
        "      : " + outs,
        "      : " + ins,
        '      : "cc", "memory");',
        "  (void)w0, (void)w1, (void)w2, (void)w3, (void)w4, (void)w5, (void)w6, (void)w7, (void)w8;",
        "  (void)lo, (void)cy, (void)dx;"] +
        (["  (void)cc, (void)x0, (void)x1, (void)x2, (void)x3, (void)x4, (void)x5, (void)x6, (void)x7;"] if loop else []) + [
        "}\n"])


def asm_function(name, lines, with_rp):
    body = "\n".join(f'      "{l}\\n\\t"' for l in lines)
    rp_arg = "limb *rp, " if with_rp else ""
    out = [f"__attribute__((noinline, target(\"bmi2,adx\"))) void {name}({rp_arg}limb *tp, const limb *mp, limb minv, size_t cnt) {{",
           "  limb l0, h0, l1, h1, tn, z, dx;",
           "  __asm__ volatile(\n" + body,
           '      : [l0] "=&r"(l0), [h0] "=&r"(h0), [l1] "=&r"(l1), [h1] "=&r"(h1), [tn] "=&r"(tn),',
           '        [z] "=&r"(z), "=&d"(dx), [tp] "+r"(tp), [cnt] "+r"(cnt)',
           '      : [mp] "r"(mp), [minv] "r"(minv)' + (', [rp] "r"(rp)' if with_rp else ""),
           '      : "cc", "memory");',
           "  (void)l0, (void)h0, (void)l1, (void)h1, (void)tn, (void)z, (void)dx;",
           "}\n"]
    return "\n".join(out)


def main():
    print("// Generated by cpu/mpn/x86_64/redc_fixed_adx_gen.py: do not edit.")
    print("// MULX/ADCX/ADOX Montgomery reduction, rows unrolled, for n = %d..%d limbs (see the" % (REDC_SIZES[0], REDC_SIZES[-1]))
    print("// generator). Callers check cpu::has_mulx_adx() first.")
    print('#include "mpn/mod/mont.h"')
    print()
    print("#ifdef MPB_HAVE_ADX_ASM")
    print()
    print("#include <immintrin.h>  // __m128i: the loop form's q's (x86-64 only)")
    print()
    print("// AddressSanitizer keeps the locals that the block kernels take as memory operands in its")
    print("// own frame, addressed through registers, and their 14 register operands no longer fit:")
    print("// that build takes the row kernels at every n.")
    print("#if defined(__SANITIZE_ADDRESS__)")
    print("#define MPB_REDC_NO_BLOCKS 1")
    print("#elif defined(__has_feature)")
    print("#if __has_feature(address_sanitizer)")
    print("#define MPB_REDC_NO_BLOCKS 1")
    print("#endif")
    print("#endif")
    print()
    print("namespace mpb {\nnamespace mpn {\nnamespace {")
    for n in REDC_SIZES:
        print(asm_function(f"redc_rows_{n}", gen_redc(n), False))
        rows = asm_function(f"mont_redc_rows_{n}", gen_redc(n) + gen_epilogue(n), True)
        if n in BLOCK_SIZES:
            print("#ifndef MPB_REDC_NO_BLOCKS")
            loop = n in BLOCK_LOOP_SIZES
            print(asm_function_blocks(f"mont_redc_rows_{n}", gen_redc_blocks(n, loop), n, loop))
            print("#else")
            print(rows)
            print("#endif")
        else:
            print(rows)
    print("} // namespace\n")
    lo_n, hi_n = REDC_SIZES[0], REDC_SIZES[-1]
    assert REDC_SIZES == list(range(lo_n, hi_n + 1))
    print(f"bool redc_fixed_adx_has(size_t n) {{ return n >= {lo_n} && n <= {hi_n}; }}\n")
    print("limb redc_fixed_adx(limb *rp, limb *tp, const limb *mp, size_t n, limb minv) {")
    print("  using RowsFn = void (*)(limb *, const limb *, limb, size_t);")
    print(f"  static const RowsFn kRows[{hi_n - lo_n + 1}] = {{")
    for n in REDC_SIZES:
        print(f"      &redc_rows_{n},")
    print("  };")
    print("  MPB_ASSERT(redc_fixed_adx_has(n));")
    print(f"  kRows[n - {lo_n}](tp, mp, minv, n);")
    print("  return add_n(rp, tp + n, tp, n);")
    print("}\n")
    print("MontRedcFn mont_redc_fixed_adx_fn(size_t n) {")
    print(f"  static const MontRedcFn kRedc[{hi_n - lo_n + 1}] = {{")
    for n in REDC_SIZES:
        print(f"      &mont_redc_rows_{n},")
    print("  };")
    print("  MPB_ASSERT(redc_fixed_adx_has(n));")
    print(f"  return kRedc[n - {lo_n}];")
    print("}\n")
    print("void mont_redc_fixed_adx(limb *rp, limb *tp, const limb *mp, size_t n, limb minv) {")
    print("  mont_redc_fixed_adx_fn(n)(rp, tp, mp, minv, n);")
    print("}\n")
    print("} // namespace mpn\n} // namespace mpb\n")
    print("#endif // MPB_HAVE_ADX_ASM")


if __name__ == "__main__":
    from gen_out import run  # this folder (sys.path[0])
    run(main)
