"""soacc-run: compile a soac program and run one of its functions on NumPy arguments.

    soacc-run examples/dot_product.mlir --arg a.npy --arg b.npy
    soacc-run examples/mandelbrot.mlir --arg 64 --arg 48 --out results/
    soacc-run examples/vector_norm.mlir --arg '[3, 4]' --stats

Arguments are `.npy` files, scalar literals (`3`, `2.5`, `true`) or, for small arrays,
JSON lists (`[1, 2, 3]`), in the order of the function's parameters. Results are
printed (in full when small) or, with `--out DIR`, written as DIR/result<i>.npy.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute

from soacc.dialects.shared.dtypes import numpy_dtype
from soacc.runtime.errors import ArgumentError
from soacc.runtime.files import write_files
from soacc.program import BACKENDS, EntryPoint, compile
from soacc.tuning import autotune, read_tuning, write_tuning
from soacc.tools.cli import run_tool

PRINT_IN_FULL = 64  # results with at most this many elements are printed whole


def read_argument(text: str, t: Attribute, what: str):
    """One command-line argument as the value the entry point takes."""
    if text.endswith(".npy"):
        try:
            with open(text, "rb") as f:
                # read_array, not np.load: np.load takes a renamed .npz (or pickle) too
                array = np.lib.format.read_array(f, allow_pickle=False)
            # A big-endian file holds the same values: take them in native order.
            return array if array.dtype.isnative else array.astype(array.dtype.newbyteorder("="))
        except OSError as error:
            raise ArgumentError(f"{what}: cannot read {text}: {error.strerror or error}") from None
        except (ValueError, EOFError, SyntaxError, OverflowError, MemoryError):
            # empty, truncated, a malformed header, a .npz renamed, an object array
            raise ArgumentError(f"{what}: {text} is not a NumPy .npy array file") from None
    try:
        literal = json.loads(text)
    except json.JSONDecodeError:
        raise ArgumentError(
            f"{what}: '{text}' is neither a .npy file nor a literal (3, 2.5, true, [1, 2])"
        ) from None
    dtype = numpy_dtype(t)
    if isinstance(t, TensorType):
        if not isinstance(literal, list):
            raise ArgumentError(f"{what}: expected an array ({t}): give a .npy file or a JSON list")
        try:
            array = np.array(literal)
        except ValueError:
            raise ArgumentError(f"{what}: the list is not rectangular") from None
        if array.size == 0:
            return np.zeros(array.shape, dtype=dtype)
        if array.dtype.kind not in "biuf" or (array.dtype.kind == "f" and dtype.kind != "f"):
            raise ArgumentError(f"{what}: the list's elements do not fit {t}")
        converted = array.astype(dtype)
        if not np.array_equal(converted.astype(array.dtype), array) and dtype.kind != "f":
            raise ArgumentError(f"{what}: the list's elements do not fit {t}")
        return converted
    if isinstance(literal, list):
        raise ArgumentError(f"{what}: expected a scalar ({t}), got a list")
    return literal  # checked and converted by the entry point


def format_result(index: int, value, t: Attribute) -> str:
    if isinstance(value, np.ndarray):
        if value.size <= PRINT_IN_FULL:
            body = np.array2string(value, threshold=PRINT_IN_FULL, separator=", ")
        else:
            body = np.array2string(value, threshold=8, edgeitems=3, separator=", ")
            body += f"\n  ({value.size} elements; --out DIR writes them all)"
        return f"result {index}: {t} of shape {list(value.shape)} =\n{body}"
    return f"result {index}: {t} = {value}"


def write_results(directory: Path, results: Sequence) -> list[Path]:
    """Writes every result, or none: each is staged complete before any is renamed."""
    if directory.exists() and not directory.is_dir():
        raise ArgumentError(f"--out {directory} is a file; --out names a directory, which holds result<i>.npy")
    directory.mkdir(parents=True, exist_ok=True)
    paths = [directory / f"result{i}.npy" for i in range(len(results))]
    write_files((path, partial(_save, value)) for path, value in zip(paths, results))
    return paths


def _save(value, f) -> None:
    np.save(f, np.asarray(value))


def _devices(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of devices") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} devices: give 1 or more, or 0 for every usable GPU")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="soacc-run",
        description="Compile a soac program and run one of its functions.",
    )
    parser.add_argument("file", help="the program (.mlir)")
    parser.add_argument("--entry", default="main", help="the function to run (default: main)")
    parser.add_argument(
        "--arg",
        action="append",
        default=[],
        metavar="VALUE",
        help="an argument, in parameter order: a .npy file, a scalar literal or a JSON list",
    )
    parser.add_argument("--out", type=Path, metavar="DIR", help="write results as DIR/result<i>.npy")
    parser.add_argument(
        "--backend",
        default="auto",
        choices=["auto", *BACKENDS],
        help="where to run: cuda (the GPU), numpy (the CPU reference executor) or auto "
        "(the GPU when one is usable, else the CPU; it says which)",
    )
    parser.add_argument(
        "--pipeline",
        metavar="PASSES",
        help="the passes to compile with (default: the backend's own; '' runs the program "
        "as written)",
    )
    parser.add_argument(
        "--devices",
        type=_devices,
        default=1,
        metavar="N",
        help="run the work of the data-parallel combinators on N GPUs through husks "
        "(0: every usable GPU of one kind; the numpy backend simulates N devices); default 1",
    )
    parser.add_argument(
        "--stats",
        action="store_true",
        help="print what the run cost: allocations and peak memory per space, copies by "
        "direction, synchronous reads, kernel launches",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="time every kernel on the GPU and print each kernel's device time with the "
        "statistics (the cuda backend only)",
    )
    parser.add_argument(
        "--tuning",
        type=Path,
        metavar="FILE",
        help="a JSON object of threshold names and sizes (the sizes at which the host switches "
        "between versions of a kernel) to run with instead of their defaults; --autotune writes one",
    )
    parser.add_argument(
        "--autotune",
        type=Path,
        metavar="FILE",
        help="time the program's versions on these arguments, threshold by threshold, write the "
        "fastest thresholds to FILE, then run with them (the cuda backend only)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the results")
    return parser


def run(options: argparse.Namespace) -> int:
    def say(message: str) -> None:
        if not options.quiet:
            print(f"soacc-run: {message}", file=sys.stderr)

    started = time.perf_counter()
    Path(options.file).open().close()  # an unreadable program file is a usage error (exit 2)
    program = compile(Path(options.file), backend=options.backend, pipeline=options.pipeline, devices=options.devices)
    entry: EntryPoint = program.entry(options.entry)
    why = entry.unsupported_type()
    if why:
        raise ArgumentError(why)
    if len(options.arg) != len(entry.param_types):
        raise ArgumentError(
            f"{entry.signature} takes {len(entry.param_types)} argument(s), "
            f"{len(options.arg)} given with --arg"
        )
    args = [
        read_argument(text, t, f"argument {i} (%{name})")
        for i, (text, t, name) in enumerate(zip(options.arg, entry.param_types, entry.param_names))
    ]
    args = entry.check_arguments(args)
    if options.tuning is not None:
        program.tuning = read_tuning(options.tuning)
        if not program.thresholds:
            say(f"{options.tuning} changes nothing here: the program has no thresholds on {program.runs_on}")
    if options.profile:
        program.profiling = True
    say(f"compiled {options.file} in {time.perf_counter() - started:.2f} s")
    if options.autotune is not None:
        if program.backend != "cuda":
            raise ArgumentError(f"--autotune times the versions of kernels on the GPU; this program runs on {program.runs_on}")
        if not options.autotune.parent.is_dir():
            raise ArgumentError(f"--autotune: there is no folder {options.autotune.parent}")
        if options.autotune.is_dir():
            raise ArgumentError(f"--autotune: {options.autotune} is a folder; give a file to write")
        program.profiling = False  # (timed as calls run: task graphs, no events)
        tuned = autotune(program, lambda: entry(*args), say=say)
        program.profiling = options.profile
        write_tuning(options.autotune, tuned)
        say(f"wrote {options.autotune}")
    say(f"running @{entry.name} on {program.runs_on}")
    started = time.perf_counter()
    results = entry(*args)
    results = results if isinstance(results, tuple) else (results,)
    say(f"ran in {time.perf_counter() - started:.3f} s")
    result_types = list(entry.function_type.outputs.data)
    if options.out is not None:
        for path in write_results(options.out, results):
            print(path)
    else:
        for i, (value, t) in enumerate(zip(results, result_types)):
            print(format_result(i, value, t))
    if options.stats or options.profile:
        print(program.statistics.table())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    options = build_parser().parse_args(argv)
    return run_tool("soacc-run", lambda: run(options))


if __name__ == "__main__":
    sys.exit(main())
