"""Memory safety and bad input through Python (issue 13, findings 5-7): a list that shrinks while a
call converts it, Context.close() while another thread uses the context, products wider than
512 limbs, bool items, misaligned uint64 arrays.  Each test failed before its fix."""
import threading

import numpy as np
import pytest

import mpbatch
from mpbatch import context as CX, pipeline as PL
from mpbatch import (Context, ints_to_limbs, limbs_to_ints, mul, mul_limbs, mulmod, mulmod_limbs,
                     powmod, sqr, sqr_limbs)
from conftest import need


def odd_modulus(rng, bits):
    return rng.getrandbits(bits) | 1 | (1 << (bits - 1))


class _Shrinker:
    """An int-like item whose __index__ deletes the list's tail (from position `cut`)."""

    def __init__(self, value, xs, cut):
        self.value, self.xs, self.cut = value, xs, cut

    def __index__(self):
        del self.xs[self.cut:]
        return self.value


@pytest.mark.parametrize("pipelined", [False, True])
def test_list_shrinking_during_the_call_raises(rng, monkeypatch, pipelined):
    """Before: the rows of the vanished items were read past the end of a NumPy buffer and
    returned as results (heap memory).  Now: RuntimeError, and nothing is returned."""
    need("mpb_batch_modmul", "mpb_batch_mul")
    monkeypatch.setattr(PL, "PIPELINE_MIN", 16 if pipelined else 10**9)
    monkeypatch.setattr(PL, "PIPELINE_CHUNK", 8)
    monkeypatch.setattr(PL, "PIPELINE_CHUNK_BYTES", 8 * 8 * 64)
    monkeypatch.setattr(PL, "SEQ_CHUNK_BYTES", 8 * 8 * 64)  # chunks of 8 items either way
    m = odd_modulus(rng, 1024)
    for op in ("mulmod", "mul"):
        a = [rng.randrange(m) for _ in range(48)]
        b = [rng.randrange(m) for _ in range(48)]
        b[12] = _Shrinker(b[12], b, 20)  # converted with chunk 1 (items 8..15); 20.. vanish
        with pytest.raises(RuntimeError, match=r"b changed size during the call"):
            mulmod(a, b, m) if op == "mulmod" else mul(a, b)
        assert len(b) == 20


def test_close_while_another_thread_calls():
    """close() from another thread while a call runs: the mpb_ctx is freed only after the call
    returns (before: at once, under the running call); later calls raise ValueError."""
    ctx = Context("cpu", threads=1)
    destroyed = []
    real_destroy = ctx._destroy
    ctx._destroy = lambda p: (destroyed.append(p.value), real_destroy(p))
    started, release = threading.Event(), threading.Event()
    seen = {}

    def slow_call(handle, info):  # stands in for a C batch call that takes a while
        started.set()
        release.wait(10)
        seen["destroyed during the call"] = list(destroyed)
        seen["threads"] = mpbatch._lib.C.mpb_ctx_get_threads(handle)  # the context is alive
        return 0

    t = threading.Thread(target=lambda: CX._Call.run(ctx, slow_call))
    t.start()
    assert started.wait(10)
    ctx.close()
    assert destroyed == []  # the call still runs
    with pytest.raises(ValueError, match="closed"):
        mul([3], [5], ctx=ctx)
    with pytest.raises(ValueError, match="closed"):
        ctx.threads
    release.set()
    t.join(10)
    assert seen == {"destroyed during the call": [], "threads": 1}
    assert len(destroyed) == 1
    ctx.close()  # twice: nothing more
    assert len(destroyed) == 1
    assert repr(ctx) == "<mpbatch.Context closed>"


def test_close_from_many_threads_while_calling(rng):
    """Threads calling and one closing: every call either completes correctly or raises
    ValueError('closed'); nothing crashes."""
    need("mpb_batch_modmul")
    m = odd_modulus(rng, 512)
    a = [rng.randrange(m) for _ in range(64)]
    want = [x * x % m for x in a]
    for _ in range(5):
        ctx = Context("cpu", threads=1)
        errors, results = [], []

        def worker():
            for _ in range(20):
                try:
                    results.append(mulmod(a, a, m, ctx=ctx))
                except ValueError as e:
                    errors.append(str(e))

        ts = [threading.Thread(target=worker) for _ in range(3)]
        for t in ts:
            t.start()
        ctx.close()
        for t in ts:
            t.join(30)
        assert all(r == want for r in results)
        assert all("closed" in e for e in errors)


@pytest.mark.parametrize("limbs", [513, 600, 1024])
def test_products_of_operands_wider_than_512_limbs(rng, limbs):
    """mul / sqr rows of 2 * width limbs up to 2048 (before: MPB_ERANGE from the unpacking)."""
    need("mpb_batch_mul", "mpb_batch_sqr")
    a = [rng.getrandbits(64 * limbs) | (1 << (64 * limbs - 1)) for _ in range(3)] + [(1 << (64 * limbs)) - 1]
    b = [rng.getrandbits(64 * limbs) for _ in range(3)] + [(1 << (64 * limbs)) - 1]
    assert mul(a, b) == [x * y for x, y in zip(a, b)]
    assert sqr(a) == [x * x for x in a]
    A = ints_to_limbs(a, limbs)
    assert limbs_to_ints(sqr_limbs(A)) == [x * x for x in a]


def test_bool_items_are_type_errors(rng):
    """True / False are not accepted as 1 / 0 (before: every list function took them)."""
    need("mpb_batch_mul", "mpb_batch_modmul", "mpb_batch_powm")
    with pytest.raises(TypeError, match=r"a\[1\] must be an int, not bool"):
        mul([3, True], [5, 7])
    with pytest.raises(TypeError, match=r"b\[0\] must be an int, not bool"):
        mulmod([3], [False], 101)
    with pytest.raises(TypeError, match=r"must be an int, not bool"):
        mulmod([3], [4], True)
    with pytest.raises(TypeError, match=r"must be an int, not bool"):
        powmod([3], [True], 101)
    with pytest.raises(TypeError, match=r"values\[2\] must be an int, not bool"):
        ints_to_limbs([1, 2, False])
    with pytest.raises(TypeError, match=r"must be an int, not bool"):
        sqr([True])
    # int subclasses other than bool and NumPy integers still work
    assert mul([np.uint64(3)], [5]) == [15]


def test_misaligned_arrays(rng, monkeypatch):
    """uint64 arrays that are not 8-byte aligned: inputs are copied to aligned rows before the
    library sees them (before: passed as they were, misaligned loads); out= must be aligned."""
    need("mpb_batch_mul", "mpb_batch_modmul")
    n, w = 5, 4
    m = odd_modulus(rng, 64 * w)
    a = [rng.randrange(m) for _ in range(n)]
    b = [rng.randrange(m) for _ in range(n)]

    def misaligned(rows):
        raw = np.zeros(rows.nbytes + 1, dtype=np.uint8)
        view = raw[1:].view(np.uint64).reshape(rows.shape)
        view[...] = rows
        assert not view.flags.aligned
        return view

    A, B, M = (misaligned(ints_to_limbs(x, w)) for x in (a, b, [m]))
    seen = []
    from mpbatch import limbs as LB
    real_ptr = LB._ptr
    monkeypatch.setattr(LB, "_ptr", lambda x: seen.append(x.ctypes.data % 8) or real_ptr(x))
    assert limbs_to_ints(mul_limbs(A, B)) == [x * y for x, y in zip(a, b)]
    assert limbs_to_ints(mulmod_limbs(A, B, M)) == [x * y % m for x, y in zip(a, b)]
    assert seen and all(r == 0 for r in seen)
    out = misaligned(np.zeros((n, w), dtype=np.uint64))
    with pytest.raises(ValueError, match="aligned"):
        mulmod_limbs(ints_to_limbs(a, w), ints_to_limbs(b, w), ints_to_limbs([m], w), out=out)
