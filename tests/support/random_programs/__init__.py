"""Seeded random soac programs for the differential tests: one entry point,

    program = random_program(family, seed, **features)
    program.source             the MLIR text, entry @main
    program.inputs(n, rng)     arguments of @main for arrays n long, drawn from rng
                               (default: a generator seeded 10_000 + seed, afresh per call)
    program.reference(*args)   @main's results computed in NumPy, where the family has it
    program.info               what else the family tells about the program

The same family and seed (and features) always give the same program. The families,
each a module of this package (FAMILIES maps the names to them):

host    host code around element reads (every rule of the migration graph: arith and
        math, calls, ifs, loops, maps, reductions, literals, updates, iota, replicate,
        slices), for reduce-device-syncs. @main(i64 array, f64 array, i64, i1); n >= 1.
memory  chains of maps, copies, concatenations, slices, updates of elements and rows,
        replicates, transposes, reductions, ifs and loops carrying arrays, over arrays of
        one length n and n x n matrices, for the memory passes.
        @main(f32 array, f32 array, f32 matrix, index, index, i1); n >= 1.
fusion  chains and trees of maps, reduces, scans, scatters and hists (and maps over the
        rows of a matrix), with host code between them, for soac-fusion.
        @main(f32 array, f32 array, i32 array, n x 4 f32 matrix, f32); n >= 1.
        Feature: unique_scatters=True scatters to distinct positions only (results that
        do not depend on which of several writes to one position wins).
lanes   map chains of random arith ops over lanes and a captured scalar, then a reduce
        or a scan, in one element type, with a NumPy reference, for the reference
        executor. @main(1-3 arrays, scalar); any n >= 0.
        info: "dtype" (the element type, an MLIR name) and "reduction" (its kind).
nested  lambdas that hold the work: combinators inside lambdas, scatters and hists of
        rows, hist operators that capture values, scf.if of rows of different sizes,
        scf.for carrying arrays, maps over zero rows, and in a quarter of the programs
        one deliberate run-time error, for the pipeline-prefix differential test.
        @main(f32 array, i32 array, n x 4 f32 matrix, f32, index); any n >= 0.
        info: "error" (the deliberate error's kind, "" for none).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from tests.support.random_programs import fusion, host, lanes, memory, nested

FAMILIES = {"host": host, "memory": memory, "fusion": fusion, "lanes": lanes, "nested": nested}


@dataclass(frozen=True)
class RandomProgram:
    family: str
    seed: int
    source: str
    make_inputs: Callable[[np.random.Generator, int], tuple] = field(repr=False)
    reference: Callable[..., tuple] | None = field(default=None, repr=False)
    info: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def inputs(self, n: int, rng: np.random.Generator | None = None) -> tuple:
        """Arguments of @main for arrays n long, drawn from `rng` (by default from a
        generator seeded 10_000 + seed, made afresh: the same arguments every call)."""
        if rng is None:
            rng = np.random.default_rng(10_000 + self.seed)
        return self.make_inputs(rng, n)


def random_program(family: str, seed: int, *, unique_scatters: bool = False) -> RandomProgram:
    """The program of `family` (a key of FAMILIES) drawn with `seed`. Features are
    keyword arguments; each applies to one family (unique_scatters: fusion)."""
    if family not in FAMILIES:
        raise ValueError(f"no random program family {family!r} (there are {', '.join(FAMILIES)})")
    if unique_scatters and family != "fusion":
        raise ValueError(f"unique_scatters is a feature of the fusion family, not of {family}")
    if family == "host":
        return RandomProgram(family, seed, host.program(seed), host.make_inputs)
    if family == "memory":
        return RandomProgram(family, seed, memory.program(seed), memory.make_inputs)
    if family == "nested":
        source, error = nested.program(seed)
        return RandomProgram(family, seed, source, nested.make_inputs, info=MappingProxyType({"error": error}))
    if family == "fusion":
        source = fusion.program(seed, unique_scatters=unique_scatters)
        return RandomProgram(family, seed, source, fusion.make_inputs, info=MappingProxyType({"unique_scatters": unique_scatters}))
    generated = lanes.generate(seed)

    def reference(*args):
        return generated.reference(list(args[:-1]), args[-1])

    return RandomProgram(
        family,
        seed,
        generated.src,
        functools.partial(lanes.make_inputs, generated),
        reference,
        MappingProxyType({"dtype": generated.t, "reduction": generated.reduction}),
    )
