"""husks: one program over several GPUs (issue 20), measured on the GPU.

Each program is compiled three ways and timed in the same run, the configurations
alternating round by round (paired_timing.py):

- `plain`: soacc-pipeline as it is by default (no husks);
- `husks`: soacc-pipeline{husks=true} on one device: what husks cost where there is
  one GPU (the study's T19: within noise, except where a reduction used on the device
  made the thesis slower, its NN; here such a value stays on the device);
- `husks-N`: the same on N devices (`--devices N`, default 2): real GPUs where the
  machine has them, else (`--virtual`) N contexts on one GPU, which measures what the
  copies and the one host thread cost, not a speedup;
- `husks-N-fresh`: the same with every run sending each device everything afresh
  (SOACC_HUSK_RESIDENT=off, the thesis's husks): what keeping partitions and
  broadcasts resident from one run to the next saves;
- `husks-N-threads` (cuda only): the same with a host thread per device past the
  first issuing its share (SOACC_HUSK_THREADS=1, the thesis's design) instead of one
  thread issuing every device's: which of the two the runtime should use.

Programs: the thesis's patterns in benchmarks/husks/ (Mandelbrot at several sizes and
iteration limits, NN, CFD, matrix-vector, Tunnel), two past it (prefix_sum: a split
scan; permute: a split fused scatter with much work per element) and LocVolCalib and
LUD from benchmarks/memory/. Per program: the husks each call ran, the copies between devices
and their bytes, the median times and the ratio plain / configuration (above 1:
faster) with its 95% interval; every configuration's result is checked against the
program's NumPy definition. The device's copy bandwidth (device to device, and device
0 to device 1) is measured in the same run. Not a test: nothing about times is asserted.

    python benchmarks/husks.py [--repeat N] [--programs a,b] [--devices N] [--virtual] [--split model|always] [--small] [--json FILE]
    python benchmarks/husks.py --backend numpy --small   # the harness on the CPU (simulated devices)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from paired_timing import alternating_rounds, paired_summary  # noqa: E402
from report_files import write_report  # noqa: E402

from soacc.runtime.errors import SoaccError  # noqa: E402
from soacc.tools.examples import as_tuple, load_examples, mismatch  # noqa: E402

WARM_UP_CALLS = 3


@dataclass(frozen=True)
class Case:
    """A program at one size (and, for Mandelbrot, one iteration limit)."""

    label: str
    example: object
    size: int
    extra: tuple = ()

    def inputs(self):
        return self.example.make_inputs(np.random.default_rng(0), self.size, *self.extra)


def cases(small: bool) -> list[Case]:
    found = {e.name: e for e in load_examples(HERE / "husks")}
    found |= {e.name: e for e in load_examples(HERE / "memory") if e.name in ("locvolcalib", "lud")}
    chosen: list[Case] = []
    for name, example in sorted(found.items()):
        small_size = getattr(example.definition, "SMALL_SIZE", 8)
        if small:
            chosen.append(Case(name, example, small_size))
        elif name == "mandelbrot":  # the thesis's sweep: image size, then iteration limit
            for pixels, limit in ((480_000, 100), (4_000_000, 100), (16_000_000, 100), (4_000_000, 1000), (4_000_000, 10000)):
                chosen.append(Case(f"mandelbrot {pixels // 1000}K x{limit}", example, pixels, (limit,)))
        else:
            chosen.append(Case(name, example, example.default_size))
    return chosen


def compile_all(case: Case, backend: str, devices: int) -> dict:
    import soacc
    from soacc.pipeline import SoaccPipelinePass

    from soacc.runtime.gpu.husks import THREADS_ENVIRONMENT
    from soacc.runtime.husk_residency import RESIDENT_ENVIRONMENT

    compiled = {}
    for name in configuration_names(devices, backend):
        husks, count = name != "plain", (devices if name.startswith(f"husks-{devices}") else 1)
        passes = SoaccPipelinePass(husks=husks, devices=count)
        pipeline = str(passes.pipeline_pass_spec()) if backend == "cuda" else passes.level2_stages()
        settings = {  # (read as the executor is made)
            RESIDENT_ENVIRONMENT: "off" if name.endswith("-fresh") else "on",
            THREADS_ENVIRONMENT: "1" if name.endswith("-threads") else "0",
        }
        saved = {k: os.environ.get(k) for k in settings}
        os.environ.update(settings)
        try:
            compiled[name] = soacc.compile(case.example.program_path, backend=backend, pipeline=pipeline, devices=count)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    return compiled


def configuration_names(devices: int, backend: str) -> list[str]:
    if devices == 1:
        return ["plain", "husks"]
    split = [f"husks-{devices}", f"husks-{devices}-fresh"]
    return ["plain", "husks", *split, *([f"husks-{devices}-threads"] if backend == "cuda" else [])]


def copy_bandwidth(devices: int) -> dict:
    """GB/s of a 256 MiB copy on device 0, and from device 0 to device 1 (the husks'
    peer copy), through the runtime's own memories."""
    import soacc
    from soacc.pipeline import SoaccPipelinePass

    source = "func.func @main(%x: tensor<?xi32>) -> tensor<?xi32> {\n  func.return %x : tensor<?xi32>\n}\n"
    program = soacc.compile(source, backend="cuda", pipeline=str(SoaccPipelinePass().pipeline_pass_spec()), devices=devices)
    runtime = program.executor.runtime
    nbytes = 256 << 20
    result = {}
    home = runtime.memory
    a, b = runtime.alloc_device(nbytes), runtime.alloc_device(nbytes)
    home.copy(b.address, a.address, nbytes)
    home.synchronize()
    started = time.perf_counter()
    for _ in range(5):
        home.copy(b.address, a.address, nbytes)
    home.synchronize()
    result["device_to_device_GBps"] = 5 * nbytes / (time.perf_counter() - started) / 1e9
    if len(runtime.peers) > 1:
        peer = runtime.peers[1]
        with peer.memory.current():
            c = peer.alloc_device(nbytes)
        home.peer_copy(peer.memory, c.address, home, a.address, nbytes)
        home.synchronize()
        started = time.perf_counter()
        for _ in range(5):
            home.peer_copy(peer.memory, c.address, home, a.address, nbytes)
        home.synchronize()
        result["device0_to_device1_GBps"] = 5 * nbytes / (time.perf_counter() - started) / 1e9
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["cuda", "numpy"], default="cuda")
    parser.add_argument("--small", action="store_true", help="each program's small size")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--programs", help="comma-separated names (default: all)")
    parser.add_argument("--cases", help="comma-separated case names, as printed (default: every case of the programs)")
    parser.add_argument("--devices", type=int, default=2, help="the devices of the last configuration (default 2)")
    parser.add_argument("--virtual", action="store_true", help="several contexts on one GPU stand in for several GPUs")
    parser.add_argument(
        "--split", choices=["model", "always"], default="model",
        help="how many devices a husk run uses: the cost model's choice (default), or always every one",
    )
    parser.add_argument("--json", type=Path)
    options = parser.parse_args(argv)
    if options.repeat < 1:
        parser.error("--repeat must be at least 1")
    if options.devices < 1:
        parser.error("--devices must be at least 1")
    if options.json is not None and not options.json.parent.is_dir():
        parser.error(f"--json: no folder {options.json.parent}")
    settings = {"SOACC_HUSK_SPLIT": options.split, **({"SOACC_VIRTUAL_DEVICES": "1"} if options.virtual else {})}
    saved = {name: os.environ.get(name) for name in settings}
    os.environ.update(settings)
    try:
        return _run(options, parser)
    finally:  # (main may run inside another program: a test)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _run(options, parser) -> int:
    if options.backend == "cuda":
        from soacc.runtime.gpu import gpu_available

        usable, why = gpu_available()
        if not usable:
            print(f"husks: error: no GPU: {why}", file=sys.stderr)
            return 2
    chosen = cases(options.small)
    if options.programs:
        names = options.programs.split(",")
        unknown = set(names) - {c.example.name for c in chosen}
        if unknown:
            parser.error(f"no program {', '.join(sorted(unknown))}; there are {', '.join(sorted({c.example.name for c in chosen}))}")
        chosen = [c for c in chosen if c.example.name in names]
    if options.cases:
        wanted = [w.strip() for w in options.cases.split(",")]
        unknown = set(wanted) - {c.label for c in chosen}
        if unknown:
            parser.error(f"no case {', '.join(sorted(unknown))}; there are {', '.join(c.label for c in chosen)}")
        chosen = [c for c in chosen if c.label in wanted]
    configurations = configuration_names(options.devices, options.backend)
    report: dict = {
        "backend": options.backend, "repeat": options.repeat, "devices": options.devices, "virtual": options.virtual,
        "split": options.split, "programs": {},
    }
    if options.backend == "cuda":
        report["copy_bandwidth"] = copy_bandwidth(options.devices)
        print(f"copy bandwidth: {report['copy_bandwidth']}", file=sys.stderr, flush=True)
    header = (
        f"{'program':26} " + " ".join(f"{c:>11}" for c in configurations)
        + "  " + "  ".join(f"{'plain/' + c:>22}" for c in configurations[1:])
        + f"  {'husks':>5} {'peer copies':>12} {'peer MB':>8} {'kept MB':>8} {'fresh MB':>8}"
    )
    lines = [header, "-" * len(header)]
    failed = False
    for case in chosen:
        args = case.inputs()
        expected = case.example.reference(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
        print(f"{case.label} ...", file=sys.stderr, flush=True)
        status: dict[str, str] = {}
        samples: dict[str, list[float]] = {c: [] for c in configurations}
        try:
            compiled = compile_all(case, options.backend, options.devices)
        except SoaccError as error:
            compiled, failed = {}, True
            status = {c: f"ERROR: {error}".splitlines()[0] for c in configurations}
        statistics = {}
        for name, program in compiled.items():
            try:
                for _ in range(WARM_UP_CALLS):
                    got = as_tuple(program.main(*args))
            except SoaccError as error:
                status[name], failed = f"ERROR: {error}".splitlines()[0], True
                continue
            why = mismatch(got, expected, case.example.rtol, case.example.atol)
            status[name] = "ok" if why is None else f"WRONG: {why}"
            failed |= why is not None
            s = program.statistics
            statistics[name] = {"husks": len(s.husks), "devices_used": sorted({h.used for h in s.husks}),
                                "reasons": sorted({h.reason for h in s.husks})[:4],
                                "peer_copies": s.copies["peer"].count, "peer_bytes": s.copies["peer"].bytes,
                                "kept_bytes": sum(h.kept for h in s.husks),
                                "sync_reads": s.sync_reads, "kernel_launches": s.kernel_launches, "task_graph": s.task_graph}
        timed = [c for c in configurations if status.get(c) == "ok"]
        if "plain" in timed:
            samples |= alternating_rounds({c: compiled[c] for c in timed}, args, options.repeat)
        medians = {c: float(np.median(s)) if s else float("nan") for c, s in samples.items()}
        ratios = {c: paired_summary(samples["plain"], samples[c]) if samples[c] else None for c in configurations[1:]}
        report["programs"][case.label] = {
            "size": case.size, "extra": list(case.extra), "status": status, "median_s": medians, "samples_s": samples,
            "ratio_plain_over": ratios, "statistics": statistics,
        }
        split = statistics.get(f"husks-{options.devices}", {}) if options.devices > 1 else statistics.get("husks", {})
        fresh = statistics.get(f"husks-{options.devices}-fresh", {})
        cells = " ".join(f"{medians[c] * 1e3:>9.3f}ms" for c in configurations)
        ratio_cells = "  ".join(f"{r[0]:>6.2f}x [{r[1]:.2f},{r[2]:.2f}]".rjust(22) if r else f"{'-':>22}" for r in ratios.values())
        notes = "; ".join(f"{c}: {s}" for c, s in status.items() if s != "ok")
        lines.append(
            f"{case.label:26} {cells}  {ratio_cells}  {split.get('husks', '-'):>5} {split.get('peer_copies', '-'):>12} "
            f"{split.get('peer_bytes', 0) / 1e6:>8.1f} {split.get('kept_bytes', 0) / 1e6:>8.1f} {fresh.get('peer_bytes', 0) / 1e6:>8.1f}  {notes}"
        )
        print(lines[-1], file=sys.stderr, flush=True)
        if options.json is not None:  # after each program: a long run cut short keeps what it measured
            options.json.write_text(json.dumps(report, indent=1) + "\n")
    where = "contexts on one GPU" if options.virtual else "GPUs"
    print(f"backend {options.backend}; median of {options.repeat} paired rounds; ratios plain/configuration (above 1: faster); "
          f"husks-{options.devices}: {options.devices} {where}; husks, peer copies, peer and kept MB: per call of husks-{options.devices} "
          f"(kept: not sent, held from an earlier run); fresh MB: husks-{options.devices}-fresh's peer MB")
    print("\n".join(lines))
    if options.json is not None and not write_report(options.json, report, "husks"):
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
