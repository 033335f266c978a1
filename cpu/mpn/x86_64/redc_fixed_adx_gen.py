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

Run:  python3 cpu/mpn/x86_64/redc_fixed_adx_gen.py OUT.cpp   (CMake does this: cpu/CMakeLists.txt)
"""

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
    for j in range(n):
        e(f"mulx {8 * j}(%[mp]), {y}, {hi}")
        e(f"mov {8 * j}(%[rp]), {x}")
        e(f"{'sub' if j == 0 else 'sbb'} {y}, {x}")
        e(f"mov {x}, {8 * j}(%[rp])")
    return L


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
    print("namespace mpb {\nnamespace mpn {\nnamespace {")
    for n in REDC_SIZES:
        print(asm_function(f"redc_rows_{n}", gen_redc(n), False))
        print(asm_function(f"mont_redc_rows_{n}", gen_redc(n) + gen_epilogue(n), True))
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
    print("void mont_redc_fixed_adx(limb *rp, limb *tp, const limb *mp, size_t n, limb minv) {")
    print("  using Fn = void (*)(limb *, limb *, const limb *, limb, size_t);")
    print(f"  static const Fn kRedc[{hi_n - lo_n + 1}] = {{")
    for n in REDC_SIZES:
        print(f"      &mont_redc_rows_{n},")
    print("  };")
    print("  MPB_ASSERT(redc_fixed_adx_has(n));")
    print(f"  kRedc[n - {lo_n}](rp, tp, mp, minv, n);")
    print("}\n")
    print("} // namespace mpn\n} // namespace mpb\n")
    print("#endif // MPB_HAVE_ADX_ASM")


if __name__ == "__main__":
    from gen_out import run  # this folder (sys.path[0])
    run(main)
