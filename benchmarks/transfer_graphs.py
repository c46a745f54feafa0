"""The kernel–vector graphs of Kessler's study of transfer fusion (*Global optimization
of operand transfer fusion in heterogeneous computing*, Tables 4 and 5) as soacc
programs, for benchmarks/transfers.py and its tests.

A graph is a straight-line program of kernels, each reading some vectors and writing
new ones (single assignment), run on the GPU or, where the study maps it there, on the
CPU (`on_host`: place-kernels puts it there). As soacc programs, every vector is a
`tensor<?xf32>` of one length; a kernel is one `soac.map` over its inputs whose outputs
are linear in them (the study's "linear-work" synthetic kernels); the vectors live on
entry are the arguments, those no kernel reads (and those the graph names) the results.

What the study gives exactly is the running example (Figure 2). The others are
reconstructions from its descriptions (it prints no other graph): the random graphs
are drawn by its generator's parameters with a fixed seed (so their savings need not
be its 28 for N = 24), Horner is p ← p·x + cᵢ with 50% of kernels on the CPU, the
Cholesky factorization is the left-looking 4×4-tile one of PLASMA with POTRF on the CPU
and its tiles as vectors (10 live on entry, where the study counts 4), the CG loop's
steady state has SpMV on the CPU with p, r and x live on entry.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass(frozen=True)
class GraphKernel:
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    on_host: bool = False


@dataclass(frozen=True)
class Graph:
    name: str
    kernels: tuple[GraphKernel, ...]
    exits: tuple[str, ...] = ()
    """Vectors live on exit besides those no kernel reads."""
    paper: dict = field(default_factory=dict)
    """What the study reports: `saved` (greedy, Table 4) and `speedup` by length
    (Table 5, transfer fusion, in %), where it has them."""

    @property
    def entries(self) -> list[str]:
        written = {w for k in self.kernels for w in k.writes}
        seen: dict[str, None] = {}
        for k in self.kernels:
            for r in k.reads:
                if r not in written:
                    seen.setdefault(r)
        return list(seen)

    @property
    def results(self) -> list[str]:
        read = {r for k in self.kernels for r in k.reads}
        written = [w for k in self.kernels for w in k.writes]
        return [w for w in written if w not in read or w in self.exits]

    @property
    def host_kernels(self) -> tuple[str, ...]:
        """The names place-kernels knows the host kernels by (their first output)."""
        return tuple(k.writes[0] for k in self.kernels if k.on_host)

    def program(self) -> str:
        t = "tensor<?xf32>"
        lines = [
            f"func.func @main({', '.join(f'%{v}: {t}' for v in self.entries)}) -> ({', '.join(t for _ in self.results)}) {{"
        ]
        for i, k in enumerate(self.kernels):
            params = ", ".join(f"%lam_x{j}: f32" for j in range(len(k.reads)))
            lines.append(
                f"  {', '.join('%' + w for w in k.writes)} = soac.map({', '.join('%' + r for r in k.reads)}) : "
                f"({', '.join(t for _ in k.reads)}) -> ({', '.join(t for _ in k.writes)}) {{"
            )
            lines.append(f"  ^bb0({params}):")
            total = "%lam_x0"
            for j in range(1, len(k.reads)):
                lines.append(f"    %lam_s{j} = arith.addf {total}, %lam_x{j} : f32")
                total = f"%lam_s{j}"
            outs = []
            for j, _ in enumerate(k.writes):
                # distinct outputs, values kept near 1 whatever the depth
                lines.append(f"    %lam_c{j} = arith.constant {0.5 / len(k.reads) + 0.125 * j} : f32")
                lines.append(f"    %lam_y{j} = arith.mulf {total}, %lam_c{j} : f32")
                outs.append(f"%lam_y{j}")
            lines.append(f"    soac.yield {', '.join(outs)} : {', '.join('f32' for _ in outs)}")
            lines.append("  }")
        lines.append(f"  func.return {', '.join('%' + r for r in self.results)} : {', '.join(t for _ in self.results)}")
        lines.append("}")
        return "\n".join(lines) + "\n"


def figure2() -> Graph:
    """The study's running example, exactly (N = 5, M_init = 3; Kernel1 on the CPU)."""
    k = GraphKernel
    return Graph(
        "random N=5 (Figure 2)",
        (
            k(("b", "a"), ("d", "e")),
            k(("e", "b"), ("f", "g"), on_host=True),
            k(("c", "f"), ("h", "i")),
            k(("f", "h"), ("j", "k")),
            k(("h", "e"), ("l", "m")),
        ),
        paper={"saved": 7, "speedup": {4096: 49.6, 16384: 26.9, 65536: 10.5, 262144: 10.1, 1 << 20: 3.9, 1 << 22: -0.1}},
    )


def random_graph(n: int, m_init: int, reads: tuple[int, int], writes: tuple[int, int], seed: int = 1) -> list[GraphKernel]:
    """The study's generator, as it describes it: n kernels, m_init vectors live on
    entry, in- and out-degrees uniform in the ranges, each kernel on the GPU with
    probability 1/2; inputs drawn from the vectors so far."""
    rng = random.Random(seed)
    vectors = [f"v{i}" for i in range(m_init)]
    kernels = []
    for _ in range(n):
        ins = rng.sample(vectors, min(len(vectors), rng.randint(*reads)))
        outs = [f"v{len(vectors) + j}" for j in range(rng.randint(*writes))]
        vectors += outs
        kernels.append(GraphKernel(tuple(ins), tuple(outs), on_host=rng.random() < 0.5))
    return kernels


def random24() -> Graph:
    return Graph(
        "random N=24",
        tuple(random_graph(24, 10, (2, 3), (2, 2))),
        paper={"saved": 28, "speedup": {4096: 170.9, 16384: 27.5, 65536: 12.9, 262144: 0.8, 1 << 20: 1.3, 1 << 22: -1.7}},
    )


def horner(n: int = 20, seed: int = 2) -> Graph:
    """p ← p·x + cᵢ: n kernels (a multiply and an add per coefficient), x and n/2 + 1
    coefficients live on entry; kernels on the CPU with probability 1/2."""
    rng = random.Random(seed)
    kernels = []
    p = "c0"
    for i in range(1, n // 2 + 1):
        kernels.append(GraphKernel((p, "x"), (f"t{i}",), on_host=rng.random() < 0.5))
        kernels.append(GraphKernel((f"t{i}", f"c{i}"), (f"p{i}",), on_host=rng.random() < 0.5))
        p = f"p{i}"
    return Graph(
        "Horner N=20",
        tuple(kernels),
        paper={"saved": 11, "speedup": {4096: 11.8, 16384: 9.0, 65536: 13.0, 262144: 9.9, 1 << 20: 3.1, 1 << 22: 0.3}},
    )


def cholesky(syrk_on_host: bool = False) -> Graph:
    """Left-looking Cholesky of 4×4 tiles (PLASMA), POTRF on the CPU, TRSM, SYRK and GEMM
    on the GPU (SYRK on the CPU too where asked): 20 kernels; each tile update writes
    a new version of the tile (single assignment)."""
    version = {(i, j): f"a{i}{j}" for i in range(4) for j in range(i + 1)}
    kernels = []

    def update(tile, reads, on_host=False):
        new = version[tile] + "_"
        kernels.append(GraphKernel((version[tile], *reads), (new,), on_host))
        version[tile] = new

    for k in range(4):
        for j in range(k):
            update((k, k), (version[(k, j)],), on_host=syrk_on_host)  # SYRK
        update((k, k), (), on_host=True)  # POTRF
        for i in range(k + 1, 4):
            for j in range(k):
                update((i, k), (version[(i, j)], version[(k, j)]))  # GEMM
            update((i, k), (version[(k, k)],))  # TRSM
    paper = {"saved": 9 if syrk_on_host else 14}
    if not syrk_on_host:
        paper["speedup"] = {4096: 11.6, 16384: 6.3, 65536: 3.4, 262144: 4.2, 1 << 20: 1.1, 1 << 22: -0.8}
    return Graph("Cholesky 4x4" + (" (SYRK on CPU)" if syrk_on_host else ""), tuple(kernels), exits=tuple(version.values()), paper=paper)


def matmul2x2() -> Graph:
    """C = A·B in 2×2 blocks: 8 GEMMs on the GPU, 4 MADDs on the CPU."""
    kernels = []
    for i in range(2):
        for j in range(2):
            for k in range(2):
                kernels.append(GraphKernel((f"a{i}{k}", f"b{k}{j}"), (f"p{i}{j}{k}",)))
            kernels.append(GraphKernel((f"p{i}{j}0", f"p{i}{j}1"), (f"c{i}{j}",), on_host=True))
    return Graph(
        "2x2 matmul",
        tuple(kernels),
        paper={"saved": 11, "speedup": {4096: 28.9, 16384: 13.8, 65536: 10.6, 262144: 10.5, 1 << 20: 1.9, 1 << 22: 0.7}},
    )


def cg_steady_state() -> Graph:
    """One iteration of conjugate gradients, SpMV on the CPU, the rest on the GPU (the
    dot products as vectors of the same length, as linear-work kernels)."""
    k = GraphKernel
    return Graph(
        "CG steady state",
        (
            k(("p",), ("q",), on_host=True),  # q = A p
            k(("r",), ("rho",)),  # rho = r·r
            k(("p", "q", "rho"), ("alpha",)),  # alpha = rho / p·q
            k(("x", "p", "alpha"), ("x1",)),  # x += alpha p
            k(("r", "q", "alpha"), ("r1",)),  # r -= alpha q
            k(("r1", "rho"), ("beta",)),  # beta = r1·r1 / rho
            k(("r1", "beta", "p"), ("p1",)),  # p = r1 + beta p
        ),
        paper={"saved": 2, "speedup": {4096: 5.0, 16384: 0.0, 65536: 2.1, 262144: 2.9, 1 << 20: 0.5, 1 << 22: 0.5}},
    )


def chain(n: int = 20) -> Graph:
    return Graph("chain N=20", tuple(GraphKernel((f"v{i}",), (f"v{i + 1}",)) for i in range(n)), paper={"saved": 0})


def out_tree() -> Graph:
    """15 kernels on the GPU, each splitting a vector in two: 16 leaves live on exit."""
    kernels = [GraphKernel((f"n{i}",), (f"n{2 * i + 1}", f"n{2 * i + 2}")) for i in range(15)]
    return Graph("out-bound binary tree", tuple(kernels), paper={"saved": 15})


def in_tree() -> Graph:
    """15 kernels on the GPU, each adding two vectors: 16 leaves live on entry."""
    kernels = [GraphKernel((f"n{2 * i + 1}", f"n{2 * i + 2}"), (f"n{i}",)) for i in reversed(range(15))]
    return Graph("in-bound binary tree", tuple(kernels), paper={"saved": 15})


def all_graphs() -> list[Graph]:
    return [figure2(), random24(), horner(), cholesky(), cholesky(syrk_on_host=True), matmul2x2(), cg_steady_state(), chain(), out_tree(), in_tree()]
