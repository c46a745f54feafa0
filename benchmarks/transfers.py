"""Transfer fusion on the GPU (issue 19): a program of K array arguments of N floats
each (one map adds them), compiled with and without fuse-transfers, timed with task
graphs off (eager calls) and on, beside the device's host-to-device copy of the same
bytes in one message. Host in, host out, median of `--repeat` calls after warm-up
calls. Not a test: nothing about times is asserted.

    python benchmarks/transfers.py [--arguments 8] [--sizes 4096,65536,1048576,4194304] [--repeat 30] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arguments", type=int, default=8)
    parser.add_argument("--sizes", default="4096,65536,1048576,4194304")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--json")
    options = parser.parse_args(argv)
    if options.arguments < 2:
        parser.error("--arguments must be at least 2 (one argument is no message to fuse)")
    sizes = parse_sizes(parser, options.sizes)
    from soacc.runtime.gpu import gpu_available

    usable, why = gpu_available()
    if not usable:
        print(f"transfers.py: no GPU: {why}", file=sys.stderr)
        return 2
    import pycuda.driver as cuda

    k = options.arguments
    source = program(k)
    soacc.compile(source, backend="cuda").main(*[np.zeros(1, np.float32)] * k)  # makes soacc's CUDA context current
    rows = []
    print(f"{k} arguments; median of {options.repeat} calls, ms")
    print(f"{'floats':>9} {'graphs':>6} {'separate':>9} {'fused':>9} {'fused/sep':>9} {'messages':>9} {'one copy':>9}")
    for n in sizes:
        rng = np.random.default_rng(n)
        args = [rng.random(n, dtype=np.float32) for _ in range(k)]
        want = np.sum(args, axis=0, dtype=np.float32)
        packed = np.concatenate(args)
        device_copy = cuda.mem_alloc(packed.nbytes)
        one_copy = timed(lambda: (cuda.memcpy_htod(device_copy, packed), cuda.Context.synchronize()), options.repeat)
        for graphs in (False, True):
            times, messages = {}, {}
            for name, pipeline in (("separate", "soacc-pipeline"), ("fused", "soacc-pipeline{transfers=true}")):
                p = soacc.compile(source, backend="cuda", pipeline=pipeline)
                p.task_graphs = graphs
                got = p.main(*args)
                np.testing.assert_allclose(got, want, rtol=1e-5)
                times[name] = timed(lambda: p.main(*args), options.repeat)
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
    if options.json:
        with open(options.json, "w") as f:
            json.dump({"arguments": k, "repeat": options.repeat, "rows": rows, "date": time.strftime("%Y-%m-%d")}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
