"""Compiling CUDA C through PyCUDA, with the binary cached on disk keyed by the source,
the device's architecture, the options and the compiler's version: a second run of a
program loads its kernels without compiling them again.

This is the only cubin cache: PyCUDA's own (`pycuda.compiler.compile`'s `cache_dir`,
on by default in the user's cache directory) is turned off. Both key on the same
things (PyCUDA's md5 of the source, the options with -arch, the nvcc version and the
platform's word size), but PyCUDA's does not suit soacc:
- it does not say whether a call compiled or hit, which the statistics report
  (compile seconds, disk hits);
- every source soacc emits has `#include`s, for which PyCUDA computes the key from
  `nvcc --preprocess` output: an nvcc run on every load, a hit included;
- it writes the cubin in place, so a run killed while writing leaves a truncated file
  that later runs load, and it warns on every miss.
Here a load that hits runs no compiler, and the cubin is written atomically
(runtime/files.py)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from soacc.runtime.errors import ExecutionError, ProgramError
from soacc.runtime.files import write_file

DEFAULT_OPTIONS = ("-O3", "--fmad=false", "--diag-suppress=177,550")
"""--fmad=false: a*b+c is not contracted into one rounding, so results equal the
reference executor's exactly (fma is written explicitly when wanted).
--diag-suppress: the emitted C declares every SSA value, used or not (177: declared
but never referenced; 550: set but never used); nvcc drops them, and the warnings
would bury any that matter."""


def cache_directory() -> Path:
    root = os.environ.get("SOACC_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "soacc"
    )
    return Path(root) / "cubin"


@cache
def nvcc_version() -> str:
    try:
        return subprocess.run(["nvcc", "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown nvcc"


@dataclass
class CompileCounters:
    compilations: int = 0
    compile_seconds: float = 0.0
    disk_hits: int = 0
    memory_hits: int = 0


@dataclass
class ModuleCache:
    arch: str
    directory: Path = field(default_factory=cache_directory)
    options: tuple[str, ...] = DEFAULT_OPTIONS
    counters: CompileCounters = field(default_factory=CompileCounters)
    _loaded: dict[str, Any] = field(default_factory=dict)

    def key(self, source: str, libraries: tuple[str, ...] = ()) -> str:
        h = hashlib.sha256()
        for part in (source, self.arch, " ".join(self.options), nvcc_version(), " ".join(libraries)):
            h.update(part.encode())
            h.update(b"\0")
        return h.hexdigest()

    def load(self, source: str, program: str, libraries: tuple[str, ...] = ()) -> Any:
        """The loaded module of `source` (CUDA C of `program`, named in errors), linked
        with the device `libraries` where any are named (compile_linked)."""
        import pycuda.driver as cuda

        key = self.key(source, libraries)
        if key in self._loaded:
            self.counters.memory_hits += 1
            return self._loaded[key]
        path = self.directory / f"{key}.cubin"
        try:
            cubin = path.read_bytes()
            self.counters.disk_hits += 1
        except OSError:
            if libraries:
                started = time.perf_counter()
                cubin = compile_linked(source, program, self.arch, self.options, libraries)
                self.counters.compilations += 1
                self.counters.compile_seconds += time.perf_counter() - started
            else:
                cubin = self._compile(source, program)
            self._store(path, cubin)
        try:
            module = cuda.module_from_buffer(cubin)
        except cuda.Error as error:
            # a kernel that failed earlier in this process (a run-time check's trap, an
            # access out of bounds) leaves the context unusable: every load fails after it
            raise ExecutionError(f"the GPU cannot load the kernels of {program}: {error}") from None
        self._loaded[key] = module
        return module

    def _compile(self, source: str, program: str) -> bytes:
        from pycuda.compiler import compile as nvcc_compile
        from pycuda.driver import CompileError

        started = time.perf_counter()
        try:
            cubin = nvcc_compile(source, arch=self.arch, options=list(self.options), no_extern_c=True, cache_dir=False)
        except CompileError as error:
            log = (getattr(error, "stderr", None) or str(error)).strip()
            raise ProgramError(f"the CUDA C of {program} does not compile:\n{log}") from None
        self.counters.compilations += 1
        self.counters.compile_seconds += time.perf_counter() - started
        return cubin

    def _store(self, path: Path, cubin: bytes) -> None:
        """Writes the binary atomically (a crashed run leaves no half-written file); a
        cache that cannot be written is only slower."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(path, cubin)
        except OSError:
            pass


def compile_linked(source: str, program: str, arch: str, options: Sequence[str], libraries: Sequence[str]) -> bytes:
    """A cubin of `source` linked with device libraries (`cudadevrt`, whose
    cudaGraphSetConditional a device loop's kernel calls): nvcc compiles relocatable
    device code, nvlink links it with the libraries of the toolkit that nvcc is from.
    PyCUDA's compile makes whole-program cubins only."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        raise ExecutionError(f"compiling {program} needs nvcc, which is not on the PATH")
    toolkit = Path(nvcc).resolve().parent.parent
    libdirs = [d for d in (toolkit / "lib64", toolkit / "lib", toolkit / "targets" / "x86_64-linux" / "lib") if d.is_dir()]
    with tempfile.TemporaryDirectory(prefix="soacc-link-") as work:
        here = Path(work)
        (here / "module.cu").write_text(source)
        steps = [
            [nvcc, f"-arch={arch}", "-rdc=true", "-cubin", *options, "-o", str(here / "module.o"), str(here / "module.cu")],
            [str(Path(nvcc).parent / "nvlink"), f"-arch={arch}", str(here / "module.o"),
             *(f"-L{d}" for d in libdirs), *(f"-l{lib}" for lib in libraries), "-o", str(here / "module.cubin")],
        ]
        for step in steps:
            try:
                done = subprocess.run(step, capture_output=True, text=True)
            except OSError as error:
                raise ProgramError(f"compiling {program}: cannot run {step[0]}: {error.strerror}") from None
            if done.returncode != 0:
                raise ProgramError(f"the CUDA C of {program} does not compile and link:\n{(done.stderr or done.stdout).strip()}")
        return (here / "module.cubin").read_bytes()
