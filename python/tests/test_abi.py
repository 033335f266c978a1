"""The ctypes layer copies constants and struct layouts from the C headers by hand
(mpbatch/_lib.py, the backend and constant-time codes, MAX_WIDTH, the mp_int sign values);
this checks every copy against include/mpbatch/*.h: the values by parsing the headers, the
struct sizes and field offsets by compiling a small C program against them."""
import ctypes
import pathlib
import re
import shutil
import subprocess

import pytest

from mpbatch import _lib, context, convert, integer

REPO = pathlib.Path(__file__).resolve().parents[2]
INCLUDE = REPO / "include"


def _header_constants():
    """{NAME: int} from every `#define NAME <int>` and enum `NAME = <int>` in the headers."""
    out = {}
    for h in sorted((INCLUDE / "mpbatch").rglob("*.h")):
        text = re.sub(r"/\*.*?\*/", " ", h.read_text(), flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        for name, val in re.findall(r"^\s*#\s*define\s+(MPB?_\w+)\s+\(?\s*(-?\d+)\s*\)?\s*$", text, flags=re.M):
            out[name] = int(val)
        for body in re.findall(r"enum\s+\w*\s*\{(.*?)\}", text, flags=re.S):
            for name, val in re.findall(r"(MPB?_\w+)\s*=\s*\(?\s*(-?\d+)\s*\)?", body):
                out[name] = int(val)
    return out


H = _header_constants()


def test_headers_parsed():
    for name in ("MPB_OK", "MPB_EMEM", "MPB_BACKEND_CUDA", "MPB_CT_ON", "MPB_ARG_QINV",
                 "MPB_BATCH_MAX_WIDTH", "MP_OKAY", "MP_NEG"):
        assert name in H, name


def test_status_codes():
    copied = {k: v for k, v in vars(_lib).items() if re.fullmatch(r"MPB_E\w+|MPB_OK", k)}
    header = {k: v for k, v in H.items() if re.fullmatch(r"MPB_E\w+|MPB_OK", k)}
    assert copied == header
    assert _lib._STATUS_NAMES == {v: k for k, v in header.items()}


def test_backends_ct_modes_args_width_signs():
    assert {k: v for k, v in context.BACKENDS.items()} == \
        {k[len("MPB_BACKEND_"):].lower(): v for k, v in H.items() if k.startswith("MPB_BACKEND_")}
    assert context._CT_MODES == {None: H["MPB_CT_DEFAULT"], "default": H["MPB_CT_DEFAULT"],
                                 False: H["MPB_CT_OFF"], "off": H["MPB_CT_OFF"],
                                 True: H["MPB_CT_ON"], "on": H["MPB_CT_ON"]}
    assert sorted(_lib.ARG_NAMES) == sorted(v for k, v in H.items() if k.startswith("MPB_ARG_"))
    for name, code in ((k[len("MPB_ARG_"):].lower(), v) for k, v in H.items() if k.startswith("MPB_ARG_")):
        assert _lib.ARG_NAMES[code].split()[0] == name, (name, code)
    assert convert.MAX_WIDTH == H["MPB_BATCH_MAX_WIDTH"]
    assert (integer._MP_ZPOS, integer._MP_NEG) == (H["MP_ZPOS"], H["MP_NEG"])


STRUCTS = {"mp_int": (_lib.mp_int, "mpbatch/bn.h"), "mpb_gf2x": (_lib.mpb_gf2x, "mpbatch/gf2x.h"),
           "mpb_call_info": (_lib.mpb_call_info, "mpbatch/batch.h")}


def _c_layout(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler to read the struct layouts with")
    lines = ["#include <stdio.h>", "#include <stddef.h>"]
    lines += [f"#include <{h}>" for _, h in STRUCTS.values()]
    lines.append("int main(void) {")
    for name, (cls, _) in STRUCTS.items():
        lines.append(f'  printf("{name} sizeof %zu\\n", sizeof({name}));')
        for field, _t in cls._fields_:
            lines.append(f'  printf("{name} {field} %zu %zu\\n", offsetof({name}, {field}), '
                         f'sizeof((({name} *)0)->{field}));')
    lines.append("  return 0;\n}")
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "layout"
    subprocess.run([cc, "-std=c11", "-I", str(INCLUDE), str(src), "-o", str(exe)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    layout = {}
    for line in out.splitlines():
        parts = line.split()
        layout[tuple(parts[:2])] = tuple(int(x) for x in parts[2:])
    return layout


def test_struct_layouts(tmp_path):
    layout = _c_layout(tmp_path)
    for name, (cls, _) in STRUCTS.items():
        assert layout[(name, "sizeof")] == (ctypes.sizeof(cls),), name
        for field, ftype in cls._fields_:
            off, size = layout[(name, field)]
            assert getattr(cls, field).offset == off, (name, field)
            assert ctypes.sizeof(ftype) == size, (name, field)
    assert layout[("mpb_call_info", "reason")][1] == _lib.REASON_LEN
