"""divmod_batch / gcd_batch / invmod_batch against Python's divmod, math.gcd and pow(a, -1, m)."""
import math

import pytest

from mpbatch import Context, divmod_batch, gcd_batch, invmod_batch
from conftest import EDGE, need, hard_values

SIZES = [64, 128, 200, 256, 1024, 2048, 4200]


@pytest.fixture(scope="module", params=[1, 2])
def ctx(request):
    with Context("cpu", threads=request.param) as c:
        yield c


def values(rng, bits, n):
    out = list(hard_values(rng, bits)) + [x for x in EDGE if x.bit_length() <= bits]
    while len(out) < n:
        out.append(rng.getrandbits(rng.randint(1, bits)))
    return out[:n] if len(out) > n else out


def test_divmod_shared_and_per_item(rng, ctx):
    need("mpb_batch_divmod")
    for bits in SIZES:
        a = values(rng, bits, 40)
        bs = [x or 1 for x in values(rng, bits, len(a))]
        bs[0] = a[0] or 1     # a == b
        bs[1] = 1             # b = 1
        q, r = divmod_batch(a, bs, ctx=ctx)
        assert list(zip(q, r)) == [divmod(x, y) for x, y in zip(a, bs)]
        for b in (1, 3, (1 << (bits // 2)) + 1, rng.getrandbits(bits) | 1):
            q, r = divmod_batch(a, b, ctx=ctx)
            assert list(zip(q, r)) == [divmod(x, b) for x in a]
    assert divmod_batch([], 5) == ([], [])


def test_divmod_zero_divisor(ctx):
    need("mpb_batch_divmod")
    with pytest.raises(ZeroDivisionError, match=r"b\[2\]"):
        divmod_batch([1, 2, 3], [1, 2, 0], ctx=ctx)
    with pytest.raises(ZeroDivisionError):
        divmod_batch([1, 2, 3], 0, ctx=ctx)
    with pytest.raises(ValueError):
        divmod_batch([1, -2], 3, ctx=ctx)


def test_gcd(rng, ctx):
    need("mpb_batch_gcd")
    for bits in SIZES:
        a = values(rng, bits, 50)
        b = values(rng, bits, 50)
        rng.shuffle(b)
        b[0] = a[0]
        a[1], b[1] = 0, 0
        g = rng.getrandbits(bits // 3) | 1
        a[2], b[2] = g * rng.getrandbits(bits // 2), g << 5
        assert gcd_batch(a, b, ctx=ctx) == [math.gcd(x, y) for x, y in zip(a, b)]
    assert gcd_batch([], []) == []
    with pytest.raises(ValueError):
        gcd_batch([1, 2], [3])


@pytest.mark.parametrize("ct", ["off", "on"])
def test_invmod(rng, ctx, ct):
    need("mpb_batch_invmod")
    ctx.constant_time = ct
    try:
        for bits in SIZES:
            moduli = [rng.getrandbits(bits) | 1 | (1 << (bits - 1)), 3, (1 << bits) - 1]
            if ct == "off":
                moduli += [rng.getrandbits(bits) & ~1 | (1 << (bits - 1)), 2, 1 << bits]
            for m in moduli:
                a = []
                while len(a) < 20:
                    x = rng.getrandbits(bits + 8)  # may be >= m
                    if math.gcd(x, m) == 1:
                        a.append(x)
                assert invmod_batch(a, m, ctx=ctx) == [pow(x, -1, m) for x in a]
                assert ctx.info()["constant_time"] == (ct == "on")
            # one modulus per item
            ms = [m if ct == "off" else m | 1 for m in values(rng, bits, 30)]
            ms = [m if m > 1 else 3 for m in ms]
            a = [next(x for x in (rng.getrandbits(bits) for _ in range(1000))
                      if math.gcd(x, m) == 1) for m in ms]
            assert invmod_batch(a, ms, ctx=ctx) == [pow(x, -1, m) for x, m in zip(a, ms)]
    finally:
        ctx.constant_time = "default"


@pytest.mark.parametrize("ct", ["off", "on"])
def test_invmod_not_invertible(ctx, ct):
    need("mpb_batch_invmod")
    ctx.constant_time = ct
    try:
        m = 3 * 1000003 * (2**127 - 1)
        with pytest.raises(ValueError, match="item 2") as e:
            invmod_batch([2, 5, 3, 7, 0], m, ctx=ctx)
        assert e.value.bad_index == 2
        with pytest.raises(ValueError) as e:
            invmod_batch([1, 2, 0], m, ctx=ctx)
        assert e.value.bad_index == 2
        with pytest.raises(ValueError):
            invmod_batch([1], 1, ctx=ctx)  # m must be > 1
        if ct == "on":
            with pytest.raises(ValueError, match="odd"):
                invmod_batch([3], 10, ctx=ctx)
        else:
            assert invmod_batch([3], 10, ctx=ctx) == [7]
    finally:
        ctx.constant_time = "default"


def test_context_methods(rng):
    need("mpb_batch_divmod", "mpb_batch_gcd", "mpb_batch_invmod")
    with Context("auto") as c:
        assert c.divmod([17, 5], 3) == ([5, 1], [2, 2])
        assert c.gcd([12, 7], [18, 0]) == [6, 7]
        assert c.invmod([3, 5], 7) == [5, 3]
        assert c.info()["backend"] == "cpu_scalar"
    # no CUDA kernel: a forced CUDA context (when the build has one) refuses the call
    with pytest.raises(Exception):
        with Context("cuda") as c:
            c.gcd([1], [2])
