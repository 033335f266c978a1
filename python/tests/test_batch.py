"""Batch functions (lists of ints and NumPy limb arrays) against Python's int / pow."""
import ctypes

import numpy as np
import pytest

import mpbatch
from mpbatch import (Context, RSAKey, mul, sqr, mulmod, powmod, rsa_private, dh, gf2x_mul,
                     gf2x_sqr, gf2x_mulmod, gf2x_inv, mul_limbs, sqr_limbs, mulmod_limbs,
                     powmod_limbs, ints_to_limbs, limbs_to_ints)
from mpbatch._lib import C
from mpbatch import gf2ref
from conftest import EDGE, need, hard_values

SIZES = [64, 128, 192, 256, 521, 1024, 2048, 4096]


def odd_modulus(rng, bits):
    return rng.getrandbits(bits) | 1 | (1 << (bits - 1))


@pytest.fixture(scope="module")
def cpu():
    with Context("cpu", threads=2) as ctx:
        yield ctx


# ---- conversions ---------------------------------------------------------------------------
def test_limb_round_trip(rng):
    for w in (1, 2, 3, 32, 65):
        xs = [0, 1, 2**64 - 1, (1 << (64 * w)) - 1] + [rng.getrandbits(64 * w) for _ in range(50)]
        arr = ints_to_limbs(xs, w)
        assert arr.dtype == np.uint64 and arr.shape == (len(xs), w) and arr.flags.c_contiguous
        assert limbs_to_ints(arr) == xs
        # limb order: little-endian limbs
        assert arr[2, 0] == 2**64 - 1 and (w == 1 or arr[2, 1] == 0)
    assert ints_to_limbs([2**64]).shape == (1, 2)
    assert ints_to_limbs([]).shape == (0, 1)
    assert ints_to_limbs([np.uint64(5), np.int64(7)], 1).tolist() == [[5], [7]]


def test_limb_conversion_errors():
    with pytest.raises(ValueError, match=r"values\[1\] is negative"):
        ints_to_limbs([1, -1])
    with pytest.raises(TypeError, match=r"values\[2\] must be an int, not float"):
        ints_to_limbs([1, 2, 3.0])
    with pytest.raises(TypeError, match=r"must be an int, not str"):
        ints_to_limbs(["1"], 1)
    with pytest.raises(ValueError, match=r"values\[0\] is too large"):
        ints_to_limbs([2**64], 1)
    with pytest.raises(TypeError):
        ints_to_limbs(5)


# ---- context ---------------------------------------------------------------------------------
def test_context_settings():
    need("mpb_ctx_create")
    with Context("cpu", threads=1) as ctx:
        assert ctx.backend == "cpu" and ctx.threads == 1
        ctx.threads = 2
        assert ctx.threads == 2
        ctx.constant_time = "on"
        assert ctx.constant_time == "on"
        assert "cpu" in repr(ctx)
    assert "closed" in repr(ctx)
    with pytest.raises(ValueError, match="closed"):
        ctx.threads
    auto = Context()
    assert auto.backend == "auto"
    auto.close()
    auto.close()  # twice is fine


def test_context_errors():
    need("mpb_ctx_create")
    with pytest.raises(ValueError, match="unknown backend"):
        Context("gpu")
    with pytest.raises(TypeError):
        Context(1)
    with pytest.raises(ValueError, match="threads"):
        Context("cpu", threads=0)
    with pytest.raises(TypeError):
        Context("cpu", threads=1.5)
    with pytest.raises(ValueError, match="ordinals"):
        Context("cpu", devices=[-1])
    with pytest.raises(TypeError, match="devices"):
        Context("cpu", devices=3)
    with Context("cpu", devices=[0, 1]) as ctx:  # recorded for the CUDA backend
        buf = (ctypes.c_int * 4)()
        assert C.mpb_ctx_get_devices(ctx._ptr, buf, 4) == 2
        assert list(buf)[:2] == [0, 1]
    with pytest.raises(TypeError, match="ctx"):
        mul([1], [2], ctx="cpu")


def test_cuda_context():
    need("mpb_ctx_create")
    if mpbatch.backend_available("cuda"):
        with Context("cuda") as ctx:
            assert mul([3], [5], ctx=ctx) == [15]
    else:
        with pytest.raises(mpbatch.DeviceError, match="not available"):
            Context("cuda")


# ---- integer products ----------------------------------------------------------------------
def test_mul_sqr(rng, cpu):
    need("mpb_batch_mul", "mpb_batch_sqr")
    for bits in (1, 64, 65, 128, 1000, 2048, 4096, 10000):
        a = [rng.getrandbits(bits) for _ in range(20)] + [0, 1, (1 << bits) - 1]
        b = [rng.getrandbits(bits) for _ in range(20)] + [(1 << bits) - 1, 0, (1 << bits) - 1]
        assert mul(a, b, ctx=cpu) == [x * y for x, y in zip(a, b)]
        assert sqr(a, ctx=cpu) == [x * x for x in a]
        assert mul(a, b) == [x * y for x, y in zip(a, b)]  # default context
        assert cpu.info()["backend"] in ("cpu_scalar", "cpu_ifma", "cpu_avx512", "cpu_avx2", "multipartite")
    # mixed sizes in one batch
    a = [rng.getrandbits(rng.randrange(1, 3000)) for _ in range(40)]
    b = [rng.getrandbits(rng.randrange(1, 3000)) for _ in range(40)]
    assert mul(a, b) == [x * y for x, y in zip(a, b)]
    assert mul([], []) == [] and sqr([]) == []
    assert cpu.mul([6], [7]) == [42] and cpu.sqr((5,)) == [25]


def test_mul_errors():
    need("mpb_batch_mul")
    with pytest.raises(ValueError, match="different lengths"):
        mul([1, 2], [3])
    with pytest.raises(ValueError, match=r"b\[1\] is negative"):
        mul([1, 2], [3, -4])
    with pytest.raises(TypeError, match=r"a\[0\] must be an int, not float"):
        mul([1.0], [3])
    with pytest.raises(TypeError, match="list"):
        mul(5, [3])
    with pytest.raises(ValueError, match="at most 1024 limbs"):
        mul([1 << (64 * 1024)], [1])


# ---- modular ------------------------------------------------------------------------------------
def test_mulmod_shared_and_per_item(rng, cpu):
    need("mpb_batch_modmul")
    for bits in SIZES:
        for m in (odd_modulus(rng, bits), odd_modulus(rng, bits) & ~1 | (1 << (bits - 1))):
            a = [rng.randrange(m) for _ in range(17)] + [0, 1, m - 1]
            b = [rng.randrange(m) for _ in range(17)] + [m - 1, m - 1, m - 1]
            assert mulmod(a, b, m, ctx=cpu) == [x * y % m for x, y in zip(a, b)]
        ms = [odd_modulus(rng, bits) if i % 2 else odd_modulus(rng, bits) - 1 for i in range(12)]
        a = [rng.randrange(mm) for mm in ms]
        b = [rng.randrange(mm) for mm in ms]
        assert mulmod(a, b, ms, ctx=cpu) == [x * y % mm for x, y, mm in zip(a, b, ms)]
    # small and hard moduli
    for m in (1, 2, 3, 2**64 - 1, 2**64, 2**64 + 1, 2**128 - 159):
        a = [x % m for x in EDGE]
        b = [(x * 7 + 3) % m for x in EDGE]
        assert mulmod(a, b, m) == [x * y % m for x, y in zip(a, b)], m


def test_mulmod_errors():
    need("mpb_batch_modmul")
    with pytest.raises(ValueError) as ei:
        mulmod([1, 2, 9], [1, 2, 3], 7)
    assert "item 2" in str(ei.value) or "a[2]" in str(ei.value)
    with pytest.raises(ValueError):
        mulmod([1], [1], 0)
    with pytest.raises(ValueError, match="moduli for 2 items"):
        mulmod([1, 2], [1, 2], [7])
    with pytest.raises(ValueError, match="different lengths"):
        mulmod([1, 2], [1], 7)
    with pytest.raises(ValueError, match="negative"):
        mulmod([1], [1], -7)
    with pytest.raises(ValueError, match="negative"):
        mulmod([-1], [1], 7)
    with pytest.raises(TypeError):
        mulmod([1], [1], 7.0)
    with pytest.raises(TypeError):
        mulmod([1], ["1"], 7)


def test_powmod(rng, cpu):
    need("mpb_batch_powm")
    for bits in SIZES:
        m = odd_modulus(rng, bits)
        bases = [rng.randrange(m) for _ in range(10)] + [0, 1, m - 1]
        # Python's pow is the slow side: full-size exponents for a few items only
        exps = [rng.getrandbits(bits if i < 2 else min(bits, 300))
                for i in range(len(bases) - 1)] + [0]
        assert powmod(bases, exps, m, ctx=cpu) == [pow(x, e, m) for x, e in zip(bases, exps)]
        assert powmod(bases, 65537, m, ctx=cpu) == [pow(x, 65537, m) for x in bases]
        ms = [odd_modulus(rng, bits) for _ in range(9)]
        bs = [rng.randrange(mm) for mm in ms]
        es = [rng.getrandbits(rng.randrange(1, min(2 * bits, 400))) for _ in ms]
        assert powmod(bs, es, ms, ctx=cpu) == [pow(x, e, mm) for x, e, mm in zip(bs, es, ms)]
        assert powmod(bs, 0, ms) == [1 % mm for mm in ms]
    # a larger batch: spreads over threads / SIMD lanes (not a multiple of 8)
    m = odd_modulus(rng, 1024)
    bases = [rng.randrange(m) for _ in range(37)]
    e = rng.getrandbits(1024)
    assert powmod(bases, e, m) == [pow(x, e, m) for x in bases]
    with Context("cpu", constant_time=True) as ct:
        assert powmod(bases[:5], e, m, ctx=ct) == [pow(x, e, m) for x in bases[:5]]


def test_powmod_even_moduli(rng):
    # even moduli (Barrett on the CPU), mixed with odd ones per item, constant time or not
    need("mpb_batch_powm")
    for bits in (64, 1000, 2048):
        m = odd_modulus(rng, bits) + 1
        bases = [0, 1, m - 1, 2] + [rng.randrange(m) for _ in range(20)]
        e = rng.getrandbits(bits)
        assert powmod(bases, e, m) == [pow(x, e, m) for x in bases]
        assert powmod(bases, 0, m) == [1] * len(bases)
        with Context("cpu", constant_time=True) as ct:
            assert powmod(bases[:6], e, m, ctx=ct) == [pow(x, e, m) for x in bases[:6]]
        ms = [odd_modulus(rng, bits) + (i % 2) for i in range(9)] + [2, 1 << (bits - 1)]
        bs = [rng.randrange(mi) for mi in ms]
        es = [rng.getrandbits(bits) for _ in ms]
        assert powmod(bs, es, ms) == [pow(b, x, mi) for b, x, mi in zip(bs, es, ms)]


def test_powmod_errors():
    need("mpb_batch_powm")
    with pytest.raises(ValueError):
        powmod([1], 3, 1)
    with pytest.raises(ValueError):
        powmod([1], 3, 0)
    with pytest.raises(ValueError):
        powmod([8], 3, 7)  # base >= m
    with pytest.raises(ValueError, match="exponents for 2 bases"):
        powmod([1, 2], [3], 7)
    with pytest.raises(ValueError, match="negative"):
        powmod([1], -3, 7)
    with pytest.raises(ValueError, match="negative"):
        powmod([1], [-3], 7)
    with pytest.raises(TypeError):
        powmod([1], 3.0, 7)


# ---- RSA / DH ------------------------------------------------------------------------------
def _small_key():
    p, q, e = 1000000007, 998244353, 65537
    n = p * q
    d = pow(e, -1, (p - 1) * (q - 1))
    return RSAKey(n, e, d, p, q, d % (p - 1), d % (q - 1), pow(q, -1, p))


def test_rsa_small_and_errors():
    need("mpb_batch_rsa_crt")
    k = _small_key()
    cs = [0, 1, 2, 12345, k.n - 1]
    assert rsa_private(cs, k) == [pow(c, k.d, k.n) for c in cs]
    assert rsa_private(cs, [k] * len(cs)) == [pow(c, k.d, k.n) for c in cs]
    with pytest.raises(ValueError):
        rsa_private([k.n], k)  # c >= n
    bad = k._replace(qinv=(k.qinv + 1) % k.p)
    with pytest.raises(ValueError):
        rsa_private([5], bad)
    with pytest.raises(ValueError, match="keys for 2"):
        rsa_private([1, 2], [k])
    with pytest.raises(TypeError, match="RSAKey"):
        rsa_private([1], [(1, 2)])
    with pytest.raises(TypeError):
        rsa_private([1], (1, 2, 3))


def test_rsa_prepared_key():
    need("mpb_rsa_key_create", "mpb_batch_rsa_crt_key", "mpb_rsa_key_destroy")
    k = _small_key()
    cs = [0, 1, 2, 12345, k.n - 1] + [(7 ** i) % k.n for i in range(20)]
    want = [pow(c, k.d, k.n) for c in cs]
    with mpbatch.PreparedRSAKey(k) as pk:
        assert rsa_private(cs, pk) == want
        assert rsa_private([], pk) == []
        for ctx in (Context("cpu_scalar"), Context("cpu")):
            assert rsa_private(cs, pk, ctx=ctx) == want
        with pytest.raises(ValueError):
            rsa_private([k.n], pk)  # c >= n
    with pytest.raises(ValueError, match="closed"):
        rsa_private([5], pk)
    pk.close()  # again: nothing
    with pytest.raises(ValueError):  # e that does not belong to the key
        mpbatch.PreparedRSAKey(k._replace(e=k.e + 2))
    with pytest.raises(ValueError):  # an inconsistent key
        mpbatch.PreparedRSAKey(k._replace(qinv=(k.qinv + 1) % k.p))
    with pytest.raises(TypeError, match="RSAKey"):
        mpbatch.PreparedRSAKey((k.n, k.e))


def test_dh_small_and_errors():
    need("mpb_batch_dh_keygen", "mpb_batch_dh_shared")
    p = 2**127 - 1
    xs = [2, 3, 2**100 + 5]
    assert dh(xs, p) == [pow(2, x, p) for x in xs]
    assert dh(xs, p, 5) == [pow(5, x, p) for x in xs]
    peers = [7, 11, p - 2]
    assert dh(xs, p, peers=peers) == [pow(y, x, p) for x, y in zip(xs, peers)]
    with pytest.raises(ValueError):
        dh([5], p, peers=[p - 1])
    with pytest.raises(ValueError, match="different lengths"):
        dh([5, 6], p, peers=[3])
    with pytest.raises(ValueError):
        dh([5], 100)  # even p
    with pytest.raises(ValueError, match="negative"):
        dh([-5], p)


def test_dh_x_bits(rng):
    need("mpb_batch_dh_keygen_bits", "mpb_batch_dh_shared_bits")
    p = 2**521 - 1
    for x_bits in (1, 5, 64, 65, 225, 300):
        xs = [rng.getrandbits(x_bits) for _ in range(10)] + [2**x_bits - 1, 0]
        peers = [rng.randrange(2, p - 1) for _ in xs]
        assert dh(xs, p, x_bits=x_bits) == [pow(2, x, p) for x in xs]
        assert dh(xs, p, peers=peers, x_bits=x_bits) == [pow(y, x, p) for x, y in zip(xs, peers)]
    with pytest.raises(ValueError, match="x_bits"):  # the item's index and the reason
        dh([3, 2**225, 5], p, x_bits=225)
    with pytest.raises(ValueError, match="x_bits"):
        dh([3], p, peers=[5], x_bits=0)
    with pytest.raises(TypeError, match="x_bits"):
        dh([3], p, x_bits=2.5)


# ---- GF(2)[x] ------------------------------------------------------------------------------
GF2_F = [0b111, 0b1011, (1 << 63) | 0b11011, (1 << 64) | 0b11011,
         (1 << 163) | (1 << 7) | (1 << 6) | (1 << 3) | 1,
         (1 << 233) | (1 << 74) | 1, (1 << 571) | (1 << 10) | (1 << 5) | (1 << 2) | 1]


def test_gf2x_mul_sqr(rng, cpu):
    need("mpb_batch_gf2x_mul", "mpb_batch_gf2x_sqr")
    for bits in (1, 63, 64, 65, 128, 300, 1000, 4096):
        a = [rng.getrandbits(bits) for _ in range(12)] + [0, 1, (1 << bits) - 1]
        b = [rng.getrandbits(bits) for _ in range(12)] + [(1 << bits) - 1, 1, (1 << bits) - 1]
        assert gf2x_mul(a, b, ctx=cpu) == [gf2ref.clmul(x, y) for x, y in zip(a, b)]
        assert gf2x_sqr(a, ctx=cpu) == [gf2ref.clmul(x, x) for x in a]


def test_gf2x_mulmod_inv(rng, cpu):
    need("mpb_batch_gf2x_mulmod", "mpb_batch_gf2x_inv")
    for f in GF2_F:
        d = f.bit_length() - 1
        a = [rng.getrandbits(d) for _ in range(10)] + [1, (1 << d) - 1]
        b = [rng.getrandbits(d) for _ in range(10)] + [(1 << d) - 1, 1]
        assert gf2x_mulmod(a, b, f, ctx=cpu) == [gf2ref.mulmod(x, y, f) for x, y in zip(a, b)]
        a = [x for x in a if gf2ref.inv(x, f) is not None]
        inv = gf2x_inv(a, f, ctx=cpu)
        assert inv == [gf2ref.inv(x, f) for x in a]
        assert all(gf2ref.mulmod(x, y, f) == 1 for x, y in zip(a, inv))


def test_gf2x_errors():
    need("mpb_batch_gf2x_mulmod", "mpb_batch_gf2x_inv", "mpb_batch_gf2x_mul")
    f = GF2_F[4]
    with pytest.raises(ValueError) as ei:
        gf2x_inv([1, 0, 3], f)
    assert getattr(ei.value, "bad_index", 1) == 1
    assert ei.value.status == -9  # MPB_ENOTINV
    with pytest.raises(ValueError):
        gf2x_inv([0b11], 0b101)  # x^2+1 = (x+1)^2: x+1 not invertible
    with pytest.raises(ValueError, match="degree"):
        gf2x_mulmod([1], [1], 1)
    with pytest.raises(ValueError):
        gf2x_mulmod([f], [1], f)  # deg a >= deg f
    with pytest.raises(ValueError, match="different lengths"):
        gf2x_mul([1], [1, 2])
    with pytest.raises(ValueError, match="negative"):
        gf2x_mul([-1], [1])


# ---- NumPy limb variants -------------------------------------------------------------------
def _limbs_case(rng, w, n):
    """An odd w-limb modulus m, two lists of n residues and their limb arrays (m as one row)."""
    m = odd_modulus(rng, 64 * w)
    a = [rng.randrange(m) for _ in range(n)]
    b = [rng.randrange(m) for _ in range(n)]
    return m, a, b, ints_to_limbs(a, w), ints_to_limbs(b, w), ints_to_limbs([m], w)


def test_limbs_variants(rng, cpu):
    need("mpb_batch_mul", "mpb_batch_modmul", "mpb_batch_powm", "mpb_batch_sqr")
    w, n = 32, 50
    m, a, b, A, B, M = _limbs_case(rng, w, n)
    P = mul_limbs(A, B, ctx=cpu)
    assert P.shape == (n, 2 * w) and P.dtype == np.uint64
    assert limbs_to_ints(P) == [x * y for x, y in zip(a, b)]
    assert limbs_to_ints(sqr_limbs(A)) == [x * x for x in a]
    for Mx in (M, M[0], np.repeat(M, n, axis=0)):
        R = mulmod_limbs(A, B, Mx, ctx=cpu)
        assert R.shape == (n, w)
        assert limbs_to_ints(R) == [x * y % m for x, y in zip(a, b)]
    e = rng.getrandbits(300)
    E = ints_to_limbs([e], 5)
    assert limbs_to_ints(powmod_limbs(A, E, M)) == [pow(x, e, m) for x in a]
    es = [rng.getrandbits(100) for _ in a]
    assert limbs_to_ints(powmod_limbs(A, ints_to_limbs(es, 2), M[0])) == \
        [pow(x, y, m) for x, y in zip(a, es)]
    # non-contiguous input is accepted (copied)
    A2 = np.asfortranarray(A)
    assert limbs_to_ints(mulmod_limbs(A2, B, M)) == [x * y % m for x, y in zip(a, b)]


def test_limbs_errors():
    need("mpb_batch_modmul", "mpb_batch_mul")
    A = np.zeros((4, 2), dtype=np.uint64)
    with pytest.raises(TypeError, match="uint64"):
        mul_limbs(A.astype(np.int64), A)
    with pytest.raises(TypeError, match="ndarray"):
        mul_limbs([[1]], A)
    with pytest.raises(ValueError, match="different shapes"):
        mul_limbs(A, A[:3])
    with pytest.raises(ValueError, match="shape"):
        mul_limbs(A[0], A[0])
    with pytest.raises(ValueError, match="rows"):
        mulmod_limbs(A, A, np.ones((3, 2), dtype=np.uint64))
    with pytest.raises(ValueError, match="limbs per row"):
        mulmod_limbs(A, A, np.ones((1, 3), dtype=np.uint64))
    with pytest.raises(ValueError):  # zero modulus, detected by the library
        mulmod_limbs(A, A, np.zeros((1, 2), dtype=np.uint64))


def test_limbs_out(rng, cpu):
    """out=: the result lands in the caller's array (returned as is), for every *_limbs function,
    also through Context methods; bad out arrays raise before anything runs and stay untouched,
    and so does out when the library rejects the input."""
    need("mpb_batch_mul", "mpb_batch_modmul", "mpb_batch_powm", "mpb_batch_sqr")
    w, n = 4, 20
    m, a, b, A, B, M = _limbs_case(rng, w, n)
    O2 = np.full((n, 2 * w), 7, dtype=np.uint64)
    assert mul_limbs(A, B, ctx=cpu, out=O2) is O2
    assert limbs_to_ints(O2) == [x * y for x, y in zip(a, b)]
    assert cpu.sqr_limbs(A, out=O2) is O2 and limbs_to_ints(O2) == [x * x for x in a]
    O = np.full((n, w), 7, dtype=np.uint64)
    assert mulmod_limbs(A, B, M, ctx=cpu, out=O) is O
    assert limbs_to_ints(O) == [x * y % m for x, y in zip(a, b)]
    e = rng.getrandbits(130)
    assert cpu.powmod_limbs(A, ints_to_limbs([e], 3), M, out=O) is O
    assert limbs_to_ints(O) == [pow(x, e, m) for x in a]
    # bad out arrays: TypeError / ValueError, nothing written
    keep = O.copy()
    bad = [(np.zeros((n, w), dtype=np.int64), ValueError, "uint64"),
           (np.zeros((n + 1, w), dtype=np.uint64), ValueError, "shape"),
           (np.zeros((n, w + 1), dtype=np.uint64), ValueError, "shape"),
           (np.zeros((w, n), dtype=np.uint64).T, ValueError, "contiguous"),
           ([[0] * w] * n, TypeError, "ndarray")]
    for out, exc, msg in bad:
        with pytest.raises(exc, match=msg):
            mulmod_limbs(A, B, M, ctx=cpu, out=out)
    ro = np.zeros((n, w), dtype=np.uint64)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        mulmod_limbs(A, B, M, ctx=cpu, out=ro)
    A_copy = A.copy()
    with pytest.raises(ValueError, match="overlap"):
        mulmod_limbs(A_copy, B, M, ctx=cpu, out=A_copy)
    assert np.array_equal(A_copy, A)
    # the library rejects an operand >= m: out keeps its contents
    big = A.copy()
    big[3] = M[0]
    with pytest.raises(ValueError):
        mulmod_limbs(big, B, M, ctx=cpu, out=O)
    assert np.array_equal(O, keep)


def test_forced_backends():
    need("mpb_ctx_create", "mpb_batch_mul")
    for name in ("cpu_ifma", "cpu_avx512", "cpu_avx2", "multipartite"):
        if mpbatch.backend_available(name):
            with Context(name) as ctx:
                assert ctx.backend == name
        else:
            with pytest.raises(mpbatch.UnsupportedError, match="not available"):
                Context(name)
    with Context("auto") as ctx:
        assert mul([2**64 - 1], [2**64 - 1], ctx=ctx) == [(2**64 - 1) ** 2]
        info = ctx.info()
        assert info["status"] == 0 and info["backend"] != "auto" and info["threads"] >= 1


def test_library_validation_error_details():
    """An error found by the library carries its status, the bad item and argument."""
    need("mpb_batch_modmul")
    with pytest.raises(ValueError) as ei:
        mulmod([1, 2, 3, 4], [1, 2, 3, 4], [7, 7, 0, 7])
    e = ei.value
    assert e.status == -3 and e.function == "mpb_batch_modmul"
    assert e.bad_index == 2 and e.bad_arg == "m"
    assert "item 2" in str(e) and "argument m" in str(e)


@pytest.fixture
def small_pipeline(monkeypatch):
    """Make the chunked (pipelined) list path run on small batches."""
    from mpbatch import pipeline
    monkeypatch.setattr(pipeline, "PIPELINE_MIN", 16)
    monkeypatch.setattr(pipeline, "PIPELINE_CHUNK", 8)


def test_pipelined_list_path(rng, small_pipeline):
    need("mpb_batch_mul", "mpb_batch_sqr", "mpb_batch_modmul", "mpb_batch_powm")
    n = 53  # not a multiple of the chunk
    m = odd_modulus(rng, 300)
    a = [rng.randrange(m) for _ in range(n)]
    b = [rng.randrange(m) for _ in range(n)]
    assert mul(a, b) == [x * y for x, y in zip(a, b)]
    assert sqr(a) == [x * x for x in a]
    assert mulmod(a, b, m) == [x * y % m for x, y in zip(a, b)]
    ms = [odd_modulus(rng, 300) for _ in range(n)]
    a2 = [x % mm for x, mm in zip(a, ms)]
    b2 = [x % mm for x, mm in zip(b, ms)]
    assert mulmod(a2, b2, ms) == [x * y % mm for x, y, mm in zip(a2, b2, ms)]
    es = [rng.getrandbits(100) for _ in range(n)]
    assert powmod(a, es, m) == [pow(x, e, m) for x, e in zip(a, es)]
    assert powmod(a2, 65537, ms) == [pow(x, 65537, mm) for x, mm in zip(a2, ms)]


def test_pipelined_errors_name_global_index(rng, small_pipeline):
    need("mpb_batch_modmul")
    n = 40
    a = list(range(1, n + 1))
    ms = [1001] * n
    ms[37] = 0
    with pytest.raises(ValueError) as ei:
        mulmod(a, a, ms)
    assert ei.value.bad_index == 37 and "item 37" in str(ei.value)
    bad = list(a)
    bad[30] = -5
    with pytest.raises(ValueError, match=r"a\[30\] is negative"):
        mulmod(bad, a, 1001)
    bad[30] = 2.5
    with pytest.raises(TypeError, match=r"b\[30\] must be an int"):
        mul(a, bad)


def test_hard_operands(rng):
    """all-ones, top-bit-only and sparse bit-run operands against all-ones / 2^k+1 moduli"""
    need("mpb_batch_mul", "mpb_batch_modmul", "mpb_batch_powm")
    for bits in (64, 128, 1024, 2048, 4096):
        hv = hard_values(rng, bits)
        pairs = [(x, y) for x in hv for y in hv]
        a, b = [p[0] for p in pairs], [p[1] for p in pairs]
        assert mul(a, b) == [x * y for x, y in pairs]
        for m in ((1 << bits) - 1, (1 << bits) + 1, (1 << (bits - 1)) + 1):
            am, bm = [x % m for x in a], [y % m for y in b]
            assert mulmod(am, bm, m) == [x * y % m for x, y in zip(am, bm)]
            if bits <= 1024:  # Python's pow is the slow side
                e = (1 << bits) - 1
                assert powmod(am[:4], e, m) == [pow(x, e, m) for x in am[:4]]


def test_fast_int_packing_matches_to_bytes():
    """ints_to_limbs reads CPython int digits in C when the layout self-check passed; it must
    equal int.to_bytes for every value, and leave negative / too wide values to the checked
    path (which raises with the item's index)."""
    from mpbatch import convert as B
    import random
    rng = random.Random(7)
    for width in (1, 2, 3, 7, 32, 65):
        bits = 64 * width
        xs = [0, 1, 2**30 - 1, 2**30, 2**60, 2**64 - 1, 2**bits - 1, 2**(bits - 1),
              2**(bits - 30) - 1] + [rng.getrandbits(rng.randrange(1, bits + 1)) for _ in range(300)]
        want = np.frombuffer(b"".join(x.to_bytes(8 * width, "little") for x in xs),
                             dtype="<u8").reshape(len(xs), width)
        assert np.array_equal(ints_to_limbs(xs, width), want)
        back = limbs_to_ints(want)  # ints built in C when B._INT_MAKERS is set
        assert back == xs and all(type(x) is int for x in back)
        assert [hash(x) for x in back] == [hash(x) for x in xs]
        assert [x * 3 - 1 for x in back] == [x * 3 - 1 for x in xs]
        if B._LIST_HELPERS:
            out = np.full((len(xs), width), 7, dtype="<u8")
            assert B._pack_into(out, xs, 0, 0) and np.array_equal(out, want)
            for bad in (-1, 2**bits, True, 1.5, np.uint64(3)):
                out = np.full((len(xs) + 1, width), 7, dtype="<u8")
                assert not B._pack_into(out, xs + [bad], 0, 0)
                assert (out == 7).all()  # nothing written
        if B._INT_LAYOUT is not None:  # the id-array form of the C helper
            ids = np.fromiter(map(id, xs), dtype=np.uintp, count=len(xs))
            out = np.zeros((len(xs), width), dtype="<u8")
            C.mpb_pack_cpython_ints(out.ctypes.data, width, ids.ctypes.data, len(xs),
                                    B._INT_LAYOUT, None)
            assert np.array_equal(out, want)
    with pytest.raises(ValueError, match=r"b\[3\] is too large"):
        ints_to_limbs([1, 2, 3, 2**128], 2, name="b")
    with pytest.raises(ValueError, match=r"b\[1\] is negative"):
        ints_to_limbs([1, -2], 2, name="b")
