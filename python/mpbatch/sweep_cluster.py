"""python -m mpbatch.sweep --scheduler ADDRESS: the sweep's points as tasks on a
dask.distributed cluster, gathered into the one CSV/JSON/plot set the local sweep writes.

Each point (op, bits, backend, batch) is one task: the worker builds the operands, times the C
batch call with its process's Context for (backend, --threads, --constant-time) (kept between
points, see mpbatch._dask_worker) and returns the sweep's row plus the worker's address and
host name.  Rows come back in the local sweep's order; the JSON gets a "cluster" entry with
the scheduler and each worker's machine information.

Points on one worker run one after another only if the worker has one thread; workers that
share a host share its cores.  For timings to compare, give each worker its own cores (one
single-threaded worker per core or per host, --threads to match) or a GPU each (dask-cuda).
"""
from __future__ import annotations

import platform

CLUSTER_FIELDS = ["worker", "host"]


def _point_task(op, bits, n, backend, threads, constant_time, reps, min_time):
    """Runs on a worker: one sweep row for the point."""
    from . import _dask_worker
    from .sweep import measure_point
    spec = _dask_worker.context_spec({"backend": backend, "threads": threads,
                                      "constant_time": constant_time})
    try:
        ctx = _dask_worker.worker_context(spec)
    except (ValueError, RuntimeError) as e:  # a backend this worker lacks: the row says so
        row = measure_point(op, bits, n, backend, _FailingContext(e), reps, min_time)
    else:
        row = measure_point(op, bits, n, backend, ctx, reps, min_time)
    try:
        from distributed import get_worker
        row["worker"] = get_worker().address
    except (ImportError, ValueError):
        row["worker"] = ""
    row["host"] = platform.node()
    return row


class _FailingContext:
    """Stands for a context the worker could not create: building the point raises its
    error, which measure_point records in the row."""

    def __init__(self, error: BaseException):
        self.error = error

    @property
    def handle(self):
        raise RuntimeError(f"no context on this worker: {self.error}")


def _worker_machine():
    from .sweep import machine_info
    return machine_info()


def run_sweep_cluster(address, ops, bits_list, batches, backends, threads=None, reps=3,
                      min_time=0.05, progress=True, constant_time=None, client=None):
    """(rows, cluster info): the sweep's points run on the cluster at `address` (or through
    `client`, a dask.distributed Client)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SystemExit("--scheduler needs dask.distributed: pip install 'mpbatch[dask]'")
    from .sweep import Progress, points

    own = client is None
    if own:
        client = Client(address, set_as_default=False)
    try:
        pts = points(ops, bits_list, batches, backends)
        futs = [client.submit(_point_task, op, bits, n, be, threads, constant_time, reps,
                              min_time, pure=False) for op, bits, be, n in pts]
        labels = {f.key: f"{op} {bits}b x{n} {be}" for f, (op, bits, be, n) in zip(futs, pts)}
        bar = Progress(len(futs), enabled=progress)
        try:
            for f in as_completed(futs):
                bar.update(labels[f.key])
        finally:
            bar.close()
        rows = client.gather(futs)
        workers = client.run(_worker_machine)
    finally:
        if own:
            client.close()
    return rows, {"scheduler": address, "workers": workers}
