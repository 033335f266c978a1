"""The list-call machinery: int <-> row conversions in the library (mpb_pack_cpython_list /
mpb_unpack_cpython_list), the per-thread scratch rows reused across calls, the sequential and
pipelined chunk loops, threads calling at once, nested calls on one thread, and errors."""
import sys
import threading

import numpy as np
import pytest

import mpbatch
from mpbatch import convert as CV, pipeline as PL
from mpbatch import mul, mulmod, powmod, sqr, ints_to_limbs, limbs_to_ints
from conftest import need


def odd_modulus(rng, bits):
    return rng.getrandbits(bits) | 1 | (1 << (bits - 1))


def _small_chunks(monkeypatch):
    monkeypatch.setattr(PL, "PIPELINE_MIN", 16)
    monkeypatch.setattr(PL, "PIPELINE_CHUNK", 8)


@pytest.fixture
def small_pipeline(monkeypatch):
    """Chunked, pipelined list path on small batches (chunks of 8 items)."""
    _small_chunks(monkeypatch)


@pytest.fixture
def small_seq_chunks(monkeypatch):
    """The sequential path cut into several chunks (SEQ_CHUNK_BYTES of 2 rows of 64 limbs)."""
    monkeypatch.setattr(PL, "SEQ_CHUNK_BYTES", 8 * 64 * 16)


def test_list_helpers_active_on_cpython():
    """On CPython with 30-bit digits the library helpers must pass their import-time checks
    (otherwise the tests below only cover the pure-Python fallback)."""
    if sys.implementation.name == "cpython" and sys.int_info.bits_per_digit == 30 and \
            not hasattr(sys, "gettotalrefcount"):
        assert CV._INT_LAYOUT is not None and CV._INT_MAKERS is not None and CV._LIST_HELPERS


def test_threaded_conversions_match_bytes(rng):
    """Batches large enough for the library to split the conversion over threads."""
    for width in (1, 5, 32, 33):
        count = 70000 // width + 3
        xs = [rng.getrandbits(rng.randrange(0, 64 * width + 1)) for _ in range(count)]
        xs[:3] = [0, 2**(64 * width) - 1, 2**(64 * width - 1)]
        want = np.frombuffer(b"".join(x.to_bytes(8 * width, "little") for x in xs),
                             dtype="<u8").reshape(count, width)
        assert np.array_equal(ints_to_limbs(xs, width), want)
        back = limbs_to_ints(want)
        assert back == xs and all(type(x) is int for x in back)
        out = [None] * (count + 2)
        CV._unpack_into(out, 1, want)
        assert out[0] is None and out[-1] is None and out[1:-1] == xs


def test_pack_into_offsets_and_failures(rng):
    need("mpb_pack_cpython_list")
    if not CV._LIST_HELPERS:
        pytest.skip("library list helpers not active")
    xs = [rng.getrandbits(200) for _ in range(50)]
    out = np.full((20, 4), 9, dtype="<u8")
    assert CV._pack_into(out, xs, 17, 1)
    assert np.array_equal(out, ints_to_limbs(xs[17:37], 4))
    out[:] = 9
    assert not CV._pack_into(out, xs, 40, 1)  # runs past the end: nothing written
    assert (out == 9).all()
    for bad in (-3, 2**256, False, 7.0, "1", None, np.int64(5)):
        ys = list(xs)
        ys[25] = bad
        assert not CV._pack_into(out, ys, 17, 2)
        assert (out == 9).all()
    assert not CV._pack_into(out, tuple(xs), 17, 1)  # only lists


def _check_mulmod(rng, n, bits, ctx=None):
    m = odd_modulus(rng, bits)
    a = [rng.randrange(m) for _ in range(n)]
    b = [rng.randrange(m) for _ in range(n)]
    assert mulmod(a, b, m, ctx=ctx) == [x * y % m for x, y in zip(a, b)]


def test_scratch_reused_across_sizes(rng, monkeypatch):
    """One thread, calls of growing and shrinking sizes and widths, both chunk loops: results
    stay right, the kept buffers stay within SCRATCH_KEEP_BYTES, release_scratch frees them."""
    need("mpb_batch_modmul", "mpb_batch_mul")
    PL.release_scratch()
    for n, bits in ((10, 256), (300, 2048), (5, 64), (40, 4096), (1, 128), (200, 1024)):
        _check_mulmod(rng, n, bits)
        a = [rng.getrandbits(bits) for _ in range(n)]
        assert mul(a, a[::-1]) == [x * y for x, y in zip(a, a[::-1])]
    kept = getattr(PL._tls, "scratch", None)
    assert kept is not None and 0 < kept.nbytes() <= PL.SCRATCH_KEEP_BYTES
    _small_chunks(monkeypatch)
    for n, bits in ((17, 2048), (64, 320), (33, 4096), (16, 64)):
        _check_mulmod(rng, n, bits)
    # a small cap: the largest buffers are dropped, what is kept fits
    monkeypatch.setattr(PL, "SCRATCH_KEEP_BYTES", 4096)
    _check_mulmod(rng, 40, 2048)
    kept = getattr(PL._tls, "scratch", None)
    assert kept is None or kept.nbytes() <= 4096
    PL.release_scratch()
    assert getattr(PL._tls, "scratch", None) is None
    _check_mulmod(rng, 20, 512)


def test_sequential_chunks(rng, small_seq_chunks):
    need("mpb_batch_modmul", "mpb_batch_powm", "mpb_batch_sqr")
    _check_mulmod(rng, 37, 4096)  # 64 limbs per row: chunks of 2 items
    m = odd_modulus(rng, 1024)
    a = [rng.randrange(m) for _ in range(11)]
    es = [rng.getrandbits(70) for _ in range(11)]
    assert powmod(a, es, m) == [pow(x, e, m) for x, e in zip(a, es)]
    assert sqr(a) == [x * x for x in a]
    bad = list(a)
    bad[9] = m + 1
    with pytest.raises(ValueError) as ei:
        mulmod(bad, a, m)
    assert ei.value.bad_index == 9 and "item 9" in str(ei.value)


@pytest.mark.parametrize("pipelined", [False, True])
def test_threads_calling_at_once(rng, monkeypatch, pipelined):
    """Several Python threads run list calls at once (each with its own scratch rows; the
    pipelined ones share the worker thread)."""
    need("mpb_batch_modmul", "mpb_batch_mul", "mpb_batch_powm")
    if pipelined:
        _small_chunks(monkeypatch)
    seeds = [rng.getrandbits(32) for _ in range(4)]
    errors = []
    ctx = mpbatch.Context("cpu", threads=2)

    def work(seed):
        import random
        r = random.Random(seed)
        try:
            for it in range(12):
                bits = r.choice((64, 256, 1024, 2048, 3000))
                n = r.randrange(1, 60)
                m = odd_modulus(r, bits)
                a = [r.randrange(m) for _ in range(n)]
                b = [r.randrange(m) for _ in range(n)]
                use = ctx if it % 2 else None
                assert mulmod(a, b, m, ctx=use) == [x * y % m for x, y in zip(a, b)]
                assert mul(a, b, ctx=use) == [x * y for x, y in zip(a, b)]
                if bits <= 1024:
                    assert powmod(a, 65537, m) == [pow(x, 65537, m) for x in a]
        except BaseException as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in seeds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ctx.close()
    assert not errors, errors[0]


class _NestedIndex:
    """An integer-like item whose __index__ makes a list call of its own (on the same thread,
    in the middle of the outer call's conversion)."""

    def __init__(self, value, rng):
        self.value, self.rng, self.calls = value, rng, 0

    def __index__(self):
        self.calls += 1
        _check_mulmod(self.rng, 24, 2048)  # nested call: must not touch the outer's rows
        return self.value


@pytest.mark.parametrize("pipelined", [False, True])
def test_nested_call_on_same_thread(rng, monkeypatch, pipelined):
    need("mpb_batch_modmul")
    if pipelined:
        _small_chunks(monkeypatch)
    m = odd_modulus(rng, 2048)
    a = [rng.randrange(m) for _ in range(40)]
    b = [rng.randrange(m) for _ in range(40)]
    want = [x * y % m for x, y in zip(a, b)]
    odd = list(b)  # the second operand: a's rows of the chunk are already in the scratch
    odd[20] = _NestedIndex(b[20], rng)
    assert mulmod(a, odd, m) == want
    assert odd[20].calls >= 1
    assert mulmod(a, b, m) == want


@pytest.mark.parametrize("pipelined", [False, True])
def test_errors_then_reuse(rng, monkeypatch, pipelined):
    """A bad item in a later chunk raises with the global index; the thread's rows are fine
    for the next call."""
    need("mpb_batch_modmul")
    if pipelined:
        _small_chunks(monkeypatch)
    m = odd_modulus(rng, 1024)
    a = [rng.randrange(m) for _ in range(45)]
    for i, bad, exc, msg in ((30, -1, ValueError, r"a\[30\] is negative"),
                             (41, "x", TypeError, r"a\[41\] must be an int"),
                             (17, 2**2000, ValueError, r"a\[17\] is too large")):
        ys = list(a)
        ys[i] = bad
        with pytest.raises(exc, match=msg):
            mulmod(ys, a, m)
        assert mulmod(a, a, m) == [x * x % m for x in a]
    ys = list(a)
    ys[33] = m  # not below m: found by the library in chunk 4
    with pytest.raises(ValueError) as ei:
        mulmod(a, ys, m)
    assert ei.value.bad_index == 33 and "item 33" in str(ei.value)
    assert mulmod(a, a, m) == [x * x % m for x in a]


def test_list_changed_by_another_thread(rng, small_pipeline):
    """Another thread replacing items while a pipelined call converts the list: no crash, and
    every result is the product of an old or a new value (each chunk is read from a private
    copy)."""
    need("mpb_batch_modmul")
    m = odd_modulus(rng, 1024)
    n = 400
    a = [rng.randrange(m) for _ in range(n)]
    new = [rng.randrange(m) for _ in range(n)]
    b = [rng.randrange(m) for _ in range(n)]
    old = list(a)
    stop = threading.Event()

    def churn():
        k = 0
        while not stop.is_set():
            i = k % n
            a[i] = new[i] if a[i] is old[i] else old[i]
            k += 1

    t = threading.Thread(target=churn)
    t.start()
    try:
        for _ in range(5):
            got = mulmod(a, b, m)
            assert all(r in (x * y % m, z * y % m) for r, x, z, y in zip(got, old, new, b))
    finally:
        stop.set()
        t.join()
