"""Raw ctypes layer over libmpbatch.

Loading order (the first that exists wins):
  1. the path in the environment variable MPBATCH_LIBRARY;
  2. libmpbatch.so beside this package (what ``pip install ./python`` puts there);
  3. the repository's build trees: <repo>/build*/libmpbatch.so, newest first;
  4. ctypes.util.find_library("mpbatch") (an installed library).

Every C function the package calls is declared once, in ``_SIGNATURES``: a tuple
(name, argtypes, restype, errcheck), applied at import to the loaded library (the pattern of
clang's cindex.py).  The bound functions are attributes of the object ``C`` and keep their C
names (``C.mpb_mp_add``).  A name the loaded library does not export is recorded in ``MISSING``
and is absent from ``C``; the Python wrappers that need it raise ``UnsupportedError``.

Status handling: functions returning an mpb_status get ``_check_status`` as errcheck, which
raises on any nonzero status with the library's own message (mpb_strerror):
  MPB_EVAL, MPB_ERANGE, MPB_ESHAPE, MPB_ENULL, MPB_ENOTINV -> ValueError
  MPB_EMEM                                                 -> MemoryError
  MPB_EDEVICE                                              -> DeviceError
  MPB_EUNSUPPORTED                                         -> UnsupportedError (a DeviceError
                                                              and a NotImplementedError)
  MPB_EFAULT                                               -> RuntimeError
Every raised exception carries ``.status`` (the C code) and ``.function`` (the C name).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import glob
import os
from ctypes import (POINTER, Structure, c_char_p, c_int, c_int64, c_size_t, c_uint,
                    c_uint64, c_ulong, c_void_p, py_object)

__all__ = ["C", "LIBRARY_PATH", "MISSING", "DeviceError", "UnsupportedError", "mp_int",
           "mpb_gf2x", "mpb_call_info", "status_error", "have"]

# ---- status codes (include/mpbatch/common.h) ----------------------------------------------
MPB_OK = 0
MPB_EMEM = -2
MPB_EVAL = -3
MPB_ERANGE = -4
MPB_ENULL = -5
MPB_ESHAPE = -6
MPB_EDEVICE = -7
MPB_EUNSUPPORTED = -8
MPB_ENOTINV = -9
MPB_EFAULT = -10

_STATUS_NAMES = {0: "MPB_OK", -2: "MPB_EMEM", -3: "MPB_EVAL", -4: "MPB_ERANGE",
                 -5: "MPB_ENULL", -6: "MPB_ESHAPE", -7: "MPB_EDEVICE",
                 -8: "MPB_EUNSUPPORTED", -9: "MPB_ENOTINV", -10: "MPB_EFAULT"}


class DeviceError(RuntimeError):
    """A GPU/driver error, or the requested device/backend is not usable (MPB_EDEVICE)."""


class UnsupportedError(DeviceError, NotImplementedError):
    """The requested backend or feature is not built into the loaded library
    (MPB_EUNSUPPORTED), or the loaded library does not export the function."""


def status_error(status: int, function: str = "", detail: str = "") -> Exception:
    """The Python exception for a nonzero mpb_status (not raised here)."""
    try:
        msg = C.mpb_strerror(status).decode("ascii", "replace")
    except Exception:  # pragma: no cover - only if mpb_strerror itself is unusable
        msg = "error"
    name = _STATUS_NAMES.get(status, str(status))
    text = f"{function}: {msg} ({name})" if function else f"{msg} ({name})"
    if detail:
        text += f": {detail}"
    if status == MPB_EMEM:
        exc: Exception = MemoryError(text)
    elif status == MPB_EDEVICE:
        exc = DeviceError(text)
    elif status == MPB_EUNSUPPORTED:
        exc = UnsupportedError(text)
    elif status == MPB_EFAULT:
        exc = RuntimeError(text)
    else:
        exc = ValueError(text)
    exc.status = status  # type: ignore[attr-defined]
    exc.function = function  # type: ignore[attr-defined]
    return exc


def _check_status(result, func, args):
    """errcheck for functions returning an mpb_status / MP_OKAY-MP_MEM-MP_VAL int."""
    if result != 0:
        raise status_error(result, func.__name__)
    return result


def _check_nonneg(result, func, args):
    """errcheck for functions returning a size, or a negative status on error."""
    if result < 0:
        raise status_error(result, func.__name__)
    return result


# ---- structures from the public headers ---------------------------------------------------
class mp_int(Structure):
    """mp_int of include/mpbatch/bn.h (64-bit digits)."""
    _fields_ = [("used", c_int), ("alloc", c_int), ("sign", c_int),
                ("dp", POINTER(c_uint64))]


class mpb_gf2x(Structure):
    """mpb_gf2x of include/mpbatch/gf2x.h."""
    _fields_ = [("limbs", POINTER(c_uint64)), ("size", c_size_t), ("alloc", c_size_t)]


# bytes of mpb_call_info.reason (include/mpbatch/batch.h; tests/test_abi.py checks it)
REASON_LEN = 112


class mpb_call_info(Structure):
    """mpb_call_info of include/mpbatch/batch.h (fields in the header's order)."""
    _fields_ = [("status", ctypes.c_int32), ("backend", ctypes.c_int32),
                ("threads", ctypes.c_int32), ("constant_time", ctypes.c_int32),
                ("bad_index", ctypes.c_int64), ("bad_arg", ctypes.c_int32),
                ("simd_items", ctypes.c_int32), ("seconds", ctypes.c_double),
                ("reason", ctypes.c_char * REASON_LEN)]


# mpb_arg names (batch.h), for error messages
ARG_NAMES = {0: "none", 1: "ctx", 2: "r (output)", 3: "a", 4: "b", 5: "m", 6: "e", 7: "p",
             8: "q", 9: "dp", 10: "dq", 11: "qinv", 12: "width", 13: "count", 14: "option"}


def _check_batch(result, func, args):
    """errcheck for batch calls: the message adds the mpb_call_info details (bad item,
    bad argument, reason) when the call got an info struct."""
    if result != 0:
        detail = ""
        info = args[-1] if args else None
        info = getattr(info, "_obj", info)  # byref(...) -> the structure
        if isinstance(info, mpb_call_info):
            parts = []
            if info.bad_index >= 0:
                parts.append(f"item {info.bad_index}")
            if info.bad_arg:
                parts.append(f"argument {ARG_NAMES.get(info.bad_arg, info.bad_arg)}")
            reason = info.reason.decode("utf-8", "replace")
            if reason:
                parts.append(reason)
            detail = ", ".join(parts)
        exc = status_error(result, func.__name__, detail)
        if isinstance(info, mpb_call_info):
            exc.bad_index = info.bad_index  # type: ignore[attr-defined]
            exc.bad_arg = ARG_NAMES.get(info.bad_arg, info.bad_arg)  # type: ignore[attr-defined]
        raise exc
    return result


MP = POINTER(mp_int)
INFOP = POINTER(mpb_call_info)
_bk = _check_batch
GX = POINTER(mpb_gf2x)
U64P = POINTER(c_uint64)
SIZEP = POINTER(c_size_t)
INTP = POINTER(c_int)
_ok = _check_status
_nn = _check_nonneg

# mpb_set_allocator callback types
MALLOC_FN = ctypes.CFUNCTYPE(c_void_p, c_size_t)
REALLOC_FN = ctypes.CFUNCTYPE(c_void_p, c_void_p, c_size_t, c_size_t)
FREE_FN = ctypes.CFUNCTYPE(None, c_void_p, c_size_t)

# ---- THE signature table ------------------------------------------------------------------
# (name, argtypes, restype, errcheck). Keep in the order of the headers.
_SIGNATURES = [
    # common.h
    ("mpb_strerror", [c_int], c_char_p, None),
    ("mpb_abi_version", [], c_int, None),
    ("mpb_version_string", [], c_char_p, None),
    ("mpb_cpu_features", [], c_char_p, None),
    ("mpb_set_allocator", [MALLOC_FN, REALLOC_FN, FREE_FN], None, None),
    # bn.h 4.1 basic functionality
    ("mpb_mp_init", [MP], c_int, _ok),
    ("mpb_mp_clear", [MP], None, None),
    ("mpb_mp_zero", [MP], None, None),
    ("mpb_mp_set", [MP, c_uint64], None, None),
    ("mpb_mp_set_int", [MP, c_ulong], c_int, _ok),
    ("mpb_mp_init_size", [MP, c_int], c_int, _ok),
    ("mpb_mp_copy", [MP, MP], c_int, _ok),
    ("mpb_mp_init_copy", [MP, MP], c_int, _ok),
    ("mpb_mp_exch", [MP, MP], None, None),
    ("mpb_mp_grow", [MP, c_int], c_int, _ok),
    ("mpb_mp_shrink", [MP], c_int, _ok),
    ("mpb_mp_clamp", [MP], None, None),
    ("mpb_mp_count_bits", [MP], c_int, None),
    # 4.2 digit manipulations
    ("mpb_mp_rshd", [MP, c_int], None, None),
    ("mpb_mp_lshd", [MP, c_int], c_int, _ok),
    ("mpb_mp_div_2d", [MP, c_int, MP, MP], c_int, _ok),
    ("mpb_mp_div_2", [MP, MP], c_int, _ok),
    ("mpb_mp_mul_2d", [MP, c_int, MP], c_int, _ok),
    ("mpb_mp_mul_2", [MP, MP], c_int, _ok),
    ("mpb_mp_mod_2d", [MP, c_int, MP], c_int, _ok),
    # 4.3 basic arithmetic
    ("mpb_mp_neg", [MP, MP], c_int, _ok),
    ("mpb_mp_abs", [MP, MP], c_int, _ok),
    ("mpb_mp_cmp", [MP, MP], c_int, None),
    ("mpb_mp_cmp_mag", [MP, MP], c_int, None),
    ("mpb_mp_add", [MP, MP, MP], c_int, _ok),
    ("mpb_mp_sub", [MP, MP, MP], c_int, _ok),
    ("mpb_mp_mul", [MP, MP, MP], c_int, _ok),
    ("mpb_mp_sqr", [MP, MP], c_int, _ok),
    ("mpb_mp_div", [MP, MP, MP, MP], c_int, _ok),
    ("mpb_mp_mod", [MP, MP, MP], c_int, _ok),
    # 4.4 single digit
    ("mpb_mp_cmp_d", [MP, c_uint64], c_int, None),
    ("mpb_mp_add_d", [MP, c_uint64, MP], c_int, _ok),
    ("mpb_mp_sub_d", [MP, c_uint64, MP], c_int, _ok),
    ("mpb_mp_mul_d", [MP, c_uint64, MP], c_int, _ok),
    ("mpb_mp_div_d", [MP, c_uint64, MP, U64P], c_int, _ok),
    ("mpb_mp_mod_d", [MP, c_uint64, U64P], c_int, _ok),
    # 4.5 modular arithmetic
    ("mpb_mp_addmod", [MP, MP, MP, MP], c_int, _ok),
    ("mpb_mp_submod", [MP, MP, MP, MP], c_int, _ok),
    ("mpb_mp_mulmod", [MP, MP, MP, MP], c_int, _ok),
    ("mpb_mp_sqrmod", [MP, MP, MP], c_int, _ok),
    ("mpb_mp_invmod", [MP, MP, MP], c_int, _ok),
    ("mpb_mp_gcd", [MP, MP, MP], c_int, _ok),
    ("mpb_mp_jacobi", [MP, MP, INTP], c_int, _ok),
    ("mpb_mp_lcm", [MP, MP, MP], c_int, _ok),
    ("mpb_mp_n_root", [MP, c_uint64, MP], c_int, _ok),
    ("mpb_mp_exptmod", [MP, MP, MP, MP], c_int, _ok),
    ("mpb_mp_exptmod_ct", [MP, MP, MP, MP], c_int, _ok),
    # 4.6 radix conversions
    ("mpb_mp_unsigned_bin_size", [MP], c_int, None),
    ("mpb_mp_read_unsigned_bin", [MP, c_char_p, c_int], c_int, _ok),
    ("mpb_mp_to_unsigned_bin", [MP, c_void_p], c_int, _ok),
    ("mpb_mp_signed_bin_size", [MP], c_int, None),
    ("mpb_mp_read_signed_bin", [MP, c_char_p, c_int], c_int, _ok),
    ("mpb_mp_to_signed_bin", [MP, c_void_p], c_int, _ok),
    ("mpb_mp_read_radix", [MP, c_char_p, c_int], c_int, _ok),
    ("mpb_mp_toradix", [MP, c_void_p, c_int], c_int, _ok),
    ("mpb_mp_radix_size", [MP, c_int], c_int, _nn),
    ("mpb_mp_error_to_string", [c_int], c_char_p, None),
    # gf2x.h life cycle
    ("mpb_gf2x_init", [GX], c_int, _ok),
    ("mpb_gf2x_init_size", [GX, c_size_t], c_int, _ok),
    ("mpb_gf2x_init_limbs", [GX, U64P, c_size_t], c_int, _ok),
    ("mpb_gf2x_init_copy", [GX, GX], c_int, _ok),
    ("mpb_gf2x_free", [GX], c_int, _ok),
    ("mpb_gf2x_copy", [GX, GX], c_int, _ok),
    ("mpb_gf2x_set_limbs", [GX, U64P, c_size_t], c_int, _ok),
    ("mpb_gf2x_set_zero", [GX], c_int, _ok),
    ("mpb_gf2x_set_one", [GX], c_int, _ok),
    ("mpb_gf2x_set_bit", [GX, c_uint64], c_int, _ok),
    ("mpb_gf2x_get_bit", [GX, c_uint64, INTP], c_int, _ok),
    ("mpb_gf2x_trim", [GX], c_int, _ok),
    ("mpb_gf2x_swap", [GX, GX], c_int, _ok),
    # gf2x.h queries
    ("mpb_gf2x_degree", [GX, POINTER(c_int64)], c_int, _ok),
    ("mpb_gf2x_cmp", [GX, GX, INTP], c_int, _ok),
    ("mpb_gf2x_equal", [GX, GX, INTP], c_int, _ok),
    ("mpb_gf2x_is_zero", [GX, INTP], c_int, _ok),
    ("mpb_gf2x_is_one", [GX, INTP], c_int, _ok),
    # gf2x.h shifts
    ("mpb_gf2x_lshift", [GX, GX, c_uint64], c_int, _ok),
    ("mpb_gf2x_rshift", [GX, GX, c_uint64], c_int, _ok),
    ("mpb_gf2x_lshift_limbs", [GX, GX, c_size_t], c_int, _ok),
    ("mpb_gf2x_rshift_limbs", [GX, GX, c_size_t], c_int, _ok),
    # gf2x.h strings
    ("mpb_gf2x_set_hex", [GX, c_char_p], c_int, _ok),
    ("mpb_gf2x_set_bin", [GX, c_char_p], c_int, _ok),
    ("mpb_gf2x_hex_size", [GX, SIZEP], c_int, _ok),
    ("mpb_gf2x_bin_size", [GX, SIZEP], c_int, _ok),
    ("mpb_gf2x_get_hex", [GX, c_void_p, c_size_t], c_int, _ok),
    ("mpb_gf2x_get_bin", [GX, c_void_p, c_size_t], c_int, _ok),
    # gf2x.h arithmetic
    ("mpb_gf2x_add", [GX, GX, GX], c_int, _ok),
    ("mpb_gf2x_mul_shift_add", [GX, GX, GX, GX], c_int, _ok),
    ("mpb_gf2x_mul_comb_rtl", [GX, GX, GX], c_int, _ok),
    ("mpb_gf2x_mul_comb_ltr", [GX, GX, GX], c_int, _ok),
    ("mpb_gf2x_mul_comb_ltr_w", [GX, GX, GX, c_uint], c_int, _ok),
    ("mpb_gf2x_mul_karatsuba", [GX, GX, GX], c_int, _ok),
    ("mpb_gf2x_mul_toom3", [GX, GX, GX], c_int, _ok),
    ("mpb_gf2x_mul_toom4", [GX, GX, GX], c_int, _ok),
    ("mpb_gf2x_mul_clmul", [GX, GX, GX], c_int, _ok),
    ("mpb_gf2x_mul", [GX, GX, GX], c_int, _ok),
    ("mpb_gf2x_sqr", [GX, GX], c_int, _ok),
    ("mpb_gf2x_divrem", [GX, GX, GX, GX], c_int, _ok),
    ("mpb_gf2x_mod", [GX, GX, GX], c_int, _ok),
    ("mpb_gf2x_gcd", [GX, GX, GX], c_int, _ok),
    ("mpb_gf2x_invmod", [GX, GX, GX], c_int, _ok),
    # gf2x.h the field GF(2^m) (mpb_gf2m_field is opaque: c_void_p)
    ("mpb_gf2m_field_new", [POINTER(c_void_p), GX], c_int, _ok),
    ("mpb_gf2m_field_new_exponents", [POINTER(c_void_p), U64P, c_size_t], c_int, _ok),
    ("mpb_gf2m_field_free", [c_void_p], c_int, _ok),
    ("mpb_gf2m_field_degree", [c_void_p, U64P], c_int, _ok),
    ("mpb_gf2m_field_kind", [c_void_p, INTP], c_int, _ok),
    ("mpb_gf2m_field_modulus", [c_void_p, GX], c_int, _ok),
    ("mpb_gf2x_is_irreducible", [GX, INTP], c_int, _ok),
    ("mpb_gf2m_reduce", [c_void_p, GX, GX], c_int, _ok),
    ("mpb_gf2m_reduce_generic", [c_void_p, GX, GX], c_int, _ok),
    ("mpb_gf2m_add", [c_void_p, GX, GX, GX], c_int, _ok),
    ("mpb_gf2m_mul", [c_void_p, GX, GX, GX], c_int, _ok),
    ("mpb_gf2m_sqr", [c_void_p, GX, GX], c_int, _ok),
    ("mpb_gf2m_exp", [c_void_p, GX, GX, U64P, c_size_t], c_int, _ok),
    ("mpb_gf2m_inv", [c_void_p, GX, GX], c_int, _ok),
    ("mpb_gf2m_div", [c_void_p, GX, GX, GX], c_int, _ok),
    # batch.h context
    ("mpb_ctx_create", [POINTER(c_void_p)], c_int, _ok),
    ("mpb_ctx_destroy", [c_void_p], None, None),
    ("mpb_ctx_set_threads", [c_void_p, c_int], c_int, _ok),
    ("mpb_ctx_get_threads", [c_void_p], c_int, _nn),
    ("mpb_ctx_set_backend", [c_void_p, c_int], c_int, _ok),
    ("mpb_ctx_get_backend", [c_void_p], c_int, _nn),
    ("mpb_ctx_set_constant_time", [c_void_p, c_int], c_int, _ok),
    ("mpb_ctx_get_constant_time", [c_void_p], c_int, None),
    ("mpb_ctx_set_mulmod_algo", [c_void_p, c_int, c_int], c_int, _ok),
    ("mpb_ctx_set_devices", [c_void_p, POINTER(c_int), c_int], c_int, _ok),
    ("mpb_ctx_get_devices", [c_void_p, POINTER(c_int), c_int], c_int, _nn),
    ("mpb_backend_available", [c_int], c_int, None),
    ("mpb_backend_name", [c_int], c_char_p, None),
    ("mpb_call_info_init", [INFOP], None, None),
    # batch.h integer arithmetic (limb arrays are passed as addresses: c_void_p)
    ("mpb_batch_add", [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_size_t,
                       INFOP], c_int, _bk),
    ("mpb_batch_sub", [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_size_t,
                       INFOP], c_int, _bk),
    ("mpb_batch_mul", [c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_size_t, INFOP],
     c_int, _bk),
    ("mpb_batch_sqr", [c_void_p, c_void_p, c_void_p, c_size_t, c_size_t, INFOP], c_int, _bk),
    ("mpb_batch_divmod", [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_size_t,
                          c_size_t, c_size_t, INFOP], c_int, _bk),
    ("mpb_batch_gcd", [c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_size_t, INFOP],
     c_int, _bk),
    ("mpb_batch_invmod", [c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_size_t,
                          c_size_t, INFOP], c_int, _bk),
    # batch.h modular arithmetic
    ("mpb_batch_modmul", [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_size_t,
                          c_size_t, INFOP], c_int, _bk),
    ("mpb_batch_powm", [c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_size_t, c_void_p,
                        c_size_t, c_size_t, c_size_t, INFOP], c_int, _bk),
    ("mpb_batch_rsa_crt", [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                           c_void_p, c_void_p, c_void_p, c_size_t, c_size_t, c_size_t,
                           c_size_t, INFOP], c_int, _bk),
    ("mpb_rsa_key_create", [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                            c_void_p, c_void_p, c_void_p, c_size_t, c_size_t, c_size_t, INFOP],
     c_int, _bk),
    ("mpb_rsa_key_destroy", [c_void_p], None, None),
    ("mpb_rsa_gpu_min_batch", [c_void_p, c_size_t], c_size_t, None),
    ("mpb_batch_rsa_crt_key", [c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, INFOP], c_int, _bk),
    ("mpb_batch_dh_keygen", [c_void_p, c_void_p, c_uint64, c_void_p, c_size_t, c_void_p,
                             c_size_t, c_size_t, INFOP], c_int, _bk),
    ("mpb_batch_dh_shared", [c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_void_p,
                             c_size_t, c_size_t, INFOP], c_int, _bk),
    ("mpb_batch_dh_keygen_bits", [c_void_p, c_void_p, c_uint64, c_void_p, c_size_t, c_size_t,
                                  c_void_p, c_size_t, c_size_t, INFOP], c_int, _bk),
    ("mpb_batch_dh_shared_bits", [c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_size_t,
                                  c_void_p, c_size_t, c_size_t, INFOP], c_int, _bk),
    # batch.h GF(2)[x]
    ("mpb_batch_gf2x_mul", [c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_size_t,
                            INFOP], c_int, _bk),
    ("mpb_batch_gf2x_sqr", [c_void_p, c_void_p, c_void_p, c_size_t, c_size_t, INFOP], c_int,
     _bk),
    ("mpb_batch_gf2x_mulmod", [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_size_t,
                               c_size_t, INFOP], c_int, _bk),
    ("mpb_batch_gf2x_inv", [c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_size_t,
                            INFOP], c_int, _bk),
    # batch.h packing
    ("mpb_pack_be", [c_void_p, c_size_t, c_void_p, c_size_t, c_size_t, INFOP], c_int, _bk),
    ("mpb_unpack_be", [c_void_p, c_size_t, c_void_p, c_size_t, c_size_t, INFOP], c_int, _bk),
    ("mpb_pack_mp", [c_void_p, c_size_t, c_void_p, c_size_t, INFOP], c_int, _bk),
    ("mpb_unpack_mp", [c_void_p, c_void_p, c_size_t, c_size_t, INFOP], c_int, _bk),
    ("mpb_pack_cpython_ints", [c_void_p, c_size_t, c_void_p, c_size_t, c_int, INFOP], c_int,
     _bk),
    # builds Python objects: bound through ctypes.PyDLL (the interpreter lock stays held)
    ("mpb_unpack_cpython_ints", [py_object, c_void_p, c_size_t, c_size_t, c_void_p, c_void_p,
                                 c_void_p, INFOP], c_int, _bk),
    # the list forms: pack reads a list the caller keeps private and unchanged (the lock is
    # released: other threads run meanwhile); unpack builds ints (PyDLL, see _GIL_HELD)
    ("mpb_pack_cpython_list", [c_void_p, c_size_t, py_object, c_size_t, c_size_t, c_int,
                               py_object, c_int, INFOP], c_int, _bk),
    ("mpb_unpack_cpython_list", [py_object, c_size_t, c_void_p, c_size_t, c_size_t, c_void_p,
                                 c_void_p, c_void_p, INFOP], c_int, _bk),
    # batch.h single huge operands
    ("mpb_mulmod_big", [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, INFOP],
     c_int, _bk),
    ("mpb_powm_big", [c_void_p, c_void_p, c_void_p, c_void_p, c_size_t, c_void_p, c_size_t,
                      INFOP], c_int, _bk),
]


# ---- loading ------------------------------------------------------------------------------
def _package_dir() -> str:
    return os.path.dirname(os.path.abspath(__file__))


def _repo_dir() -> str:
    # python/mpbatch/_lib.py -> repository root
    return os.path.dirname(os.path.dirname(_package_dir()))


def candidate_paths() -> list:
    """The paths tried, in order (for diagnostics)."""
    paths = []
    env = os.environ.get("MPBATCH_LIBRARY")
    if env:
        paths.append(env)
    here = _package_dir()
    paths.extend(sorted(glob.glob(os.path.join(here, "libmpbatch.so*")), key=len))
    builds = glob.glob(os.path.join(_repo_dir(), "build*", "libmpbatch.so"))
    builds.sort(key=lambda p: os.path.getmtime(p), reverse=True)
    paths.extend(builds)
    found = ctypes.util.find_library("mpbatch")
    if found:
        paths.append(found)
    return paths


def _load():
    env = os.environ.get("MPBATCH_LIBRARY")
    if env and not os.path.exists(env):
        raise OSError(f"MPBATCH_LIBRARY={env!r} does not exist")
    errors = []
    for p in candidate_paths():
        try:
            return ctypes.CDLL(p), p
        except OSError as e:  # try the next one
            errors.append(f"{p}: {e}")
            if env and p == env:
                raise
    raise OSError("libmpbatch not found; set MPBATCH_LIBRARY, build the library "
                  "(cmake -S . -B build && cmake --build build --target mpbatch) or "
                  "pip install ./python. Tried: " + ("; ".join(errors) or "nothing found"))


class _Namespace:
    """The bound C functions, as attributes named like the C symbols."""

    def __repr__(self):
        return f"<mpbatch C functions from {LIBRARY_PATH}>"

    def __getattr__(self, name):  # only called for names not bound
        if name in MISSING:
            raise UnsupportedError(f"{name} is declared in the mpbatch headers but the loaded "
                                   f"library ({LIBRARY_PATH}) does not export it")
        raise AttributeError(f"{name} is not in mpbatch._lib._SIGNATURES")


LIB, LIBRARY_PATH = _load()
C = _Namespace()
MISSING: set = set()
BOUND: dict = {}


# functions that create Python objects: bound through PyDLL (GIL held during the call)
_GIL_HELD = {"mpb_unpack_cpython_ints", "mpb_unpack_cpython_list"}
LIB_PY = ctypes.PyDLL(LIBRARY_PATH)


def _register(table):
    for name, argtypes, restype, errcheck in table:
        try:
            fn = getattr(LIB_PY if name in _GIL_HELD else LIB, name)
        except AttributeError:
            MISSING.add(name)
            continue
        fn.argtypes = list(argtypes)
        fn.restype = restype
        if errcheck is not None:
            fn.errcheck = errcheck
        setattr(C, name, fn)
        BOUND[name] = fn


def have(*names: str) -> bool:
    """True when the loaded library exports every one of the names."""
    return all(n in BOUND for n in names)


def require(*names: str) -> None:
    missing = [n for n in names if n not in BOUND]
    if missing:
        raise UnsupportedError(f"the loaded library ({LIBRARY_PATH}) does not export "
                               + ", ".join(missing))


_register(_SIGNATURES)
