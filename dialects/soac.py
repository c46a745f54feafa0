"""
The `soac` dialect: second-order array combinators over value-semantics tensors
(level 1 of DESIGN.md).

Combinators (`map`, `reduce`, `scan`, `scatter`, `hist`) take their function as a
single-block region, the *lambda*, whose entry block arguments are the lambda's
parameters and whose `soac.yield` gives its results (here it also uses `%k`, captured
from above):

```mlir
%c = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
^bb0(%x: f32, %y: f32):
  %s = arith.addf %x, %y : f32
  %t = arith.mulf %s, %k : f32
  soac.yield %t : f32
}
```

A lambda sees one *row* of each input: the row of `tensor<NxMxf32>` is
`tensor<Mxf32>`, the row of `tensor<Nxf32>` is `f32`. Lambdas may capture values
from above and may contain combinators themselves (a map of a reduce is a
segmented reduction).

Arrays are regular: every array has one shape; dimensions may be dynamic (`?`).
Element types are i1, i32, i64, index, f32 and f64.

`update`, `scatter` and `hist` *consume* their destination: at this level they are
pure (value semantics, so passes such as CSE may merge two equal destinations), and
consumption is a property of the memory level: bufferisation writes in place only where
the destination has no other use, and copies it otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Self

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I1,
    I64,
    DenseArrayBase,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    UnitAttr,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedRegionSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    opt_region_def,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import (
    HasCanonicalizationPatternsTrait,
    HasParent,
    IsTerminator,
    Pure,
    RecursiveMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException

from soacc.dialects.shared.traits import ConsumesOperand, KernelOp

# --------------------------------------------------------------------------------------
# Types: what soac arrays may hold, and the row type of an array
# --------------------------------------------------------------------------------------


def is_element_type(t: Attribute) -> bool:
    """The scalar types soac arrays may hold: i1, i32, i64, index, f32, f64."""
    if isinstance(t, IntegerType):
        return t.width.data in (1, 32, 64)
    return isinstance(t, IndexType | Float32Type | Float64Type)


def is_value_type(t: Attribute) -> bool:
    """A scalar element type, or a tensor of one."""
    if isinstance(t, TensorType):
        return is_element_type(t.element_type)
    return is_element_type(t)


def row_type(t: Attribute) -> Attribute:
    """The type of one element along the outer dimension: tensor<NxMxT> -> tensor<MxT>,
    tensor<NxT> -> T."""
    assert isinstance(t, TensorType) and t.get_num_dims() >= 1
    shape = t.get_shape()
    if len(shape) == 1:
        return t.element_type
    return TensorType(t.element_type, shape[1:])


def array_of(t: Attribute, outer: int = DYNAMIC_INDEX) -> TensorType:
    """The type of an array of `outer` values of type `t` (the inverse of row_type)."""
    if isinstance(t, TensorType):
        return TensorType(t.element_type, (outer, *t.get_shape()))
    return TensorType(t, (outer,))


def dims_compatible(a: int, b: int) -> bool:
    return a == DYNAMIC_INDEX or b == DYNAMIC_INDEX or a == b


def types_compatible(a: Attribute, b: Attribute) -> bool:
    """Equal, except that a dynamic dimension matches any size."""
    if isinstance(a, TensorType) and isinstance(b, TensorType):
        return (
            a.element_type == b.element_type
            and a.get_num_dims() == b.get_num_dims()
            and all(dims_compatible(x, y) for x, y in zip(a.get_shape(), b.get_shape()))
        )
    return a == b


def _fmt_dim(d: int) -> str:
    return "?" if d == DYNAMIC_INDEX else str(d)


def _check_array(what: str, t: Attribute) -> TensorType:
    if not isinstance(t, TensorType) or t.get_num_dims() < 1:
        raise VerifyException(f"{what} must be a tensor of rank >= 1, found {t}")
    if not is_element_type(t.element_type):
        raise VerifyException(
            f"{what} has element type {t.element_type}; expected one of i1, i32, i64, "
            "index, f32, f64"
        )
    return t


def _check_same_outer(what: str, types: Sequence[TensorType]) -> int:
    """All arrays have compatible outer sizes; returns the static one if any."""
    outer = DYNAMIC_INDEX
    for i, t in enumerate(types):
        d = t.get_shape()[0]
        if not dims_compatible(outer, d):
            raise VerifyException(
                f"{what} {i} has outer size {_fmt_dim(d)}, but an earlier one has {outer}; "
                "all must have the same outer size"
            )
        if d != DYNAMIC_INDEX:
            outer = d
    return outer


def lambda_yields(
    op: Operation,
    region: Region,
    params: Sequence[Attribute],
    yield_type: type[Operation] | None = None,
    what: str = "",
    expected: str = "",
) -> list[Attribute]:
    """The lambda (`what`: "map ", "post ", or "" for the op's only one) has exactly
    `params` types (described as `expected`, if at all) and ends with a soac.yield (or
    `yield_type`); returns the types it yields."""
    yield_type = yield_type or YieldOp
    found = [a.type for a in region.block.args]
    if found != list(params):
        raise VerifyException(
            f"{op.name} {what}lambda parameters are ({', '.join(map(str, found))}); "
            f"expected {expected}({', '.join(map(str, params))})"
        )
    term = region.block.last_op
    if not isinstance(term, yield_type):
        raise VerifyException(f"{op.name} {what}lambda must end with {yield_type.name}")
    return [v.type for v in term.values]


def check_lambda(
    op: Operation,
    region: Region,
    params: Sequence[Attribute],
    results: Sequence[Attribute],
    yield_type: type[Operation] | None = None,
) -> None:
    """The lambda's parameters have exactly `params` types and its yield (a soac.yield,
    or `yield_type`) gives values compatible with `results`."""
    yielded = lambda_yields(op, region, params, yield_type)
    if len(yielded) != len(results) or not all(
        types_compatible(y, r) for y, r in zip(yielded, results)
    ):
        raise VerifyException(
            f"{op.name} lambda yields ({', '.join(map(str, yielded))}); "
            f"expected ({', '.join(map(str, results))})"
        )


def build_lambda(
    param_types: Sequence[Attribute],
    body: Callable[[Builder, tuple[SSAValue, ...]], Sequence[SSAValue]],
    yield_type: Callable[..., Operation] | None = None,
) -> Region:
    """A lambda region: `body(builder, params)` builds the ops and returns the values to
    yield (with a soac.yield, or `yield_type`)."""
    block = Block(arg_types=param_types)
    builder = Builder(InsertPoint.at_end(block))
    results = body(builder, block.args)
    builder.insert((yield_type or YieldOp)(*results))
    return Region(block)


# --------------------------------------------------------------------------------------
# Terminator
# --------------------------------------------------------------------------------------


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a lambda (or a gpu_body) and gives its results.

    ```mlir
    soac.yield %s, %t : f32, i64
    ```
    """

    name = "soac.yield"
    values = var_operand_def()
    traits = lazy_traits_def(
        lambda: (
            IsTerminator(),
            HasParent(MapOp, ReduceOp, ScanOp, HistOp, GpuBodyOp, *FUSED_OPS),
            Pure(),
        )
    )
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


# --------------------------------------------------------------------------------------
# Combinators
# --------------------------------------------------------------------------------------


@irdl_op_definition
class MapOp(IRDLOperation):
    """Applies the lambda to each row of its inputs (all of the same outer size n),
    giving n rows of each result.

    ```mlir
    %c = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      soac.yield %s : f32
    }
    ```
    """

    name = "soac.map"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), KernelOp())
    assembly_format = "`(` $inputs `)` attr-dict `:` functional-type($inputs, $outputs) $body"

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        body: Region,
    ):
        super().__init__(operands=[inputs], result_types=[result_types], regions=[body])

    @classmethod
    def from_lambda(
        cls,
        inputs: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        body: Callable[[Builder, tuple[SSAValue, ...]], Sequence[SSAValue]],
    ) -> MapOp:
        params = [row_type(SSAValue.get(i).type) for i in inputs]
        return cls(inputs, result_types, build_lambda(params, body))

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("soac.map needs at least one input array")
        ins = [_check_array(f"soac.map input {i}", v.type) for i, v in enumerate(self.inputs)]
        outs = [_check_array(f"soac.map result {i}", r.type) for i, r in enumerate(self.outputs)]
        outer = _check_same_outer("soac.map input", ins)
        for i, t in enumerate(outs):
            if not dims_compatible(outer, t.get_shape()[0]):
                raise VerifyException(
                    f"soac.map result {i} has outer size {_fmt_dim(t.get_shape()[0])}, "
                    f"but the inputs have {outer}"
                )
        check_lambda(self, self.body, [row_type(t) for t in ins], [row_type(t) for t in outs])


def _check_operator(
    op: Operation,
    region: Region,
    elem_types: Sequence[Attribute],
    neutral: Sequence[SSAValue],
    yield_type: type[Operation] | None = None,
) -> None:
    """An associative operator over k-tuples: 2k parameters, k results, k neutral elements."""
    if len(neutral) != len(elem_types):
        raise VerifyException(
            f"{op.name} has {len(elem_types)} input array(s) but {len(neutral)} neutral "
            "element(s); "
            "expected one neutral element per array"
        )
    for i, (n, t) in enumerate(zip(neutral, elem_types)):
        if not types_compatible(n.type, t):
            raise VerifyException(
                f"{op.name} neutral element {i} has type {n.type}; expected {t}"
            )
    check_lambda(op, region, [*elem_types, *elem_types], elem_types, yield_type)


class _OperatorCombinator(IRDLOperation):
    """Shared by soac.reduce and soac.scan: k arrays of the same outer size, k neutral
    elements and an associative operator over k-tuples (2k parameters: the left tuple,
    then the right tuple). A result has the type `RESULT_TYPE` of its input."""

    RESULTS_ARE: ClassVar[str] = ""
    """How the verifier names the results' expected types."""

    RESULT_TYPE: ClassVar[Callable[[TensorType], Attribute]]
    """A result's type from its input's (each subclass says: reduce a row, scan the array)."""

    inputs = var_operand_def(TensorType)
    neutral = var_operand_def()
    commutative = opt_prop_def(UnitAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), KernelOp())
    assembly_format = (
        "`(` $inputs `)` `neutral` `(` $neutral `:` type($neutral) `)` "
        "(`commutative` $commutative^)? attr-dict `:` functional-type($inputs, $outputs) $body"
    )

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        neutral: Sequence[SSAValue | Operation],
        body: Region,
        commutative: bool = False,
    ):
        super().__init__(
            operands=[inputs, neutral],
            result_types=[[self.RESULT_TYPE(SSAValue.get(i).type) for i in inputs]],
            regions=[body],
            properties={"commutative": UnitAttr()} if commutative else {},
        )

    @classmethod
    def from_lambda(
        cls,
        inputs: Sequence[SSAValue],
        neutral: Sequence[SSAValue],
        body: Callable[[Builder, tuple[SSAValue, ...]], Sequence[SSAValue]],
        commutative: bool = False,
    ) -> Self:
        elems = [row_type(i.type) for i in inputs]
        return cls(inputs, neutral, build_lambda([*elems, *elems], body), commutative)

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException(f"{self.name} needs at least one input array")
        ins = [_check_array(f"{self.name} input {i}", v.type) for i, v in enumerate(self.inputs)]
        _check_same_outer(f"{self.name} input", ins)
        expected = [self.RESULT_TYPE(t) for t in ins]
        if len(self.outputs) != len(ins) or not all(
            types_compatible(r.type, e) for r, e in zip(self.outputs, expected)
        ):
            raise VerifyException(
                f"{self.name} results are "
                f"({', '.join(str(r.type) for r in self.outputs)}); expected {self.RESULTS_ARE} "
                f"of its inputs ({', '.join(map(str, expected))})"
            )
        _check_operator(self, self.body, [row_type(t) for t in ins], self.neutral)


@irdl_op_definition
class ReduceOp(_OperatorCombinator):
    """Reduces k arrays of the same outer size with an associative operator over
    k-tuples (2k parameters: the left tuple, then the right tuple), giving k values.
    `commutative` allows the implementation to combine in any order. An empty input
    gives the neutral elements.

    ```mlir
    %s = soac.reduce(%a) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
    ^bb0(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      soac.yield %r : f32
    }
    ```
    """

    name = "soac.reduce"
    RESULTS_ARE: ClassVar[str] = "the row types"
    outputs = var_result_def()
    RESULT_TYPE = staticmethod(row_type)


@irdl_op_definition
class ScanOp(_OperatorCombinator):
    """Inclusive scan of k arrays with an associative operator over k-tuples (as for
    soac.reduce): result row i combines input rows 0..i.

    ```mlir
    %p = soac.scan(%a) neutral(%zero : i32) : (tensor<?xi32>) -> tensor<?xi32> {
    ^bb0(%x: i32, %y: i32):
      %r = arith.addi %x, %y : i32
      soac.yield %r : i32
    }
    ```
    """

    name = "soac.scan"
    RESULTS_ARE: ClassVar[str] = "the types"
    outputs = var_result_def(TensorType)

    @staticmethod
    def RESULT_TYPE(t: TensorType) -> Attribute:
        return t


def _check_index_array(what: str, t: Attribute) -> TensorType:
    if not (
        isinstance(t, TensorType)
        and t.get_num_dims() == 1
        and isinstance(t.element_type, IndexType | IntegerType)
        and is_element_type(t.element_type)
        and t.element_type != IntegerType(1)
    ):
        raise VerifyException(
            f"{what} must be a rank-1 tensor of index, i32 or i64, found {t}"
        )
    return t


@irdl_op_definition
class ScatterOp(IRDLOperation):
    """Writes `values[i]` to row `indices[i]` of `dest`, for every i; indices outside
    dest are ignored. Consumes `dest` (its result may reuse dest's memory), so dest
    must not be used afterwards. When an index repeats, which of its values is
    written is unspecified.

    ```mlir
    %r = soac.scatter %dest[%is] = %vs : tensor<?xf32>, tensor<?xindex>, tensor<?xf32>
    ```
    """

    name = "soac.scatter"
    T: ClassVar = VarConstraint("T", base(TensorType))
    dest = operand_def(T)
    indices = operand_def(TensorType)
    values = operand_def(TensorType)
    result = result_def(T)
    traits = traits_def(Pure(), KernelOp(), ConsumesOperand("dest"))
    assembly_format = (
        "$dest `[` $indices `]` `=` $values attr-dict `:` "
        "type($dest) `,` type($indices) `,` type($values)"
    )

    def __init__(self, dest: SSAValue, indices: SSAValue, values: SSAValue):
        super().__init__(operands=[dest, indices, values], result_types=[dest.type])

    def verify_(self) -> None:
        dest = _check_array("soac.scatter destination", self.dest.type)
        idx = _check_index_array("soac.scatter indices", self.indices.type)
        vals = _check_array("soac.scatter values", self.values.type)
        if not types_compatible(row_type(vals), row_type(dest)):
            raise VerifyException(
                f"soac.scatter values have rows of type {row_type(vals)}; expected the "
                f"destination's row type {row_type(dest)}"
            )
        _check_same_outer("soac.scatter indices/values operand", [idx, vals])


@irdl_op_definition
class HistOp(IRDLOperation):
    """Reduce-by-index (a generalised histogram): for every i, combines `values[i]`
    into row `indices[i]` of `dest` with the associative and commutative operator;
    indices outside dest are ignored. Consumes `dest`.

    ```mlir
    %h = soac.hist %bins[%is], %ones neutral(%z : i32)
           : tensor<256xi32>, tensor<?xindex>, tensor<?xi32> {
    ^bb0(%x: i32, %y: i32):
      %r = arith.addi %x, %y : i32
      soac.yield %r : i32
    }
    ```
    """

    name = "soac.hist"
    T: ClassVar = VarConstraint("T", base(TensorType))
    dest = operand_def(T)
    indices = operand_def(TensorType)
    values = operand_def(TensorType)
    neutral = operand_def()
    result = result_def(T)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), KernelOp(), ConsumesOperand("dest"))
    assembly_format = (
        "$dest `[` $indices `]` `,` $values `neutral` `(` $neutral `:` type($neutral) `)` "
        "attr-dict `:` type($dest) `,` type($indices) `,` type($values) $body"
    )

    def __init__(
        self, dest: SSAValue, indices: SSAValue, values: SSAValue, neutral: SSAValue, body: Region
    ):
        super().__init__(
            operands=[dest, indices, values, neutral], result_types=[dest.type], regions=[body]
        )

    @classmethod
    def from_lambda(
        cls,
        dest: SSAValue,
        indices: SSAValue,
        values: SSAValue,
        neutral: SSAValue,
        body: Callable[[Builder, tuple[SSAValue, ...]], Sequence[SSAValue]],
    ) -> HistOp:
        elem = row_type(dest.type)
        return cls(dest, indices, values, neutral, build_lambda([elem, elem], body))

    def verify_(self) -> None:
        dest = _check_array("soac.hist destination", self.dest.type)
        idx = _check_index_array("soac.hist indices", self.indices.type)
        vals = _check_array("soac.hist values", self.values.type)
        elem = row_type(dest)
        if not types_compatible(row_type(vals), elem):
            raise VerifyException(
                f"soac.hist values have rows of type {row_type(vals)}; expected the "
                f"destination's row type {elem}"
            )
        _check_same_outer("soac.hist indices/values operand", [idx, vals])
        _check_operator(self, self.body, [elem], [self.neutral])


@irdl_op_definition
class GpuBodyOp(IRDLOperation):
    """A single-threaded device region (Futhark's GPUBody): its body runs once, on
    the device, and each value it yields becomes a one-row array, so that values
    computed there stay on the device. Created by `reduce-device-syncs`.

    ```mlir
    %r = soac.gpu_body -> tensor<1xf32> {
      %x = soac.index %a[%i] : tensor<?xf32>
      soac.yield %x : f32
    }
    ```
    """

    name = "soac.gpu_body"
    outputs = var_result_def(TensorType)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), KernelOp(parallel=False))
    assembly_format = "attr-dict `->` type($outputs) $body"

    def __init__(self, result_types: Sequence[Attribute], body: Region):
        super().__init__(result_types=[result_types], regions=[body])

    def verify_(self) -> None:
        rows = []
        for i, r in enumerate(self.outputs):
            t = _check_array(f"soac.gpu_body result {i}", r.type)
            if t.get_shape()[0] != 1:
                raise VerifyException(
                    f"soac.gpu_body result {i} has type {t}; results must have outer size 1"
                )
            rows.append(row_type(t))
        if self.body.block.args:
            raise VerifyException("soac.gpu_body body takes no arguments")
        check_lambda(self, self.body, [], rows)


# --------------------------------------------------------------------------------------
# Fused combinators, made by `soac-fusion` (Futhark's redomap and scanomap, and its
# scatter and hist whose indices and values come from a lambda). Each applies a *map
# lambda* to every row of its inputs. The lambda yields the operands of the combinator
# part first, then *mapped* values, which are extra results (arrays of the inputs' outer
# size): so a fused producer's array can still be given to whatever else uses it.
# Operands of the combinator part are scalars (arrays of rows are reduced, scanned or
# written by the unfused forms).
# --------------------------------------------------------------------------------------


def is_index_scalar(t: Attribute) -> bool:
    """index, i32 or i64: the types an index of scatter and hist may have."""
    return isinstance(t, IndexType) or (isinstance(t, IntegerType) and t.width.data in (32, 64))


def operator_arity(region: Region) -> int:
    """k, for an operator over k-tuples (2k parameters)."""
    return len(region.block.args) // 2


def split_by_operators(values: Sequence, operators: Sequence[Region]) -> list[list]:
    """`values` (one per operand of every operator, in order) cut into one list per operator."""
    out, pos = [], 0
    for region in operators:
        k = operator_arity(region)
        out.append(list(values[pos : pos + k]))
        pos += k
    return out


def _verify_fused_inputs(op: Operation) -> tuple[list[TensorType], int, list[Attribute]]:
    """A fused combinator's inputs (arrays of one outer size, at least one), that outer
    size, and the types its map lambda (taking one row of each input) yields."""
    if not op.inputs:
        raise VerifyException(f"{op.name} needs at least one input array")
    ins = [_check_array(f"{op.name} input {i}", v.type) for i, v in enumerate(op.inputs)]
    outer = _check_same_outer(f"{op.name} input", ins)
    params = [row_type(t) for t in ins]
    return ins, outer, lambda_yields(op, op.map_body, params, what="map ", expected="the rows of its inputs ")


def _check_mapped_results(
    op: Operation, results: Sequence[SSAValue], rows: Sequence[Attribute], outer: int, first: int
) -> None:
    """Results `first`, ... are arrays of the inputs' outer size whose rows are `rows`."""
    for i, (r, row) in enumerate(zip(results, rows), start=first):
        t = _check_array(f"{op.name} result {i}", r.type)
        if not dims_compatible(outer, t.get_shape()[0]) or not types_compatible(row_type(t), row):
            raise VerifyException(
                f"{op.name} result {i} has type {t}; expected an array of {_fmt_dim(outer)} rows "
                f"of {row}"
            )


def check_operators(
    op: Operation,
    keyword: str,
    operators: Sequence[Region],
    neutral: Sequence[SSAValue],
    commutative: Sequence[int] | None,
    operand_types: Sequence[Attribute],
    yield_type: type[Operation] | None = None,
) -> int:
    """The operator list of a redomap or scanomap: each an associative operator over the
    next k operands the map lambda yields. Returns the number of operands, K."""
    if not operators:
        raise VerifyException(f"{op.name} needs at least one {keyword} operator")
    for j, region in enumerate(operators):
        n = len(region.block.args)
        if n == 0 or n % 2:
            raise VerifyException(
                f"{op.name} {keyword} operator {j} has {n} parameters; an operator over "
                "k-tuples has 2k (k >= 1)"
            )
    if commutative is not None and len(commutative) != len(operators):
        raise VerifyException(
            f"{op.name} has {len(operators)} {keyword} operators but {len(commutative)} "
            "commutative flags"
        )
    total = sum(operator_arity(r) for r in operators)
    if len(neutral) != total:
        raise VerifyException(
            f"{op.name} operators take {total} operands but {len(neutral)} neutral element(s) "
            "are given; expected one per operand"
        )
    if len(operand_types) < total:
        raise VerifyException(
            f"{op.name} map lambda yields {len(operand_types)} values, but its operators take "
            f"{total} operands (the lambda yields the operands first, then mapped values)"
        )
    pos = 0
    for region, ne in zip(operators, split_by_operators(neutral, operators)):
        k = operator_arity(region)
        elems = list(operand_types[pos : pos + k])
        for i, t in enumerate(elems, start=pos):
            if not is_element_type(t):
                raise VerifyException(
                    f"{op.name} operand {i} has type {t}; operands of a fused combinator are "
                    "scalars"
                )
        _check_operator(op, region, elems, ne, yield_type)
        pos += k
    return total


def print_typed_operands(printer: Printer, keyword: str, values: Sequence[SSAValue]) -> None:
    """` keyword(%a, %b : A, B)`."""
    printer.print_string(f" {keyword}(")
    printer.print_list(values, printer.print_operand)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def parse_typed_operands(parser: Parser, what: str) -> list[SSAValue]:
    """`(%a, %b : A, B)`, after its keyword (`what` names the operands in errors)."""
    parser.parse_punctuation("(")
    names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    pos = parser.pos
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(types) != len(names):
        parser.raise_error(f"{len(names)} {what} but {len(types)} types", pos)
    return [parser.resolve_operand(n, t) for n, t in zip(names, types)]


class FusedSyntax:
    """Printing and parsing shared by the fused combinators: `[%dest](%inputs) attrs :
    [D,] (inputs) -> (results) map {lambda}`, then the combinator part."""

    def _print_head(self, printer: Printer, dest: SSAValue | None) -> None:
        if dest is not None:
            printer.print_string(" ")
            printer.print_operand(dest)
        printer.print_string("(")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if dest is not None:
            printer.print_attribute(dest.type)
            printer.print_string(", ")
        printer.print_string("(")
        printer.print_list([v.type for v in self.inputs], printer.print_attribute)
        printer.print_string(") -> ")
        results = [r.type for r in self.results]
        if len(results) == 1:
            printer.print_attribute(results[0])
        else:
            printer.print_string("(")
            printer.print_list(results, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" map ")
        printer.print_region(self.map_body)

    @staticmethod
    def _print_operators(printer: Printer, keyword: str, op: Operation) -> None:
        """Each of a redomap's or scanomap's operators (at either level), with its
        neutral elements and commutative flag."""
        flags = op.commutative.get_values()
        for j, (region, ne) in enumerate(zip(op.operators, split_by_operators(op.neutral, op.operators))):
            FusedSyntax._print_operator(printer, keyword, ne, region, bool(flags[j]))

    @staticmethod
    def _print_operator(printer: Printer, keyword: str, neutral: Sequence[SSAValue], region: Region, commutative: bool) -> None:
        print_typed_operands(printer, keyword, neutral)
        if commutative:
            printer.print_string(" commutative")
        printer.print_string(" ")
        printer.print_region(region)

    @staticmethod
    def _parse_head(parser: Parser, with_dest: bool):
        """(dest, inputs, attrs, result types, map lambda)."""
        dest = parser.parse_unresolved_operand() if with_dest else None
        unresolved = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        dest_value = None
        if dest is not None:
            dest_value = parser.resolve_operand(dest, parser.parse_type())
            parser.parse_punctuation(",")
        pos = parser.pos
        ft = parser.parse_function_type()
        if len(ft.inputs.data) != len(unresolved):
            parser.raise_error(f"{len(unresolved)} inputs but {len(ft.inputs.data)} input types", pos)
        inputs = [parser.resolve_operand(u, t) for u, t in zip(unresolved, ft.inputs.data)]
        parser.parse_keyword("map")
        map_body = parser.parse_region()
        return dest_value, inputs, attrs, list(ft.outputs.data), map_body

    @staticmethod
    def _parse_operators(parser: Parser, keyword: str, *, single: bool = False):
        """`keyword(%ne... : T...) [commutative] {operator}`, repeated: (regions,
        neutral values, commutative flags)."""
        regions, neutral, flags = [], [], []
        while parser.parse_optional_keyword(keyword) is not None:
            neutral += parse_typed_operands(parser, "neutral elements")
            flags.append(parser.parse_optional_keyword("commutative") is not None)
            regions.append(parser.parse_region())
            if single:
                break
        if not regions:
            parser.raise_error(f"expected `{keyword}(...)` and its operator")
        return regions, neutral, flags


class MapOperators:
    """Shared by redomap and scanomap (at either level), whose fields include `neutral`,
    `commutative` and `operators`: the operators over the operands their map lambda
    yields first. `KEYWORD` (reduce or scan) names the operators in the syntax and the
    verifier; `POST`: the op has a post lambda (a scanomap)."""

    KEYWORD: ClassVar[str] = ""
    POST: ClassVar[bool] = False

    @property
    def num_operator_operands(self) -> int:
        """K: the operands the operators take (reduced values or scanned arrays)."""
        return sum(operator_arity(r) for r in self.operators)

    def is_commutative(self, j: int) -> bool:
        return bool(self.commutative.get_values()[j])

    def _print_post(self, printer: Printer) -> None:
        """A scanomap's ` post {lambda}` (at either level), where it has one."""
        if self.post is not None:
            printer.print_string(" post ")
            printer.print_region(self.post)

    @staticmethod
    def _parse_post(parser: Parser) -> Region | None:
        return parser.parse_region() if parser.parse_optional_keyword("post") is not None else None

    def _check_operators(self, yields: Sequence[Attribute], yield_type: type[Operation] | None = None) -> int:
        """check_operators over what the map lambda yields; returns K."""
        return check_operators(
            self, self.KEYWORD, self.operators, self.neutral, self.commutative.get_values(), yields, yield_type
        )


Operator = tuple[Sequence[SSAValue], Callable[[Builder, tuple[SSAValue, ...]], Sequence[SSAValue]], bool]
"""A builder's description of an operator: its neutral elements, its body (as for
build_lambda) and whether it is commutative."""


def _outer_of(inputs: Sequence[SSAValue]) -> int:
    for v in inputs:
        d = SSAValue.get(v).type.get_shape()[0]
        if d != DYNAMIC_INDEX:
            return d
    return DYNAMIC_INDEX


def _map_lambda(inputs: Sequence[SSAValue], body: Callable[[Builder, tuple[SSAValue, ...]], Sequence[SSAValue]]) -> Region:
    """A map lambda over the rows of `inputs` (as for build_lambda)."""
    return build_lambda([row_type(SSAValue.get(v).type) for v in inputs], body)


def _mapped_arrays(inputs: Sequence[SSAValue], rows: Sequence[Attribute]) -> list[TensorType]:
    """The types of mapped results with rows of `rows`: arrays of the inputs' outer size."""
    return [array_of(t, _outer_of(inputs)) for t in rows]


def _operator_regions(operators: Sequence[Operator]) -> tuple[list[SSAValue], list[Region], list[bool]]:
    neutral, regions, flags = [], [], []
    for ne, body, commutative in operators:
        types = [SSAValue.get(v).type for v in ne]
        neutral += ne
        regions.append(build_lambda([*types, *types], body))
        flags.append(commutative)
    return neutral, regions, flags


def commutative_flags(flags: Sequence[bool]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i1, [1 if f else 0 for f in flags])


class _MapOperatorsOp(FusedSyntax, MapOperators, IRDLOperation):
    """Shared by soac.redomap and soac.scanomap: their operands, syntax and the
    verification of their inputs, map lambda and operators."""

    inputs = var_operand_def(TensorType)
    neutral = var_operand_def()
    commutative = prop_def(DenseArrayBase.constr(I1))
    traits = traits_def(RecursiveMemoryEffect(), KernelOp())

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        neutral: Sequence[SSAValue | Operation],
        map_body: Region,
        operators: Sequence[Region],
        commutative: Sequence[bool],
        result_types: Sequence[Attribute],
        post: Region | None = None,
    ):
        regions = [map_body, list(operators)]
        if self.POST:  # a scanomap's post lambda, if any
            regions.append([post] if post is not None else [])
        super().__init__(
            operands=[inputs, neutral],
            result_types=[result_types],
            regions=regions,
            properties={"commutative": commutative_flags(commutative)},
        )

    @classmethod
    def from_lambdas(
        cls,
        inputs: Sequence[SSAValue],
        map_lambda: Callable[[Builder, tuple[SSAValue, ...]], Sequence[SSAValue]],
        operators: Sequence[Operator],
        mapped_types: Sequence[Attribute] = (),
        post: tuple[Callable[[Builder, tuple[SSAValue, ...]], Sequence[SSAValue]], Sequence[Attribute]] | None = None,
    ) -> Self:
        """`map_lambda` gets the rows of `inputs` and returns the operators' operands,
        then values of `mapped_types` (the rows of the mapped results). A scanomap's
        `post` is a post lambda and its rows' types."""
        neutral, regions, flags = _operator_regions(operators)
        types, post_region = cls._results_of_lambdas(inputs, [v.type for v in neutral], list(mapped_types), post)
        return cls(inputs, neutral, _map_lambda(inputs, map_lambda), regions, flags, types, post_region)

    def print(self, printer: Printer) -> None:
        self._print_head(printer, None)
        self._print_operators(printer, self.KEYWORD, self)
        if self.POST:
            self._print_post(printer)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        _, inputs, attrs, results, map_body = cls._parse_head(parser, False)
        regions, neutral, flags = cls._parse_operators(parser, cls.KEYWORD)
        post = cls._parse_post(parser) if cls.POST else None
        op = cls(inputs, neutral, map_body, regions, flags, results, post)
        op.attributes |= attrs
        return op

    def _verify_map_and_operators(self) -> tuple[int, list[Attribute], int]:
        """(the inputs' outer size, what the map lambda yields, K)."""
        _, outer, yields = _verify_fused_inputs(self)
        return outer, yields, self._check_operators(yields)


@irdl_op_definition
class RedomapOp(_MapOperatorsOp):
    """A map fused with a reduce (Futhark's redomap): the map lambda runs on every row of
    the inputs and yields K operands and then M mapped values; each operator (over the
    next k operands, its neutral elements, `commutative` or not) reduces its operands
    over all rows. Results: the K reduced values, then the M mapped arrays. Several
    operators are independent reductions in one pass over the data.

    ```mlir
    %s, %sq = soac.redomap(%a) : (tensor<?xf32>) -> (f32, tensor<?xf32>) map {
    ^bb0(%x: f32):
      %y = arith.mulf %x, %x : f32
      soac.yield %y, %y : f32, f32
    } reduce(%zero : f32) commutative {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      soac.yield %t : f32
    }
    ```
    """

    name = "soac.redomap"
    KEYWORD: ClassVar[str] = "reduce"
    outputs = var_result_def()
    map_body = region_def("single_block")
    operators = var_region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @staticmethod
    def _results_of_lambdas(inputs, operands: list[Attribute], mapped: list[Attribute], post) -> tuple[list[Attribute], None]:
        """from_lambdas' results: the reduced values, then the mapped arrays."""
        assert post is None, "a redomap has no post lambda"
        return operands + _mapped_arrays(inputs, mapped), None

    num_operands_reduced = MapOperators.num_operator_operands

    def verify_(self) -> None:
        outer, yields, k = self._verify_map_and_operators()
        if len(self.outputs) != len(yields):
            raise VerifyException(
                f"soac.redomap has {len(self.outputs)} results; expected {k} reduced values "
                f"and {len(yields) - k} mapped arrays"
            )
        for i, (r, t) in enumerate(zip(self.outputs[:k], yields[:k])):
            if not types_compatible(r.type, t):
                raise VerifyException(f"soac.redomap result {i} has type {r.type}; expected {t}")
        _check_mapped_results(self, self.outputs[k:], yields[k:], outer, k)


@irdl_op_definition
class ScanomapOp(_MapOperatorsOp):
    """A map fused with inclusive scans (Futhark's scanomap), and optionally with a map
    after them. The map lambda yields K operands and then M mapped values; each operator
    scans its operands over the rows. Without a `post` lambda the results are the K
    scanned arrays, then the M mapped arrays. With one, the post lambda takes, per row,
    the K scanned values and the M mapped values and yields the results' rows (a map
    after the scan, fused).

    ```mlir
    %p, %q = soac.scanomap(%a) : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) map {
    ^bb0(%x: i32):
      soac.yield %x, %x : i32, i32
    } scan(%zero : i32) commutative {
    ^bb0(%l: i32, %r: i32):
      %s = arith.addi %l, %r : i32
      soac.yield %s : i32
    } post {
    ^bb0(%s: i32, %x: i32):
      %e = arith.subi %s, %x : i32
      soac.yield %s, %e : i32, i32
    }
    ```
    """

    name = "soac.scanomap"
    KEYWORD: ClassVar[str] = "scan"
    POST: ClassVar[bool] = True
    outputs = var_result_def(TensorType)
    map_body = region_def("single_block")
    operators = var_region_def("single_block")
    post = opt_region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True), AttrSizedRegionSegments(as_property=True))

    @staticmethod
    def _results_of_lambdas(inputs, operands: list[Attribute], mapped: list[Attribute], post) -> tuple[list[Attribute], Region | None]:
        """from_lambdas' results (arrays of the scanned and mapped values, or of the rows
        the post lambda makes of them) and its post lambda."""
        rows, post_region = operands + mapped, None
        if post is not None:
            post_region = build_lambda(rows, post[0])
            rows = list(post[1])
        return _mapped_arrays(inputs, rows), post_region

    num_operands_scanned = MapOperators.num_operator_operands

    def verify_(self) -> None:
        outer, yields, _ = self._verify_map_and_operators()
        rows = yields
        if self.post is not None:
            rows = lambda_yields(self, self.post, yields, what="post ", expected="the scanned and mapped values ")
        if len(self.outputs) != len(rows):
            raise VerifyException(
                f"soac.scanomap has {len(self.outputs)} results; its "
                f"{'post' if self.post is not None else 'map'} lambda gives {len(rows)} per row"
            )
        _check_mapped_results(self, self.outputs, rows, outer, 0)


def _check_index_and_value(op: Operation, yields: Sequence[Attribute], dest: TensorType) -> None:
    """A map lambda of scatteromap/histomap yields an index, then a value for dest."""
    if len(yields) < 2:
        raise VerifyException(
            f"{op.name} map lambda yields {len(yields)} values; expected an index, a value, "
            "then mapped values"
        )
    if not is_index_scalar(yields[0]):
        raise VerifyException(f"{op.name} map lambda yields an index of type {yields[0]}; expected index, i32 or i64")
    if not is_element_type(yields[1]) or not types_compatible(yields[1], row_type(dest)):
        raise VerifyException(
            f"{op.name} map lambda yields a value of type {yields[1]}; expected the "
            f"destination's element type {row_type(dest)} (a scalar)"
        )


class _DestinationMapOp(FusedSyntax, IRDLOperation):
    """Shared by soac.scatteromap and soac.histomap: their verification, around the
    check of the operator that only histomap has (`_check_combiner`)."""

    traits = traits_def(RecursiveMemoryEffect(), KernelOp(), ConsumesOperand("dest"))

    def print(self, printer: Printer) -> None:
        self._print_head(printer, self.dest)

    def _check_combiner(self, dest: TensorType) -> None:
        pass

    def verify_(self) -> None:
        dest = _check_array(f"{self.name} destination", self.dest.type)
        _, outer, yields = _verify_fused_inputs(self)
        _check_index_and_value(self, yields, dest)
        self._check_combiner(dest)
        if not self.outputs or self.outputs[0].type != dest:
            raise VerifyException(f"{self.name} result 0 must have the destination's type {dest}")
        if len(self.outputs) != len(yields) - 1:
            raise VerifyException(
                f"{self.name} has {len(self.outputs)} results; expected the destination "
                f"and {len(yields) - 2} mapped arrays"
            )
        _check_mapped_results(self, self.outputs[1:], yields[2:], outer, 1)


@irdl_op_definition
class ScatteromapOp(_DestinationMapOp):
    """A map fused with a scatter: for every row i of the inputs the map lambda yields an
    index j, a value v and then M mapped values; v is written to element j of `dest`
    (out-of-bounds indices are ignored; which value a repeated index gets is
    unspecified). Consumes `dest`. Results: the updated dest, then the M mapped arrays.

    ```mlir
    %r = soac.scatteromap %dest(%is, %xs) : tensor<?xf32>, (tensor<?xi64>, tensor<?xf32>)
           -> tensor<?xf32> map {
    ^bb0(%i: i64, %x: f32):
      %y = arith.addf %x, %x : f32
      soac.yield %i, %y : i64, f32
    }
    ```
    """

    name = "soac.scatteromap"
    dest = operand_def(TensorType)
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    map_body = region_def("single_block")

    def __init__(
        self,
        dest: SSAValue | Operation,
        inputs: Sequence[SSAValue | Operation],
        map_body: Region,
        mapped_types: Sequence[Attribute] = (),
    ):
        super().__init__(
            operands=[dest, inputs], result_types=[[SSAValue.get(dest).type, *mapped_types]], regions=[map_body]
        )

    @classmethod
    def from_lambda(
        cls,
        dest: SSAValue,
        inputs: Sequence[SSAValue],
        map_lambda: Callable[[Builder, tuple[SSAValue, ...]], Sequence[SSAValue]],
        mapped_types: Sequence[Attribute] = (),
    ) -> ScatteromapOp:
        """`map_lambda` gets the rows of `inputs` and returns an index, a value, then
        values of `mapped_types`."""
        return cls(dest, inputs, _map_lambda(inputs, map_lambda), _mapped_arrays(inputs, mapped_types))

    @classmethod
    def parse(cls, parser: Parser) -> ScatteromapOp:
        dest, inputs, attrs, results, map_body = cls._parse_head(parser, True)
        op = cls.build(operands=[dest, inputs], result_types=[results], regions=[map_body])
        op.attributes |= attrs
        return op


@irdl_op_definition
class HistomapOp(_DestinationMapOp):
    """A map fused with a hist (reduce-by-index): for every row of the inputs the map
    lambda yields an index j, a value v and then M mapped values; v is combined into
    element j of `dest` by the associative and commutative operator (out-of-bounds
    indices are ignored). Consumes `dest`. Results: the updated dest, then the M mapped
    arrays.

    ```mlir
    %h = soac.histomap %bins(%xs) : tensor<256xi32>, (tensor<?xf32>) -> tensor<256xi32> map {
    ^bb0(%x: f32):
      %b = arith.fptosi %x : f32 to i32
      soac.yield %b, %one : i32, i32
    } hist(%zero : i32) {
    ^bb0(%l: i32, %r: i32):
      %s = arith.addi %l, %r : i32
      soac.yield %s : i32
    }
    ```
    """

    name = "soac.histomap"
    dest = operand_def(TensorType)
    inputs = var_operand_def(TensorType)
    neutral = operand_def()
    outputs = var_result_def(TensorType)
    map_body = region_def("single_block")
    operator = region_def("single_block")

    def __init__(
        self,
        dest: SSAValue | Operation,
        inputs: Sequence[SSAValue | Operation],
        neutral: SSAValue | Operation,
        map_body: Region,
        operator: Region,
        mapped_types: Sequence[Attribute] = (),
    ):
        super().__init__(
            operands=[dest, inputs, neutral],
            result_types=[[SSAValue.get(dest).type, *mapped_types]],
            regions=[map_body, operator],
        )

    @classmethod
    def from_lambdas(
        cls,
        dest: SSAValue,
        inputs: Sequence[SSAValue],
        neutral: SSAValue,
        map_lambda: Callable[[Builder, tuple[SSAValue, ...]], Sequence[SSAValue]],
        operator: Callable[[Builder, tuple[SSAValue, ...]], Sequence[SSAValue]],
        mapped_types: Sequence[Attribute] = (),
    ) -> HistomapOp:
        """As ScatteromapOp.from_lambda, with the operator's body."""
        elem = row_type(SSAValue.get(dest).type)
        return cls(
            dest, inputs, neutral, _map_lambda(inputs, map_lambda), build_lambda([elem, elem], operator),
            _mapped_arrays(inputs, mapped_types),
        )

    def print(self, printer: Printer) -> None:
        super().print(printer)
        self._print_operator(printer, "hist", [self.neutral], self.operator, False)

    @classmethod
    def parse(cls, parser: Parser) -> HistomapOp:
        dest, inputs, attrs, results, map_body = cls._parse_head(parser, True)
        regions, neutral, _ = cls._parse_operators(parser, "hist", single=True)
        if len(neutral) != 1:
            parser.raise_error(f"soac.histomap takes one neutral element, found {len(neutral)}")
        op = cls.build(operands=[dest, inputs, neutral[0]], result_types=[results], regions=[map_body, regions[0]])
        op.attributes |= attrs
        return op

    def _check_combiner(self, dest: TensorType) -> None:
        _check_operator(self, self.operator, [row_type(dest)], [self.neutral])


FUSED_OPS = (RedomapOp, ScanomapOp, ScatteromapOp, HistomapOp)
"""The combinators soac-fusion makes."""


# --------------------------------------------------------------------------------------
# Array constructors
# --------------------------------------------------------------------------------------


@irdl_op_definition
class IotaOp(IRDLOperation):
    """The array [0, 1, ..., n-1] of an integer or index type.

    ```mlir
    %is = soac.iota %n : tensor<?xindex>
    ```
    """

    name = "soac.iota"
    count = operand_def(IndexType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$count attr-dict `:` type($result)"

    def __init__(self, count: SSAValue, result_type: Attribute):
        super().__init__(operands=[count], result_types=[result_type])

    def verify_(self) -> None:
        _check_index_array("soac.iota result", self.result.type)


@irdl_op_definition
class ReplicateOp(IRDLOperation):
    """An array of `count` copies of a value (a scalar or an array).

    ```mlir
    %z = soac.replicate %n, %zero : f32 -> tensor<?xf32>
    ```
    """

    name = "soac.replicate"
    count = operand_def(IndexType)
    value = operand_def()
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$count `,` $value attr-dict `:` type($value) `->` type($result)"

    def __init__(self, count: SSAValue, value: SSAValue, outer: int = DYNAMIC_INDEX):
        super().__init__(operands=[count, value], result_types=[array_of(value.type, outer)])

    def verify_(self) -> None:
        t = _check_array("soac.replicate result", self.result.type)
        if not types_compatible(row_type(t), self.value.type):
            raise VerifyException(
                f"soac.replicate result {t} must have rows of the value's type {self.value.type}"
            )


@irdl_op_definition
class ArrayOp(IRDLOperation):
    """An array literal whose rows are SSA values (scalars or arrays of one shape).

    ```mlir
    %v = soac.array [%x, %y, %z] : tensor<3xf32>
    ```
    """

    name = "soac.array"
    elements = var_operand_def()
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, elements: Sequence[SSAValue], result_type: Attribute):
        super().__init__(operands=[elements], result_types=[result_type])

    def print(self, printer: Printer) -> None:
        printer.print_string(" [")
        printer.print_list(self.elements, printer.print_operand)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> ArrayOp:
        unresolved = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        t = parser.parse_type()
        if not isinstance(t, TensorType) or t.get_num_dims() < 1:
            parser.raise_error(f"soac.array needs a tensor result type of rank >= 1, got {t}", pos)
        row = row_type(t)
        op = cls([parser.resolve_operand(u, row) for u in unresolved], t)
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        t = _check_array("soac.array result", self.result.type)
        n = t.get_shape()[0]
        if n != DYNAMIC_INDEX and n != len(self.elements):
            raise VerifyException(
                f"soac.array result {t} has outer size {n}, but {len(self.elements)} "
                "elements are given"
            )
        for i, e in enumerate(self.elements):
            if not types_compatible(e.type, row_type(t)):
                raise VerifyException(
                    f"soac.array element {i} has type {e.type}; expected {row_type(t)}"
                )


# --------------------------------------------------------------------------------------
# Accessors and array manipulation
# --------------------------------------------------------------------------------------


class SliceSpec:
    """How `slice` and `update` address their array: one entry per leading dimension,
    either a fixed index `%i` (the dimension goes away) or a range `%o:%n` / `%o:%n:%s`
    (offset, count, stride; stride 1 when omitted; the stride may be negative). Every
    element a range addresses must be in bounds; a range of count 0 addresses nothing and
    so may start anywhere. Dimensions past the entries are taken whole.

    The kinds are stored in the `kinds` property: 0 = fixed, 1 = range, 2 = strided range.
    """

    FIXED, RANGE, STRIDED = 0, 1, 2
    OPERANDS = {FIXED: 1, RANGE: 2, STRIDED: 3}

    @staticmethod
    def parse(parser: Parser) -> tuple[list[int], list[UnresolvedOperand]]:
        kinds: list[int] = []
        operands: list[UnresolvedOperand] = []

        def entry() -> None:
            parts = [parser.parse_unresolved_operand()]
            while parser.parse_optional_punctuation(":") is not None:
                parts.append(parser.parse_unresolved_operand())
            if len(parts) > 3:
                parser.raise_error("a slice entry is %i, %offset:%count or %offset:%count:%stride")
            kinds.append(len(parts) - 1)
            operands.extend(parts)

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
        return kinds, operands

    @staticmethod
    def print(printer: Printer, kinds: Sequence[int], operands: Sequence[SSAValue]) -> None:
        printer.print_string("[")
        pos = 0
        for n, k in enumerate(kinds):
            if n:
                printer.print_string(", ")
            count = SliceSpec.OPERANDS.get(k, 1)  # bad kinds are the verifier's to report
            printer.print_list(operands[pos : pos + count], printer.print_operand, ":")
            pos += count
        printer.print_string("]")

    @staticmethod
    def entries(kinds: Sequence[int], operands: Sequence[SSAValue]):
        """Yields (kind, operands of the entry) per entry."""
        pos = 0
        for k in kinds:
            count = SliceSpec.OPERANDS[k]
            yield k, tuple(operands[pos : pos + count])
            pos += count

    @staticmethod
    def verify(op_name: str, kinds: Sequence[int], operands: Sequence[SSAValue], source: TensorType):
        if any(k not in SliceSpec.OPERANDS for k in kinds):
            raise VerifyException(f"{op_name}: slice kinds must be 0, 1 or 2, found {list(kinds)}")
        expected = sum(SliceSpec.OPERANDS[k] for k in kinds)
        if expected != len(operands):
            raise VerifyException(
                f"{op_name}: the slice kinds need {expected} index operands, found {len(operands)}"
            )
        if len(kinds) > source.get_num_dims():
            raise VerifyException(
                f"{op_name}: {len(kinds)} slice entries for an array of rank {source.get_num_dims()}"
            )

    @staticmethod
    def result_rank(kinds: Sequence[int], source: TensorType) -> int:
        return source.get_num_dims() - sum(1 for k in kinds if k == SliceSpec.FIXED)

    @staticmethod
    def check(op: Operation, source: TensorType | MemRefType) -> tuple[Sequence[int], int]:
        """`op`'s `kinds` and `spec` address `source` (verify); returns the kinds and the
        rank of what they address."""
        kinds = op.kinds.get_values()
        SliceSpec.verify(op.name, kinds, op.spec, source)
        return kinds, SliceSpec.result_rank(kinds, source)

    @staticmethod
    def check_kept(op: Operation, what: str, source: Attribute, kinds: Sequence[int], t: Attribute, rank: int) -> None:
        """Dimensions past the slice entries are kept whole: their sizes carry over to
        `t` (`what`: the result or the value, of rank `rank`)."""
        kept = source.get_shape()[len(kinds) :]
        for d_src, d in zip(kept, t.get_shape()[rank - len(kept) :]):
            if not dims_compatible(d_src, d):
                raise VerifyException(f"{op.name} {what} {t} does not keep the unsliced dimensions of {source}")


class SlicedSyntax:
    """The syntax `%source[spec] : S -> R` of slicing ops (soac.slice, mem.slice), whose
    fields are `source`, `spec`, `kinds` and `result`, and their builder."""

    def __init__(self, source: SSAValue, kinds: Sequence[int], spec: Sequence[SSAValue], result_type: Attribute):
        super().__init__(
            operands=[source, spec],
            result_types=[result_type],
            properties={"kinds": DenseArrayBase.from_list(i64, kinds)},
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        SliceSpec.print(printer, self.kinds.get_values(), self.spec)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser):
        src = parser.parse_unresolved_operand()
        kinds, spec = SliceSpec.parse(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_t = parser.parse_type()
        parser.parse_punctuation("->")
        res_t = parser.parse_type()
        op = cls(
            parser.resolve_operand(src, src_t),
            kinds,
            [parser.resolve_operand(s, IndexType()) for s in spec],
            res_t,
        )
        op.attributes |= attrs
        return op


class PermutedSyntax:
    """The syntax `%input [1, 0] : S -> R` of transposing ops (soac.transpose,
    mem.transpose), whose fields are `input`, `permutation` and `result`, and their
    builder and verifier: `_check_input(what, t)` checks the input array of the op's
    level, and `_permuted(t, shape)` is the type of an array like `t` of that shape."""

    def __init__(self, input: SSAValue, permutation: Sequence[int]):
        shape = input.type.get_shape()
        super().__init__(
            operands=[input],
            result_types=[self._permuted(input.type, [shape[p] for p in permutation])],
            properties={"permutation": DenseArrayBase.from_list(i64, permutation)},
        )

    def verify_(self) -> None:
        src = self._check_input(f"{self.name} input", self.input.type)
        perm = self.permutation.get_values()
        if sorted(perm) != list(range(src.get_num_dims())):
            raise VerifyException(
                f"{self.name} permutation {list(perm)} is not a permutation of the "
                f"{src.get_num_dims()} dimensions of {src}"
            )
        res = self.result.type
        expected = self._permuted(src, [src.get_shape()[p] for p in perm])
        if not types_compatible(res, expected):
            raise VerifyException(f"{self.name} result has type {res}; expected {expected}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(" [")
        printer.print_list(self.permutation.get_values(), lambda p: printer.print_string(str(p)))
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser):
        src = parser.parse_unresolved_operand()
        perm = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_t = parser.parse_type()
        parser.parse_punctuation("->")
        res_t = parser.parse_type()
        op = cls.build(
            operands=[parser.resolve_operand(src, src_t)],
            result_types=[res_t],
            properties={"permutation": DenseArrayBase.from_list(i64, perm)},
        )
        op.attributes |= attrs
        return op


class IndexOpHasCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        from soacc.dialects.shared.soac_canonicalization import PATTERNS

        return PATTERNS


@irdl_op_definition
class IndexOp(IRDLOperation):
    """Reads the element (or, with fewer indices than dimensions, the sub-array) at the
    given indices. At host level, a read of a device array is a synchronous transfer:
    the reads that `reduce-device-syncs` tries to remove.

    ```mlir
    %x = soac.index %a[%i, %j] : tensor<?x?xf32>
    ```
    """

    name = "soac.index"
    array = operand_def(TensorType)
    indices = var_operand_def(IndexType)
    result = result_def()
    traits = traits_def(Pure(), IndexOpHasCanonicalizationPatterns())

    def __init__(self, array: SSAValue, indices: Sequence[SSAValue]):
        super().__init__(
            operands=[array, indices],
            result_types=[IndexOp.result_type_for(array.type, len(indices))],
        )

    @staticmethod
    def result_type_for(t: TensorType, n: int) -> Attribute:
        shape = t.get_shape()
        if n == len(shape):
            return t.element_type
        return TensorType(t.element_type, shape[n:])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.array)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.array.type)

    @classmethod
    def parse(cls, parser: Parser) -> IndexOp:
        arr = parser.parse_unresolved_operand()
        idx = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        t = parser.parse_type()
        if not isinstance(t, TensorType) or t.get_num_dims() < len(idx):
            parser.raise_error(
                f"soac.index of {len(idx)} indices needs a tensor type of rank >= {len(idx)}, "
                f"got {t}",
                pos,
            )
        op = cls(parser.resolve_operand(arr, t), [parser.resolve_operand(i, IndexType()) for i in idx])
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        t = _check_array("soac.index array", self.array.type)
        if len(self.indices) > t.get_num_dims() or not self.indices:
            raise VerifyException(
                f"soac.index has {len(self.indices)} indices for an array of rank "
                f"{t.get_num_dims()}; expected 1 to {t.get_num_dims()}"
            )
        expected = IndexOp.result_type_for(t, len(self.indices))
        if not types_compatible(self.result.type, expected):
            raise VerifyException(
                f"soac.index result has type {self.result.type}; expected {expected}"
            )


@irdl_op_definition
class SliceOp(SlicedSyntax, IRDLOperation):
    """A sub-array: per leading dimension a fixed index or a strided range (see
    SliceSpec). A view, not a copy, once in explicit memory.

    ```mlir
    %row = soac.slice %m[%i, %c0:%n] : tensor<?x?xf32> -> tensor<?xf32>
    %odd = soac.slice %v[%c1:%h:%c2] : tensor<?xf32> -> tensor<?xf32>
    ```
    """

    name = "soac.slice"
    source = operand_def(TensorType)
    spec = var_operand_def(IndexType)
    kinds = prop_def(DenseArrayBase.constr(I64))
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        src = _check_array("soac.slice source", self.source.type)
        kinds, rank = SliceSpec.check(self, src)
        res = self.result.type
        if rank == 0:
            raise VerifyException("soac.slice fixes every dimension; use soac.index for an element")
        if not (
            isinstance(res, TensorType)
            and res.element_type == src.element_type
            and res.get_num_dims() == rank
        ):
            raise VerifyException(
                f"soac.slice result has type {res}; expected a tensor of rank {rank} "
                f"of {src.element_type}"
            )
        SliceSpec.check_kept(self, "result", src, kinds, res, rank)


@irdl_op_definition
class UpdateOp(IRDLOperation):
    """In-place update: the array `source` with the part addressed by the slice spec
    replaced by `value` (a scalar when every dimension is fixed). Consumes `source`,
    which must not be used afterwards; the result may reuse its memory.

    ```mlir
    %a2 = soac.update %a[%i] = %x : tensor<?xf32>, f32
    %m2 = soac.update %m[%i, %c0:%n] = %row : tensor<?x?xf32>, tensor<?xf32>
    ```
    """

    name = "soac.update"
    T: ClassVar = VarConstraint("T", base(TensorType))
    source = operand_def(T)
    spec = var_operand_def(IndexType)
    value = operand_def()
    kinds = prop_def(DenseArrayBase.constr(I64))
    result = result_def(T)
    traits = traits_def(Pure(), ConsumesOperand("source"))

    def __init__(self, source: SSAValue, kinds: Sequence[int], spec: Sequence[SSAValue], value: SSAValue):
        super().__init__(
            operands=[source, spec, value],
            result_types=[source.type],
            properties={"kinds": DenseArrayBase.from_list(i64, kinds)},
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        SliceSpec.print(printer, self.kinds.get_values(), self.spec)
        printer.print_string(" = ")
        printer.print_operand(self.value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(", ")
        printer.print_attribute(self.value.type)

    @classmethod
    def parse(cls, parser: Parser) -> UpdateOp:
        src = parser.parse_unresolved_operand()
        kinds, spec = SliceSpec.parse(parser)
        parser.parse_punctuation("=")
        val = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_t = parser.parse_type()
        parser.parse_punctuation(",")
        val_t = parser.parse_type()
        op = cls(
            parser.resolve_operand(src, src_t),
            kinds,
            [parser.resolve_operand(s, IndexType()) for s in spec],
            parser.resolve_operand(val, val_t),
        )
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        src = _check_array("soac.update source", self.source.type)
        kinds, rank = SliceSpec.check(self, src)
        v = self.value.type
        if rank == 0:
            if v != src.element_type:
                raise VerifyException(
                    f"soac.update value has type {v}; every dimension is fixed, so expected "
                    f"the element type {src.element_type}"
                )
        elif not (
            isinstance(v, TensorType) and v.element_type == src.element_type and v.get_num_dims() == rank
        ):
            raise VerifyException(
                f"soac.update value has type {v}; expected a tensor of rank {rank} of "
                f"{src.element_type}"
            )
        else:
            SliceSpec.check_kept(self, "value", src, kinds, v, rank)


def is_device_index(t: Attribute) -> bool:
    """`tensor<1xindex>`: an index that lives in device memory (a one-row array, as
    `soac.gpu_body` and reduce-device-syncs store scalars on the device)."""
    return isinstance(t, TensorType) and t.get_shape() == (1,) and isinstance(t.element_type, IndexType)


def _device_kinds(op: Operation) -> list[int]:
    """A device-indexed op's slice kinds: its `kinds` property, every entry fixed
    without one (the partial index and sub-array update it was first made for)."""
    kinds = op.properties.get("kinds")
    if kinds is None:
        return [SliceSpec.FIXED] * len(op.indices)
    assert isinstance(kinds, DenseArrayBase)
    return list(kinds.get_values())


def _device_kinds_property(kinds: Sequence[int]) -> dict[str, Attribute]:
    """Every entry fixed needs no property (the generic form of a partial index)."""
    return {} if all(k == SliceSpec.FIXED for k in kinds) else {"kinds": DenseArrayBase.from_list(i64, kinds)}


def _check_device_spec(op: Operation, indices: Sequence[SSAValue], t: TensorType, element: bool) -> int:
    """The slice spec of a device-indexed op (returns the rank of what it addresses):
    each index, offset or stride `index` (known on the host) or `tensor<1xindex>` (read
    on the device), at least one on the device; a range's count is always `index` (the
    host sizes the result). Every dimension fixed addresses an element, which only an
    update may write (`element`); an element is read in a soac.gpu_body instead."""
    kinds = _device_kinds(op)
    SliceSpec.verify(op.name, kinds, indices, t)
    rank = SliceSpec.result_rank(kinds, t)
    if not kinds:
        raise VerifyException(f"{op.name} has no indices; without one on the device it is {op.name.replace('device_', '')}")
    if rank == 0 and not element:
        raise VerifyException(
            f"{op.name} has {len(indices)} indices for an array of rank {t.get_num_dims()}; expected 1 to "
            f"{t.get_num_dims() - 1} (an element at a device index is read in a soac.gpu_body)"
        )
    position = 0
    for _, values in SliceSpec.entries(kinds, indices):
        for k, v in enumerate(values):
            if k == 1 and not isinstance(v.type, IndexType):
                raise VerifyException(f"{op.name} index {position} (a count) has type {v.type}; expected index (the host sizes the result)")
            if not (isinstance(v.type, IndexType) or is_device_index(v.type)):
                raise VerifyException(f"{op.name} index {position} has type {v.type}; expected index or tensor<1xindex>")
            position += 1
    if not any(is_device_index(v.type) for v in indices):
        raise VerifyException(f"{op.name} has no index of type tensor<1xindex>; without one it is {op.name.replace('device_', '')}")
    return rank


def _check_addressed(op: Operation, what: str, t: TensorType, kinds: Sequence[int], rank: int, actual: Attribute) -> None:
    """`actual` is what the spec addresses: with every entry fixed, the array's trailing
    dimensions (or its element); with ranges, a tensor of `rank` whose sizes past the
    entries are the array's (the ranges' are their counts')."""
    expected = IndexOp.result_type_for(t, len(kinds)) if all(k == SliceSpec.FIXED for k in kinds) else None
    if expected is not None:
        if not types_compatible(actual, expected):
            raise VerifyException(f"{op.name} {what} has type {actual}; expected {expected}")
        return
    if not (isinstance(actual, TensorType) and actual.element_type == t.element_type and actual.get_num_dims() == rank):
        raise VerifyException(f"{op.name} {what} has type {actual}; expected a tensor of rank {rank} of {t.element_type}")
    SliceSpec.check_kept(op, what, t, kinds, actual, rank)


def _print_device_indexed(printer: Printer, array: SSAValue, op: Operation) -> None:
    printer.print_string(" ")
    printer.print_operand(array)
    SliceSpec.print(printer, _device_kinds(op), op.indices)


def _parse_types(parser: Parser, count: int) -> list[Attribute]:
    types = [parser.parse_type()]
    for _ in range(count - 1):
        parser.parse_punctuation(",")
        types.append(parser.parse_type())
    return types


@irdl_op_definition
class DeviceIndexOp(IRDLOperation):
    """The sub-array a slice spec addresses, some of whose indices, offsets or strides
    are read on the device (`tensor<1xindex>`, a one-row device array), as a fresh
    array: `soac.index` or `soac.slice` of an array whose position the host does not
    know (a range's count is known: the host sizes the result). Made by
    reduce-device-syncs where a position is a device value and only device work uses
    what it addresses; the host never reads the position. Once in explicit memory it
    is a copy kernel that loads the position from device memory (and checks it, as
    `soac.index` does). The result type is written where a range makes it more than
    the array's trailing dimensions.

    ```mlir
    %row = soac.device_index %m[%p_dev] : tensor<?x?xf32>, tensor<1xindex>
    %part = soac.device_index %a[%o_dev:%n] : tensor<?xf32>, tensor<1xindex>, index -> tensor<?xf32>
    ```
    """

    name = "soac.device_index"
    array = operand_def(TensorType)
    indices = var_operand_def()
    kinds = opt_prop_def(DenseArrayBase.constr(I64))
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, array: SSAValue, indices: Sequence[SSAValue], kinds: Sequence[int] | None = None, result_type: Attribute | None = None):
        kinds = [SliceSpec.FIXED] * len(indices) if kinds is None else list(kinds)
        if result_type is None:
            result_type = IndexOp.result_type_for(array.type, len(indices))
        super().__init__(operands=[array, indices], result_types=[result_type], properties=_device_kinds_property(kinds))

    def slice_kinds(self) -> list[int]:
        return _device_kinds(self)

    def print(self, printer: Printer) -> None:
        _print_device_indexed(printer, self.array, self)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([self.array.type, *(i.type for i in self.indices)], printer.print_attribute)
        if any(k != SliceSpec.FIXED for k in self.slice_kinds()):
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> DeviceIndexOp:
        array = parser.parse_unresolved_operand()
        kinds, indices = SliceSpec.parse(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        types = _parse_types(parser, 1 + len(indices))
        ranged = any(k != SliceSpec.FIXED for k in kinds)
        result_type = None
        if ranged:
            parser.parse_punctuation("->", " before the result type of a soac.device_index with a range")
            result_type = parser.parse_type()
        if not ranged and (not isinstance(types[0], TensorType) or types[0].get_num_dims() <= len(indices)):
            parser.raise_error(
                f"soac.device_index of {len(indices)} indices needs a tensor type of rank > {len(indices)}, got {types[0]}",
                pos,
            )
        op = cls(
            parser.resolve_operand(array, types[0]),
            [parser.resolve_operand(i, t) for i, t in zip(indices, types[1:])],
            kinds,
            result_type,
        )
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        t = _check_array("soac.device_index array", self.array.type)
        rank = _check_device_spec(self, self.indices, t, element=False)
        _check_addressed(self, "result", t, self.slice_kinds(), rank, self.result.type)


@irdl_op_definition
class DeviceUpdateOp(IRDLOperation):
    """`soac.update` of the part a slice spec addresses, some of whose indices, offsets
    or strides are read on the device (`tensor<1xindex>`), by `value`: an array, or a
    scalar where every dimension is fixed (one element written at a device position).
    Consumes `source`, as `soac.update` does. Made by reduce-device-syncs; once in
    explicit memory a copy kernel (one thread for an element) that loads the position
    from device memory (and checks it).

    ```mlir
    %m2 = soac.device_update %m[%p_dev] = %row : tensor<?x?xf32>, tensor<1xindex>, tensor<?xf32>
    %a2 = soac.device_update %a[%p_dev] = %x : tensor<?xf32>, tensor<1xindex>, f32
    %a3 = soac.device_update %a[%p_dev:%c1] = %x_dev : tensor<?xf32>, tensor<1xindex>, index, tensor<1xf32>
    ```
    """

    name = "soac.device_update"
    T: ClassVar = VarConstraint("T", base(TensorType))
    source = operand_def(T)
    indices = var_operand_def()
    value = operand_def()
    kinds = opt_prop_def(DenseArrayBase.constr(I64))
    result = result_def(T)
    traits = traits_def(Pure(), ConsumesOperand("source"))

    def __init__(self, source: SSAValue, indices: Sequence[SSAValue], value: SSAValue, kinds: Sequence[int] | None = None):
        kinds = [SliceSpec.FIXED] * len(indices) if kinds is None else list(kinds)
        super().__init__(operands=[source, indices, value], result_types=[source.type], properties=_device_kinds_property(kinds))

    def slice_kinds(self) -> list[int]:
        return _device_kinds(self)

    def print(self, printer: Printer) -> None:
        _print_device_indexed(printer, self.source, self)
        printer.print_string(" = ")
        printer.print_operand(self.value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list(
            [self.source.type, *(i.type for i in self.indices), self.value.type], printer.print_attribute
        )

    @classmethod
    def parse(cls, parser: Parser) -> DeviceUpdateOp:
        source = parser.parse_unresolved_operand()
        kinds, indices = SliceSpec.parse(parser)
        parser.parse_punctuation("=")
        value = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = _parse_types(parser, 2 + len(indices))
        op = cls(
            parser.resolve_operand(source, types[0]),
            [parser.resolve_operand(i, t) for i, t in zip(indices, types[1:-1])],
            parser.resolve_operand(value, types[-1]),
            kinds,
        )
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        src = _check_array("soac.device_update source", self.source.type)
        rank = _check_device_spec(self, self.indices, src, element=True)
        _check_addressed(self, "value", src, self.slice_kinds(), rank, self.value.type)


@irdl_op_definition
class ConcatOp(IRDLOperation):
    """Concatenation along the outer dimension.

    ```mlir
    %c = soac.concat %a, %b : (tensor<?xf32>, tensor<4xf32>) -> tensor<?xf32>
    ```
    """

    name = "soac.concat"
    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$inputs attr-dict `:` functional-type($inputs, $result)"

    def __init__(self, inputs: Sequence[SSAValue], result_type: Attribute):
        super().__init__(operands=[inputs], result_types=[result_type])

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("soac.concat needs at least one input array")
        res = _check_array("soac.concat result", self.result.type)
        total = 0
        for i, v in enumerate(self.inputs):
            t = _check_array(f"soac.concat input {i}", v.type)
            if not types_compatible(row_type(t), row_type(res)):
                raise VerifyException(
                    f"soac.concat input {i} has rows of type {row_type(t)}; expected "
                    f"{row_type(res)}"
                )
            d = t.get_shape()[0]
            total = DYNAMIC_INDEX if DYNAMIC_INDEX in (d, total) else total + d
        if not dims_compatible(total, res.get_shape()[0]):
            raise VerifyException(
                f"soac.concat result has outer size {res.get_shape()[0]}; the inputs add up to {total}"
            )


@irdl_op_definition
class TransposeOp(PermutedSyntax, IRDLOperation):
    """Permutes the dimensions: result dimension i is source dimension permutation[i].

    ```mlir
    %t = soac.transpose %m [1, 0] : tensor<?x4xf32> -> tensor<4x?xf32>
    ```
    """

    name = "soac.transpose"
    input = operand_def(TensorType)
    permutation = prop_def(DenseArrayBase.constr(I64))
    result = result_def(TensorType)
    traits = traits_def(Pure())
    _check_input = staticmethod(_check_array)

    @staticmethod
    def _permuted(t: TensorType, shape: Sequence[int]) -> TensorType:
        return TensorType(t.element_type, shape)


@irdl_op_definition
class CopyOp(IRDLOperation):
    """A fresh copy of an array (so that the copy may be consumed by an update).

    ```mlir
    %b = soac.copy %a : tensor<?xf32>
    ```
    """

    name = "soac.copy"
    T: ClassVar = VarConstraint("T", base(TensorType))
    input = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input)"

    def __init__(self, input: SSAValue):
        super().__init__(operands=[input], result_types=[input.type])

    def verify_(self) -> None:
        _check_array("soac.copy input", self.input.type)


@irdl_op_definition
class SizeOp(IRDLOperation):
    """The size of one dimension of an array.

    ```mlir
    %n = soac.size %a[0] : tensor<?xf32>
    ```
    """

    name = "soac.size"
    array = operand_def(TensorType)
    dim = prop_def(IntegerAttr[I64])
    result = result_def(IndexType)
    traits = traits_def(Pure())
    assembly_format = "$array `[` $dim `]` attr-dict `:` type($array)"

    def __init__(self, array: SSAValue, dim: int):
        super().__init__(
            operands=[array],
            result_types=[IndexType()],
            properties={"dim": IntegerAttr(dim, i64)},
        )

    def verify_(self) -> None:
        check_dimension(self, _check_array("soac.size array", self.array.type), "an array")


def check_dimension(op: Operation, t: TensorType | MemRefType, array: str) -> None:
    """`op.dim` is a dimension of `t` (`array`: how the message names it)."""
    d = op.dim.value.data
    if not 0 <= d < t.get_num_dims():
        raise VerifyException(f"{op.name} dimension {d} is out of range for {array} of rank {t.get_num_dims()}")


SOAC = Dialect(
    "soac",
    [
        MapOp,
        ReduceOp,
        ScanOp,
        ScatterOp,
        HistOp,
        GpuBodyOp,
        IotaOp,
        ReplicateOp,
        ArrayOp,
        IndexOp,
        SliceOp,
        UpdateOp,
        DeviceIndexOp,
        DeviceUpdateOp,
        ConcatOp,
        TransposeOp,
        CopyOp,
        SizeOp,
        YieldOp,
        RedomapOp,
        ScanomapOp,
        ScatteromapOp,
        HistomapOp,
    ],
    [],
)


def index_of_row_zero(op: Operation) -> SSAValue | None:
    """The array that `op` reads row 0 of (`soac.index %a[%c0]` with a constant 0), or
    None: how a one-row array's value is read back."""
    from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

    if isinstance(op, IndexOp) and len(op.indices) == 1 and const_evaluate_operand(op.indices[0]) == 0:
        return op.array
    return None
