#!/usr/bin/env python3
"""Generates mul_fixed_adx.cpp (in the build tree, at build time; never committed): fully unrolled
MULX/ADX multiplication and squaring kernels as GCC inline assembly, row kernels for every
shape up to 8 x 8 limbs and product-scanning kernels for 9..16 limbs (squaring: 9..24).

Multiplication is operand scanning (row by row), for every shape 1 <= bn <= an <= 8 (bn rows
of an products; the square ones serve mul_n, the others mpn::mul).  The running partial product lives in n
rotating registers; row i (rdx = b[i]) adds the low halves of a[j]*b[i] with ADOX (OF chain)
and the high halves with ADCX (CF chain), so the two chains run in parallel.  Limb i of the
result is final after the first product of row i and is stored at once, which frees its
register for the new top limb.  Both chains end at the new top limb (which cannot
overflow), so every row starts with CF = OF = 0.

Squaring: the off-diagonal triangle the same way (row i multiplies a[i] by a[i+1..n)),
stored to rp as limbs become final; then one pass doubles the triangle with ADCX t,t (CF
chain: t = 2t + CF) and adds the diagonal squares with ADOX (OF chain).

For 9..16 limbs (squaring: 9..24) the row kernels would need too many registers, so those sizes get fully
unrolled product-scanning (Comba) kernels: column k accumulates its products a_i b_{k-i}
(MULX) in a three-register window with ADD/ADC/ADC, stores the low word and slides the
window.  Only 9 registers are used whatever n.  (On x86-64 the three-word chain needs fewer
instructions per product than the delayed-carry split of cpu/mpn/mul/mul_comba.cpp, which is why the
assembly uses it; the C kernels keep the delayed-carry form, see bench_mul.)  Squaring sums
each column's off-diagonal products once, doubles them (ADD/ADC/ADC of the window onto
itself), adds the diagonal square, then adds the column into the running window.

Run:  python3 cpu/mpn/x86_64/mul_fixed_adx_gen.py OUT.cpp   (CMake does this: cpu/CMakeLists.txt)
"""

NMAX = 8
SQR_KEEP_MAX = 5  # up to this n the squaring triangle stays in registers (2n - 2 of them)
CMIN, CMAX = 9, 16  # product-scanning (Comba) asm kernels for these sizes
SQR_CMAX = 24       # squaring ones go further (half the products, so half the code)
COPY_FROM = 7  # from this n on, a and b are copied to one stack array (saves a pointer register)


class Gen:
    def __init__(self, nregs):
        self.lines = []
        self.free = [f"%[x{k}]" for k in range(nregs)]
        self.nregs = nregs
        self.pos = {}
        self.peak = 0

    def emit(self, s):
        self.lines.append(s)

    def alloc(self, p):
        self.free.sort(key=lambda r: int(r[3:-1]))  # lowest-numbered free register
        r = self.free.pop(0)
        self.pos[p] = r
        self.peak = max(self.peak, self.nregs - len(self.free))
        return r

    def release(self, p):
        self.free.append(self.pos.pop(p))


def addr(base, k):
    return f"{8 * k}(%[{base}])"


def gen_mul(an, bn):
    """rp[0 .. an+bn) = a[0 .. an) * b[0 .. bn), 2 <= an, 1 <= bn <= an: bn rows of an products."""
    local = an >= COPY_FROM
    g = Gen(an + 2)
    T_LO, T_HI = "%[tl]", "%[th]"
    A = lambda j: addr("ab", j) if local else addr("ap", j)
    B = lambda i: addr("ab", an + i) if local else addr("bp", i)
    R = lambda k: f"{8 * k}(%[rp])"
    e = g.emit
    e(f"xor %k[tl], %k[tl]")
    # row 0: plain product, CF chain only
    e(f"mov {B(0)}, %%rdx")
    e(f"mulx {A(0)}, {T_LO}, {g.alloc(1)}")
    e(f"mov {T_LO}, {R(0)}")
    for j in range(1, an):
        e(f"mulx {A(j)}, {T_LO}, {g.alloc(j + 1)}")
        e(f"adcx {T_LO}, {g.pos[j]}")
    e(f"adcx %[zero], {g.pos[an]}")
    for i in range(1, bn):
        e(f"mov {B(i)}, %%rdx")
        for j in range(an):
            if j < an - 1:
                e(f"mulx {A(j)}, {T_LO}, {T_HI}")
                e(f"adox {T_LO}, {g.pos[i + j]}")
                if j == 0:
                    e(f"mov {g.pos[i]}, {R(i)}")
                    g.release(i)
                e(f"adcx {T_HI}, {g.pos[i + j + 1]}")
            else:
                top = g.alloc(i + an)
                e(f"mulx {A(j)}, {T_LO}, {top}")
                e(f"adox {T_LO}, {g.pos[i + j]}")
                e(f"adcx %[zero], {top}")
                e(f"adox %[zero], {top}")
    for k in range(bn, an + bn):
        e(f"mov {g.pos[k]}, {R(k)}")
    return g


def gen_sqr(n):
    keep = n <= SQR_KEEP_MAX  # triangle stays in registers for the doubling pass
    g = Gen(max(n + 2, 2 * n))
    T_LO, T_HI = "%[tl]", "%[th]"
    A = lambda j: f"{8 * j}(%[ap])"
    R = lambda k: f"{8 * k}(%[rp])"
    e = g.emit

    def retire(p):  # position p of the triangle is final
        if not keep and p in g.pos:
            e(f"mov {g.pos[p]}, {R(p)}")
            g.release(p)

    e(f"xor %k[tl], %k[tl]")
    # row 0: a0 * a[1..n) at positions 1..n
    e(f"mov {A(0)}, %%rdx")
    e(f"mulx {A(1)}, {g.alloc(1)}, {g.alloc(2)}")
    for j in range(2, n):
        e(f"mulx {A(j)}, {T_LO}, {g.alloc(j + 1)}")
        e(f"adcx {T_LO}, {g.pos[j]}")
    e(f"adcx %[zero], {g.pos[n]}")
    for p in (1, 2):
        retire(p)
    for i in range(1, n - 1):
        e(f"mov {A(i)}, %%rdx")
        for j in range(i + 1, n):
            if j < n - 1:
                e(f"mulx {A(j)}, {T_LO}, {T_HI}")
                e(f"adox {T_LO}, {g.pos[i + j]}")
                e(f"adcx {T_HI}, {g.pos[i + j + 1]}")
            else:
                top = g.alloc(i + n)
                e(f"mulx {A(j)}, {T_LO}, {top}")
                e(f"adox {T_LO}, {g.pos[i + j]}")
                e(f"adcx %[zero], {top}")
                e(f"adox %[zero], {top}")
        for p in (2 * i + 1, 2 * i + 2):
            retire(p)
    if not keep:
        for p in sorted(list(g.pos)):
            retire(p)
    # doubling + diagonal; flags are clear here (both chains ended without carry)
    t = None if keep else g.alloc(-1)

    def pos_update(k, add):
        if keep:
            r = g.pos[k]
            e(f"adcx {r}, {r}")
            e(f"adox {add}, {r}")
            e(f"mov {r}, {R(k)}")
        else:
            e(f"mov {R(k)}, {t}")
            e(f"adcx {t}, {t}")
            e(f"adox {add}, {t}")
            e(f"mov {t}, {R(k)}")

    for i in range(n):
        e(f"mov {A(i)}, %%rdx")
        e(f"mulx %%rdx, {T_LO}, {T_HI}")
        if i == 0:
            e(f"mov {T_LO}, {R(0)}")
        else:
            pos_update(2 * i, T_LO)
        if i < n - 1:
            pos_update(2 * i + 1, T_HI)
        else:
            e(f"adcx %[zero], {T_HI}")
            e(f"adox %[zero], {T_HI}")
            e(f"mov {T_HI}, {R(2 * i + 1)}")
    return g


def asm_block(g, kind, n, local):
    out = []
    body = "\n".join(f'      "{l}\\n\\t"' for l in g.lines)
    regs = ", ".join(f'[x{k}] "=&r"(x[{k}])' for k in range(g.peak))
    outs = f'{regs}, [tl] "=&r"(tl), [th] "=&r"(th), "=&d"(dx)'
    if kind == "mul":
        if local:
            ins = '[rp] "r"(rp), [ab] "r"(ab), [zero] "m"(kZero)'
        else:
            ins = '[rp] "r"(rp), [ap] "r"(ap), [bp] "r"(bp), [zero] "m"(kZero)'
    else:
        ins = '[rp] "r"(rp), [ap] "r"(ap), [zero] "m"(kZero)'
    out.append("  __asm__ volatile(\n" + body + "\n      : " + outs + "\n      : " + ins + "\n      : \"cc\", \"memory\");")
    return "\n".join(out)


def gen_comba_mul(n):
    L = []
    e = L.append
    A = lambda j: f"{8 * j}(%[ap])"
    B = lambda j: f"{8 * j}(%[bp])"
    R = lambda k: f"{8 * k}(%[rp])"
    w = ["%[w0]", "%[w1]", "%[w2]"]
    for r in w:
        e(f"xor %k[{r[2:-1]}], %k[{r[2:-1]}]")
    for k in range(2 * n - 1):
        lo = max(0, k - n + 1)
        hi = min(k, n - 1)
        for i in range(lo, hi + 1):
            e(f"mov {A(i)}, %%rdx")
            e(f"mulx {B(k - i)}, %[tl], %[th]")
            e(f"add %[tl], {w[0]}")
            e(f"adc %[th], {w[1]}")
            e(f"adc $0, {w[2]}")
        e(f"mov {w[0]}, {R(k)}")
        e(f"xor %k[{w[0][2:-1]}], %k[{w[0][2:-1]}]")
        w = [w[1], w[2], w[0]]
    e(f"mov {w[0]}, {R(2 * n - 1)}")
    return L


def gen_comba_sqr(n):
    L = []
    e = L.append
    A = lambda j: f"{8 * j}(%[ap])"
    R = lambda k: f"{8 * k}(%[rp])"
    w = ["%[w0]", "%[w1]", "%[w2]"]
    s = ["%[s0]", "%[s1]", "%[s2]"]
    name = lambda r: r[2:-1]
    for r in w:
        e(f"xor %k[{name(r)}], %k[{name(r)}]")
    for k in range(2 * n - 1):
        lo = max(0, k - n + 1)
        pairs = [(i, k - i) for i in range(lo, n) if i < k - i]
        if pairs:
            for r in s:
                e(f"xor %k[{name(r)}], %k[{name(r)}]")
            for i, j in pairs:
                e(f"mov {A(i)}, %%rdx")
                e(f"mulx {A(j)}, %[tl], %[th]")
                e(f"add %[tl], {s[0]}")
                e(f"adc %[th], {s[1]}")
                e(f"adc $0, {s[2]}")
            e(f"add {s[0]}, {s[0]}")
            e(f"adc {s[1]}, {s[1]}")
            e(f"adc {s[2]}, {s[2]}")
            e(f"add {s[0]}, {w[0]}")
            e(f"adc {s[1]}, {w[1]}")
            e(f"adc {s[2]}, {w[2]}")
        if k % 2 == 0:
            e(f"mov {A(k // 2)}, %%rdx")
            e(f"mulx %%rdx, %[tl], %[th]")
            e(f"add %[tl], {w[0]}")
            e(f"adc %[th], {w[1]}")
            e(f"adc $0, {w[2]}")
        e(f"mov {w[0]}, {R(k)}")
        e(f"xor %k[{name(w[0])}], %k[{name(w[0])}]")
        w = [w[1], w[2], w[0]]
    e(f"mov {w[0]}, {R(2 * n - 1)}")
    return L


def comba_block(lines, sqr):
    body = "\n".join(f'      "{l}\\n\\t"' for l in lines)
    outs = '[w0] "=&r"(w[0]), [w1] "=&r"(w[1]), [w2] "=&r"(w[2]), [tl] "=&r"(tl), [th] "=&r"(th), "=&d"(dx)'
    if sqr:
        outs += ', [s0] "=&r"(s[0]), [s1] "=&r"(s[1]), [s2] "=&r"(s[2])'
        ins = '[rp] "r"(rp), [ap] "r"(ap)'
    else:
        ins = '[rp] "r"(rp), [ap] "r"(ap), [bp] "r"(bp)'
    return "  __asm__ volatile(\n" + body + "\n      : " + outs + "\n      : " + ins + "\n      : \"cc\", \"memory\");"


def main():
    print("// GENERATED by cpu/mpn/x86_64/mul_fixed_adx_gen.py -- do not edit by hand.")
    print("// Fully unrolled MULX/ADCX/ADOX kernels: row (operand-scanning) products for every shape")
    print("// bn <= an <= %d and squares up to %d limbs; product-scanning (Comba) products for %d..%d limbs"
          % (NMAX, NMAX, CMIN, CMAX))
    print("// and squares for %d..%d. See the generator for the algorithms.  Callers check" % (CMIN, SQR_CMAX))
    print("// cpu::has_mulx_adx() first.")
    print('#include "mpn/mul/mul_internal.h"')
    print()
    print("#ifdef MPB_HAVE_ADX_ASM")
    print()
    print("namespace mpb {\nnamespace mpn {\nnamespace kern {\nnamespace {")
    print("alignas(8) const limb kZero = 0;")
    print()
    for an in range(2, NMAX + 1):
        for bn in range(1, an + 1):
            local = an >= COPY_FROM
            g = gen_mul(an, bn)
            print(f"__attribute__((noinline)) void mul_{an}x{bn}(limb *rp, const limb *ap, const limb *bp) {{")
            print(f"  limb x[{g.peak}], tl, th, dx;")
            if local:
                print(f"  limb ab[{an + bn}];")
                print(f"  for (int i = 0; i < {an}; i++) ab[i] = ap[i];")
                print(f"  for (int i = 0; i < {bn}; i++) ab[{an} + i] = bp[i];")
            print(asm_block(g, "mul", an, local))
            print("  (void)x, (void)tl, (void)th, (void)dx;")
            print("}\n")
    for n in range(2, NMAX + 1):
        g = gen_sqr(n)
        print(f"__attribute__((noinline)) void sqr_{n}(limb *rp, const limb *ap) {{")
        print(f"  limb x[{g.peak}], tl, th, dx;")
        print(asm_block(g, "sqr", n, False))
        print("  (void)x, (void)tl, (void)th, (void)dx;")
        print("}\n")
    for n in range(CMIN, CMAX + 1):
        print(f"__attribute__((noinline)) void comba_mul_{n}(limb *rp, const limb *ap, const limb *bp) {{")
        print("  limb w[3], tl, th, dx;")
        print(comba_block(gen_comba_mul(n), False))
        print("  (void)w, (void)tl, (void)th, (void)dx;")
        print("}\n")

    for n in range(CMIN, SQR_CMAX + 1):
        print(f"__attribute__((noinline)) void comba_sqr_{n}(limb *rp, const limb *ap) {{")
        print("  limb w[3], s[3], tl, th, dx;")
        print(comba_block(gen_comba_sqr(n), True))
        print("  (void)w, (void)s, (void)tl, (void)th, (void)dx;")
        print("}\n")
    print("void mul_1x1(limb *rp, const limb *ap, const limb *bp) {")
    print("  rp[1] = detail::mul_wide(ap[0], bp[0], &rp[0]);\n}")
    print("void sqr_1(limb *rp, const limb *ap) {")
    print("  rp[1] = detail::mul_wide(ap[0], ap[0], &rp[0]);\n}")
    print("} // namespace\n")
    print("void mul_fixed_adx(limb *rp, const limb *ap, const limb *bp, size_t n) {")
    print("  MPB_ASSERT(n >= 1 && n <= FIXED_ADX_MAX);")
    print("  switch (n) {")
    print("    case 1: mul_1x1(rp, ap, bp); return;")
    for n in range(2, NMAX + 1):
        print(f"    case {n}: mul_{n}x{n}(rp, ap, bp); return;")
    print("  }\n}\n")
    print("using MulFn = void (*)(limb *, const limb *, const limb *);")
    print("// kUnbal[an - 1][bn - 1] for 1 <= bn <= an <= %d" % NMAX)
    print("static const MulFn kUnbal[%d][%d] = {" % (NMAX, NMAX))
    for an in range(1, NMAX + 1):
        row = []
        for bn in range(1, NMAX + 1):
            if an == 1 and bn == 1:
                row.append("&mul_1x1")
            elif bn <= an:
                row.append(f"&mul_{an}x{bn}")
            else:
                row.append("nullptr")
        print("    {" + ", ".join(row) + "},")
    print("};\n")
    print("void mul_fixed_adx_unbal(limb *rp, const limb *ap, size_t an, const limb *bp, size_t bn) {")
    print("  MPB_ASSERT(bn >= 1 && bn <= an && an <= FIXED_ADX_MAX);")
    print("  kUnbal[an - 1][bn - 1](rp, ap, bp);")
    print("}\n")
    print("void sqr_fixed_adx(limb *rp, const limb *ap, size_t n) {")
    print("  MPB_ASSERT(n >= 1 && n <= FIXED_ADX_MAX);")
    print("  switch (n) {")
    print("    case 1: sqr_1(rp, ap); return;")
    for n in range(2, NMAX + 1):
        print(f"    case {n}: sqr_{n}(rp, ap); return;")
    print("  }\n}\n")
    print("void mul_comba_adx(limb *rp, const limb *ap, const limb *bp, size_t n) {")
    print("  MPB_ASSERT(n >= COMBA_ADX_MIN && n <= COMBA_ADX_MAX);")
    print("  switch (n) {")
    for n in range(CMIN, CMAX + 1):
        print(f"    case {n}: comba_mul_{n}(rp, ap, bp); return;")
    print("  }\n}\n")
    print("void sqr_comba_adx(limb *rp, const limb *ap, size_t n) {")
    print("  MPB_ASSERT(n >= COMBA_ADX_MIN && n <= SQR_COMBA_ADX_MAX);")
    print("  switch (n) {")
    for n in range(CMIN, SQR_CMAX + 1):
        print(f"    case {n}: comba_sqr_{n}(rp, ap); return;")
    print("  }\n}\n")
    print("} // namespace kern\n} // namespace mpn\n} // namespace mpb\n")
    print("#endif // MPB_HAVE_ADX_ASM")


if __name__ == "__main__":
    from gen_out import run  # this folder (sys.path[0])
    run(main)
