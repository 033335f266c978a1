"""mpbatch.dask on a LocalCluster of 2 worker processes (1 thread each): every function against
Python's ints, both workers at work, errors with the global item index, a worker killed in
the middle of a run, the sweep on the cluster, the chunk-size helper."""
import csv
import json
import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip("dask")
pytest.importorskip("distributed")
import dask.array as da  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

import mpbatch  # noqa: E402
from mpbatch import _lib, chunksize, sweep  # noqa: E402
from mpbatch import dask as mdask  # noqa: E402

PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(mpbatch.__file__)))
N, CHUNK = 200, 32  # 7 chunks


@pytest.fixture(scope="module")
def client():
    # the worker processes load the same library and the same mpbatch as this process
    os.environ["MPBATCH_LIBRARY"] = _lib.LIBRARY_PATH
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [PKG_DIR] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=50)
    c = Client(cluster)
    c.wait_for_workers(2)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def rnd():
    return random.Random(20261125)


def rows(xs, width):
    return mdask.from_ints(xs, width, chunks=CHUNK)


def clmul(a, b):
    """Carry-less product, bit by bit."""
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        b >>= 1
    return r


def polymod(a, f):
    d = f.bit_length() - 1
    while a.bit_length() - 1 >= d:
        a ^= f << (a.bit_length() - 1 - d)
    return a


def test_products(client, rnd):
    a = [rnd.getrandbits(rnd.choice([1, 64, 300, 512])) for _ in range(N)]
    b = [rnd.getrandbits(512) for _ in range(N)]
    A, B = rows(a, 8), rows(b, 8)
    assert A.numblocks[0] == 7
    assert mdask.to_ints(mdask.mul(A, B)) == [x * y for x, y in zip(a, b)]
    assert mdask.to_ints(mdask.sqr(A)) == [x * x for x in a]
    # operands of different widths; a NumPy operand (chunked by the helper) against a dask one
    c = [rnd.getrandbits(150) for _ in range(N)]
    assert mdask.to_ints(mdask.mul(mpbatch.ints_to_limbs(c, 3), B)) == \
        [x * y for x, y in zip(c, b)]
    assert mdask.to_ints(mdask.mul(c, b, chunks=50)) == [x * y for x, y in zip(c, b)]


def test_modular(client, rnd):
    m = rnd.getrandbits(512) | 1 | (1 << 511)
    a = [rnd.randrange(m) for _ in range(N)]
    b = [rnd.randrange(m) for _ in range(N)]
    e = rnd.getrandbits(512)
    A, B = rows(a, 8), rows(b, 8)
    assert mdask.to_ints(mdask.mulmod(A, B, m)) == [x * y % m for x, y in zip(a, b)]
    assert mdask.to_ints(mdask.powmod(A, e, m)) == [pow(x, e, m) for x in a]
    # per-item exponents and moduli (one even modulus among them)
    es = [rnd.getrandbits(100) for _ in range(N)]
    ms = [m if i % 3 else rnd.getrandbits(512) | (1 << 511) for i in range(N)]
    ms[5] &= ~1
    a2 = [x % mi for x, mi in zip(a, ms)]
    got = mdask.to_ints(mdask.powmod(rows(a2, 8), rows(es, 2), rows(ms, 8)))
    assert got == [pow(x, y, mi) for x, y, mi in zip(a2, es, ms)]
    b2 = [y % mi for y, mi in zip(b, ms)]
    got = mdask.to_ints(mdask.mulmod(rows(a2, 8), rows(b2, 8), rows(ms, 8)))
    assert got == [x * y % mi for x, y, mi in zip(a2, b2, ms)]


def test_rsa_and_dh(client, rnd):
    key = sweep.rsa_key(1024, seed=3)
    c = [rnd.randrange(key.n) for _ in range(N)]
    out = mdask.to_ints(mdask.rsa_private(rows(c, 16), key))
    assert out == [pow(x, key.d, key.n) for x in c]
    p = sweep._prime(512, rnd)
    x = [rnd.getrandbits(256) | 1 for _ in range(N)]
    X = rows(x, 4)
    assert mdask.to_ints(mdask.dh(X, p, 5)) == [pow(5, k, p) for k in x]
    peers = [rnd.randrange(2, p - 1) for _ in range(N)]
    got = mdask.to_ints(mdask.dh(X, p, peers=rows(peers, 8)))
    assert got == [pow(y, k, p) for y, k in zip(peers, x)]


def test_gf2x(client, rnd):
    a = [rnd.getrandbits(300) for _ in range(N)]
    b = [rnd.getrandbits(300) for _ in range(N)]
    A, B = rows(a, 5), rows(b, 5)
    assert mdask.to_ints(mdask.gf2x_mul(A, B)) == [clmul(x, y) for x, y in zip(a, b)]
    assert mdask.to_ints(mdask.gf2x_sqr(A)) == [clmul(x, x) for x in a]
    f = (1 << 300) | rnd.getrandbits(300) | 1
    assert mdask.to_ints(mdask.gf2x_mulmod(A, B, f)) == \
        [polymod(clmul(x, y), f) for x, y in zip(a, b)]


def test_both_workers_did_work(client, rnd):
    m = rnd.getrandbits(1024) | 1 | (1 << 1023)
    a = [rnd.randrange(m) for _ in range(512)]
    mdask.powmod(mdask.from_ints(a, 16, chunks=16), m - 2, m).compute()
    st = mdask.worker_stats(client)
    assert len(st) == 2
    assert len({s["pid"] for s in st.values()}) == 2 and os.getpid() not in \
        {s["pid"] for s in st.values()}
    for s in st.values():
        assert s["chunks"] > 0 and s["items"] > 0, st
        assert s["contexts"] == [{"backend": "auto", "threads": 1}]  # one Context per process


def test_shared_operands_once(client, rnd):
    m = rnd.getrandbits(2048) | 1 | (1 << 2047)
    A = rows([rnd.randrange(m) for _ in range(N)], 32)
    R = mdask.powmod(A, 65537, m)
    graph = dict(R.__dask_graph__())
    big = [k for k, v in graph.items() if "mpbatch-powmod" in str(k)]
    assert len(big) == A.numblocks[0]
    # the modulus is in no task of the graph (a scattered future, one copy per worker)
    assert str(m % 2**64) not in str(graph)
    # without a distributed client: one graph key holds it
    R2 = mdask.powmod(A, 65537, m, client=False)
    keys = [k for k in dict(R2.__dask_graph__()) if "mpbatch-powmod" not in str(k)
            and "array-" not in str(k) and "from-array" not in str(k)]
    assert len(keys) == 1
    assert np.array_equal(R2.compute(scheduler="sync"), R.compute())


def test_context_per_call_and_plugin(client, rnd):
    a = [rnd.getrandbits(256) for _ in range(64)]
    A = rows(a, 4)
    got = mdask.to_ints(mdask.sqr(A, context={"backend": "cpu", "threads": 1}))
    assert got == [x * x for x in a]
    ctxs = [c for s in mdask.worker_stats(client).values() for c in s["contexts"]]
    assert {"backend": "cpu", "threads": 1} in ctxs
    with pytest.raises(ValueError):
        mdask.sqr(A, context={"backend": "gpu"})
    with pytest.raises(ValueError):
        mdask.sqr(A, context={"thread": 2})


def test_bad_item_global_index(client, rnd):
    m = rnd.getrandbits(512) | 1 | (1 << 511)
    a = [rnd.randrange(m) for _ in range(N)]
    b = [rnd.randrange(m) for _ in range(N)]
    a[70] = m + 3  # chunk 2 (items 64..95), local item 6
    with pytest.raises(ValueError) as direct:
        mpbatch.mulmod_limbs(mpbatch.ints_to_limbs(a, 8), mpbatch.ints_to_limbs(b, 8),
                             mpbatch.ints_to_limbs([m], 8))
    with pytest.raises(ValueError) as dist:
        mdask.mulmod(rows(a, 8), rows(b, 8), m).compute()
    assert dist.value.bad_index == direct.value.bad_index == 70
    assert str(dist.value) == str(direct.value) and "item 70" in str(dist.value)
    # a row wider than the modulus with a nonzero high limb (checked on the worker)
    a[70] = rnd.randrange(m)
    a[133] = m << 64
    with pytest.raises(ValueError, match="item 133 is too large") as e:
        mdask.powmod(rows(a, 9), 3, m).compute()
    assert e.value.bad_index == 133
    # DH: a peer key out of range, the library's check on the worker
    p = sweep._prime(256, rnd)
    peers = [rnd.randrange(2, p - 1) for _ in range(N)]
    peers[191] = 1
    with pytest.raises(ValueError, match="item 191") as e:
        mdask.dh(rows([rnd.getrandbits(200) for _ in range(N)], 4), p,
                 peers=rows(peers, 4)).compute()
    assert e.value.bad_index == 191
    # a bad shared modulus: every chunk fails on it; reported as the direct call does (item 0)
    with pytest.raises(ValueError) as direct:
        mpbatch.powmod_limbs(np.zeros((N, 1), np.uint64), np.ones((1, 1), np.uint64),
                             np.ones((1, 1), np.uint64))
    with pytest.raises(ValueError) as dist:
        mdask.powmod(rows([0] * N, 1), 1, 1).compute()
    assert str(dist.value) == str(direct.value) and dist.value.bad_index == 0
    # client-side checks: dtype, shape, chunks, a bad RSA key
    with pytest.raises(TypeError):
        mdask.sqr(da.zeros((10, 2), dtype=np.int64, chunks=5))
    with pytest.raises(ValueError):
        mdask.mul(rows(a, 8), rows(a[:-1], 8))
    with pytest.raises(ValueError):
        mdask.mul(a, a, chunks=0)
    key = sweep.rsa_key(1024, seed=3)
    with pytest.raises(ValueError):
        mdask.rsa_private(rows([1, 2], 16), key._replace(qinv=(key.qinv + 1) % key.p))


def test_worker_killed_mid_run(client, rnd):
    m = rnd.getrandbits(2048) | 1 | (1 << 2047)
    e = rnd.getrandbits(2048)
    a = [rnd.randrange(m) for _ in range(2048)]
    Arows = mpbatch.ints_to_limbs(a, 32)
    R = mdask.powmod(da.from_array(Arows, chunks=(16, -1)), e, m)
    before = mdask.worker_stats(client)
    victim = sorted(before)[0]
    fut = client.compute(R)
    deadline = time.time() + 60
    while mdask.worker_stats(client).get(victim, {}).get("chunks", 0) < \
            before[victim]["chunks"] + 2:
        assert time.time() < deadline and not fut.done()
        time.sleep(0.02)
    assert not fut.done()
    os.kill(before[victim]["pid"], signal.SIGKILL)  # a crash: no goodbye to the scheduler
    got = fut.result(timeout=180)
    # the victim is gone (a new process replaced it); the chunks it had finished were lost
    # with it and ran again: the live workers did every chunk of this computation
    after = mdask.worker_stats(client)
    assert before[victim]["pid"] not in {s["pid"] for s in after.values()}
    old = {s["pid"]: s["chunks"] for s in before.values()}
    done = sum(s["chunks"] - old.get(s["pid"], 0) for s in after.values())
    assert done >= R.numblocks[0]
    with mpbatch.Context("auto", threads=2) as ctx:
        want = mpbatch.powmod_limbs(Arows, mpbatch.ints_to_limbs([e], 32),
                                    mpbatch.ints_to_limbs([m], 32), ctx=ctx)
    assert got.shape == (2048, 32) and np.array_equal(got, want)
    out = mpbatch.limbs_to_ints(got)
    for i in random.Random(1).sample(range(2048), 8):
        assert out[i] == pow(a[i], e, m)
    client.wait_for_workers(2, timeout=60)


def test_sweep_on_cluster(client, tmp_path):
    ops = [o for o in ("mul", "powmod") if _lib.have(sweep.OP_FUNCS[o])]
    r = sweep.main(["--scheduler", client.scheduler.address, "--ops", ",".join(ops),
                    "--bits", "128,521", "--batch", "1,16", "--backends", "cpu",
                    "--threads", "1", "--reps", "1", "--min-time", "0", "--quiet",
                    "--out", str(tmp_path)])
    assert r == 0
    (csv_path,) = tmp_path.glob("sweep-*.csv")
    with open(csv_path) as f:
        got = list(csv.DictReader(f))
    assert [(x["op"], x["bits"], x["batch"]) for x in got] == \
        [(o, b, n) for o in ops for b in ("128", "521") for n in ("1", "16")]
    assert all(x["checked"] == "True" and x["worker"].startswith("tcp://") for x in got)
    data = json.loads(next(tmp_path.glob("sweep-*.json")).read_text())
    assert data["cluster"]["scheduler"] == client.scheduler.address
    assert len(data["cluster"]["workers"]) == 2
    assert len(list(tmp_path.glob("sweep-*.png"))) == len(ops)


def test_chunk_items():
    n = chunksize.chunk_items("rsa_private", 2048)
    assert n % 8 == 0 and 100 <= n <= 100000
    assert chunksize.chunk_items("rsa_private", 2048, threads=4) >= 3 * n
    assert chunksize.chunk_items("mul", 64, cost=1e-3) == 96
    assert chunksize.chunk_items("powmod", 8192, cost=1.0) == 8
    assert chunksize.chunk_items("mul", 256) * 64 <= chunksize.MAX_CHUNK_BYTES
    c = chunksize.measure_cost("mulmod", 1024, min_time=0.005)
    assert 0 < c < 1e-2
    assert chunksize.chunk_items("mulmod", 1024, measure=True) % 8 == 0
    t = chunksize.table_cost("powmod", 1536)
    assert chunksize.table_cost("powmod", 1024) < t < chunksize.table_cost("powmod", 2048)
    for bad in (("nope", 64), ("mul", 1), ("mul", 2.5)):
        with pytest.raises(ValueError):
            chunksize.chunk_items(*bad)


def test_local_scheduler_and_no_dask(rnd):
    a = [rnd.getrandbits(200) for _ in range(40)]
    R = mdask.sqr(mdask.from_ints(a, 4, chunks=8), client=False)
    assert mdask.to_ints(R.compute(scheduler="threads")) == [x * x for x in a]
    # the package works without dask; mpbatch.dask says what to install
    code = ("import sys; sys.modules['dask'] = None; import mpbatch; "
            "assert mpbatch.mul([3], [5]) == [15]\n"
            "try:\n import mpbatch.dask\nexcept ImportError as e:\n print(e)")
    env = dict(os.environ, MPBATCH_LIBRARY=_lib.LIBRARY_PATH, PYTHONPATH=PKG_DIR)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert "mpbatch[dask]" in r.stdout
