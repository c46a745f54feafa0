"""
The `husk` dialect: one program on several GPUs (Larsen, *Multi-GPU Futhark Using
Parallel Streams*, DIKU 2019; its `kernel_husk`), made by
[soac-to-husk](../docs/soac-to-husk.md).

A husk splits the rows of its sources into one partition per device and runs its body
once per device, on that device, over that device's partition. The body gives some
values to *reduce* (combined across devices with the husk's associative operator, in
device order: it need not be commutative) and some arrays to *concatenate* (device i's
rows go where its partition came from).

```mlir
%sum, %ys = husk.husk size(%m) (%xs : tensor<?xi32>) neutral(%zero : i32)
    -> (i32, tensor<?xi32>) {
^bb0(%offset: index, %size: index, %part: tensor<?xi32>):
  %p_sum, %p_ys = soac.redomap(%part) ... 
  husk.yield %p_sum, %p_ys : i32, tensor<?xi32>
} reduce {
^bb0(%a: i32, %b: i32):
  %s = arith.addi %a, %b : i32
  husk.yield %s : i32
}
```

- `size(%m)` is the number of rows split (every source has %m rows). Device i's
  partition starts at row `%offset` and has `%size` rows (dialects/shared/partitions.py:
  even, in device order, clamped); the body's partition parameters are the sources'
  rows [%offset, %offset + %size).
- A source may have no partition: a husk whose body does not read its partition drops
  it, and one whose body reads its source whole slices its rows inside the body (the
  thesis's two simplification rules); the size stays, since it decides the work.
- Anything else the body uses from above is *broadcast*: every device has it whole.
- The body yields the reduced values first (one per neutral element, of its type), then
  the concatenated arrays (each of outer size %size). The husk's results are the
  reduced values (the neutral elements where no device had rows), then the whole
  arrays (%m rows each).
- `reduce` is the operator over the reduced values: 2k parameters (the left values,
  then the right ones), k results. A husk without reduced values has an empty `reduce`.
- A **scan** husk (`scan`, past the thesis) reduces nothing: its body yields the
  inclusive scans of its rows (one array of scalars per neutral element, of its type)
  and then any other arrays to concatenate, and the husk completes the scans across
  devices: device i's rows are combined, on the left, with the operator's fold of the
  last scanned rows of the devices before it (in device order; nothing for the first
  device). Its results are the scanned arrays, then the other concatenated ones.
- A **scatter** husk (`scatter(%dest)`, past the thesis) reduces nothing: its body
  yields, for its rows, an array of indices and an array of values (a fused
  scatter's pairs), then any arrays to concatenate; the husk writes each value into
  the row of `%dest` its index names (indices outside `%dest` ignored; which value a
  repeated index gets is unspecified, as soac.scatter's), consuming `%dest`. Its
  results are the updated `%dest`, then the concatenated arrays.
- One level: a husk's body never holds a husk, and a husk is host code (never inside a
  kernel).

The number of devices is not in the IR: the runtime chooses it (one device runs the
body once, over every row), and a cost model decides per run how many of them to use,
from the sizes and the husk's `work_per_row` attribute (soac-to-husk's estimate of the
scalar operations its body runs per row).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType, StridedLayoutAttr, TensorType, UnitAttr
from xdsl.ir import Attribute, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import HasParent, IsTerminator, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from soacc.dialects.shared.traits import ConsumesOperand, OperandEffects, enclosing_kernel
from soacc.dialects.soac import is_index_scalar, row_type, types_compatible


WORK_PER_ROW = "work_per_row"
"""The attribute of a husk (either level) estimating the scalar operations its body
runs per row: what the runtime's cost model weighs against the bytes a split moves."""


def partition_type(source: Attribute) -> Attribute:
    """The type of a partition of `source`: the same array with any number of rows."""
    assert isinstance(source, TensorType)
    shape = source.get_shape()
    return TensorType(source.element_type, (DYNAMIC_INDEX, *shape[1:]))


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a husk's body (its reduced values, then its concatenated arrays) or its
    reduction operator (the combined values)."""

    name = "husk.yield"
    values = var_operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(HuskOp, RunOp), Pure()))
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


@irdl_op_definition
class HuskOp(IRDLOperation):
    """A body run once per device over its partition of the sources' rows; reduced
    values combined in device order, arrays concatenated (module docstring)."""

    name = "husk.husk"
    size = operand_def(IndexType)
    sources = var_operand_def(TensorType)
    neutral = var_operand_def()
    dest = opt_operand_def(TensorType)
    outputs = var_result_def()
    body = region_def("single_block")
    reducer = region_def()
    scan = opt_prop_def(UnitAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(RecursiveMemoryEffect(), ConsumesOperand("dest"))
    assembly_format = (
        "`size` `(` $size `)` `(` ($sources^ `:` type($sources))? `)` "
        "(`neutral` `(` $neutral^ `:` type($neutral) `)`)? (`scan` $scan^)? "
        "(`scatter` `(` $dest^ `:` type($dest) `)`)? "
        "`->` `(` type($outputs) `)` attr-dict-with-keyword $body `reduce` $reducer"
    )

    def __init__(
        self,
        size: SSAValue | Operation,
        sources: Sequence[SSAValue | Operation],
        neutral: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        body: Region,
        reducer: Region,
        scan: bool = False,
        dest: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[size, sources, neutral, [dest] if dest is not None else []],
            result_types=[result_types], regions=[body, reducer],
            properties={"scan": UnitAttr()} if scan else {},
        )

    # the body's parameters -----------------------------------------------------------

    @property
    def offset_arg(self):
        return self.body.block.args[0]

    @property
    def size_arg(self):
        return self.body.block.args[1]

    @property
    def partitions(self):
        return self.body.block.args[2:]

    @property
    def is_scan(self) -> bool:
        return self.scan is not None

    @property
    def is_scatter(self) -> bool:
        return self.dest is not None

    @property
    def reduced(self) -> Sequence[SSAValue]:
        """The reduced values (none for a scan or scatter husk): the body yields them
        first."""
        return () if self.is_scan or self.is_scatter else self.outputs[: len(self.neutral)]

    @property
    def scattered(self) -> SSAValue | None:
        """A scatter husk's updated destination (its first result), else None."""
        return self.outputs[0] if self.is_scatter else None

    @property
    def concatenated(self) -> Sequence[SSAValue]:
        """The arrays of the husk's rows (a scan husk's scanned arrays first); the body
        yields them after its reduced values (a scatter husk's: after its pairs)."""
        return self.outputs[len(self.reduced) + self.is_scatter :]

    @property
    def pairs(self) -> int:
        """How many of the body's yields after its reduced values are a scatter's
        (indices, values), not results: 2 for a scatter husk, else 0."""
        return 2 if self.is_scatter else 0

    @property
    def scanned(self) -> Sequence[SSAValue]:
        """A scan husk's scanned arrays (one per neutral element), else none."""
        return self.outputs[: len(self.neutral)] if self.is_scan else ()

    def verify_(self) -> None:
        if enclosing_husk(self) is not None:
            raise VerifyException("husk.husk inside a husk's body: husks have one level")
        if enclosing_kernel(self) is not None:
            raise VerifyException("husk.husk inside a kernel: a husk is host code")
        outer = DYNAMIC_INDEX
        for i, source in enumerate(self.sources):
            t = source.type
            assert isinstance(t, TensorType)
            if t.get_num_dims() < 1:
                raise VerifyException(f"husk.husk source {i} is {t}; a source is an array of rows")
            d = t.get_shape()[0]
            if DYNAMIC_INDEX not in (d, outer) and d != outer:
                raise VerifyException(
                    f"husk.husk source {i} has {d} rows, but an earlier one has {outer}; "
                    "every source has the husk's size in rows"
                )
            outer = d if d != DYNAMIC_INDEX else outer
        params = [IndexType(), IndexType(), *(partition_type(s.type) for s in self.sources)]
        found = [a.type for a in self.body.block.args]
        if found != params:
            raise VerifyException(
                f"husk.husk body parameters are ({', '.join(map(str, found))}); expected "
                f"(offset: index, size: index, then a partition of each source: "
                f"{', '.join(map(str, params[2:])) or 'none'})"
            )
        k = len(self.reduced)
        neutral_types = [n.type for n in self.neutral]
        yielded = self._yield_types(self.body, "body")
        if self.is_scan:
            self._verify_scans(neutral_types, yielded)
        if self.is_scatter:
            yielded = self._verify_scatter(neutral_types, yielded)
        if len(yielded) < k:
            raise VerifyException(
                f"husk.husk body yields {len(yielded)} value(s); expected its {k} reduced value(s) first"
            )
        if yielded[:k] != neutral_types[:k]:
            raise VerifyException(
                f"husk.husk body's reduced values are ({', '.join(map(str, yielded[:k]))}); "
                f"expected the neutral elements' types ({', '.join(map(str, neutral_types))})"
            )
        expected_results = list(neutral_types[:k])
        if self.is_scatter:
            expected_results.append(self.dest.type)
        for j, t in enumerate(yielded[k:]):
            if not isinstance(t, TensorType) or t.get_num_dims() < 1 or t.get_shape()[0] != DYNAMIC_INDEX:
                raise VerifyException(
                    f"husk.husk body's concatenated value {j} is {t}; expected an array whose "
                    "rows are the partition's (outer size ?)"
                )
            shape = t.get_shape()
            expected_results.append(TensorType(t.element_type, (outer, *shape[1:])))
        results = [r.type for r in self.outputs]
        if len(results) != len(expected_results) or any(
            not types_compatible(r, e) for r, e in zip(results, expected_results)
        ):
            raise VerifyException(
                f"husk.husk results are ({', '.join(map(str, results))}); expected the reduced "
                f"values, then the concatenated arrays of the husk's rows "
                f"({', '.join(map(str, expected_results))})"
            )
        if not neutral_types:
            if self.reducer.blocks:
                raise VerifyException("husk.husk has no neutral elements, so its reduce region must be empty")
            return
        if len(self.reducer.blocks) != 1:
            raise VerifyException(
                f"husk.husk {'scans' if self.is_scan else 'reduces'} {len(neutral_types)} value(s), "
                "so its reduce region is one block: the operator"
            )
        found = [a.type for a in self.reducer.block.args]
        if found != neutral_types * 2:
            raise VerifyException(
                f"husk.husk reduce parameters are ({', '.join(map(str, found))}); expected "
                f"({', '.join(map(str, neutral_types * 2))}): the left values, then the right ones"
            )
        combined = self._yield_types(self.reducer, "reduce")
        if combined != neutral_types:
            raise VerifyException(
                f"husk.husk reduce yields ({', '.join(map(str, combined))}); expected "
                f"({', '.join(map(str, neutral_types))})"
            )

    def _verify_scans(self, neutral_types: list[Attribute], yielded: list[Attribute]) -> None:
        """A scan husk scans arrays of scalars: its body yields one per neutral element
        (of its type) first."""
        if not neutral_types:
            raise VerifyException("husk.husk scan has no neutral elements: it scans at least one array")
        for j, t in enumerate(neutral_types):
            if isinstance(t, TensorType | MemRefType):
                raise VerifyException(f"husk.husk scan neutral element {j} is {t}; a scan husk scans arrays of scalars")
            found = yielded[j] if j < len(yielded) else None
            if found != TensorType(t, (DYNAMIC_INDEX,)):
                raise VerifyException(
                    f"husk.husk scan body yields {found if found is not None else 'nothing'} as scanned array {j}; "
                    f"expected its rows' scan, {TensorType(t, (DYNAMIC_INDEX,))}"
                )

    def _verify_scatter(self, neutral_types: list[Attribute], yielded: list[Attribute]) -> list[Attribute]:
        """A scatter husk's body yields indices and values for its rows, then the
        arrays it concatenates (returned, to be checked as any husk's)."""
        if self.is_scan or neutral_types:
            raise VerifyException("husk.husk scatter reduces and scans nothing: it has no neutral elements")
        dest = self.dest.type
        assert isinstance(dest, TensorType)
        if dest.get_num_dims() < 1:
            raise VerifyException(f"husk.husk scatter destination is {dest}; it must have rows")
        if len(yielded) < 2:
            raise VerifyException(
                f"husk.husk scatter body yields {len(yielded)} value(s); expected indices and values first"
            )
        indices, values = yielded[:2]
        if not (
            isinstance(indices, TensorType) and indices.get_num_dims() == 1 and indices.get_shape()[0] == DYNAMIC_INDEX
            and is_index_scalar(indices.element_type)
        ):
            raise VerifyException(
                f"husk.husk scatter body yields {indices} as its indices; expected one index per row (tensor<?xindex>, i32 or i64)"
            )
        if not (
            isinstance(values, TensorType) and values.get_num_dims() >= 1 and values.get_shape()[0] == DYNAMIC_INDEX
            and types_compatible(row_type(values), row_type(dest))
        ):
            raise VerifyException(
                f"husk.husk scatter body yields {values} as its values; expected one row of the destination ({row_type(dest)}) per row"
            )
        return yielded[2:]

    def _yield_types(self, region: Region, what: str) -> list[Attribute]:
        last = region.block.last_op
        if not isinstance(last, YieldOp):
            raise VerifyException(f"husk.husk {what} must end with husk.yield")
        return [v.type for v in last.values]


def enclosing_husk(op: Operation) -> HuskOp | RunOp | None:
    """The husk (at either level) whose body `op` is in, or None."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, HuskOp | RunOp):
            return parent
        parent = parent.parent_op()
    return None


# --------------------------------------------------------------------------------------
# Level 2: explicit memory
# --------------------------------------------------------------------------------------


@irdl_op_definition
class DevicesOp(IRDLOperation):
    """The number of devices husks run on (the runtime's choice, at least 1).

    ```mlir
    %n = husk.devices : index
    ```
    """

    name = "husk.devices"
    result = result_def(IndexType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self):
        super().__init__(result_types=[IndexType()])


@irdl_op_definition
class RunOp(IRDLOperation):
    """A husk at level 2 (the thesis's `expmem_husk`): its body runs once per device, on
    that device, in device order.

    ```mlir
    %busy = husk.run size(%m) (%xs : memref<?xi32, ...>) outs(%ys : memref<?xi32, ...>)
        slots(%partials : memref<?xi32, ...>) -> index {
    ^bb0(%device: index, %offset: index, %size: index, %xs_part: memref<?xi32, ...>,
         %ys_part: memref<?xi32, ...>, %partial: memref<i32, ...>):
      ...
      husk.yield
    }
    ```

    Device i (of n) runs the body with its `(offset, size)` of the `size` rows
    (dialects/shared/partitions.py), and:

    - each **source** (m rows) as its rows [offset, offset + size), in its memory: on
      device 0 a view of the source itself, elsewhere a copy (from device 0);
    - each **out** (m rows) as the same rows, which the body writes: on device 0 the
      out's own rows, elsewhere memory of the device whose rows are copied into the
      out (on device 0) after the body;
    - each **slot** array (n rows, one per device) as its row i, the same way: where a
      reducing husk leaves each device's reduced value, which code after the run
      combines on device 0 in device order;
    - every device array the body uses from above **broadcast**: on device 0 the array
      itself, elsewhere a copy of it whole.

    An out whose elements are a source's (the same memory: an array updated in place)
    is one array to each device: elsewhere the copy of its rows it was sent is where
    its body writes them, and what is sent back. (Parameters for the same elements are
    the same memory on every device.)

    In the body, device memory (`#mem.space<device>`) is the running device's: its
    allocations are that device's, and its kernels run there.

    The run returns how many devices had rows (`%busy`: the devices are used in order,
    so their slots are the first `%busy` rows of each slot array). How many it uses is
    the runtime's choice (runtime/husk_cost.py), from the sizes and the body's
    `work_per_row` attribute (soac-to-husk's estimate); a device past them runs nothing.
    A run given `devices(%k)` (a run that continues another over the same rows, as a
    scan husk's second run: `%k` the first's `%busy`) uses the first `%k` devices
    instead (one where `%k` is 0), whatever the cost: the same partitions as that run,
    since even partitions over its busy devices are its own.
    """

    name = "husk.run"
    size = operand_def(IndexType)
    used = opt_operand_def(IndexType)
    sources = var_operand_def(MemRefType)
    outs = var_operand_def(MemRefType)
    slots = var_operand_def(MemRefType)
    busy = result_def(IndexType)
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    # its body's own ops say what they read from above; the run itself reads its
    # sources and writes its outs and slots whole (every row by one device)
    traits = traits_def(OperandEffects(reads=("sources",), creates=("outs", "slots")))
    assembly_format = (
        "`size` `(` $size `)` (`devices` `(` $used^ `)`)? `(` ($sources^ `:` type($sources))? `)` "
        "(`outs` `(` $outs^ `:` type($outs) `)`)? (`slots` `(` $slots^ `:` type($slots) `)`)? "
        "`->` type($busy) attr-dict-with-keyword $body"
    )

    def __init__(
        self,
        size: SSAValue | Operation,
        sources: Sequence[SSAValue | Operation],
        outs: Sequence[SSAValue | Operation],
        slots: Sequence[SSAValue | Operation],
        body: Region,
        used: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[size, [used] if used is not None else [], sources, outs, slots],
            result_types=[IndexType()], regions=[body],
        )

    @staticmethod
    def body_types(sources: Sequence[Attribute], outs: Sequence[Attribute], slots: Sequence[Attribute]) -> list[Attribute]:
        """The body's parameters: device, offset and size, then the sources' and outs'
        rows (views like theirs), then a slot of each slot array (a view of one row)."""
        rows = [
            MemRefType(t.element_type, t.get_shape()[1:], StridedLayoutAttr([None] * (t.get_num_dims() - 1), None), t.memory_space)
            for t in slots
        ]
        return [IndexType(), IndexType(), IndexType(), *sources, *outs, *rows]

    @property
    def device_arg(self):
        return self.body.block.args[0]

    @property
    def offset_arg(self):
        return self.body.block.args[1]

    @property
    def size_arg(self):
        return self.body.block.args[2]

    def parts(self, group: str) -> Sequence[SSAValue]:
        """The body's parameters for `group`: "sources", "outs" or "slots"."""
        args = self.body.block.args[3:]
        s, o = len(self.sources), len(self.outs)
        return {"sources": args[:s], "outs": args[s : s + o], "slots": args[s + o :]}[group]

    def array_of(self, arg: SSAValue) -> tuple[str, SSAValue] | None:
        """The group ("sources", "outs" or "slots") and the array whose rows (a slot
        array's row) the body's parameter `arg` is, or None for device, offset and
        size."""
        for group in ("sources", "outs", "slots"):
            parts = list(self.parts(group))
            if arg in parts:
                return group, getattr(self, group)[parts.index(arg)]
        return None

    @property
    def work_per_row(self) -> int:
        """soac-to-husk's estimate of the body's scalar operations per row (1 where the
        run has none)."""
        work = self.attributes.get(WORK_PER_ROW)
        return work.value.data if isinstance(work, IntegerAttr) else 1

    def share_rows_updated_in_place(self, same: Callable[[SSAValue, SSAValue], bool]) -> bool:
        """Where an out has a source's elements (`same(out, source)`), the body writes
        the source's rows (its parameter for the out's rows goes unused): to the
        analyses the body then updates rows in place, as the same map without a husk
        does. Returns whether anything changed."""
        changed = False
        for out, rows in zip(self.outs, self.parts("outs")):
            if not rows.uses:
                continue
            for source, part in zip(self.sources, self.parts("sources")):
                if out is source or same(out, source):
                    rows.replace_all_uses_with(part)
                    changed = True
                    break
        return changed

    def verify_(self) -> None:
        if enclosing_husk(self) is not None:
            raise VerifyException("husk.run inside a husk's body: husks have one level")
        if enclosing_kernel(self) is not None:
            raise VerifyException("husk.run inside a kernel: a husk is host code")
        for group in ("sources", "outs", "slots"):
            for i, v in enumerate(getattr(self, group)):
                t = v.type
                assert isinstance(t, MemRefType)
                space = t.memory_space
                if not getattr(space, "is_device", False) or getattr(space, "device", None) is None or space.device.data != 0:
                    raise VerifyException(
                        f"husk.run {group} {i} is {t}; a husk's arrays are on the main device (#mem.space<device>)"
                    )
                if t.get_num_dims() < 1:
                    raise VerifyException(f"husk.run {group} {i} is {t}; it must have rows")
        expected = self.body_types(
            [v.type for v in self.sources], [v.type for v in self.outs], [v.type for v in self.slots]
        )
        found = [a.type for a in self.body.block.args]
        if found != expected:
            raise VerifyException(
                f"husk.run body parameters are ({', '.join(map(str, found))}); expected (device, "
                f"offset, size, then the sources' and outs' rows and a row of each slot array: "
                f"{', '.join(map(str, expected))})"
            )
        last = self.body.block.last_op
        if not isinstance(last, YieldOp) or last.values:
            raise VerifyException("husk.run body must end with husk.yield of no values")


HUSK = Dialect("husk", [HuskOp, YieldOp, DevicesOp, RunOp], [])
