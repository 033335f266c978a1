"""mpbatch: batched multiple-precision arithmetic (big integers, GF(2)[x]) over the
libmpbatch C ABI, through ctypes only.

  from mpbatch import Integer, mulmod, powmod, Context
  Integer(3) ** 5 % 7
  mulmod([2, 3], [4, 5], 7)               # [1, 1]
  with Context("cpu", threads=2) as ctx:
      powmod([2, 3], 65537, m, ctx=ctx)

See python/README.md.
"""
from ._lib import DeviceError, UnsupportedError, LIBRARY_PATH, C as _C
from .integer import Integer, gcd, lcm, invmod, jacobi, n_root
from .batch import (Context, RSAKey, PreparedRSAKey, default_context, backend_available,
                    BACKENDS, mul, sqr, mulmod, powmod, rsa_private, dh,
                    divmod_batch, gcd_batch, invmod_batch,
                    gf2x_mul, gf2x_sqr, gf2x_mulmod, gf2x_inv,
                    mul_limbs, sqr_limbs, mulmod_limbs, powmod_limbs,
                    ints_to_limbs, limbs_to_ints)

__version__ = "0.1.0"


def library_version() -> str:
    """The loaded C library's version string (mpb_version_string)."""
    return _C.mpb_version_string().decode()


def abi_version() -> int:
    return _C.mpb_abi_version()


def cpu_features() -> str:
    """The CPU features the loaded library uses (mpb_cpu_features), e.g. "bmi2 adx avx2 ...
    avx512ifma", with what the environment variable MPBATCH_CPU_DISABLE masked (set it before
    the library is loaded: it is read once)."""
    return _C.mpb_cpu_features().decode()


__all__ = ["DeviceError", "UnsupportedError", "LIBRARY_PATH", "Integer", "gcd", "lcm",
           "invmod", "jacobi", "n_root", "Context", "RSAKey", "PreparedRSAKey", "default_context",
           "backend_available", "BACKENDS", "mul", "sqr", "mulmod", "powmod", "rsa_private", "dh", "divmod_batch",
           "gcd_batch", "invmod_batch", "gf2x_mul",
           "gf2x_sqr", "gf2x_mulmod", "gf2x_inv", "mul_limbs", "sqr_limbs", "mulmod_limbs",
           "powmod_limbs", "ints_to_limbs", "limbs_to_ints", "library_version", "abi_version", "cpu_features",
           "__version__"]
