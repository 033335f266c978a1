"""Shared by the block kernels of mul_fixed_adx_gen.py (product, square) and redc_fixed_adx_gen.py
(REDC): one row of a block, the partial sums of BLOCK consecutive positions held in registers."""

BLOCK = 8  # rows per block, and the register window's width in limbs


def block_row(e, A, win, cbase, j0=0):
    """win[j0..8) += rdx * x[cbase+j0 .. cbase+8), x read through A (A(j): the operand of limb j):
    the low halves on the CF chain, the high halves on the OF chain one limb up; win[8], outside the
    window until then, is each product's high-half temporary and ends as the row's top limb (the
    window is below B^8 before the row, so the top cannot overflow). Operands %[lo] (scratch) and
    %[zero] (a zero limb in memory)."""
    e("xor %k[lo], %k[lo]")                      # CF = OF = 0
    for j in range(j0, BLOCK):
        e(f"mulx {A(cbase + j)}, %[lo], {win[8]}")
        e(f"adcx %[lo], {win[j]}")
        if j < BLOCK - 1:
            e(f"adox {win[8]}, {win[j + 1]}")
    e(f"adcx %[zero], {win[8]}")
    e(f"adox %[zero], {win[8]}")
