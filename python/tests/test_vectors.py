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


def test_wycheproof_rsa_crt(wycheproof):
    need("mpb_batch_rsa_crt")
    all_c, all_k, expected, valid_msgs = [], [], [], []
    for g in wycheproof["testGroups"]:
        k = _key(g)
        ok = [c for c, _ in _cts(g) if c < k.n]
        # one key for the batch
        got = rsa_private(ok, k)
        assert got == [pow(c, k.d, k.n) for c in ok]
        for c, t in _cts(g):
            if c >= k.n:
                with pytest.raises(ValueError):
                    rsa_private([c], k)
                continue
            all_c.append(c)
            all_k.append(k)
            expected.append(pow(c, k.d, k.n))
            if t["result"] == "valid":
                valid_msgs.append((len(all_c) - 1, bytes.fromhex(t["msg"])))
    # one key per item, every group mixed in one batch
    got = rsa_private(all_c, all_k)
    assert got == expected
    # valid tests decrypt to 00 02 PS 00 msg
    for i, msg in valid_msgs:
        em = got[i].to_bytes(256, "big")
        assert em[:2] == b"\x00\x02" and em.endswith(b"\x00" + msg)


def test_wycheproof_public_and_plain_powmod(wycheproof):
    need("mpb_batch_powm")
    for g in wycheproof["testGroups"][:6]:
        k = _key(g)
        ms = [c for c, _ in _cts(g) if c < k.n]
        ms = [pow(c, k.d, k.n) for c in ms]
        assert powmod(ms, k.e, k.n) == [pow(m, k.e, k.n) for m in ms]


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
