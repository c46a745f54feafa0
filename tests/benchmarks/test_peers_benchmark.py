"""benchmarks/peers.py on the CPU (its GPU run, against JAX and CuPy, is the lead's): the
harness runs soacc's reference executor and NumPy, prints one row per program and writes
the same in JSON; a peer whose result is wrong, or that fails, is reported so and not
timed; a framework that cannot run is left out with a note. The peers' versions
themselves (peers_eager.py, which CuPy runs, on NumPy; peers_jax.py where JAX is
installed) agree with every program's NumPy definition."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.support.negated_reference import NegatedReference
from tests.support.scripts import load_benchmark

TWO = "dot_product,gauss_jordan"


@pytest.fixture(scope="module")
def peers():
    return load_benchmark("peers.py")


def rows(out: str, names: list[str]) -> dict[str, list[str]]:
    return {line.split()[0]: line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0] in names}


def test_the_harness_prints_a_row_per_program_and_writes_json(peers, tmp_path, capsys):
    report = tmp_path / "peers.json"
    status = peers.main(["--backend", "numpy", "--small", "--repeat", "2", "--programs", TWO, "--json", str(report)])
    assert status == 0
    out = capsys.readouterr().out
    table = rows(out, ["dot_product", "gauss_jordan"])
    assert list(table) == ["gauss_jordan", "dot_product"]  # in the benchmark's order
    for name, row in table.items():
        soacc_ms, numpy_ms = float(row[2]), float(row[3])  # both timed: numbers, not WRONG or ERROR
        assert soacc_ms > 0 and numpy_ms > 0
        assert row[4].endswith("x")  # numpy/soacc
    assert table["dot_product"][-2] != "-"  # a one-pass program: its bytes and GB/s
    assert table["gauss_jordan"][-2:] == ["-", "-"]  # an iterative one: none
    assert "geometric mean numpy/soacc: " in out

    data = json.loads(report.read_text())
    assert data["backend"] == "numpy" and data["repeat"] == 2
    assert data["frameworks"]["soacc"]["available"] and data["frameworks"]["numpy"]["available"]
    assert [p["name"] for p in data["programs"]] == ["gauss_jordan", "dot_product"]
    for program in data["programs"]:
        for framework in ("soacc", "numpy"):
            result = program["results"][framework]
            assert result["status"] == "ok" and len(result["samples_s"]) == 2
            assert result["median_s"] == pytest.approx(float(np.median(result["samples_s"])))
        numpy_ratio = program["ratios"]["numpy"]
        assert numpy_ratio["of_medians"] == pytest.approx(
            program["results"]["numpy"]["median_s"] / program["results"]["soacc"]["median_s"]
        )
        median, low, high = numpy_ratio["paired"]
        rounds = [n / s for n, s in zip(program["results"]["numpy"]["samples_s"], program["results"]["soacc"]["samples_s"])]
        assert median == pytest.approx(float(np.median(rounds)))  # each round's own ratio, paired
        assert low <= median <= high
    dot = data["programs"][1]
    assert dot["bytes"] == 2 * 4 * 1000 + 4  # two f32 inputs of 1000 and one f32 result
    geomean = data["geomean"]["numpy"]
    assert geomean["programs"] == 2
    ratios = [p["ratios"]["numpy"]["of_medians"] for p in data["programs"]]
    assert geomean["all"] == pytest.approx(float(np.sqrt(ratios[0] * ratios[1])))
    assert geomean["iterative"] == pytest.approx(ratios[0])  # gauss_jordan alone


def test_a_wrong_peer_result_is_reported_wrong_and_not_timed(peers, monkeypatch, tmp_path, capsys):
    right = peers.EAGER_PROGRAMS["dot_product"]
    monkeypatch.setitem(peers.EAGER_PROGRAMS, "dot_product", lambda xp, a, b: right(xp, a, b) + np.float32(1))
    report = tmp_path / "peers.json"
    assert peers.main(["--backend", "numpy", "--small", "--repeat", "2", "--programs", "dot_product", "--json", str(report)]) == 0
    row = rows(capsys.readouterr().out, ["dot_product"])["dot_product"]
    assert row[3] == "WRONG" and row[4] == "-"
    assert "numpy: wrong result 0 differs" in " ".join(row)
    result = json.loads(report.read_text())["programs"][0]
    assert result["results"]["numpy"]["status"] == "wrong" and result["results"]["numpy"]["samples_s"] == []
    assert result["results"]["soacc"]["status"] == "ok"
    assert result["ratios"]["numpy"] is None


def test_a_failing_peer_is_reported_and_the_others_still_run(peers, monkeypatch, capsys):
    def broken(xp, a, b):
        raise RuntimeError("out of device memory")

    monkeypatch.setitem(peers.EAGER_PROGRAMS, "dot_product", broken)
    assert peers.main(["--backend", "numpy", "--small", "--repeat", "1", "--programs", TWO]) == 0
    table = rows(capsys.readouterr().out, ["dot_product", "gauss_jordan"])
    assert table["dot_product"][3] == "ERROR"
    assert "RuntimeError: out of device memory" in " ".join(table["dot_product"])
    assert float(table["gauss_jordan"][3]) > 0


def test_a_peer_that_fails_in_a_timed_round_is_reported_and_its_rounds_end(peers, monkeypatch, capsys):
    right = peers.EAGER_PROGRAMS["dot_product"]
    calls = []

    def flaky(xp, a, b):
        calls.append(None)
        if len(calls) == 2:
            raise MemoryError("out of device memory")
        return right(xp, a, b)

    monkeypatch.setitem(peers.EAGER_PROGRAMS, "dot_product", flaky)
    assert peers.main(["--backend", "numpy", "--small", "--repeat", "3", "--programs", "dot_product"]) == 0
    row = rows(capsys.readouterr().out, ["dot_product"])["dot_product"]
    assert row[3] == "ERROR" and "in a timed round: MemoryError: out of device memory" in " ".join(row)
    assert len(calls) == 2  # the first call, checked, and the round that failed


def test_a_peer_that_changes_its_arguments_is_reported_and_not_timed(peers, monkeypatch, capsys, tmp_path):
    right = peers.EAGER_PROGRAMS["dot_product"]

    def in_place(xp, a, b):
        result = right(xp, a, b)
        a *= 2  # NumPy's asarray gives the harness's own array
        return result

    monkeypatch.setitem(peers.EAGER_PROGRAMS, "dot_product", in_place)
    report = tmp_path / "peers.json"
    argv = ["--backend", "numpy", "--small", "--repeat", "1", "--programs", "dot_product", "--json", str(report)]
    assert peers.main(argv) == 0
    row = rows(capsys.readouterr().out, ["dot_product"])["dot_product"]
    assert row[3] == "ERROR" and "it changed its arguments" in " ".join(row)
    results = json.loads(report.read_text())["programs"][0]["results"]
    assert results["numpy"]["samples_s"] == [] and results["soacc"]["status"] == "ok"


def test_a_wrong_soacc_result_is_the_exit_status(peers, monkeypatch, capsys):
    """gauss_jordan's definition negated (NegatedReference): soacc now disagrees."""
    load = peers.load_programs
    monkeypatch.setattr(peers, "load_programs", lambda: {k: NegatedReference(v) for k, v in load().items()})
    assert peers.main(["--backend", "numpy", "--small", "--repeat", "1", "--programs", "gauss_jordan"]) == 1
    row = rows(capsys.readouterr().out, ["gauss_jordan"])["gauss_jordan"]
    assert row[2] == "WRONG" and row[3] == "WRONG"


def test_a_framework_that_cannot_run_is_left_out_with_a_note(peers, capsys):
    assert peers.main(["--backend", "numpy", "--small", "--repeat", "1", "--programs", "dot_product", "--peers", "numpy,cupy"]) == 0
    out = capsys.readouterr().out
    assert "cupy: left out: CuPy runs on the GPU: only with --backend cuda" in out
    assert rows(out, ["dot_product"])["dot_product"][4] == "-"  # no CuPy time
    assert "cupy/soacc: no program timed for both" in out


def test_the_host_loop_peers_run_soacc_without_device_loops(peers, capsys):
    """soacc-host-loops and soacc-host-loops-unsegmented (segment graphs on and off) are
    soacc itself with another pipeline on the GPU; here, soacc on the CPU, timed as peers."""
    argv = ["--backend", "numpy", "--small", "--repeat", "1", "--programs", "convergence"]
    assert peers.main([*argv, "--peers", "soacc-host-loops,soacc-host-loops-unsegmented"]) == 0
    out = capsys.readouterr().out
    assert "soacc-host-loops: the CPU reference executor" in out
    assert "soacc-host-loops-unsegmented/soacc" in out
    row = rows(out, ["convergence"])["convergence"]
    assert row[3] != "-" and row[4] != "-"


@pytest.mark.parametrize("argv", [["--programs", "nonesuch"], ["--peers", "torch"], ["--repeat", "-1"]])
def test_bad_arguments_are_usage_errors(peers, argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        peers.main(["--backend", "numpy", *argv])
    assert exit_.value.code == 2


def test_the_allowance_accepts_rounding_and_nothing_more(peers):
    allowance = peers.Allowance(0.0, 0.0, 0.01, "why")
    expected = (np.arange(1000, dtype=np.int32),)
    nine = expected[0].copy()
    nine[:9] += 1
    eleven = expected[0].copy()
    eleven[:11] += 1
    assert peers.within_allowance((nine,), expected, allowance) is None
    assert "11 of 1000 elements differ" in peers.within_allowance((eleven,), expected, allowance)
    assert "int64" in peers.within_allowance((expected[0].astype(np.int64),), expected, allowance)


def small_cases(peers):
    examples = peers.load_programs()
    return [(b, examples[(b.folder, b.name)]) for b in peers.BENCHMARKS]


def check_version(peers, framework, benchmark, example):
    args = tuple(example.make_inputs(np.random.default_rng(3), benchmark.small))
    expected = example.reference(*peers.copies(args))  # before a version could change them
    status, why = peers.mismatch_with_allowance(
        framework.prepare(benchmark, example)(args), expected, example, benchmark.allowance
    )
    assert status in ("ok", "ok~"), f"{framework.name} {benchmark.name}: {why}"


def test_every_eager_version_agrees_with_its_definition(peers):
    """What CuPy runs on the GPU, run on NumPy at the small sizes."""
    framework = peers.numpy_framework()
    for benchmark, example in small_cases(peers):
        check_version(peers, framework, benchmark, example)


def test_every_jax_version_agrees_with_its_definition(peers):
    """On JAX's CPU, where JAX is installed (it is not a dependency of soacc)."""
    pytest.importorskip("jax")
    framework = peers.jax_framework("numpy")
    assert framework.available, framework.note
    for benchmark, example in small_cases(peers):
        check_version(peers, framework, benchmark, example)


def test_every_program_has_its_peer_versions(peers):
    assert {b.name for b in peers.BENCHMARKS} == set(peers.EAGER_PROGRAMS)
    source = (peers.HERE / "peers_jax.py").read_text()
    for b in peers.BENCHMARKS:
        assert f'"{b.name}": ' in source, f"peers_jax.py has no {b.name}"
