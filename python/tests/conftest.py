"""Shared helpers for the mpbatch Python tests.

The library is found as mpbatch._lib documents (MPBATCH_LIBRARY, beside the package, the
repository's build*/ trees, the system).  Test vectors: $MPB_VECTORS, else
<repo>/../shared/vectors.  A test whose C functions the loaded library does not export is
skipped with the missing names in the reason (the library is being built in parallel).
"""
import os
import pathlib
import random

import pytest

import mpbatch
from mpbatch import _lib

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent  # python/tests -> repo


def vectors_dir() -> pathlib.Path:
    env = os.environ.get("MPB_VECTORS")
    if env:
        return pathlib.Path(env)
    return REPO.parent / "shared" / "vectors"


def need(*names):
    """Skip the calling test unless the loaded library exports every named C function."""
    missing = [n for n in names if not _lib.have(n)]
    if missing:
        pytest.skip("library lacks " + ", ".join(missing))


@pytest.fixture
def rng():
    return random.Random(20261121)


EDGE = [0, 1, 2, 3, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**64 + 1,
        2**127, 2**128 - 1, 2**128, 2**192 - 2**64, 2**256 - 1, 3**200, 2**1000 + 12345]
SIGNED_EDGE = sorted(set(EDGE + [-x for x in EDGE]))


def rand_bits(rng, bits):
    return rng.getrandbits(bits) if bits > 0 else 0


def hard_values(rng, bits):
    """random, all-ones, top bit only, sparse bit runs"""
    out = [rng.getrandbits(bits) | (1 << (bits - 1)), (1 << bits) - 1, 1 << (bits - 1)]
    x = 0
    for i in range(0, bits, 67):
        x |= ((1 << min(13, bits - i)) - 1) << i
    out.append(x)
    return out
