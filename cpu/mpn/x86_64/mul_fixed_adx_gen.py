#!/usr/bin/env python3
"""Generates mul_fixed_adx.cpp (in the build tree, at build time; never committed): fully unrolled
MULX/ADX multiplication and squaring kernels as GCC inline assembly, row kernels for every
shape up to 8 x 8 limbs (registers) and 9..64 limbs (squaring: 9..32; partial product in memory).

Multiplication is operand scanning (row by row), for every shape 1 <= bn <= an <= 8 (bn rows
of an products; the square ones serve mul_n, the others mpn::mul).  The running partial product lives in n
rotating registers; row i (rdx = b[i]) adds the low halves of a[j]*b[i] with ADOX (OF chain)
and the high halves with ADCX (CF chain), so the two chains run in parallel.  Limb i of the
result is final after the first product of row i and is stored at once, which frees its
register for the new top limb.  Both chains end at the new top limb (which cannot
overflow), so every row could start with the flags the last one left (CF = OF = 0); it clears
them with a XOR all the same (of a register it writes next), because that cuts its chains'
dependence on the last row's and the core then overlaps consecutive rows.  Measured on an AMD
Zen 5 (2026-11-29, `bench_mul --mont`, ns per call): 8 limbs mul 23.5 -> 20.1, sqr 15.3 -> 13.4;
16 limbs (the row kernels below) mul 89 -> 81.5, sqr 53 -> 48; 64 limbs mul 988 -> 904.

Squaring: the off-diagonal triangle the same way (row i multiplies a[i] by a[i+1..n)),
stored to rp as limbs become final; then one pass doubles the triangle with ADCX t,t (CF
chain: t = 2t + CF) and adds the diagonal squares with ADOX (OF chain).

From 9 limbs on the running partial product no longer fits in registers, so those sizes get row
kernels with the partial product in memory (multiplication 9..64 limbs, squaring 9..32), the
inner row of cpu/mpn/x86_64/redc_fixed_adx_gen.py's REDC: row i (rdx = b[i]) does, for each j,
MULX a[j]; ADCX of r[i+j] (read from memory) into the low half (CF chain); ADOX of the previous
high half (OF chain); store to r[i+j]; the row's top limb (last high half plus both flags, which
cannot overflow) is stored to r[i+n], fresh.  Multiplication loops over rows 1..n-1 with the row
unrolled for that n; squaring unrolls the whole triangle (rows of n-1-i products at r[2i+1..))
and ends with the doubling + diagonal pass of the small squares, through memory.  Four
instructions per product on two independent carry chains: on an AMD Zen 3 (TSC cycles,
2026-11-27, one process) 16 limbs: mul 395 -> 289, sqr 227 -> 194; 24: mul 821 -> 618, sqr 483
-> 397; 32: mul 1412 -> 1130, sqr 1065 -> 791, against the product-scanning kernels these
replaced (three-word ADD/ADC/ADC windows, 9..16 / 9..24 limbs) and the ADX addmul_1 rows.

At the BLOCK_SIZES (16 limbs: the halves of RSA-2048) the row kernels give way to block kernels
under the same names (gen_blocks): the rows in blocks of 8 with the partial sums of 8 positions in
registers, three instructions per product, 14-18% faster (see gen_blocks). At 16 limbs a second
square, sqr_sel_16, also carries a slice of powm_ct's table selection in SSE2 (see SEL_SIZES).

Run:  python3 cpu/mpn/x86_64/mul_fixed_adx_gen.py OUT.cpp   (CMake does this: cpu/CMakeLists.txt)
"""

from block_row import BLOCK, block_row  # this folder (sys.path[0])

NMAX = 8
SQR_KEEP_MAX = 5  # up to this n the squaring triangle stays in registers (2n - 2 of them)
RMIN, RMAX = 9, 64  # row kernels (partial product in memory), multiplication: a loop over rows
SQR_RMAX = 32       # squaring: the triangle fully unrolled (496 products at 32 limbs)
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
        e(f"xor %k[tl], %k[tl]")  # CF = OF = 0 anew (tl is written next)
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


def double_in_memory(e, R, t, k, add):
    """R(k) = 2 R(k) + add + CF + OF, through register t (CF: the doubling, OF: the adds)."""
    e(f"mov {R(k)}, {t}")
    e(f"adcx {t}, {t}")
    e(f"adox {add}, {t}")
    e(f"mov {t}, {R(k)}")


def diagonal_pass(e, A, R, n, lo, hi, update, zero):
    """r = 2 * triangle + the squares a_i^2: position 0 takes lo(a_0^2), update(k, word) doubles
    position k and adds the word, position 2n-1 is the last high half plus both flags (flags
    clear on entry)."""
    for i in range(n):
        e(f"mov {A(i)}, %%rdx")
        e(f"mulx %%rdx, {lo}, {hi}")
        if i == 0:
            e(f"mov {lo}, {R(0)}")
        else:
            update(2 * i, lo)
        if i < n - 1:
            update(2 * i + 1, hi)
        else:
            e(f"adcx {zero}, {hi}")
            e(f"adox {zero}, {hi}")
            e(f"mov {hi}, {R(2 * i + 1)}")


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
        e(f"xor %k[tl], %k[tl]")
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
            double_in_memory(e, R, t, k, add)

    diagonal_pass(e, A, R, n, T_LO, T_HI, pos_update, "%[zero]")
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


ROW_LO, ROW_HI = ["%[l0]", "%[l1]"], ["%[h0]", "%[h1]"]


def first_row(e, A, R, j0, n):
    """R(j) = a[j] * rdx for j = j0..n-1 (R(j0) first), top limb to R(n): CF chain only."""
    lo, hi = ROW_LO, ROW_HI
    e(f"mulx {A(j0)}, {lo[j0 % 2]}, {hi[j0 % 2]}")
    e(f"mov {lo[j0 % 2]}, {R(j0)}")
    for j in range(j0 + 1, n):
        a, p = lo[j % 2], hi[(j - 1) % 2]
        e(f"mulx {A(j)}, {a}, {hi[j % 2]}")
        e(f"adcx {p}, {a}")
        e(f"mov {a}, {R(j)}")
    e(f"adcx %[z], {hi[(n - 1) % 2]}")
    e(f"mov {hi[(n - 1) % 2]}, {R(n)}")


def add_row(e, A, R, j0, n):
    """R(j) += a[j] * rdx for j = j0..n-1 (low halves: CF chain with R(j) from memory; high
    halves: OF chain), the row's top limb (which cannot overflow) to R(n), fresh."""
    lo, hi = ROW_LO, ROW_HI
    e("xor %k[z], %k[z]")  # CF = OF = 0 anew: the row's chains do not wait for the last row's
    for j in range(j0, n):
        a, p = lo[j % 2], hi[(j - 1) % 2]
        e(f"mulx {A(j)}, {a}, {hi[j % 2]}")
        e(f"adcx {R(j)}, {a}")
        if j > j0:
            e(f"adox {p}, {a}")
        e(f"mov {a}, {R(j)}")
    top = hi[(n - 1) % 2]
    e(f"adcx %[z], {top}")
    e(f"adox %[z], {top}")
    e(f"mov {top}, {R(n)}")


def gen_rows_mul(n):
    """rp[0 .. 2n) = a * b, n >= 2: row 0 (CF chain only), then rows 1..n-1 in a loop (rp and bp
    advance one limb per row, cnt counts the rows)."""
    L = []
    e = L.append
    A = lambda j: f"{8 * j}(%[ap])"
    R = lambda k: f"{8 * k}(%[rp])"
    e("xor %k[z], %k[z]")                       # z = 0, CF = OF = 0
    e("mov (%[bp]), %%rdx")
    first_row(e, A, R, 0, n)
    e("1:")
    e("lea 8(%[rp]), %[rp]")
    e("lea 8(%[bp]), %[bp]")
    e("mov (%[bp]), %%rdx")
    add_row(e, A, R, 0, n)
    e("dec %[cnt]")                               # its flags die at the next row's XOR
    e("jnz 1b")
    return L


def gen_rows_sqr(n):
    """rp[0 .. 2n) = a^2, n >= 3: the triangle a_i * a[i+1..n) at rp[2i+1 ..) row by row, then
    rp = 2 * triangle + diagonal in one pass (CF: the doubling, OF: the squares)."""
    L = []
    e = L.append
    A = lambda j: f"{8 * j}(%[ap])"
    R = lambda k: f"{8 * k}(%[rp])"
    e("xor %k[z], %k[z]")
    e(f"mov {A(0)}, %%rdx")
    first_row(e, A, R, 1, n)
    for i in range(1, n - 1):
        e(f"mov {A(i)}, %%rdx")
        add_row(e, A, lambda k, i=i: R(i + k), i + 1, n)
    # rp[1 .. 2n-1) holds the triangle; flags are clear
    diagonal_pass(e, A, R, n, ROW_LO[0], ROW_HI[0], lambda k, add: double_in_memory(e, R, ROW_LO[1], k, add), "%[z]")
    return L


# n with block kernels (mul_n and sqr); the row kernels elsewhere. Only 16: fully unrolled, the block
# kernels grow as n^2 (24 limbs: ~10 KB, 32: ~18 KB for the product), and beside the REDC they no
# longer stayed in the core's caches (Zen 5 VM, 2026-11-30, `bench_mul --mont`: mont_mul_ct 24 limbs
# 363-370 -> 382-386 ns although mul_n alone went 184 -> 155; 32 limbs: mont_mul_ct 634-645 ->
# 761-763, mont_sqr_ct 494-501 -> 530; scalar RSA-4096 2,820-2,840 -> 3,080-3,100 us per item).
BLOCK_SIZES = [16]


def gen_blocks(n, sqr, sel=False):
    """Block (register-window) form of rows_mul_n / rows_sqr_n, n a multiple of 8: the rows in
    blocks of 8 (block b: multipliers x[8b .. 8b+8), x = b for the product, a for the square), each
    block going over a in chunks of 8 limbs with the partial sums of 8 consecutive positions in
    registers, a window that moves up one limb per row (the scheme of redc_fixed_adx_gen.py's block
    REDC, without the quotients):
    - a block's first chunk starts from the positions its predecessors left in rp (zeros in block
      0) and stores each position as its row makes it final;
    - in a later chunk the window holds this block's sums alone, and each position leaving it is
      added to what the earlier blocks left there, with a third carry kept in a register (BT /
      ADCX / SBB) between the rows;
    - the positions the last chunk leaves in the window are new to rp: the third carry goes into
      them and they are stored.
    The square: block b's first chunk is the triangle's diagonal block (row k multiplies a[8b+k] by
    a[8b+k+1 .. 8b+8), a shorter row each time, the window still moving one limb per row), its
    chunks are c = b..nb-1, and the doubling + diagonal pass of the row kernels ends it.
    Three instructions per product (MULX from memory, ADCX, ADOX on registers) instead of four, and
    rp is read and written once per block. Registers: w0..w8, lo, cy, rdx, rp, ap: 14 (bp, for the
    product, is read through lo at each row), so that it compiles with a frame pointer too.
    Measured on the Zen 5 VM (2026-11-30, one process, against the row kernels, ns): product 16
    limbs 85.5 -> 70, 24: 191 -> 155, 32: 340 -> 279; square 16: 49.0 -> 42.0, 24: 102.5 -> 88.6,
    32: 176.7 -> 155. In the library (`bench_mul --mont`, 16 limbs): mont_sqr_ct 137-138 -> 131-132,
    mont_mul_ct 171-172 -> 157-158 (see BLOCK_SIZES for the larger n)."""
    assert n % BLOCK == 0
    K, nb = BLOCK, n // BLOCK
    L = []
    e = L.append
    A = lambda j: f"{8 * j}(%[ap])"
    R = lambda k: f"{8 * k}(%[rp])"
    W = [f"%[w{k}]" for k in range(K + 1)]

    def multiplier(i):                           # rdx = x[i]
        if sqr:
            e(f"mov {A(i)}, %%rdx")
        else:
            e("mov %[bp], %[lo]")
            e(f"mov {8 * i}(%[lo]), %%rdx")

    block0_end = None
    for b in range(nb):
        if b == 1:
            block0_end = len(L)
        s = K * b
        win = W[:]
        first = b if sqr else 0                  # the block's first chunk
        base = s + K * first                     # the window's first position
        for j in range(K):
            e(f"mov {'%[zero]' if b == 0 else R(base + j)}, {win[j]}")
        for k in range(K):                       # first chunk: positions base+k become final
            if sqr and k == K - 1:
                e(f"mov %[zero], {win[8]}")      # the triangle's row 8b+7 is empty
            else:
                multiplier(s + k)
                block_row(e, A, win, K * first, k + 1 if sqr else 0)
            e(f"mov {win[0]}, {R(base + k)}")
            win = win[1:] + win[:1]
        if b > 0:
            e("xor %k[cy], %k[cy]")
        for c in range(first + 1, nb):           # later chunks: + what the earlier blocks left
            for k in range(K):
                multiplier(s + k)
                block_row(e, A, win, K * c, 0)
                p = s + K * c + k
                if b > 0:
                    e("bt $0, %[cy]")
                    e(f"adcx {R(p)}, {win[0]}")
                    e("sbb %[cy], %[cy]")
                e(f"mov {win[0]}, {R(p)}")
                win = win[1:] + win[:1]
        if b > 0:                                # positions s+n .. s+n+8, new to rp
            e("bt $0, %[cy]")
            for j in range(K):
                e(f"adc $0, {win[j]}")
        for j in range(K):
            e(f"mov {win[j]}, {R(s + n + j)}")
    if sqr:  # rp[1 .. 2n-1) holds the triangle (rp[2n-1] = 0); flags: any
        e("xor %k[lo], %k[lo]")
        diagonal_pass(e, A, R, n, "%[lo]", W[8], lambda k, add: double_in_memory(e, R, W[0], k, add), "%[zero]")
    if sel:
        L[:block0_end] = interleave(L[:block0_end], selection_slice(n, "%[cy]"))
    return L


# The square with a slice of a table selection (SEL_SIZES): powm_ct's 5-bit windows do five squarings
# before each product by a table entry, and the entry's constant-time selection (32 entries read
# with masks, cpu/mpn/powm/powm_ct_loop.h) took ~5% of a scalar 16-limb exponentiation on the Zen 5
# VM, run between the kernels (replacing it by a copy: 164 -> 156 us). Its SSE2 loads and logic use
# the vector pipes, which the kernels leave idle, so each of the five squarings carries SEL_SLICE of
# the entries (5 x 7 >= 32; the last slice overlaps the one before it), its instructions interleaved
# with the square's: at 16 limbs with the block kernel's block 0, where %[cy] is free and holds the
# entries' address; at 24 limbs with the whole row kernel. Zen 5 VM, 2026-11-30, `ab_libs` against
# the separate selection: scalar RSA-2048 1.028-1.038, 1024-bit constant-time modexp 1.046. Up to
# 24 limbs: an entry's n/2 XMM registers, the index, the counter, the mask and a load's register.
SEL_SIZES = [16, 24]
SEL_SLICE = 7


def selection_slice(n, entries):
    """SSE2 instructions: acc |= entry[k] & (k == iv) for k = 0..SEL_SLICE-1, over the SEL_SLICE
    n-limb entries at `entries` (consecutive). The job at rp + 2n limbs: iv as four equal dwords
    (16 bytes), then the n-limb accumulator, read and written back. xmm0..n/2-1: the accumulator;
    then iv, the counter k, the mask, all ones if a register is left for it (k += 1 is k - (-1);
    else it is made in a load's register before the loads), and the loads' registers."""
    h = n // 2
    assert n % 2 == 0 and h + 4 <= 16
    iv, kv, mask = (f"%%xmm{h + i}" for i in range(3))
    spare = [f"%%xmm{r}" for r in range(h + 3, 16)]
    ones, temps = (spare[0], spare[1:]) if len(spare) >= 2 else (None, spare)
    V = []
    v = V.append
    IV, ACC = 8 * 2 * n, 8 * 2 * n + 16
    v(f"movdqu {IV}(%[rp]), {iv}")
    v(f"pxor {kv}, {kv}")
    if ones:
        v(f"pcmpeqd {ones}, {ones}")
    for i in range(h):
        v(f"movdqu {ACC + 16 * i}(%[rp]), %%xmm{i}")
    for k in range(SEL_SLICE):
        v(f"movdqa {kv}, {mask}")
        v(f"pcmpeqd {iv}, {mask}")
        if ones:
            v(f"psubd {ones}, {kv}")
        else:
            v(f"pcmpeqd {temps[0]}, {temps[0]}")
            v(f"psubd {temps[0]}, {kv}")
        for i in range(h):
            t = temps[i % len(temps)]
            v(f"movdqu {8 * n * k + 16 * i}({entries}), {t}")
            v(f"pand {mask}, {t}")
            v(f"por {t}, %%xmm{i}")
    for i in range(h):
        v(f"movdqu %%xmm{i}, {ACC + 16 * i}(%[rp])")
    return V


# The product carrying a whole table selection (MUL_SEL_SIZES): where the square is the constant-time
# Karatsuba (32 limbs: RSA-4096's halves, 2048-bit exponentiations), the window's product carries
# the selection of the next window's entry instead, one entry per row of the product's 32 rows
# (the row kernel, rows_mul_n). Half of each entry is ORed into XMM accumulators that live across
# the rows, the other half into the job's accumulator in memory.
MUL_SEL_SIZES = [32]


def selection_rows(n):
    """Per row k of an n-row product, the SSE2 instructions that OR entry k (n limbs at %[sel],
    which then moves on one entry) masked by (k == iv) into the job's accumulator (the job at
    %[job]: iv as four equal dwords, then n limbs): (head, per_row, tail). The accumulator's first
    16 limbs live in xmm0-7 from row 0 to the tail; the rest is in memory, written by row 0 and
    read, ORed and written back by the others. xmm8: iv; xmm9: k; xmm10: all ones; xmm11: the mask;
    xmm12-15: the loads."""
    assert n == 32, "one entry per row: the table's 32 entries in the product's n rows"
    ACC = 16
    head = ["movdqu 0(%[job]), %%xmm8", "pxor %%xmm9, %%xmm9", "pcmpeqd %%xmm10, %%xmm10"]

    def row(first):
        V = ["movdqa %%xmm9, %%xmm11", "pcmpeqd %%xmm8, %%xmm11", "psubd %%xmm10, %%xmm9"]
        for i in range(n // 2):
            t = f"%%xmm{12 + i % 4}"
            if i < 8:
                if first:
                    V += [f"movdqu {16 * i}(%[sel]), %%xmm{i}", f"pand %%xmm11, %%xmm{i}"]
                else:
                    V += [f"movdqu {16 * i}(%[sel]), {t}", f"pand %%xmm11, {t}", f"por {t}, %%xmm{i}"]
            else:
                u = f"%%xmm{12 + (i + 2) % 4}"
                V += [f"movdqu {16 * i}(%[sel]), {t}", f"pand %%xmm11, {t}"]
                if not first:
                    V += [f"movdqu {ACC + 16 * i}(%[job]), {u}", f"por {u}, {t}"]
                V += [f"movdqu {t}, {ACC + 16 * i}(%[job])"]
        V.append(f"lea {8 * n}(%[sel]), %[sel]")
        return V

    tail = [f"movdqu %%xmm{i}, {ACC + 16 * i}(%[job])" for i in range(8)]
    return head, row(True), row(False), tail


def gen_rows_mul_sel(n):
    """gen_rows_mul(n) with selection_rows(n) interleaved: the head and row 0's share with the first
    row, each later row's share with its row in the loop, the tail after the loop."""
    head, row0, rowk, tail = selection_rows(n)
    L = []
    e = L.append
    A = lambda j: f"{8 * j}(%[ap])"
    R = lambda k: f"{8 * k}(%[rp])"
    first = ["xor %k[z], %k[z]", "mov (%[bp]), %%rdx"]
    first_row(first.append, A, R, 0, n)
    L += interleave(first, head + row0)
    e("1:")
    body = ["lea 8(%[rp]), %[rp]", "lea 8(%[bp]), %[bp]", "mov (%[bp]), %%rdx"]
    add_row(body.append, A, R, 0, n)
    L += interleave(body, rowk)
    e("dec %[cnt]")
    e("jnz 1b")
    L += tail
    return L


def mul_sel_function(name, n):
    body = "\n".join(f'      "{l}\\n\\t"' for l in gen_rows_mul_sel(n))
    xmm = ", ".join(f'"xmm{k}"' for k in range(16))
    return "\n".join([
        f"__attribute__((noinline)) void {name}(limb *rp, const limb *ap, const limb *bp, const limb *entries, limb *job) {{",
        f"  limb l0, h0, l1, h1, z, dx;\n  size_t cnt = {n - 1};",
        "  const limb *sel = entries;",
        "  __asm__ volatile(\n" + body,
        '      : [l0] "=&r"(l0), [h0] "=&r"(h0), [l1] "=&r"(l1), [h1] "=&r"(h1), [z] "=&r"(z), "=&d"(dx),',
        '        [rp] "+r"(rp), [bp] "+r"(bp), [cnt] "+r"(cnt), [sel] "+r"(sel)',
        '      : [ap] "r"(ap), [job] "r"(job)',
        f'      : "cc", "memory", {xmm});',
        "  (void)l0, (void)h0, (void)l1, (void)h1, (void)z, (void)dx, (void)sel;",
        "}\n"])


def interleave(scalar, vector):
    """The vector instructions spread evenly among the scalar ones, both in their own order."""
    out, done = [], 0
    for i, l in enumerate(scalar):
        out.append(l)
        want = (i + 1) * len(vector) // len(scalar)
        out.extend(vector[done:want])
        done = want
    return out + vector[done:]


def sel_function(name, n):
    """sqr_sel_n: the block kernel's square at the BLOCK_SIZES, else the row kernel's, with a slice."""
    if n not in BLOCK_SIZES:
        lines = interleave(gen_rows_sqr(n), selection_slice(n, "%[sel]"))
        body = "\n".join(f'      "{l}\\n\\t"' for l in lines)
        xmm = ", ".join(f'"xmm{k}"' for k in range(16))
        return "\n".join([
            f"__attribute__((noinline)) void {name}(limb *rp, const limb *ap, const limb *entries) {{",
            "  limb l0, h0, l1, h1, z, dx;",
            "  __asm__ volatile(\n" + body,
            '      : [l0] "=&r"(l0), [h0] "=&r"(h0), [l1] "=&r"(l1), [h1] "=&r"(h1), [z] "=&r"(z), "=&d"(dx)',
            '      : [rp] "r"(rp), [ap] "r"(ap), [sel] "r"(entries)',
            f'      : "cc", "memory", {xmm});',
            "  (void)l0, (void)h0, (void)l1, (void)h1, (void)z, (void)dx;",
            "}\n"])
    body = "\n".join(f'      "{l}\\n\\t"' for l in gen_blocks(n, True, sel=True))
    regs = ", ".join(f'[w{k}] "=&r"(w{k})' for k in range(BLOCK + 1))
    xmm = ", ".join(f'"xmm{k}"' for k in range(16))
    return "\n".join([
        f"__attribute__((noinline)) void {name}(limb *rp, const limb *ap, const limb *entries) {{",
        "  limb w0, w1, w2, w3, w4, w5, w6, w7, w8, lo, dx;",
        "  const limb *cy = entries;",
        "  __asm__ volatile(\n" + body,
        f'      : {regs}, [lo] "=&r"(lo), [cy] "+&r"(cy), "=&d"(dx)',
        '      : [rp] "r"(rp), [ap] "r"(ap), [zero] "m"(kZero)',
        f'      : "cc", "memory", {xmm});',
        "  (void)w0, (void)w1, (void)w2, (void)w3, (void)w4, (void)w5, (void)w6, (void)w7, (void)w8;",
        "  (void)lo, (void)cy, (void)dx;",
        "}\n"])


def blocks_function(name, n, sqr):
    body = "\n".join(f'      "{l}\\n\\t"' for l in gen_blocks(n, sqr))
    regs = ", ".join(f'[w{k}] "=&r"(w{k})' for k in range(BLOCK + 1))
    args = "limb *rp, const limb *ap" + ("" if sqr else ", const limb *bp")
    ins = '[rp] "r"(rp), [ap] "r"(ap), [zero] "m"(kZero)' + ("" if sqr else ', [bp] "m"(bp)')
    return "\n".join([
        f"__attribute__((noinline)) void {name}({args}) {{",
        "  limb w0, w1, w2, w3, w4, w5, w6, w7, w8, lo, cy, dx;",
        "  __asm__ volatile(\n" + body,
        f'      : {regs}, [lo] "=&r"(lo), [cy] "=&r"(cy), "=&d"(dx)',
        f"      : {ins}",
        '      : "cc", "memory");',
        "  (void)w0, (void)w1, (void)w2, (void)w3, (void)w4, (void)w5, (void)w6, (void)w7, (void)w8;",
        "  (void)lo, (void)cy, (void)dx;",
        "}\n"])


def rows_block(lines, sqr):
    body = "\n".join(f'      "{l}\\n\\t"' for l in lines)
    outs = '[l0] "=&r"(l0), [h0] "=&r"(h0), [l1] "=&r"(l1), [h1] "=&r"(h1), [z] "=&r"(z), "=&d"(dx)'
    if sqr:
        ins = '[rp] "r"(rp), [ap] "r"(ap)'
    else:
        outs += ', [rp] "+r"(rp), [bp] "+r"(bp), [cnt] "+r"(cnt)'
        ins = '[ap] "r"(ap)'
    return "  __asm__ volatile(\n" + body + "\n      : " + outs + "\n      : " + ins + "\n      : \"cc\", \"memory\");"


def print_with_blocks(rows, name, n, sqr):
    """The row kernel `rows`, or at the BLOCK_SIZES the block kernel under the same name."""
    if n not in BLOCK_SIZES:
        print(rows)
        return
    print("#ifndef MPB_MUL_NO_BLOCKS")
    print(blocks_function(name, n, sqr))
    print("#else")
    print(rows)
    print("#endif")


def main():
    print("// GENERATED by cpu/mpn/x86_64/mul_fixed_adx_gen.py -- do not edit by hand.")
    print("// Fully unrolled MULX/ADCX/ADOX kernels: row (operand-scanning) products for every shape")
    print("// bn <= an <= %d and squares up to %d limbs; row kernels with the partial product in memory for"
          % (NMAX, NMAX))
    print("// products of %d..%d limbs and squares of %d..%d. See the generator for the algorithms.  Callers check"
          % (RMIN, RMAX, RMIN, SQR_RMAX))
    print("// cpu::has_mulx_adx() first.")
    print('#include "mpn/mul/mul_internal.h"')
    print()
    print("#ifdef MPB_HAVE_ADX_ASM")
    print()
    print("// AddressSanitizer keeps the memory operands of the block kernels (14 register operands) in")
    print("// its own frame, addressed through registers, and they no longer fit: that build takes the")
    print("// row kernels at every n (as redc_fixed_adx.cpp does).")
    print("#if defined(__SANITIZE_ADDRESS__)")
    print("#define MPB_MUL_NO_BLOCKS 1")
    print("#elif defined(__has_feature)")
    print("#if __has_feature(address_sanitizer)")
    print("#define MPB_MUL_NO_BLOCKS 1")
    print("#endif")
    print("#endif")
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
    for n in range(RMIN, RMAX + 1):
        rows = "\n".join([
            f"__attribute__((noinline)) void rows_mul_{n}(limb *rp, const limb *ap, const limb *bp) {{",
            f"  limb l0, h0, l1, h1, z, dx;\n  size_t cnt = {n - 1};",
            rows_block(gen_rows_mul(n), False),
            "  (void)l0, (void)h0, (void)l1, (void)h1, (void)z, (void)dx;",
            "}\n"])
        print_with_blocks(rows, f"rows_mul_{n}", n, False)
    for n in range(RMIN, SQR_RMAX + 1):
        rows = "\n".join([
            f"__attribute__((noinline)) void rows_sqr_{n}(limb *rp, const limb *ap) {{",
            "  limb l0, h0, l1, h1, z, dx;",
            rows_block(gen_rows_sqr(n), True),
            "  (void)l0, (void)h0, (void)l1, (void)h1, (void)z, (void)dx;",
            "}\n"])
        print_with_blocks(rows, f"rows_sqr_{n}", n, True)
    for n in SEL_SIZES:
        if n in BLOCK_SIZES:
            print("#ifndef MPB_MUL_NO_BLOCKS")
        print(sel_function(f"sqr_sel_{n}", n))
        if n in BLOCK_SIZES:
            print("#endif")
    for n in MUL_SEL_SIZES:
        print(mul_sel_function(f"mul_sel_{n}", n))
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
    for kind, hi, args, call in (("mul", RMAX, "limb *rp, const limb *ap, const limb *bp", "rp, ap, bp"),
                                 ("sqr", SQR_RMAX, "limb *rp, const limb *ap", "rp, ap")):
        cap = "ROWS_ADX_MAX" if kind == "mul" else "SQR_ROWS_ADX_MAX"
        fn = "MulRowsFn" if kind == "mul" else "SqrRowsFn"
        print(f"{fn} {kind}_rows_adx_fn(size_t n) {{")
        print(f"  static const {fn} kRows[{hi - RMIN + 1}] = {{")
        for n in range(RMIN, hi + 1):
            print(f"      &rows_{kind}_{n},")
        print("  };")
        print(f"  MPB_ASSERT(n >= ROWS_ADX_MIN && n <= {cap});")
        print(f"  return kRows[n - {RMIN}];")
        print("}\n")
        print(f"void {kind}_rows_adx({args}, size_t n) {{ {kind}_rows_adx_fn(n)({call}); }}\n")
    print(f"static_assert(SQR_SEL_SLICE == {SEL_SLICE}, \"the generator's SEL_SLICE\");")
    print("MulSelFn mul_sel_adx_fn(size_t n) {")
    for n in MUL_SEL_SIZES:
        print(f"  if (n == {n}) return &mul_sel_{n};")
    print("  return nullptr;\n}\n")
    print("SqrSelFn sqr_sel_adx_fn(size_t n) {")
    for n in SEL_SIZES:
        if n in BLOCK_SIZES:
            print("#ifndef MPB_MUL_NO_BLOCKS")
        print(f"  if (n == {n}) return &sqr_sel_{n};")
        if n in BLOCK_SIZES:
            print("#endif")
    print("  (void)n;\n  return nullptr;\n}\n")
    print("} // namespace kern\n} // namespace mpn\n} // namespace mpb\n")
    print("#endif // MPB_HAVE_ADX_ASM")


if __name__ == "__main__":
    from gen_out import run  # this folder (sys.path[0])
    run(main)
