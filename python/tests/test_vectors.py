"""Third-party vectors: Wycheproof RSA keys (CRT decryption) and the RFC 7919/3526 DH groups."""
import json
import random

import pytest

from mpbatch import RSAKey, rsa_private, dh, powmod, mulmod, Context
from conftest import vectors_dir, need


def _hex(s):
    return int(s, 16)


def _cts(g):
    """the ciphertexts of a group as ints (a few invalid-by-design tests have an empty ct)"""
    return [(int(t["ct"], 16), t) for t in g["tests"] if t["ct"]]


@pytest.fixture(scope="module")
def wycheproof():
    p = vectors_dir() / "wycheproof" / "rsa_pkcs1_2048_test.json"
    if not p.exists():
        pytest.skip(f"{p} not found (set MPB_VECTORS)")
    return json.loads(p.read_text())


def _key(g):
    k = g["privateKey"]
    return RSAKey(n=_hex(k["modulus"]), e=_hex(k["publicExponent"]), d=_hex(k["privateExponent"]),
                  p=_hex(k["prime1"]), q=_hex(k["prime2"]), dp=_hex(k["exponent1"]),
                  dq=_hex(k["exponent2"]), qinv=_hex(k["coefficient"]))


def test_wycheproof_keys_consistent(wycheproof):
    for g in wycheproof["testGroups"]:
        k = _key(g)
        assert k.n == k.p * k.q and k.qinv * k.q % k.p == 1


@pytest.fixture(scope="module")
def wycheproof_plain(wycheproof):
    """[(key, c, c^d mod n (Python's pow), test)] for every ciphertext < n"""
    out = []
    for g in wycheproof["testGroups"]:
        k = _key(g)
        for c, t in _cts(g):
            out.append((k, c, pow(c, k.d, k.n) if c < k.n else None, t))
    return out


def test_wycheproof_rsa_crt(wycheproof_plain):
    need("mpb_batch_rsa_crt")
    by_key = {}
    for k, c, m, t in wycheproof_plain:
        by_key.setdefault(k, []).append((c, m, t))
    for k, items in by_key.items():
        ok = [(c, m) for c, m, _ in items if m is not None]
        # one key for the batch
        assert rsa_private([c for c, _ in ok], k) == [m for _, m in ok]
        for c, m, _ in items:
            if m is None:  # c >= n: rejected
                with pytest.raises(ValueError):
                    rsa_private([c], k)
    # one key per item, every group mixed in one batch
    good = [(k, c, m, t) for k, c, m, t in wycheproof_plain if m is not None]
    got = rsa_private([c for _, c, _, _ in good], [k for k, _, _, _ in good])
    assert got == [m for _, _, m, _ in good]
    # valid tests decrypt to 00 02 PS 00 msg
    nvalid = 0
    for (k, c, m, t), r in zip(good, got):
        if t["result"] == "valid":
            em = r.to_bytes(256, "big")
            assert em[:2] == b"\x00\x02" and em.endswith(b"\x00" + bytes.fromhex(t["msg"]))
            nvalid += 1
    assert nvalid == 42


def test_wycheproof_constant_time_modes(wycheproof_plain):
    need("mpb_batch_rsa_crt")
    k, c, m, _ = wycheproof_plain[0]
    for mode in ("on", "off"):
        with Context("cpu", constant_time=mode) as ctx:
            assert rsa_private([c], k, ctx=ctx) == [m]


def test_wycheproof_public_and_plain_powmod(wycheproof_plain):
    need("mpb_batch_powm")
    items = [(k, m) for k, c, m, _ in wycheproof_plain if m is not None][:40]
    # per-item modulus and exponent: encrypt back with (n, e) -> the ciphertext
    got = powmod([m for _, m in items], [k.e for k, _ in items], [k.n for k, _ in items])
    assert got == [pow(m, k.e, k.n) for k, m in items]


def _dh_groups():
    p = vectors_dir() / "dh-groups.txt"
    if not p.exists():
        return []
    out = []
    for line in p.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            name, hexp = (s.strip() for s in line.split("=", 1))
            out.append((name, int(hexp, 16)))
    return out


GROUPS = _dh_groups()


@pytest.mark.parametrize("name,p", GROUPS, ids=[g[0] for g in GROUPS])
def test_dh_groups(name, p):
    need("mpb_batch_dh_keygen", "mpb_batch_dh_shared")
    rng = random.Random(name)
    n = 3 if p.bit_length() > 4096 else 5
    xa = [rng.getrandbits(256) for _ in range(n)]
    xb = [rng.getrandbits(256) for _ in range(n)]
    with Context("cpu") as ctx:
        ya = dh(xa, p, ctx=ctx)
        yb = dh(xb, p, g=2, ctx=ctx)
        assert ya == [pow(2, x, p) for x in xa]
        sa = dh(xa, p, peers=yb, ctx=ctx)
        sb = dh(xb, p, peers=ya, ctx=ctx)
    assert sa == sb == [pow(2, x * y, p) for x, y in zip(xa, xb)]


def test_dh_groups_present():
    if not GROUPS:
        pytest.skip("dh-groups.txt not found")
    assert len(GROUPS) == 10


@pytest.mark.parametrize("name,p", GROUPS[:3], ids=[g[0] for g in GROUPS[:3]])
def test_mulmod_dh_primes(name, p):
    need("mpb_batch_modmul")
    rng = random.Random(name)
    a = [rng.randrange(p) for _ in range(20)] + [p - 1]
    b = [rng.randrange(p) for _ in range(20)] + [p - 1]
    assert mulmod(a, b, p) == [x * y % p for x, y in zip(a, b)]
