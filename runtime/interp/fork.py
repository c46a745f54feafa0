"""The `fork` dialect on the reference executor: threads under a seeded random
scheduler that explores interleavings.

Each `fork.fork` runs its region on a Python thread of its own, but only one thread
runs at a time: at every fork, wait, resolve and read the running thread
hands the interpreter to a thread the scheduler draws at random (itself included) from
those that can run. So one seed is one interleaving, repeatable, and a test explores
many by running many seeds. The threads share one interpreter; each keeps its own
chain of scopes (the interpreter's `_ctx`), swapped in when it runs, whose root is the
scope its fork was reached in.

What the study's rules promise is checked as the program runs, each an
ExecutionError: a signal resolved twice, a reference written twice or read before its
write, a wait no thread can ever end (a deadlock), and an error in any thread (none is
lost: the call fails with it). A function's call returns once every thread it started
has ended (`join` for the entry point, `leave_call` for a `func.call`), as the host
synchronises a call's streams at its end.
"""

from __future__ import annotations

import _thread
import random
import threading
from dataclasses import dataclass, field

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, ReturnedValues, impl, impl_terminator, register_impls
from xdsl.dialects import func
from xdsl.ir import Operation

from soacc.dialects import fork
from soacc.runtime.errors import ExecutionError


class Signal:
    def __init__(self) -> None:
        self.resolved = False


class Ref:
    _EMPTY = object()

    def __init__(self) -> None:
        self.value = Ref._EMPTY

    @property
    def written(self) -> bool:
        return self.value is not Ref._EMPTY


class _Abort(BaseException):
    """Unwinds a thread after another thread failed (not an error of its own)."""


@dataclass(eq=False)
class _Thread:
    name: str
    scope: object = None
    """The interpreter's `_ctx` of this thread while another runs."""
    waiting: tuple[Signal, ...] = ()
    joining: bool = False
    joining_call: int | None = None
    """The call whose threads this thread waits to end (at the call's return)."""
    calls: list[int] = field(default_factory=lambda: [0])
    """The calls this thread is in, innermost last; the first is the one whose
    threads it belongs to (its fork's)."""
    done: bool = False
    wake: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))


class Scheduler:
    """Which thread runs, drawn at random among those that can (seeded)."""

    def __init__(self, interpreter: Interpreter, seed: int):
        self.interpreter = interpreter
        self.random = random.Random(seed)
        self.main = _Thread("the function's thread")
        self.threads: list[_Thread] = [self.main]
        self.current = self.main
        self.error: BaseException | None = None
        self.switches = 0
        self.call_count = 0
        self.calls = _CallFrames(self)
        """The listener that tells the scheduler where calls begin and end."""

    # --- what the ops ask

    def spawn(self, op: fork.ForkOp) -> None:
        child = _Thread(f"the thread of the fork.fork #{len(self.threads)}", scope=self.interpreter._ctx)
        child.calls = [self.current.calls[-1]]
        self.threads.append(child)
        # a bare thread: threading.Thread's start handshake doubles the cost of a fork
        _thread.start_new_thread(self._run, (child, op))
        self.switch()

    def wait(self, signals: tuple[Signal, ...]) -> None:
        me = self.current
        me.waiting = signals
        while not self._can_run(me):
            self.switch()
        me.waiting = ()

    def join(self) -> None:
        """Runs the other threads until every one has ended (the main thread's call
        returns); raises the first error any of them had."""
        me = self.current
        me.joining = True
        while not self._can_run(me):
            self.switch()
        me.joining = False
        if self.error is not None:
            raise self.error

    def close(self) -> None:
        """Ends every thread still waiting to run, after the call failed in its own
        thread (they unwind without running more ops)."""
        if all(t.done for t in self.threads if t is not self.main):
            return
        if self.error is None:
            self.error = ExecutionError("the call ended")
        self._abort_all(but=self.main)

    def switch(self) -> None:
        """Hands the interpreter to a thread drawn at random (this one included)."""
        me = self.current
        if self.error is not None:
            self._fail(me)
        runnable = [t for t in self.threads if not t.done and self._can_run(t)]
        if not runnable:
            self.error = ExecutionError(self._deadlock())
            self._fail(me)
        chosen = self.random.choice(runnable)
        self.switches += 1
        if chosen is me:
            return
        me.scope = self.interpreter._ctx
        self._give(chosen)
        me.wake.acquire()
        self.interpreter._ctx = me.scope  # type: ignore[assignment]
        if self.error is not None:
            self._fail(me)

    # --- the machinery

    def enter_call(self) -> None:
        self.current.calls.append(self._next_call())

    def leave_call(self) -> None:
        """A call returns once every thread it started has ended."""
        me = self.current
        me.joining_call = me.calls.pop()
        while not self._can_run(me):
            self.switch()
        me.joining_call = None

    def _next_call(self) -> int:
        self.call_count += 1
        return self.call_count

    def _can_run(self, thread: _Thread) -> bool:
        if thread.joining_call is not None:
            call = thread.joining_call
            return all(t.done for t in self.threads if t is not thread and t.calls[0] == call)
        if thread.joining:
            return all(t.done for t in self.threads if t is not thread)
        return all(s.resolved for s in thread.waiting)

    def _give(self, thread: _Thread) -> None:
        self.current = thread
        thread.wake.release()

    def _run(self, thread: _Thread, op: fork.ForkOp) -> None:
        thread.wake.acquire()
        try:
            if self.error is not None:
                raise _Abort()
            self.interpreter._ctx = thread.scope  # type: ignore[assignment]
            # NumPy's error state is per thread: as the call's (wrap-around and inf/NaN
            # are MLIR semantics)
            with np.errstate(all="ignore"):
                self.interpreter.run_ssacfg_region(op.body, (), "fork.fork")
        except _Abort:
            thread.done = True
            return
        except BaseException as error:  # noqa: BLE001: any error of a thread is the call's
            if self.error is None:
                self.error = error if isinstance(error, ExecutionError) else ExecutionError(f"in {thread.name}: {type(error).__name__}: {error}")
        thread.done = True
        if self.error is not None:
            self._abort_all()
            return
        runnable = [t for t in self.threads if not t.done and self._can_run(t)]
        if not runnable:
            self.error = ExecutionError(self._deadlock())
            self._abort_all()
            return
        self._give(self.random.choice(runnable))

    def _fail(self, me: _Thread):
        """This thread stops: the main thread raises the error, the others unwind."""
        self._abort_all(but=me)
        if me is self.main:
            raise self.error  # type: ignore[misc]
        raise _Abort()

    def _abort_all(self, but: _Thread | None = None) -> None:
        for t in self.threads:
            if t is not but and not t.done:
                t.wake.release()

    def _deadlock(self) -> str:
        blocked = [t.name for t in self.threads if not t.done and (t.waiting or t.joining)]
        return "deadlock: no thread can run (" + ", ".join(blocked) + " wait for signals no thread will resolve)"


@dataclass
class _CallFrames(Interpreter.Listener):
    """Calls inside a fork program: the threads a call starts end before it returns
    (as its caller may then read what they write)."""

    scheduler: Scheduler

    def will_interpret_op(self, op: Operation, args) -> None:
        if isinstance(op, func.CallOp):
            self.scheduler.enter_call()

    def did_interpret_op(self, op: Operation, results) -> None:
        if isinstance(op, func.CallOp):
            self.scheduler.leave_call()


def scheduler(interpreter: Interpreter) -> Scheduler:
    def not_started() -> Scheduler:
        # a scheduler made here would have no one to join its threads when the call ends
        raise ExecutionError("fork ops run on the reference executor only (ReferenceExecutor starts their threads)")

    return interpreter.get_data(ForkFunctions, "scheduler", not_started)


def start_threads(interpreter: Interpreter, seed: int) -> Scheduler:
    """A scheduler for the fork ops of one call, drawing its interleaving from `seed`."""
    made = Scheduler(interpreter, seed)
    interpreter.set_data(ForkFunctions, "scheduler", made)
    return made


@register_impls
class ForkFunctions(InterpreterFunctions):
    @impl(fork.SignalOp)
    def run_signal(self, interpreter: Interpreter, op: fork.SignalOp, args):
        return (Signal(),)

    @impl(fork.RefOp)
    def run_ref(self, interpreter: Interpreter, op: fork.RefOp, args):
        return (Ref(),)

    @impl(fork.ForkOp)
    def run_fork(self, interpreter: Interpreter, op: fork.ForkOp, args):
        scheduler(interpreter).spawn(op)
        return ()

    @impl_terminator(fork.EndOp)
    def run_end(self, interpreter: Interpreter, op: fork.EndOp, args):
        return ReturnedValues(()), ()

    @impl(fork.WaitOp)
    def run_wait(self, interpreter: Interpreter, op: fork.WaitOp, args):
        scheduler(interpreter).wait(tuple(args))
        return ()

    @impl(fork.ResolveOp)
    def run_resolve(self, interpreter: Interpreter, op: fork.ResolveOp, args):
        for signal in args:
            if signal.resolved:
                raise ExecutionError("fork.resolve: a signal is resolved a second time (each is resolved exactly once)")
            signal.resolved = True
        scheduler(interpreter).switch()
        return ()

    @impl(fork.WriteOp)
    def run_write(self, interpreter: Interpreter, op: fork.WriteOp, args):
        ref, value = args
        if ref.written:
            raise ExecutionError("fork.write: a reference is written a second time (each is written once)")
        ref.value = value  # (no switch: a resolve follows every write the pass makes)
        return ()

    @impl(fork.ReadOp)
    def run_read(self, interpreter: Interpreter, op: fork.ReadOp, args):
        (ref,) = args
        scheduler(interpreter).switch()
        if not ref.written:
            raise ExecutionError("fork.read: a reference is read before its write (its reader did not wait for it)")
        return (ref.value,)
