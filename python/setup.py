"""Build hook: bundle libmpbatch.so inside the package.

`pip install ./python` runs build_py, which puts a libmpbatch.so beside mpbatch/__init__.py:
  - MPBATCH_LIBRARY=/path/libmpbatch.so: that file is copied;
  - otherwise an existing <repo>/build*/libmpbatch.so that is newer than every library source
    (CMakeLists.txt, cmake/, include/, cpu/, cuda/) is copied (MPBATCH_FORCE_BUILD=1 skips this);
  - otherwise the library is built with CMake from the repository this directory belongs to,
    in <repo>/build-pip (-DMPB_BUILD_TESTS=OFF -DMPB_BUILD_BENCH=OFF, Release, target mpbatch;
    extra CMake options from MPBATCH_CMAKE_ARGS, e.g. "-DMPB_CUDA=OFF");
  - MPBATCH_NO_BUNDLE=1: nothing is bundled; the package then finds the library at run time
    (MPBATCH_LIBRARY, the repository's build*/ trees, the system's libmpbatch.so).
Everything else is in pyproject.toml.
"""
import os
import shlex
import shutil
import subprocess
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _build_library() -> Path:
    if not (REPO / "CMakeLists.txt").exists():
        raise RuntimeError(f"{REPO} has no CMakeLists.txt: set MPBATCH_LIBRARY to a built "
                           "libmpbatch.so or MPBATCH_NO_BUNDLE=1")
    build = REPO / "build-pip"
    cfg = ["cmake", "-S", str(REPO), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
           "-DMPB_BUILD_TESTS=OFF", "-DMPB_BUILD_BENCH=OFF"]
    if shutil.which("ninja") and not (build / "CMakeCache.txt").exists():
        cfg += ["-G", "Ninja"]
    if shutil.which("ccache"):
        cfg += ["-DCMAKE_C_COMPILER_LAUNCHER=ccache", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
    cfg += shlex.split(os.environ.get("MPBATCH_CMAKE_ARGS", ""))
    subprocess.check_call(cfg)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
    subprocess.check_call(["cmake", "--build", str(build), "--target", "mpbatch", "-j", jobs])
    lib = build / "libmpbatch.so"
    if not lib.exists():
        raise RuntimeError(f"the CMake build did not produce {lib}")
    return lib


def _fresh_existing_build():
    """A build tree's libmpbatch.so newer than every source of the library, or None."""
    if os.environ.get("MPBATCH_FORCE_BUILD") or not (REPO / "CMakeLists.txt").exists():
        return None
    newest = 0.0
    for top in ("CMakeLists.txt", "cmake", "include", "cpu", "cuda"):
        p = REPO / top
        files = [p] if p.is_file() else (f for f in p.rglob("*") if f.is_file())
        for f in files:
            newest = max(newest, f.stat().st_mtime)
    libs = [p for p in REPO.glob("build*/libmpbatch.so") if p.exists()]
    libs = [p for p in libs if p.stat().st_mtime >= newest]
    if not libs:
        return None
    return max(libs, key=lambda p: p.stat().st_mtime)


class build_py_with_library(build_py):
    def run(self):
        super().run()
        if os.environ.get("MPBATCH_NO_BUNDLE"):
            return
        env = os.environ.get("MPBATCH_LIBRARY")
        src = Path(env) if env else (_fresh_existing_build() or _build_library())
        print(f"mpbatch: bundling {src}")
        if not src.exists():
            raise RuntimeError(f"MPBATCH_LIBRARY={env} does not exist")
        dst = Path(self.build_lib) / "mpbatch" / "libmpbatch.so"
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(os.path.realpath(src), dst)  # the real file, not the soname symlink
        os.chmod(dst, 0o755)


class BinaryDistribution(Distribution):
    """The wheel carries a native library: platform-specific, not pure Python."""

    def has_ext_modules(self):
        return not os.environ.get("MPBATCH_NO_BUNDLE")


setup(cmdclass={"build_py": build_py_with_library}, distclass=BinaryDistribution)
