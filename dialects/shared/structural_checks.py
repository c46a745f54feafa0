"""Rules of valid IR that xDSL 0.74's verifiers do not check, checked in every soacc tool
after its own verification (MLIR's verifiers check them): every value defined before its
use; every block that needs a terminator ends with one; `scf.while`'s four signatures agree (inits, `before` block, `scf.condition`, results
and `after` block, `after`'s yield); `scf.if` with results has an `else`, and both
branches yield the results' types; `scf.for`'s yield gives the carried types; a constant
loop step is positive; a symbol table names each symbol once; static dimensions, the bytes of static
types and `index` literals fit 64 bits; size arithmetic of constants fits 64 bits
(`check_constant_sizes`, after convert-soac-to-mem).

Each failure is a `VerifyException` whose `op` is the op at fault, so the tools can say
where it is in the source.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import FunctionType, IndexType, IntegerAttr, IntegerType, MemRefType, ModuleOp, StringAttr, TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand
from xdsl.traits import IsTerminator, NoTerminator, SingleBlockImplicitTerminator, SymbolTable
from xdsl.utils.exceptions import VerifyException

from soacc.dialects.mem import ENTRY_SIGNATURE, BlockType
from soacc.dialects.shared.overflow import EXACT, MAX_SIZE


def check_structure(module: ModuleOp) -> None:
    """Raises a VerifyException (with `.op`) for the first rule `module` breaks. Runs
    before xDSL's verifiers, some of which fail with a plain exception (an index error, a
    bare Exception) on IR these rules reject."""
    misuse = first_use_before_definition(module)
    if misuse is not None:
        op, value = misuse
        name = f"%{value.name_hint}" if value.name_hint else "a value"
        _fail(op, f"{op.name} uses {name} before it is defined")
    for op in module.walk():
        _check_symbols(op)
        _check_entry_signature(op)
        _check_terminators(op)
        _check_dimensions(op)
        _check_index_literals(op)
        if isinstance(op, scf.WhileOp):
            _check_while(op)
        elif isinstance(op, scf.IfOp):
            _check_if(op)
        elif isinstance(op, scf.ForOp):
            _check_for(op)


def first_use_before_definition(module: ModuleOp) -> tuple[Operation, SSAValue] | None:
    """An op using a value that is not defined before it in its block or an enclosing
    one, or None."""

    def walk(block: Block, visible: set[SSAValue]) -> tuple[Operation, SSAValue] | None:
        visible = visible | set(block.args)
        for op in block.ops:
            for v in op.operands:
                if v not in visible:
                    return op, v
            for region in op.regions:
                for inner in region.blocks:
                    found = walk(inner, visible)
                    if found:
                        return found
            visible |= set(op.results)
        return None

    return walk(module.body.block, set())


def _fail(op: Operation, message: str) -> None:
    error = VerifyException(message)
    error.op = op  # type: ignore[attr-defined]  (read by the tools to locate it)
    raise error


def _types(values: Sequence[SSAValue]) -> list[Attribute]:
    return [v.type for v in values]


def _show(types: Sequence[Attribute]) -> str:
    return "(" + ", ".join(str(t) for t in types) + ")"


def _agree(op: Operation, what: str, found: Sequence[Attribute], expected: Sequence[Attribute], of: str) -> None:
    if list(found) != list(expected):
        _fail(op, f"{op.name}: {what} are of types {_show(found)}; expected {_show(expected)}, the types of {of}")


def _block(op: Operation, region: Region) -> Block:
    if len(region.blocks) != 1:
        _fail(op, f"{op.name}: a region must have one block; it has {len(region.blocks)}")
    return region.blocks[0]


def _terminator(op: Operation, block: Block, kind: type[Operation]) -> Operation:
    last = block.last_op
    if not isinstance(last, kind):
        _fail(op, f"{op.name}: a region must end with {kind.name}")
    assert last is not None
    return last


def _check_while(op: scf.WhileOp) -> None:
    inits = _types(op.arguments)
    results = _types(op.res)
    before = _block(op, op.before_region)
    after = _block(op, op.after_region)
    _agree(op, "the `before` block's parameters", _types(before.args), inits, "its initial values")
    condition = _terminator(op, before, scf.ConditionOp)
    _agree(op, "the values scf.condition passes on", _types(condition.args), results, "its results")  # type: ignore[attr-defined]
    _agree(op, "the `do` block's parameters", _types(after.args), results, "its results")
    yielded = _terminator(op, after, scf.YieldOp)
    _agree(op, "the values the `do` block yields", _types(yielded.operands), inits, "its initial values")


def _check_if(op: scf.IfOp) -> None:
    results = _types(op.output)
    branches = [("the `then` branch", op.true_region)]
    if op.false_region.blocks:
        branches.append(("the `else` branch", op.false_region))
    elif results:
        _fail(op, f"scf.if has results {_show(results)} but no `else` branch to give them when the condition is false")
    for what, region in branches:
        yielded = _terminator(op, _block(op, region), scf.YieldOp)
        _agree(op, f"the values {what} yields", _types(yielded.operands), results, "its results")


def _check_for(op: scf.ForOp) -> None:
    step = const_evaluate_operand(op.step)
    if step is not None and step <= 0:
        _fail(op, f"scf.for has step {step}; a loop's step must be positive")
    carried = _types(op.iter_args)
    yielded = _terminator(op, _block(op, op.body), scf.YieldOp)
    _agree(op, "the values its body yields", _types(yielded.operands), carried, "its carried values")
    _agree(op, "its results", _types(op.res), carried, "its carried values")


def _check_symbols(op: Operation) -> None:
    """A symbol table defines each name once (xDSL's message names the table, not the
    second definition)."""
    if not op.has_trait(SymbolTable):
        return
    seen: set[str] = set()
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                name = inner.properties.get("sym_name") or inner.attributes.get("sym_name")
                if isinstance(name, StringAttr):
                    if name.data in seen:
                        _fail(inner, f"{inner.name} @{name.data} is defined twice")
                    seen.add(name.data)


def _check_entry_signature(op: Operation) -> None:
    """convert-soac-to-mem's record of an entry point's level-1 signature is a function
    type with as many parameters as the function has values that are not blocks."""
    if ENTRY_SIGNATURE not in op.attributes:
        return
    signature = op.attributes[ENTRY_SIGNATURE]
    if not isinstance(op, func.FuncOp) or not isinstance(signature, FunctionType):
        _fail(op, f"{op.name}: {ENTRY_SIGNATURE} must be a function type on a func.func, not {signature}")
    assert isinstance(op, func.FuncOp)
    views = [t for t in op.function_type.inputs.data if not isinstance(t, BlockType)]
    if len(signature.inputs.data) != len(views):
        _fail(op, f"{op.name}: {ENTRY_SIGNATURE} has {len(signature.inputs.data)} parameters; the function takes {len(views)} values")


def _check_terminators(op: Operation) -> None:
    """Each block of a region that needs terminators ends with one (xDSL's message for
    this names no place)."""
    if op.has_trait(NoTerminator) or op.has_trait(SingleBlockImplicitTerminator):
        return
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is None:
                _fail(op, f"{op.name} has an empty block; it must end with a terminator (such as func.return)")
            elif not last.has_trait(IsTerminator):
                _fail(last, f"{last.name} ends a block of {op.name} but is not a terminator (such as func.return)")


def _check_index_literals(op: Operation) -> None:
    """xDSL checks an integer literal's range for iN types, not for `index` (64 bits)."""
    for name, attr in (*op.properties.items(), *op.attributes.items()):
        if isinstance(attr, IntegerAttr) and isinstance(attr.type, IndexType):
            value = attr.value.data
            if not -(2**63) <= value < 2**64:
                _fail(op, f"{op.name}: {name} {value} does not fit index (64 bits)")


def _check_dimensions(op: Operation) -> None:
    for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
        t = value.type
        if not isinstance(t, TensorType | MemRefType):
            continue
        shape = t.get_shape()
        if any(d > MAX_SIZE for d in shape):
            _fail(op, f"{op.name}: type {t} has a dimension beyond 64 bits (at most {MAX_SIZE})")
        element = t.element_type
        if all(d >= 0 for d in shape) and hasattr(element, "compile_time_size"):
            nbytes = element.compile_time_size
            for d in shape:
                nbytes *= d
            if nbytes > MAX_SIZE:
                _fail(op, f"{op.name}: type {t} needs {nbytes} bytes, past 64 bits (sizes are at most {MAX_SIZE})")


def check_constant_sizes(module: Operation) -> None:
    """Size arithmetic (integer ops marked `overflow<nsw>`, as convert-soac-to-mem marks
    the byte counts it computes) whose operands are constants must fit 64 bits: a
    VerifyException (with `.op`) where it does not, before canonicalisation would fold it
    to a wrapped constant (xDSL folds with wrap-around, whatever the flags)."""
    known: dict[SSAValue, int] = {}

    def value(v: SSAValue) -> int | None:
        if v in known:
            return known[v]
        owner = v.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
            return owner.value.value.data
        return None

    for op in module.walk():
        if type(op) in EXACT and arith.IntegerOverflowFlag.NSW in op.overflow_flags.data:
            a, b = value(op.lhs), value(op.rhs)
            if a is None or b is None or not isinstance(op.result.type, IndexType | IntegerType):
                continue
            symbol, exact = EXACT[type(op)]
            result = exact(a, b)
            bits = 64 if isinstance(op.result.type, IndexType) else op.result.type.width.data
            if not -(2 ** (bits - 1)) <= result < 2 ** (bits - 1):
                _fail(op, f"the size {a} {symbol} {b} = {result} is past {bits} bits (sizes are at most 2^{bits - 1} - 1)")
            known[op.result] = result


def check_structured_control_flow(module: ModuleOp) -> None:
    """soacc's passes and executors take structured control flow only (scf): a VerifyException
    (with `.op`) for a function of several blocks, which branches (`cf`) make."""
    for op in module.walk():
        if isinstance(op, func.FuncOp) and len(op.body.blocks) > 1:
            _fail(
                op,
                f"func.func @{op.sym_name.data} has {len(op.body.blocks)} blocks; soacc compiles structured control "
                "flow (scf.if, scf.for, scf.while), not branches between blocks",
            )

