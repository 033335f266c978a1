"""Shared by the kernel generators of this folder (mul_fixed_adx_gen.py, redc_fixed_adx_gen.py):
run(main) prints the generated file to stdout, or with an OUT argument writes it there, and only
when it changed (an identical file triggers no rebuild)."""
import io
import sys


def run(main):
    if len(sys.argv) < 2:
        main()
        return
    buf, real = io.StringIO(), sys.stdout
    sys.stdout = buf
    try:
        main()
    finally:
        sys.stdout = real
    text = buf.getvalue()
    try:
        with open(sys.argv[1]) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(sys.argv[1], "w") as f:
        f.write(text)
