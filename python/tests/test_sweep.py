"""python -m mpbatch.sweep end to end (a tiny CPU sweep), plus its pieces."""
import csv
import io
import json
import os
import subprocess
import sys

import pytest

from mpbatch import _lib, sweep
from conftest import REPO

PNG = b"\x89PNG\r\n\x1a\n"


def _available_ops():
    return [o for o in ("mul", "mulmod", "powmod", "gf2x_mul") if _lib.have(sweep.OP_FUNCS[o])]


def test_sweep_end_to_end(tmp_path):
    ops = _available_ops()
    if not ops:
        pytest.skip("library lacks every batch op")
    out = tmp_path / "sw"
    env = dict(os.environ)
    env["MPBATCH_LIBRARY"] = _lib.LIBRARY_PATH
    r = subprocess.run([sys.executable, "-m", "mpbatch.sweep", "--ops", ",".join(ops),
                        "--bits", "128,521", "--batch", "1,3,16", "--backends", "cpu",
                        "--threads", "1", "--reps", "1", "--min-time", "0", "--out", str(out)],
                       cwd=str(REPO / "python"), env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert "]" in r.stderr and "100.0%" in r.stderr  # the progress bar
    csvs = list(out.glob("sweep-*.csv"))
    jsons = list(out.glob("sweep-*.json"))
    pngs = list(out.glob("sweep-*.png"))
    assert len(csvs) == 1 and len(jsons) == 1
    with open(csvs[0]) as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(ops) * 2 * 3
    assert all(row["checked"] == "True" for row in rows)
    assert {row["op"] for row in rows} == set(ops)
    assert all(float(row["items_per_s"]) > 0 for row in rows)
    data = json.loads(jsons[0].read_text())
    m = data["machine"]
    for key in ("cpu_model", "cpu_cores", "library_version", "backends_available", "gpu",
                "date_utc"):
        assert key in m
    assert m["backends_available"]["cpu"] is True
    assert data["config"]["ops"] == ops and len(data["results"]) == len(rows)
    assert data["crossover"] == []  # CPU only
    assert sorted(p.name.split("-")[-1] for p in pngs) == sorted(f"{o}.png" for o in ops)
    for p in pngs:
        assert p.read_bytes()[:8] == PNG


def test_sweep_rejects_bad_arguments(tmp_path):
    for args in (["--ops", "nope"], ["--backends", "gpu"], ["--bits", "1"], ["--batch", "0"]):
        with pytest.raises(SystemExit):
            sweep.main(args + ["--out", str(tmp_path), "--quiet"])


def test_crossover_and_plots(tmp_path):
    rows = []
    for be, scale in (("cpu", 1.0), ("cuda", 0.01)):
        for n in (1, 10, 100, 1000):
            # cuda: slow start, wins from batch 100
            ips = n * 1000.0 if be == "cpu" else n * n * 20.0
            rows.append({"op": "mulmod", "bits": 2048, "batch": n, "backend": be,
                         "items_per_s": ips})
    cross = sweep.crossover(rows)
    assert cross == [{"op": "mulmod", "bits": 2048, "crossover_batch": 100,
                      "compared_batches": [1, 10, 100, 1000]}]
    made = sweep._plots(rows, cross, str(tmp_path / "x"))
    assert any(p.endswith("-crossover.png") for p in made)
    for p in made:
        assert open(p, "rb").read(8) == PNG


def test_progress_bar():
    s = io.StringIO()
    p = sweep.Progress(4, stream=s, width=8)
    for i in range(4):
        p.update(f"step {i}")
    p.close()
    text = s.getvalue()
    assert "[########] 4/4" in text and "[##......] 1/4" in text


def test_machine_info():
    m = sweep.machine_info()
    assert m["cpu_cores"] >= 1 and m["cpu_model"]
    assert set(m["backends_available"]) >= {"cpu", "cuda"}


def test_sweep_records_errors_and_goes_on(tmp_path, monkeypatch):
    if not _lib.have("mpb_ctx_create"):
        pytest.skip("no batch context")
    real = sweep.Point

    def point(op, bits, n, ctx, seed=1):
        if n == 3:
            raise ValueError("mpb_batch_x: size out of the supported range")
        return real(op, bits, n, ctx, seed)

    monkeypatch.setattr(sweep, "Point", point)
    op = _available_ops()[0]
    rows = sweep.run_sweep([op], [128], [1, 3], ["cpu"], reps=1, min_time=0, progress=False)
    assert [r["error"] for r in rows] == ["", "mpb_batch_x: size out of the supported range"]
    assert rows[0]["checked"] is True
    files = sweep.write_outputs(rows, {"machine": sweep.machine_info(), "config": {}},
                                str(tmp_path), "t")
    assert os.path.exists(files["csv"]) and len(files["png"]) == 1
    data = json.loads(open(files["json"]).read())
    assert data["results"][1]["items_per_s"] is None


@pytest.mark.parametrize("op", sweep.OPS)
def test_every_sweep_op_runs_and_checks(op):
    """Each op the sweep offers, in this process, at sizes around its edges (a modulus whose
    top limb is full or nearly empty, a GF(2) degree that fills its limbs exactly), its first
    result checked by Python's arithmetic, and a wrong result caught by the same check."""
    from mpbatch import Context
    if not _lib.have(sweep.OP_FUNCS[op]):
        pytest.skip(f"library lacks {sweep.OP_FUNCS[op]}")
    bits_list = {"rsa": (512, 1030), "dh": (256, 521)}.get(op, (64, 127, 128, 521))
    with Context("cpu") as ctx:
        for bits in bits_list:
            pt = sweep.Point(op, bits, 3, ctx, seed=5)
            pt()
            assert pt.info.status == 0, (op, bits)
            assert sweep.check_point(pt), (op, bits)
            pt.r[0, 0] ^= 1  # the check is not vacuous
            assert not sweep.check_point(pt), (op, bits)
