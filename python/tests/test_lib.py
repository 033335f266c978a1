"""The raw ctypes layer: loading, the signature table against the headers, error mapping."""
import ctypes
import os
import re
import subprocess
import sys
import pathlib

import pytest

import mpbatch
from mpbatch import _lib
from conftest import REPO

HEADERS = ["common.h", "bn.h", "batch.h", "gf2x.h", "bindings.h"]
INCLUDE = REPO / "include" / "mpbatch"


def _declarations():
    """{name: (return type text, [param texts])} for every MPB_API function in the headers."""
    decls = {}
    for h in HEADERS:
        p = INCLUDE / h
        if not p.exists():
            continue
        text = p.read_text()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        text = re.sub(r"\s+", " ", text)
        for m in re.finditer(r"MPB_API\s+(?:MPB_WUR\s+)?([^;()]*?)\b(mpb_\w+)\s*\(([^)]*)\)\s*;",
                             text):
            ret, name, params = m.group(1).strip(), m.group(2), m.group(3).strip()
            plist = [] if params in ("", "void") else [s.strip() for s in params.split(",")]
            decls[name] = (ret, plist)
    return decls


def _expected_ctype(param: str):
    """The ctypes kinds accepted for a C parameter/return type text."""
    t = param.replace("const", "").strip()
    if "(*" in t or "*" in t or t.endswith("_fn"):
        return "pointer"
    t = re.sub(r"\s+\w+$", "", t) if len(t.split()) > 1 and t.split()[-1] not in (
        "int", "long", "char") else t
    return {"int": ctypes.c_int, "size_t": ctypes.c_size_t, "uint64_t": ctypes.c_uint64,
            "mp_digit": ctypes.c_uint64, "unsigned": ctypes.c_uint,
            "unsigned long": ctypes.c_ulong, "void": None}.get(t, t)


def _is_pointer_type(tp):
    return (tp in (ctypes.c_void_p, ctypes.c_char_p, ctypes.py_object)  # py_object: a PyObject *
            or (isinstance(tp, type) and issubclass(tp, (ctypes._Pointer, ctypes._CFuncPtr))))


def _param_type_text(param: str) -> str:
    # drop the parameter name: "const mp_int *a" -> "const mp_int *", "int b" -> "int"
    if "*" in param:
        return param[: param.rindex("*") + 1]
    words = param.split()
    if words[-1] in ("int", "long", "char", "size_t", "uint64_t", "mp_digit", "unsigned"):
        return param
    return " ".join(words[:-1])


def test_every_bound_symbol_has_argtypes_and_restype():
    assert _lib.BOUND, "nothing bound"
    table = {name: (argt, rest) for name, argt, rest, _ in _lib._SIGNATURES}
    for name, fn in _lib.BOUND.items():
        assert fn.argtypes is not None, f"{name} has no argtypes"
        assert list(fn.argtypes) == list(table[name][0]), name
        assert fn.restype == table[name][1], name


def test_table_has_no_duplicates():
    names = [s[0] for s in _lib._SIGNATURES]
    assert len(names) == len(set(names))


def test_table_matches_headers():
    decls = _declarations()
    assert "mpb_mp_add" in decls and "mpb_strerror" in decls
    table = {name: (argt, rest) for name, argt, rest, _ in _lib._SIGNATURES}
    assert sorted(set(decls) - set(table)) == [], "declared in the headers but not in _SIGNATURES"
    assert sorted(set(table) - set(decls)) == [], "in _SIGNATURES but not declared"
    for name, (ret, params) in decls.items():
        argt, rest = table[name]
        assert len(argt) == len(params), f"{name}: {len(argt)} argtypes for {params}"
        for i, (p, t) in enumerate(zip(params, argt)):
            exp = _expected_ctype(_param_type_text(p))
            if exp == "pointer":
                assert _is_pointer_type(t), f"{name} arg {i} ({p}): {t} is not a pointer type"
            elif isinstance(exp, str):  # enum or other typedef passed by value
                assert t in (ctypes.c_int, ctypes.c_uint), f"{name} arg {i} ({p}): {t}"
            else:
                assert t == exp, f"{name} arg {i} ({p}): {t} != {exp}"
        exp_ret = _expected_ctype(ret)
        if exp_ret == "pointer":
            assert _is_pointer_type(rest), f"{name} returns {ret}: {rest}"
        else:
            assert rest == exp_ret, f"{name} returns {ret}: {rest}"


def test_package_calls_only_table_functions():
    pkg = pathlib.Path(mpbatch.__file__).parent
    table = {s[0] for s in _lib._SIGNATURES}
    for f in pkg.glob("*.py"):
        for name in re.findall(r"\bC\.(mpb_\w+)", f.read_text()):
            assert name in table, f"{f.name} calls {name}, which is not in _SIGNATURES"


def test_every_declared_function_is_exported():
    """The final library must export everything the headers declare (informative list)."""
    if _lib.MISSING:
        pytest.skip("library lacks: " + ", ".join(sorted(_lib.MISSING)))


def test_missing_symbol_raises_unsupported(monkeypatch):
    monkeypatch.setattr(_lib, "MISSING", _lib.MISSING | {"mpb_not_there"})
    with pytest.raises(_lib.UnsupportedError, match="mpb_not_there"):
        _lib.C.mpb_not_there
    with pytest.raises(AttributeError):
        _lib.C.mpb_not_in_the_table


def test_versions():
    assert mpbatch.abi_version() == 1
    assert re.fullmatch(r"\d+\.\d+\.\d+", mpbatch.library_version())


@pytest.mark.parametrize("code,exc", [(-2, MemoryError), (-3, ValueError), (-4, ValueError),
                                      (-5, ValueError), (-6, ValueError), (-9, ValueError),
                                      (-7, mpbatch.DeviceError), (-8, mpbatch.DeviceError),
                                      (-8, NotImplementedError), (-10, RuntimeError)])
def test_status_mapping(code, exc):
    e = _lib.status_error(code, "mpb_x")
    assert isinstance(e, exc)
    assert e.status == code and e.function == "mpb_x"
    msg = _lib.C.mpb_strerror(code).decode()
    assert msg in str(e) and "mpb_x" in str(e)


def test_errcheck_raises_with_library_message():
    from mpbatch._lib import mp_int
    a = mp_int()
    with pytest.raises(ValueError, match="invalid input value"):
        _lib.C.mpb_mp_init_size(ctypes.byref(a), -1)


def _run(code, env):
    full = dict(os.environ)
    full.update(env)
    return subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True,
                          cwd=str(REPO / "python"))


def test_env_library_that_does_not_exist():
    r = _run("import mpbatch", {"MPBATCH_LIBRARY": "/nonexistent/libmpbatch.so"})
    assert r.returncode != 0 and "MPBATCH_LIBRARY" in r.stderr


def test_env_library_is_used():
    path = _lib.LIBRARY_PATH
    r = _run("import mpbatch; print(mpbatch.LIBRARY_PATH)", {"MPBATCH_LIBRARY": path})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == path


def test_candidate_order():
    paths = _lib.candidate_paths()
    assert paths, "no candidate"
    if os.environ.get("MPBATCH_LIBRARY"):
        assert paths[0] == os.environ["MPBATCH_LIBRARY"]


def test_raw_setter_rejects_bad_values():
    if not _lib.have("mpb_ctx_create"):
        pytest.skip("no batch context")
    ctx = mpbatch.Context("cpu")
    try:
        with pytest.raises(ValueError):
            _lib.C.mpb_ctx_set_backend(ctx.handle, 99)
        with pytest.raises(ValueError):
            _lib.C.mpb_ctx_set_constant_time(ctx.handle, 7)
    finally:
        ctx.close()


def test_null_pointer_is_an_error_not_a_crash():
    if not _lib.have("mpb_batch_mul"):
        pytest.skip("no batch mul")
    with pytest.raises(ValueError, match="NULL|null|pointer"):
        _lib.C.mpb_batch_mul(None, None, None, None, 1, 1, None)


def test_cpu_features_and_mask():
    """mpb_cpu_features names what the library uses; MPBATCH_CPU_DISABLE, read once when the
    library loads, masks features (checked in a fresh interpreter)."""
    assert mpbatch.cpu_features()
    code = ("import mpbatch; f = mpbatch.cpu_features(); print(f); "
            "assert 'avx512ifma' not in f.split('(')[0]; "
            "assert not mpbatch.backend_available('cpu_ifma')")
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(mpbatch.__file__)))
    env = dict(os.environ, MPBATCH_CPU_DISABLE="avx512ifma", MPBATCH_LIBRARY=mpbatch.LIBRARY_PATH,
               PYTHONPATH=os.pathsep.join([pkg, os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
