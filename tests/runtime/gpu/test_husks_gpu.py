"""Husks on the GPU (marker gpu), with several contexts on one GPU standing in for
several GPUs ($SOACC_VIRTUAL_DEVICES=1: the digest's convention): every example and
benchmark program with husks on 1 and 2 devices gives the reference executor's results
(on as many simulated devices); the study's integer cases give bit-identical results on
1 to 4 devices, with the reference executor's copies between devices. Skipped where
there is no GPU."""

from __future__ import annotations


import numpy as np
import pytest

import soacc
from soacc.pipeline import SoaccPipelinePass
from soacc.tools.examples import mismatch

from tests.passes import test_soac_to_husk as cases
from tests.support.scripts import every_program

pytestmark = pytest.mark.gpu

PROGRAMS = every_program("device_syncs", "memory")


@pytest.fixture(autouse=True)
def virtual_devices(monkeypatch):
    monkeypatch.setenv("SOACC_VIRTUAL_DEVICES", "1")
    monkeypatch.setenv("SOACC_HUSK_SPLIT", "always")  # every device runs, whatever it costs


def copies(args):
    return [np.copy(a) if isinstance(a, np.ndarray) else a for a in args]


@pytest.mark.parametrize("example", PROGRAMS, ids=[f"{e.program_path.parent.name}/{e.name}" for e in PROGRAMS])
def test_programs_with_husks_on_the_gpu(example):
    size = getattr(example.definition, "SMALL_SIZE", 7)
    args = example.make_inputs(np.random.default_rng(3), size)
    for devices in (1, 2):
        want = soacc.compile(example.program_path, backend="numpy", devices=devices,
                             pipeline=SoaccPipelinePass(husks=True).level2_stages()).main(*copies(args))
        pipeline = str(SoaccPipelinePass(husks=True).pipeline_pass_spec())
        program = soacc.compile(example.program_path, backend="cuda", pipeline=pipeline, devices=devices)
        for _ in range(2):
            why = mismatch(program.main(*copies(args)), want, rtol=1e-4, atol=1e-5)
            assert why is None, f"devices={devices}: {why}"


INTEGER_CASES = [
    ("t1_map", cases.MAP, lambda: (np.arange(10, dtype=np.int32),)),
    ("t11_map", cases.MAP, lambda: (np.arange(5, dtype=np.int32),)),
    ("t12_empty", cases.SUM, lambda: (np.arange(0, dtype=np.int32),)),
    ("t2_sum", cases.SUM, lambda: (np.arange(10, dtype=np.int32),)),
    ("t4_affine", cases.AFFINE, lambda: (cases.T4_AS, cases.T4_BS)),
    ("t5_matvec", cases.MATVEC, lambda: (cases.XSS, cases.YS)),
]


@pytest.mark.parametrize("name,source,make", INTEGER_CASES, ids=[c[0] for c in INTEGER_CASES])
def test_integer_results_bit_identical_for_every_device_count(name, source, make):
    pipeline = str(SoaccPipelinePass(husks=True).pipeline_pass_spec())
    level2 = SoaccPipelinePass(husks=True).level2_stages()
    first = None
    for devices in (1, 2, 3, 4):
        program = soacc.compile(source, backend="cuda", pipeline=pipeline, devices=devices)
        got = program.main(*make())
        got = got if isinstance(got, tuple) else (got,)
        reference = soacc.compile(source, backend="numpy", pipeline=level2, devices=devices)
        want = reference.main(*make())
        want = want if isinstance(want, tuple) else (want,)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
        first = first or got
        for g, f in zip(got, first):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(f))
        # the same copies between devices as the reference executor's
        assert program.statistics.copies["peer"].count == reference.statistics.copies["peer"].count
        assert program.statistics.copies["peer"].bytes == reference.statistics.copies["peer"].bytes
        assert program.statistics.husks[0].partitions == reference.statistics.husks[0].partitions


def test_husks_in_a_loop_on_the_gpu():
    source = cases.LOOP
    xs = np.arange(1000, dtype=np.int64)
    want = xs.copy()
    for _ in range(50):
        want = (want * 3 + 1) % 1009
    pipeline = str(SoaccPipelinePass(husks=True).pipeline_pass_spec())
    for devices in (1, 2, 3):
        program = soacc.compile(source, backend="cuda", pipeline=pipeline, devices=devices)
        np.testing.assert_array_equal(program.main(xs), want)
        assert len(program.statistics.husks) == 50


def test_too_many_devices_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("SOACC_VIRTUAL_DEVICES", "0")
    import pycuda.driver as cuda

    cuda.init()
    with pytest.raises(soacc.ArgumentError, match="asks for .* GPUs of one kind"):
        soacc.compile(cases.MAP, backend="cuda", devices=cuda.Device.count() + 1)
