// RUN: soacc-opt %s --verify-diagnostics --parsing-diagnostics --split-input-file | filecheck %s

// One chunk per fork verifier error (dialects/fork.py), in the order of the file, then
// the parse errors of the custom syntax.

// ---- fork.signal: resolved exactly once on every path, awaited only with a resolver

func.func @never_resolved() {
  %s = fork.signal
  func.return
}

// CHECK: fork.signal is never resolved; expected exactly one fork.resolve of it

// -----

func.func @awaited_without_resolver() {
  %s = fork.signal
  fork.wait %s
  func.return
}

// CHECK: fork.signal is awaited but never resolved: every awaited signal needs a resolver

// -----

func.func @resolved_twice_by_threads() {
  %s = fork.signal
  fork.fork {
    fork.resolve %s
    fork.end
  }
  fork.resolve %s
  func.return
}

// CHECK: fork.signal is resolved 2 times; expected exactly once on every path

// -----

func.func @resolved_twice_in_one_list() {
  %s = fork.signal
  fork.resolve %s, %s
  func.return
}

// CHECK: fork.signal is resolved 2 times; expected exactly once on every path

// -----

func.func @resolved_on_one_branch(%c: i1) {
  %s = fork.signal
  scf.if %c {
    fork.resolve %s
  }
  fork.wait %s
  func.return
}

// CHECK: fork.signal is resolved 1 times when the scf.if's condition holds and 0 times when not; expected exactly once on every path

// -----

func.func @resolved_in_a_loop(%n: index) {
  %s = fork.signal
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    fork.resolve %s
  }
  func.return
}

// CHECK: fork.signal is resolved inside scf.for, whose region may run any number of times; expected exactly once on every path

// -----

func.func @carried_signal_resolved_in_the_loop(%n: index) {
  %s = fork.signal
  fork.resolve %s
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %s) -> (!fork.signal) {
    fork.resolve %prev
    %next = fork.signal
    fork.resolve %next
    scf.yield %next : !fork.signal
  }
  func.return
}

// CHECK: fork.resolve of a signal a loop carries (an scf.for or scf.while block argument or result); expected a fork.signal: a carried signal is resolved where it is made, and only awaited where it is carried

// -----

func.func @carried_signal_resolved_after_the_loop(%n: index) {
  %s = fork.signal
  fork.resolve %s
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %s) -> (!fork.signal) {
    scf.yield %prev : !fork.signal
  }
  fork.resolve %last
  func.return
}

// CHECK: fork.resolve of a signal a loop carries (an scf.for or scf.while block argument or result); expected a fork.signal: a carried signal is resolved where it is made, and only awaited where it is carried

// -----

func.func @carried_signal_never_resolved(%n: index) {
  %s = fork.signal
  fork.resolve %s
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %s) -> (!fork.signal) {
    %next = fork.signal
    fork.wait %prev
    scf.yield %next : !fork.signal
  }
  fork.wait %last
  func.return
}

// CHECK: fork.signal is never resolved; expected exactly one fork.resolve of it

// -----

// ---- fork.write, fork.read: the value's type is the reference's

func.func @write_wrong_type(%x: f32) {
  %r = fork.ref : !fork.ref<index>
  "fork.write"(%r, %x) : (!fork.ref<index>, f32) -> ()
  func.return
}

// CHECK: fork.write of a f32 into a !fork.ref<index>; expected a index

// -----

func.func @read_wrong_type() {
  %r = fork.ref : !fork.ref<index>
  %v = "fork.read"(%r) : (!fork.ref<index>) -> f32
  func.return
}

// CHECK: fork.read of a !fork.ref<index> gives f32; expected index

// -----

// ---- fork.wait, fork.resolve: at least one signal

func.func @empty_wait() {
  "fork.wait"() : () -> ()
  func.return
}

// CHECK: fork.wait names no signal; expected at least one

// -----

func.func @empty_resolve() {
  "fork.resolve"() : () -> ()
  func.return
}

// CHECK: fork.resolve names no signal; expected at least one

// -----

// ---- fork.fork: ends in fork.end, takes nothing, host code only

func.func @fork_without_end() {
  "fork.fork"() ({
    %c = arith.constant 0 : index
  }) : () -> ()
  func.return
}

// CHECK: arith.constant ends a block of fork.fork but is not a terminator

// -----

func.func @fork_with_arguments() {
  "fork.fork"() ({
  ^bb0(%x: index):
    fork.end
  }) : () -> ()
  func.return
}

// CHECK: fork.fork region takes no arguments, not 1

// -----

func.func @fork_in_a_kernel(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>, %b: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  mem.map ins(%a : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) outs(%b : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  ^bb0(%x: f32):
    fork.fork {
      fork.end
    }
    mem.yield %x : f32
  }
  func.return
}

// CHECK: fork.fork inside a kernel: threads are started by host code

// -----

func.func @end_outside_fork(%c: i1) {
  scf.if %c {
    fork.end
  }
  func.return
}

// CHECK: scf.if: a region must end with scf.yield

// -----

// ---- the custom syntax

func.func @write_needs_ref_type(%x: index) {
  %r = fork.ref : !fork.ref<index>
  fork.write %r, %x : index
  func.return
}

// CHECK: fork.write needs a !fork.ref<...> type, not index

// -----

func.func @read_needs_ref_type() {
  %r = fork.ref : !fork.ref<index>
  %v = fork.read %r : index
  func.return
}

// CHECK: fork.read needs a !fork.ref<...> type, not index
