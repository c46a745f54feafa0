"""Arrays at the boundary (issue 19, items 4 and 5): one program (K arguments of N
floats added by one map) called with NumPy arrays in pageable memory (the driver's own
copies, as before staged copies, and soacc's staged copies), with NumPy arrays in
page-locked memory (soacc.host_array), with CuPy arrays and host results, and with
CuPy arrays and device results (soacc.DeviceArray), beside CuPy computing the same sum
on the same device arrays. Task graphs off and on; median of `--repeat` calls after
warm-up. Not a test: nothing about times is asserted.

    python benchmarks/device_arrays.py [--arguments 4] [--sizes 4096,1048576,16777216] [--repeat 30] [--json FILE]

Columns (ms a call): driver, staged, pinned: NumPy arguments in pageable memory through
the driver's copies, through soacc's staged copies (the default), in page-locked
memory; cupy in: CuPy arguments, NumPy results; cupy in+out: CuPy arguments, device
results; cupy itself: CuPy's own adds.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

import soacc

sys.path.insert(0, str(Path(__file__).parent))
from transfers import parse_sizes, program, timed  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arguments", type=int, default=4)
    parser.add_argument("--sizes", default="4096,1048576,16777216")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--json")
    options = parser.parse_args(argv)
    if options.arguments < 2 or options.repeat < 1:
        parser.error("--arguments must be at least 2 and --repeat at least 1")
    sizes = parse_sizes(parser, options.sizes)
    from soacc.runtime.gpu import gpu_available

    usable, why = gpu_available()
    if not usable:
        print(f"device_arrays.py: no GPU: {why}", file=sys.stderr)
        return 2
    try:
        import cupy
    except ImportError:
        print("device_arrays.py: CuPy is not installed", file=sys.stderr)
        return 2
    k = options.arguments
    source = program(k)
    host_out = soacc.compile(source, backend="cuda")
    device_out = soacc.compile(source, backend="cuda", results="device")
    sync = cupy.cuda.runtime.deviceSynchronize
    rows = []
    print(f"{k} arguments; median of {options.repeat} calls, ms")
    print(
        f"{'floats':>9} {'graphs':>6} {'driver':>9} {'staged':>9} {'pinned':>9} {'cupy in':>9} {'cupy in+out':>11} "
        f"{'cupy itself':>11} {'driver/pinned':>13} {'staged/dev':>10}"
    )
    for n in sizes:
        rng = np.random.default_rng(n)
        host_args = [rng.random(n, dtype=np.float32) for _ in range(k)]
        pinned_args = []
        for a in host_args:
            pinned = soacc.host_array(a.shape, a.dtype)
            pinned[...] = a
            pinned_args.append(pinned)
        device_args = [cupy.asarray(a) for a in host_args]
        want = np.sum(host_args, axis=0, dtype=np.float32)
        for graphs in (False, True):
            host_out.task_graphs = device_out.task_graphs = graphs
            np.testing.assert_allclose(host_out.main(*host_args), want, rtol=1e-5)
            np.testing.assert_allclose(host_out.main(*device_args), want, rtol=1e-5)
            np.testing.assert_allclose(host_out.main(*pinned_args), want, rtol=1e-5)
            np.testing.assert_allclose(cupy.asnumpy(cupy.asarray(device_out.main(*device_args))), want, rtol=1e-5)

            def cupy_itself():
                total = device_args[0] + device_args[1]
                for a in device_args[2:]:
                    total += a
                return total

            memory = host_out.executor.memory
            memory.staging_on = False
            driver_ms = 1e3 * timed(lambda: host_out.main(*host_args), options.repeat, sync)
            memory.staging_on = True
            row = {
                "floats": n, "graphs": graphs,
                "numpy_driver_ms": driver_ms,
                "numpy_ms": 1e3 * timed(lambda: host_out.main(*host_args), options.repeat, sync),
                "numpy_pinned_ms": 1e3 * timed(lambda: host_out.main(*pinned_args), options.repeat, sync),
                "cupy_in_ms": 1e3 * timed(lambda: host_out.main(*device_args), options.repeat, sync),
                "cupy_in_out_ms": 1e3 * timed(lambda: device_out.main(*device_args), options.repeat, sync),
                "cupy_itself_ms": 1e3 * timed(cupy_itself, options.repeat, sync),
                "copies_device_to_device": device_out.statistics.copies["device->device"].count,
            }
            rows.append(row)
            print(
                f"{n:>9} {str(graphs):>6} {row['numpy_driver_ms']:>9.3f} {row['numpy_ms']:>9.3f} {row['numpy_pinned_ms']:>9.3f} "
                f"{row['cupy_in_ms']:>9.3f} {row['cupy_in_out_ms']:>11.3f} {row['cupy_itself_ms']:>11.3f} "
                f"{row['numpy_driver_ms'] / row['numpy_pinned_ms']:>12.2f}x {row['numpy_ms'] / row['cupy_in_out_ms']:>9.2f}x"
            )
    if options.json:
        Path(options.json).write_text(json.dumps({"arguments": k, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
