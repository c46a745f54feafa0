// RUN: not soacc-opt %s -p convert-fork-to-gpu 2>&1 >/dev/null | filecheck %s

// The parent waits for a signal that only a later thread resolves: no thread's order
// on the host helps (the parent's own ops keep theirs), so the pass refuses, at the wait.

// CHECK: convert-fork-to-gpu-errors.mlir:[[# @LINE + 4]]:3: error: convert-fork-to-gpu: fork.wait waits for a signal that is not resolved earlier in program order
func.func @wait_before_resolve(%a: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>,
                               %b: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %s = fork.signal
  fork.wait %s
  fork.fork {
    mem.copy %a, %b : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
    fork.resolve %s
    fork.end
  }
  func.return
}
