"""Integer (the mp_int API) against Python's int."""
import math
import operator

import pytest

from mpbatch import Integer, gcd, lcm, invmod, jacobi, n_root
from conftest import EDGE, SIGNED_EDGE, need

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/"


def ref_radix(x: int, radix: int) -> str:
    """Independent reference: digits of x in radix 2..64 with the seed alphabet."""
    if x == 0:
        return "0"
    neg, x = x < 0, abs(x)
    out = []
    while x:
        x, d = divmod(x, radix)
        out.append(ALPHABET[d])
    return ("-" if neg else "") + "".join(reversed(out))


def values(rng, n=40):
    vs = list(SIGNED_EDGE)
    for bits in (1, 7, 63, 64, 65, 127, 128, 129, 500, 1024, 2048, 4100):
        for _ in range(2):
            x = rng.getrandbits(bits)
            vs += [x, -x]
    return vs


def test_int_round_trip(rng):
    for v in values(rng):
        assert int(Integer(v)) == v
        assert Integer(v) == v
        assert operator.index(Integer(v)) == v
        assert bool(Integer(v)) == bool(v)
        assert hash(Integer(v)) == hash(v)


def test_copy_and_neg_zero():
    a = Integer(5)
    b = Integer(a)
    assert b == 5 and b is not a
    z = -Integer(0)
    assert int(z) == 0 and z.bit_length() == 0
    assert Integer(True) == 1


@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul])
def test_ring_ops(rng, op):
    vs = values(rng)
    for x in vs[::3]:
        for y in vs[::4]:
            assert int(op(Integer(x), Integer(y))) == op(x, y), (x, y)
            assert int(op(Integer(x), y)) == op(x, y)
            assert int(op(x, Integer(y))) == op(x, y)


def test_square_and_aliasing(rng):
    for x in SIGNED_EDGE + [rng.getrandbits(3000)]:
        a = Integer(x)
        assert a * a == x * x
        assert a.sqr() == x * x
        assert a + a == 2 * x and a - a == 0


@pytest.mark.parametrize("op", [operator.floordiv, operator.mod, divmod])
def test_division_floor_semantics(rng, op):
    vs = values(rng)
    for x in vs[::2]:
        for y in vs[::3]:
            if y == 0:
                continue
            got = op(Integer(x), Integer(y))
            exp = op(x, y)
            if op is divmod:
                assert (int(got[0]), int(got[1])) == exp, (x, y)
            else:
                assert int(got) == exp, (x, y)
            # mixed operands
            assert (op(x, Integer(y)) if op is not divmod else divmod(x, Integer(y))[0]) == \
                (exp if op is not divmod else exp[0])


def test_division_by_zero():
    for op in (operator.floordiv, operator.mod, divmod):
        with pytest.raises(ZeroDivisionError):
            op(Integer(5), Integer(0))
        with pytest.raises(ZeroDivisionError):
            op(Integer(5), 0)


def test_shifts(rng):
    for x in values(rng)[::2]:
        for s in (0, 1, 7, 63, 64, 65, 128, 200, 5000):
            assert int(Integer(x) << s) == x << s
            assert int(Integer(x) >> s) == x >> s, (x, s)
    assert 1 << Integer(70) == 1 << 70
    assert (2**100) >> Integer(3) == 2**97


def test_shift_errors():
    with pytest.raises(ValueError, match="negative shift"):
        Integer(1) << -1
    with pytest.raises(ValueError, match="negative shift"):
        Integer(1) >> -1
    with pytest.raises(TypeError):
        Integer(1) << 1.5
    with pytest.raises(OverflowError):
        Integer(1) << 2**40


def test_neg_abs_pos_compare(rng):
    vs = values(rng)
    for x in vs:
        a = Integer(x)
        assert -a == -x and abs(a) == abs(x) and +a == x
    for x in vs[::3]:
        for y in vs[::3]:
            a, b = Integer(x), Integer(y)
            assert (a < b, a <= b, a > b, a >= b, a == b, a != b) == \
                (x < y, x <= y, x > y, x >= y, x == y, x != y)
            assert (a < y) == (x < y) and (x < b) == (x < y)
    assert Integer(1) != "1" and not (Integer(1) == 1.5)
    with pytest.raises(TypeError):
        Integer(1) < "x"


def test_pow_no_modulus(rng):
    for x in (0, 1, -1, 2, -3, 2**64 - 1, rng.getrandbits(300)):
        for e in (0, 1, 2, 3, 17, 64):
            assert int(Integer(x) ** e) == x ** e
    with pytest.raises(ValueError, match="negative exponent"):
        Integer(2) ** -1


def test_pow_modulus(rng):
    need("mpb_mp_exptmod")
    mods = [1, 2, 3, 7, 2**64 - 59, 2**64, 2**64 + 1, 2**127 - 1, 2**521 - 1,
            rng.getrandbits(1024) | 1, rng.getrandbits(1024) & ~1, rng.getrandbits(2048) | 1]
    for m in mods:
        for _ in range(3):
            a = rng.getrandbits(m.bit_length() + 10)
            e = rng.getrandbits(200)
            for sa in (1, -1):
                assert int(pow(Integer(sa * a), Integer(e), Integer(m))) == pow(sa * a, e, m)
                assert int(pow(Integer(sa * a), e, m)) == pow(sa * a, e, m)
        assert pow(Integer(5), 0, m) == pow(5, 0, m)
    # negative modulus: the sign of m, as with int
    assert int(pow(Integer(3), 5, -7)) == pow(3, 5, -7)
    # negative exponent: modular inverse
    assert int(pow(Integer(3), -1, 7)) == pow(3, -1, 7)
    assert int(pow(Integer(3), -5, 2**127 - 1)) == pow(3, -5, 2**127 - 1)
    with pytest.raises(ValueError, match="not invertible"):
        pow(Integer(2), -1, 4)
    with pytest.raises(ValueError, match="cannot be 0"):
        pow(Integer(2), 3, 0)


def test_powmod_ct(rng):
    need("mpb_mp_exptmod_ct")
    m = rng.getrandbits(1024) | 1 | (1 << 1023)
    for _ in range(4):
        a, e = rng.getrandbits(1000), rng.getrandbits(1024)
        assert Integer(a).powmod_ct(e, m) == pow(a, e, m)
    with pytest.raises(ValueError):
        Integer(3).powmod_ct(5, 100)  # even modulus


def test_modular_helpers(rng):
    need("mpb_mp_addmod", "mpb_mp_submod", "mpb_mp_mulmod")
    for m in (1, 2, 97, 2**64 + 13, rng.getrandbits(700) | 1):
        for _ in range(3):
            a, b = rng.getrandbits(800) - 2**799, rng.getrandbits(800)
            assert Integer(a).addmod(b, m) == (a + b) % m
            assert Integer(a).submod(b, m) == (a - b) % m
            assert Integer(a).mulmod(b, m) == (a * b) % m
    with pytest.raises(ValueError):
        Integer(1).mulmod(2, 0)


def _jacobi_ref(a, n):
    """Textbook Jacobi symbol (a/n), n odd > 0, on Python ints: an independent oracle."""
    a %= n
    s = 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                s = -s
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            s = -s
        a %= n
    return s if n == 1 else 0


def test_jacobi(rng):
    need("mpb_mp_jacobi")
    for n in range(1, 80, 2):
        for a in range(-40, 120):
            assert jacobi(a, n) == _jacobi_ref(a, n), (a, n)
    ffdhe2048 = int("FFFFFFFFFFFFFFFFADF85458A2BB4A9AAFDC5620273D3CF1D8B9C583CE2D3695A9E13641146433FBCC"
                    "939DCE249B3EF97D2FE363630C75D8F681B202AEC4617AD3DF1ED5D5FD65612433F51F5F066ED085"
                    "6365553DED1AF3B557135E7F57C935984F0C70E0E68B77E2A689DAF3EFE8721DF158A136ADE73530"
                    "ACCA4F483A797ABC0AB182B324FB61D108A94BB2C8E3FBB96ADAB760D7F4681D4F42A3DE394DF4AE"
                    "56EDE76372BB190B07A7C8EE0A6D709E02FCE1CDF7E2ECC03404CD28342F619172FE9CE98583FF8E"
                    "4F1232EEF28183C3FE3B1B4C6FAD733BB5FCBC2EC22005C58EF1837D1683B2C6F34A26C1B2EFFA88"
                    "6B423861285C97FFFFFFFFFFFFFFFF", 16)
    assert jacobi(2, ffdhe2048) == 1 and jacobi(ffdhe2048 - 1, ffdhe2048) == -1
    for x in values(rng)[::2]:
        for n in (3, 2**64 + 13, 2**127 - 1, rng.getrandbits(900) | 1, ffdhe2048):
            assert jacobi(x, n) == _jacobi_ref(x, n)
            assert Integer(x).jacobi(Integer(n)) == _jacobi_ref(x, n)
    for bad in (0, -3, 4, 2**70):
        with pytest.raises(ValueError, match="odd n > 0"):
            jacobi(5, bad)
    with pytest.raises(TypeError):
        jacobi(5, 1.5)


def test_gcd_lcm_invmod(rng):
    need("mpb_mp_gcd", "mpb_mp_lcm", "mpb_mp_invmod")
    vs = values(rng)[::3]
    for x in vs:
        for y in vs[::2]:
            assert gcd(x, y) == math.gcd(x, y)
            assert lcm(x, y) == math.lcm(x, y)
            assert Integer(x).gcd(Integer(y)) == math.gcd(x, y)
    for m in (3, 2**64 + 13, 2**127 - 1, rng.getrandbits(900) | 1):
        for _ in range(3):
            a = rng.getrandbits(600)
            if math.gcd(a, m) == 1:
                assert invmod(a, m) == pow(a, -1, m)
                assert Integer(-a).invmod(m) == pow(-a, -1, m)
    with pytest.raises(ValueError, match="no inverse"):
        invmod(2, 4)
    with pytest.raises(ValueError):
        invmod(3, 0)
    with pytest.raises(ValueError):
        invmod(3, -7)
    with pytest.raises(TypeError):
        gcd(1.0, 2)


def int_root(x, n):
    """floor(|x|^(1/n)) with the sign of x (reference by Newton on ints)"""
    s, x = (-1 if x < 0 else 1), abs(x)
    if x < 2:
        return s * x
    r = 1 << ((x.bit_length() + n - 1) // n)
    while True:
        y = ((n - 1) * r + x // r ** (n - 1)) // n
        if y >= r:
            break
        r = y
    while r ** n > x:
        r -= 1
    return s * r


def test_n_root(rng):
    need("mpb_mp_n_root")
    for x in EDGE + [rng.getrandbits(b) for b in (10, 64, 65, 200, 1000)]:
        for n in (1, 2, 3, 5, 64):
            assert n_root(x, n) == int_root(x, n), (x, n)
    assert n_root(-27, 3) == -3
    assert n_root(-30, 3) == int_root(-30, 3)
    with pytest.raises(ValueError):
        n_root(-4, 2)
    with pytest.raises(ValueError):
        n_root(5, 0)
    with pytest.raises(TypeError):
        n_root(5, 2.0)


def test_radix_round_trip(rng):
    need("mpb_mp_toradix", "mpb_mp_read_radix", "mpb_mp_radix_size")
    vs = values(rng)[::2]
    for radix in range(2, 65):
        for x in vs:
            s = Integer(x).to_str(radix)
            assert s == ref_radix(x, radix), (x, radix)
            assert Integer.from_str(s, radix) == x
            if radix <= 36:
                assert int(s, radix) == x
                assert Integer(s.lower(), radix) == x  # case-insensitive
    assert str(Integer(-123)) == "-123" and repr(Integer(5)) == "Integer(5)"
    assert Integer("-987654321987654321987654321") == -987654321987654321987654321
    assert f"{Integer(255):x}" == "ff"


def test_radix_errors():
    need("mpb_mp_read_radix", "mpb_mp_radix_size")
    for bad, radix in (("", 10), ("12a", 10), ("-", 10), ("1 2", 10), ("2", 2), ("é", 10)):
        with pytest.raises(ValueError):
            Integer(bad, radix)
    for radix in (0, 1, 65, -2):
        with pytest.raises(ValueError, match="radix"):
            Integer("1", radix)
        with pytest.raises(ValueError, match="radix"):
            Integer(1).to_str(radix)
    with pytest.raises(TypeError):
        Integer("1", 10.0)
    with pytest.raises(TypeError):
        Integer(5, 10)


def test_bytes_round_trip(rng):
    need("mpb_mp_to_unsigned_bin", "mpb_mp_read_unsigned_bin", "mpb_mp_to_signed_bin",
         "mpb_mp_read_signed_bin")
    for x in values(rng):
        mag = abs(x)
        b = Integer(x).to_bytes()
        assert b == mag.to_bytes((mag.bit_length() + 7) // 8, "big")
        assert Integer.from_bytes(b) == mag
        sb = Integer(x).to_signed_bytes()
        assert sb[0] == (1 if x < 0 else 0) and sb[1:] == b
        assert Integer.from_signed_bytes(sb) == x
    with pytest.raises(ValueError):
        Integer.from_signed_bytes(b"")


def test_bad_constructor_types():
    for bad in (1.5, None, [1], b"12", object()):
        with pytest.raises(TypeError):
            Integer(bad)
    with pytest.raises(TypeError):
        Integer(1) + 1.5


def test_memory_released():
    """Many temporaries: __del__ clears each mp_int (watch the allocator counters)."""
    import ctypes
    from mpbatch import _lib
    live = set()  # addresses handed out through the hook and not yet freed

    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.realloc.restype = ctypes.c_void_p
    libc.realloc.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]

    @_lib.MALLOC_FN
    def m(size):
        p = libc.malloc(size)
        live.add(p)
        return p

    @_lib.REALLOC_FN
    def r(p, old, new):
        q = libc.realloc(p, new)
        if q:
            live.discard(p)
            live.add(q)
        return q

    @_lib.FREE_FN
    def f(p, size):
        live.discard(p)
        libc.free(p)

    # Integers created before the hook must not be freed through it: create all inside
    _lib.C.mpb_set_allocator(m, r, f)
    try:
        for i in range(200):
            x = Integer(2**300 + i) * Integer(3**100) + i
            del x
        import gc
        gc.collect()
        assert not live, f"{len(live)} allocations not freed"
    finally:
        _lib.C.mpb_set_allocator(_lib.MALLOC_FN(), _lib.REALLOC_FN(), _lib.FREE_FN())


def test_allocation_failure_is_memory_error():
    """The allocator hook refusing -> MemoryError (MPB_EMEM), not a crash."""
    from mpbatch import _lib
    import ctypes
    a = Integer(2**5000)

    @_lib.MALLOC_FN
    def m(size):
        return None

    @_lib.REALLOC_FN
    def r(p, old, new):
        return None

    @_lib.FREE_FN
    def f(p, size):
        pass

    _lib.C.mpb_set_allocator(m, r, f)
    try:
        with pytest.raises(MemoryError, match="out of memory"):
            Integer(0)
    finally:
        _lib.C.mpb_set_allocator(_lib.MALLOC_FN(), _lib.REALLOC_FN(), _lib.FREE_FN())
    assert a == 2**5000


def test_pickle_and_copy():
    import copy
    import pickle
    for x in (0, -1, 2**200 + 3):
        a = Integer(x)
        assert pickle.loads(pickle.dumps(a)) == x
        assert copy.deepcopy(a) == x and copy.copy(a) == x
