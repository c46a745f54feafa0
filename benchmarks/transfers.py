"""Transfer fusion on the GPU (issue 19), in two parts.

`--what graphs`: the kernel–vector graphs of Kessler's study (benchmarks/
transfer_graphs.py: its Figure 2, a random graph of 24 kernels, Horner, Cholesky with
POTRF (and SYRK) on the CPU, 2×2 block matmul with the MADDs on the CPU, the CG loop's
steady state, the chain and both binary trees) as soacc programs whose CPU kernels
place-kernels puts on the host, compiled without and with fuse-transfers (which
co-locates each message's vectors in one arena, so its allocations are fused too), at
each length: transfers before and messages after (the run's copies), the median time
of a call (eager: a call with host kernels is no task graph), the speedup, and the
study's Table 5 speedup beside it; then, past the study, the time and messages with
tight uploads and joint early downloads (`fuse-transfers{mode=tight early-downloads=true}`). Then the study's two-allocation anomaly: cuMemAlloc
and cuMemFree of 2 and 3 blocks of N floats against one block of 2N and 3N (soacc
allocates from a pool, so the anomaly cannot reach it; this measures the driver).

`--what arguments`: a program of K array arguments of N floats each (one map adds
them), with and without fuse-transfers, task graphs off and on, beside the device's
host-to-device copy of the same bytes in one message.

Host in, host out, median of `--repeat` calls after warm-up calls (fewer at 1M floats
and above). Not a test: nothing about times is asserted.

    python benchmarks/transfers.py [--what graphs,arguments] [--arguments 8] [--sizes 4096,...] [--repeat 30] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import soacc


def program(k: int) -> str:
    params = ", ".join(f"%a{i}: tensor<?xf32>" for i in range(k))
    types = ", ".join("tensor<?xf32>" for _ in range(k))
    lanes = ", ".join(f"%x{i}: f32" for i in range(k))
    body = ["    %s0 = arith.addf %x0, %x1 : f32"]
    for i in range(2, k):
        body.append(f"    %s{i - 1} = arith.addf %s{i - 2}, %x{i} : f32")
    return (
        f"func.func @main({params}) -> tensor<?xf32> {{\n"
        f"  %r = soac.map({', '.join(f'%a{i}' for i in range(k))}) : ({types}) -> tensor<?xf32> {{\n"
        f"  ^bb0({lanes}):\n" + "\n".join(body) + f"\n    soac.yield %s{k - 2} : f32\n  }}\n"
        "  func.return %r : tensor<?xf32>\n}\n"
    )


def timed(call, repeat: int, synchronize=lambda: None) -> float:
    """The median seconds of `repeat` calls after 5 untimed ones, each call followed by
    `synchronize` (what work it left on a device, where a caller needs it waited for)."""
    for _ in range(5):
        call()
    synchronize()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        synchronize()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def parse_sizes(parser: argparse.ArgumentParser, text: str, option: str = "--sizes") -> list[int]:
    try:
        return [int(s) for s in text.split(",")]
    except ValueError:
        parser.error(f"{option} must be integers separated by commas, got {text!r}")


def repeats_for(n: int, repeat: int) -> int:
    """Fewer calls where each moves many megabytes."""
    return max(3, repeat // 4) if n >= 1 << 20 else repeat


def graph_rows(sizes: list[int], repeat: int) -> list[dict]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from transfer_graphs import all_graphs

    from soacc.pipeline import SoaccPipelinePass

    rows = []
    print("The study's graphs (fusion=false: the graphs' kernels stay as written); median of a call, ms")
    print(f"{'graph':28} {'floats':>8} {'transfers':>9} {'messages':>8} {'no TF':>9} {'TF':>9} {'speedup':>8} {'study':>7} {'early':>9} {'msgs':>5}")
    for graph in all_graphs():
        source = graph.program()
        host = graph.host_kernels
        fused = SoaccPipelinePass(fusion=False, host_kernels=host, transfers=True).stages()
        pipelines = {
            "separate": str(SoaccPipelinePass(fusion=False, host_kernels=host).pipeline_pass_spec()),
            "fused": fused,
            # past the study: tight uploads and joint early downloads
            "early": fused.replace("fuse-transfers", "fuse-transfers{mode=tight early-downloads=true}"),
        }
        programs = {name: soacc.compile(source, backend="cuda", pipeline=p) for name, p in pipelines.items()}
        reference = soacc.compile(source, backend="numpy", pipeline=pipelines["separate"])
        for n in sizes:
            rng = np.random.default_rng(n)
            args = [rng.random(n, dtype=np.float32) for _ in graph.entries]
            want = reference.main(*args) if n <= 1 << 16 else None
            times, moved = {}, {}
            for name, p in programs.items():
                p.task_graphs = False
                got = p.main(*args)
                if want is not None:
                    for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
                        np.testing.assert_allclose(g, w, rtol=1e-4)
                times[name] = timed(lambda: p.main(*args), repeats_for(n, repeat))
                c = p.statistics.copies
                moved[name] = c["host->device"].count + c["device->host"].count
            study = graph.paper.get("speedup", {}).get(n)
            row = {
                "graph": graph.name, "floats": n, "transfers": moved["separate"], "messages": moved["fused"],
                "separate_ms": times["separate"] * 1e3, "fused_ms": times["fused"] * 1e3,
                "speedup_percent": (times["separate"] / times["fused"] - 1) * 100,
                "study_saved": graph.paper.get("saved"), "study_speedup_percent": study,
                "early_ms": times["early"] * 1e3, "early_messages": moved["early"],
            }
            rows.append(row)
            print(f"{graph.name:28} {n:>8} {row['transfers']:>9} {row['messages']:>8} {row['separate_ms']:9.3f} "
                  f"{row['fused_ms']:9.3f} {row['speedup_percent']:7.1f}% {'' if study is None else f'{study:.1f}%':>7} "
                  f"{row['early_ms']:9.3f} {row['early_messages']:>5}", flush=True)
    return rows


def allocation_rows(sizes: list[int], repeat: int) -> list[dict]:
    """cuMemAlloc + cuMemFree of k blocks of n floats against one of k·n (the study's
    footnote: fusing exactly two allocations could be slower)."""
    import pycuda.driver as cuda

    def separate(k: int, n: int) -> None:
        blocks = [cuda.mem_alloc(4 * n) for _ in range(k)]
        for b in blocks:
            b.free()

    def fused(k: int, n: int) -> None:
        cuda.mem_alloc(4 * n * k).free()

    rows = []
    print("cuMemAlloc + cuMemFree (the driver's, not soacc's pool), µs")
    print(f"{'floats':>8} {'k':>2} {'k blocks':>9} {'one block':>9} {'speedup':>8}")
    for n in sizes:
        for k in (2, 3):
            apart = timed(lambda: separate(k, n), repeat) * 1e6
            together = timed(lambda: fused(k, n), repeat) * 1e6
            rows.append({"floats": n, "blocks": k, "separate_us": apart, "fused_us": together, "speedup_percent": (apart / together - 1) * 100})
            print(f"{n:>8} {k:>2} {apart:9.1f} {together:9.1f} {(apart / together - 1) * 100:7.1f}%", flush=True)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--what", default="graphs,arguments", help="graphs, arguments, or both (comma-separated)")
    parser.add_argument("--arguments", type=int, default=8)
    parser.add_argument("--sizes", default="4096,16384,65536,262144,1048576,4194304")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--json")
    options = parser.parse_args(argv)
    if options.arguments < 2:
        parser.error("--arguments must be at least 2 (one argument is no message to fuse)")
    what = set(options.what.split(","))
    if not what or not what <= {"graphs", "arguments"}:
        parser.error(f"--what is graphs, arguments or both, got {options.what!r}")
    if options.repeat < 1:
        parser.error("--repeat must be at least 1")
    sizes = parse_sizes(parser, options.sizes)
    from soacc.runtime.gpu import gpu_available

    usable, why = gpu_available()
    if not usable:
        print(f"transfers.py: no GPU: {why}", file=sys.stderr)
        return 2
    import pycuda.driver as cuda

    report: dict = {"date": time.strftime("%Y-%m-%d"), "repeat": options.repeat}
    soacc.compile(program(2), backend="cuda").main(*[np.zeros(1, np.float32)] * 2)  # makes soacc's CUDA context current
    if "graphs" in what:
        report["graphs"] = graph_rows(sizes, options.repeat)
        report["allocations"] = allocation_rows(sizes, options.repeat)
    if "arguments" in what:
        report["arguments"] = argument_rows(options.arguments, sizes, options.repeat)
    if options.json:
        with open(options.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0


def argument_rows(k: int, sizes: list[int], repeat: int) -> list[dict]:
    """K arguments of n floats, added by one map: with and without fuse-transfers,
    task graphs off and on, beside one host-to-device copy of their bytes."""
    import pycuda.driver as cuda

    source = program(k)
    rows = []
    print(f"{k} arguments; median of {repeat} calls, ms")
    print(f"{'floats':>9} {'graphs':>6} {'separate':>9} {'fused':>9} {'fused/sep':>9} {'messages':>9} {'one copy':>9}")
    for n in sizes:
        rng = np.random.default_rng(n)
        args = [rng.random(n, dtype=np.float32) for _ in range(k)]
        want = np.sum(args, axis=0, dtype=np.float32)
        packed = np.concatenate(args)
        device_copy = cuda.mem_alloc(packed.nbytes)
        one_copy = timed(lambda: (cuda.memcpy_htod(device_copy, packed), cuda.Context.synchronize()), repeat)
        for graphs in (False, True):
            times, messages = {}, {}
            for name, pipeline in (("separate", "soacc-pipeline"), ("fused", "soacc-pipeline{transfers=true}")):
                p = soacc.compile(source, backend="cuda", pipeline=pipeline)
                p.task_graphs = graphs
                got = p.main(*args)
                np.testing.assert_allclose(got, want, rtol=1e-5)
                times[name] = timed(lambda: p.main(*args), repeat)
                messages[name] = p.statistics.copies["host->device"].count
            row = {
                "floats": n, "graphs": graphs, "separate_ms": times["separate"] * 1e3, "fused_ms": times["fused"] * 1e3,
                "speedup": times["separate"] / times["fused"], "messages": [messages["separate"], messages["fused"]],
                "one_copy_ms": one_copy * 1e3,
            }
            rows.append(row)
            print(f"{n:>9} {str(graphs):>6} {row['separate_ms']:9.3f} {row['fused_ms']:9.3f} {row['speedup']:8.2f}x "
                  f"{messages['separate']:>4}->{messages['fused']:<4} {row['one_copy_ms']:9.3f}")
        device_copy.free()
    return rows


if __name__ == "__main__":
    sys.exit(main())
