"""The library context (mpb_ctx) as Python sees it: Context, the default context, and how one C
batch call records its mpb_call_info in ctx.last_info."""
from __future__ import annotations

import threading
from ctypes import byref, c_int, c_void_p
from typing import Optional

from . import _lib
from ._lib import C, DeviceError, UnsupportedError, mpb_call_info


def _batch():
    from . import batch
    return batch


def _forward(name: str):
    """A Context method calling the batch function `name` with its operands and ctx=self."""
    def method(self, *args):
        return getattr(_batch(), name)(*args, ctx=self)
    method.__name__ = name
    method.__doc__ = f"{name}(..., ctx=self): see mpbatch.{name}."
    return method


# "cpu": the best CPU path (AUTO's choice without the GPU); "cpu_scalar": the scalar kernels only
BACKENDS = {"auto": 0, "cpu": 1, "cpu_ifma": 2, "multipartite": 3, "cuda": 4, "cpu_scalar": 5, "cpu_avx512": 6,
            "cpu_avx2": 7}
_BACKEND_NAMES = {v: k for k, v in BACKENDS.items()}
_CT_MODES = {None: -1, "default": -1, False: 0, "off": 0, True: 1, "on": 1}


def backend_available(backend: str) -> bool:
    """True when this build and machine can run the backend ("cpu", "cuda", ...)."""
    return bool(C.mpb_backend_available(_backend_code(backend)))


def _backend_code(backend) -> int:
    if isinstance(backend, str):
        try:
            return BACKENDS[backend.lower()]
        except KeyError:
            raise ValueError(f"unknown backend {backend!r}; expected one of "
                             f"{', '.join(BACKENDS)}") from None
    raise TypeError(f"backend must be a str, not {type(backend).__name__}")


class Context:
    """A library context (mpb_ctx): backend, thread count and constant-time mode.

    Context(backend="auto" | "cpu" | "cpu_scalar" | "cpu_ifma" | "cpu_avx512" | "cpu_avx2" | "multipartite" | "cuda",
            threads=None, devices=None, constant_time=None)

    "cpu" is the best CPU path (the cost model's choice among scalar, IFMA and multipartite,
    never the GPU); "cpu_scalar" forces the scalar kernels (tests, benchmarks).  After a call,
    info()["backend"] names what ran: "cpu_scalar", "cpu_ifma", "cpu_avx512", "cpu_avx2", "multipartite" or "cuda".

    threads=None uses all cores.  devices selects GPUs for the CUDA backend: a list of device
    ordinals (None: every visible device).  Asking for "cuda" when the loaded
    library has no usable CUDA backend raises DeviceError here, not at the first call.
    Use it as a context manager (``with Context("cpu") as ctx: mul(a, b, ctx=ctx)``) or call
    close(); the batch functions are also methods (ctx.mul(a, b)).
    ``last_info`` holds the mpb_call_info of the most recent call made through this context
    (backend that ran, threads, seconds, reason).
    """

    def __init__(self, backend: str = "auto", threads: Optional[int] = None,
                 devices=None, constant_time=None):
        self._ptr = None
        # calls in progress (_with_handle); close() during a call frees the mpb_ctx after it
        self._lock = threading.Lock()
        self._users = 0
        self._closing = False
        code = _backend_code(backend)
        if devices is not None:
            try:
                devices = [int(d) for d in devices]
            except TypeError:
                raise TypeError("devices must be a list of device ordinals or None") from None
            if any(d < 0 for d in devices):
                raise ValueError("device ordinals must be >= 0")
            if len(devices) > 16:
                raise ValueError("at most 16 devices")
        if threads is not None:
            if isinstance(threads, bool) or not isinstance(threads, int):
                raise TypeError("threads must be an int or None")
            if threads < 1:
                raise ValueError(f"threads must be >= 1 (or None for all cores), got {threads}")
        if code != 0 and not C.mpb_backend_available(code):
            name = C.mpb_backend_name(code).decode()
            msg = f"backend {backend!r} ({name}) is not available in this build/machine"
            raise DeviceError(msg) if code == BACKENDS["cuda"] else UnsupportedError(msg)
        p = c_void_p()
        C.mpb_ctx_create(byref(p))
        self._ptr = p
        self._destroy = C.mpb_ctx_destroy
        C.mpb_ctx_set_backend(p, code)
        C.mpb_ctx_set_threads(p, 0 if threads is None else threads)
        if devices:
            C.mpb_ctx_set_devices(p, (c_int * len(devices))(*devices), len(devices))
        if constant_time not in _CT_MODES:
            raise ValueError("constant_time must be None/'default', True/'on' or False/'off'")
        C.mpb_ctx_set_constant_time(p, _CT_MODES[constant_time])
        self.last_info = mpb_call_info()
        C.mpb_call_info_init(byref(self.last_info))

    # -- life cycle --
    def close(self) -> None:
        """Release the library context. Calls already running through this Context (from
        other threads) finish first: the mpb_ctx is freed when the last of them returns; new
        calls raise ValueError at once."""
        with self._lock:
            if self._ptr is None or self._closing:
                return
            self._closing = True
            if self._users == 0:
                self._free()

    def _free(self) -> None:  # with self._lock held, no call running
        self._destroy(self._ptr)
        self._ptr = None

    def _with_handle(self, fn, *args):
        """fn(mpb_ctx pointer, *args), with the context kept alive until fn returns."""
        with self._lock:
            if self._ptr is None or self._closing:
                raise ValueError("the Context is closed")
            self._users += 1
            p = self._ptr
        try:
            return fn(p, *args)
        finally:
            with self._lock:
                self._users -= 1
                if self._closing and self._users == 0:
                    self._free()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @property
    def handle(self) -> c_void_p:
        """The mpb_ctx pointer, for calling the C API directly; valid until close()."""
        if self._ptr is None or self._closing:
            raise ValueError("the Context is closed")
        return self._ptr

    # -- settings --
    @property
    def backend(self) -> str:
        return _BACKEND_NAMES.get(self._with_handle(C.mpb_ctx_get_backend), "unknown")

    @backend.setter
    def backend(self, value: str) -> None:
        self._with_handle(C.mpb_ctx_set_backend, _backend_code(value))

    @property
    def threads(self) -> int:
        return self._with_handle(C.mpb_ctx_get_threads)

    @threads.setter
    def threads(self, value: Optional[int]) -> None:
        if value is not None and (not isinstance(value, int) or value < 1):
            raise ValueError("threads must be an int >= 1 or None")
        self._with_handle(C.mpb_ctx_set_threads, 0 if value is None else value)

    @property
    def constant_time(self) -> str:
        return {-1: "default", 0: "off", 1: "on"}.get(
            self._with_handle(C.mpb_ctx_get_constant_time), "unknown")

    @constant_time.setter
    def constant_time(self, mode) -> None:
        if mode not in _CT_MODES:
            raise ValueError("constant_time must be None/'default', True/'on' or False/'off'")
        self._with_handle(C.mpb_ctx_set_constant_time, _CT_MODES[mode])

    def info(self) -> dict:
        """last_info as a dict."""
        i = self.last_info
        return {"status": i.status, "backend": _BACKEND_NAMES.get(i.backend, i.backend),
                "threads": i.threads, "constant_time": bool(i.constant_time),
                "bad_index": i.bad_index, "bad_arg": _lib.ARG_NAMES.get(i.bad_arg, i.bad_arg),
                "simd_items": i.simd_items, "seconds": i.seconds,
                "reason": i.reason.decode("utf-8", "replace")}

    def __repr__(self):
        if self._ptr is None or self._closing:
            return "<mpbatch.Context closed>"
        return f"<mpbatch.Context backend={self.backend!r} threads={self.threads}>"

    # -- the batch operations as methods: ctx.mul(a, b) is mul(a, b, ctx=ctx), ctx.divmod is
    # divmod_batch, ctx.gcd gcd_batch and ctx.invmod invmod_batch --
    mul, sqr, mulmod, powmod, rsa_private = map(_forward, ("mul", "sqr", "mulmod", "powmod",
                                                         "rsa_private"))
    divmod, gcd, invmod = map(_forward, ("divmod_batch", "gcd_batch", "invmod_batch"))
    gf2x_mul, gf2x_sqr, gf2x_mulmod, gf2x_inv = map(_forward, ("gf2x_mul", "gf2x_sqr", "gf2x_mulmod",
                                                               "gf2x_inv"))

    # (with optional arguments after the operands: explicit)
    def dh(self, privates, p, g=2, peers=None):
        return _batch().dh(privates, p, g, peers=peers, ctx=self)

    def mul_limbs(self, a, b, out=None):
        return _batch().mul_limbs(a, b, ctx=self, out=out)

    def sqr_limbs(self, a, out=None):
        return _batch().sqr_limbs(a, ctx=self, out=out)

    def mulmod_limbs(self, a, b, m, out=None):
        return _batch().mulmod_limbs(a, b, m, ctx=self, out=out)

    def powmod_limbs(self, bases, exps, m, out=None):
        return _batch().powmod_limbs(bases, exps, m, ctx=self, out=out)


_default_ctx: Optional[Context] = None
_default_lock = threading.Lock()


def default_context() -> Context:
    """The context used when no ctx= is given (AUTO backend, all cores), created on first use."""
    global _default_ctx
    if _default_ctx is None:
        with _default_lock:
            if _default_ctx is None:
                _default_ctx = Context()
    return _default_ctx


def _ctx(ctx) -> Context:
    if ctx is None:
        return default_context()
    if not isinstance(ctx, Context):
        raise TypeError(f"ctx must be an mpbatch.Context, not {type(ctx).__name__}")
    return ctx


class _Call:
    """Runs one C batch call with a fresh mpb_call_info that ends up in ctx.last_info."""
    __slots__ = ()

    @staticmethod
    def run(ctx: Context, fn, *args):
        info = mpb_call_info()
        info.bad_index = -1
        try:
            ctx._with_handle(fn, *args, byref(info))
        finally:
            ctx.last_info = info
