"""Abstract kernel–vector graphs of the transfer-fusion study (Christoph Kessler,
*Global optimization of operand transfer fusion in heterogeneous computing*), for the
tests of passes/analysis/transfer_layout.py and transfer_refinement.py."""

from __future__ import annotations

import random

from soacc.passes.analysis.transfer_layout import DEVICE, HOST, Kernel, KernelGraph


def figure2() -> KernelGraph:
    """The study's running example (digest §4.1): A, B, C live on entry."""
    return KernelGraph.build(
        [
            Kernel(("B", "A"), ("D", "E"), DEVICE),
            Kernel(("E", "B"), ("F", "G"), HOST),
            Kernel(("C", "F"), ("H", "I"), DEVICE),
            Kernel(("F", "H"), ("J", "K"), DEVICE),
            Kernel(("H", "E"), ("L", "M"), DEVICE),
        ],
        live_on_exit="DGIJKLM",
    )


def random_program(
    rng: random.Random, n: int, m_init: int, ins: tuple[int, int], outs: tuple[int, int]
) -> KernelGraph:
    """The study's random generator (digest §5.1): degrees uniform in their ranges,
    inputs drawn from the vectors that exist, each kernel on the device with probability
    1/2; the vectors nobody reads live on exit (as in Figure 2)."""
    vectors = [f"i{j}" for j in range(m_init)]
    kernels = []
    for i in range(n):
        reads = rng.sample(vectors, min(len(vectors), rng.randint(*ins)))
        writes = [f"k{i}o{j}" for j in range(rng.randint(*outs))]
        kernels.append(Kernel(tuple(reads), tuple(writes), DEVICE if rng.random() < 0.5 else HOST))
        vectors += writes
    read = {v for k in kernels for v in k.reads}
    return KernelGraph.build(kernels, live_on_exit=[v for v in vectors if v not in read])
