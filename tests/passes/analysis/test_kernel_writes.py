"""Which arrays a kernel may write (passes/analysis/kernel_writes.py): the gpu.func
kernels of compiled programs, through views, atomics and loops; and a level-2 kernel's
captured arrays."""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects import gpu

from soacc.dialects import mem
from soacc.passes.analysis.kernel_writes import written_arrays, written_parameters
from soacc.pipeline import SoaccPipelinePass
from soacc.program import apply_pipeline, parse_program

ROOT = Path(__file__).resolve().parents[3]


def kernels(source: str, pipeline: str) -> dict[str, gpu.FuncOp]:
    module = parse_program(source)
    apply_pipeline(module, pipeline)
    return {op.sym_name.data: op for op in module.walk() if isinstance(op, gpu.FuncOp)}


def written_names(kernel: gpu.FuncOp) -> set[str]:
    params = kernel.body.block.args
    return {params[i].name_hint for i in written_parameters(kernel)}


MAP_INTO = """
func.func @main(%xs: tensor<?xi32>, %ys: tensor<?xi32>) -> tensor<?xi32> {
  %zs = soac.map(%xs, %ys) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    soac.yield %s : i32
  }
  func.return %zs : tensor<?xi32>
}
"""


def test_a_map_writes_its_result_and_only_reads_its_inputs():
    (kernel,) = kernels(MAP_INTO, str(SoaccPipelinePass().pipeline_pass_spec())).values()
    names = {a.name_hint for a in kernel.body.block.args}
    assert {"xs", "ys"} <= names
    assert written_names(kernel) == {"zs"}


def test_a_histograms_kernels_write_their_bins_by_atomics():
    found = kernels((ROOT / "examples" / "histogram.mlir").read_text(), str(SoaccPipelinePass().pipeline_pass_spec()))
    for name, kernel in found.items():
        written = written_names(kernel)
        assert written, f"{name} writes nothing?"
        if name.startswith("hist"):  # (its values and indices are read only)
            params = [a.name_hint for a in kernel.body.block.args]
            assert len(written) < len([p for p in params if p])


GATHER = """
func.func @main(%xs: tensor<?xi32>, %is: tensor<?xindex>) -> tensor<?xi32> {
  %zs = soac.map(%is) : (tensor<?xindex>) -> tensor<?xi32> {
  ^bb0(%i: index):
    %x = soac.index %xs[%i] : tensor<?xi32>
    soac.yield %x : i32
  }
  func.return %zs : tensor<?xi32>
}
"""


def test_a_captured_array_read_through_a_view_is_not_written():
    module = parse_program(GATHER)
    apply_pipeline(module, SoaccPipelinePass().level2_stages())
    (kernel,) = [op for op in module.walk() if isinstance(op, mem.MapOp)]
    from soacc.dialects.shared.utils import captured_values

    captured = [v for v in captured_values(kernel) if v.name_hint == "xs"]
    assert captured and written_arrays(captured, kernel.regions) == set()


def test_a_store_through_a_slice_of_a_captured_array_is_a_write():
    source = """
    func.func @main(%m: memref<?x?xi32, strided<[?, ?], offset: ?>, #mem.space<device>>, %xs: memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) {
      %c0 = arith.constant 0 : index
      mem.map ins(%xs : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>) outs(:) indexed {
      ^bb0(%x: i32, %i: index):
        %row = mem.slice %m[%i] : memref<?x?xi32, strided<[?, ?], offset: ?>, #mem.space<device>> -> memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>
        mem.store %x, %row[%c0] : memref<?xi32, strided<[?], offset: ?>, #mem.space<device>>
        mem.yield
      }
      func.return
    }
    """
    module = parse_program(source)
    (kernel,) = [op for op in module.walk() if isinstance(op, mem.MapOp)]
    function = kernel.parent_op()
    m, xs = function.body.block.args
    assert written_arrays([m, xs], kernel.regions) == {m}


def test_the_launches_of_a_program_with_husks_name_what_they_write():
    from soacc.lowering.emit_host import emit_host

    module = parse_program(MAP_INTO)
    apply_pipeline(module, str(SoaccPipelinePass(devices=2).pipeline_pass_spec()))
    lines = emit_host(module).source.splitlines()
    touches = [line.strip() for line in lines if "rt.touch(" in line]
    # the result is built in xs's memory (memory reuse: xs dies there), which the
    # kernel writes; ys it only reads
    assert touches == ["rt.touch(xs_part)"]
    # a program without husks names nothing
    module = parse_program(MAP_INTO)
    apply_pipeline(module, str(SoaccPipelinePass().pipeline_pass_spec()))
    assert "rt.touch(" not in emit_host(module).source
