"""The batch operations (include/mpbatch/batch.h), gathered from the modules that implement them:

  context.py   Context, default_context, backend_available, BACKENDS
  convert.py   ints_to_limbs, limbs_to_ints: Python ints <-> uint64 rows (and the CPython fast path)
  pipeline.py  chunked and pipelined list calls over per-thread scratch rows
  arith.py     mul, sqr, divmod_batch, gcd_batch, invmod_batch
  modular.py   mulmod, powmod, RSAKey, rsa_private, dh
  gf2x.py      gf2x_mul, gf2x_sqr, gf2x_mulmod, gf2x_inv
  limbs.py     mul_limbs, sqr_limbs, mulmod_limbs, powmod_limbs (NumPy arrays in and out)

Every list function takes Python ints (any iterable of them), validates them, converts the
whole batch to one contiguous array of little-endian 64-bit limbs (int.to_bytes + one join,
no per-limb Python work), makes ONE C call and converts the result rows back with
int.from_bytes.  The ``*_limbs`` variants take NumPy uint64 arrays of shape (count, limbs) and
pass their buffers straight to C.

Values are unsigned: a negative value gives ValueError, a non-int gives TypeError, and both
messages name the argument and the item index.  Errors found by the library (bad modulus,
operand >= modulus, ...) come back as ValueError with the library's message, item and
argument (see mpbatch._lib).
"""
from .arith import divmod_batch, gcd_batch, invmod_batch, mul, sqr
from .context import BACKENDS, Context, backend_available, default_context
from .convert import MAX_WIDTH, ints_to_limbs, limbs_to_ints
from .gf2x import gf2x_inv, gf2x_mul, gf2x_mulmod, gf2x_sqr
from .limbs import mul_limbs, mulmod_limbs, powmod_limbs, sqr_limbs
from .modular import PreparedRSAKey, RSAKey, dh, mulmod, powmod, rsa_private
from .pipeline import release_scratch

__all__ = ["Context", "RSAKey", "PreparedRSAKey", "default_context", "backend_available",
           "BACKENDS", "mul", "sqr", "mulmod", "powmod", "rsa_private", "dh",
           "divmod_batch", "gcd_batch", "invmod_batch",
           "gf2x_mul", "gf2x_sqr", "gf2x_mulmod", "gf2x_inv",
           "mul_limbs", "sqr_limbs", "mulmod_limbs", "powmod_limbs",
           "ints_to_limbs", "limbs_to_ints", "MAX_WIDTH"]
