"""A tiny pure-Python GF(2)[x] reference (polynomials as ints, bit i = coefficient of x^i), bit by
bit and independent of the library: the tests' oracle and the sweep's result check."""


def clmul(a: int, b: int) -> int:
    r = 0
    while b:
        low = b & -b
        r ^= a << (low.bit_length() - 1)
        b ^= low
    return r


def pmod(a: int, f: int) -> int:
    df = f.bit_length() - 1
    while a.bit_length() - 1 >= df:
        a ^= f << (a.bit_length() - 1 - df)
    return a


def pdivmod(a: int, b: int):
    q, db = 0, b.bit_length() - 1
    while a.bit_length() - 1 >= db:
        s = a.bit_length() - 1 - db
        q |= 1 << s
        a ^= b << s
    return q, a


def mulmod(a: int, b: int, f: int) -> int:
    return pmod(clmul(a, b), f)


def inv(a: int, f: int):
    """a^-1 mod f, or None when gcd(a, f) != 1"""
    r0, r1, s0, s1 = f, pmod(a, f), 0, 1
    while r1:
        q, r = pdivmod(r0, r1)
        r0, r1 = r1, r
        s0, s1 = s1, s0 ^ clmul(q, s1)
    if r0 != 1:
        return None
    return pmod(s0, f)
