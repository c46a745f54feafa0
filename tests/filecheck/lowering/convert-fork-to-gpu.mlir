// RUN: soacc-opt %s --split-input-file -p convert-fork-to-gpu | filecheck %s
// RUN: soacc-opt %s --split-input-file -p convert-fork-to-gpu -t python | filecheck %s --check-prefix=HOST

// A lock's helper thread (introduce-forks' rule 4.10 joins two release signals) comes
// before the threads that resolve them: it moves after them, so that the host, which
// issues every thread where it is forked, never waits for a signal not yet resolved.
// The threads with device work (the copies) stay threads; the helper, with none, runs
// in place, and then %done, resolved and awaited in one thread, is dropped.

// CHECK-LABEL: func.func @helper_before_its_signals
// CHECK:        fork.fork {
// CHECK-NEXT:     mem.copy %a, %b
// CHECK-NEXT:     fork.resolve %s1
// CHECK-NEXT:     fork.end
// CHECK-NEXT:   }
// CHECK-NEXT:   fork.fork {
// CHECK-NEXT:     mem.copy %a, %c
// CHECK-NEXT:     fork.resolve %s2
// CHECK-NEXT:     fork.end
// CHECK-NEXT:   }
// CHECK-NEXT:   fork.wait %s1, %s2
// CHECK-NEXT:   func.return

// HOST-LABEL: def helper_before_its_signals(rt, a, b, c):
// HOST:         rt.fork()
// HOST-NEXT:    rt.copy(a, b)
// HOST-NEXT:    rt.resolve(s1)
// HOST-NEXT:    rt.end_fork()
// HOST:         rt.fork()
// HOST-NEXT:    rt.copy(a, c)
// HOST-NEXT:    rt.resolve(s2)
// HOST-NEXT:    rt.end_fork()
// HOST:         rt.wait(s1, s2)
// HOST-NEXT:    return
func.func @helper_before_its_signals(%a: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>,
                                     %b: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>,
                                     %c: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %s1 = fork.signal
  %s2 = fork.signal
  %done = fork.signal
  fork.fork {
    fork.wait %s1, %s2
    fork.resolve %done
    fork.end
  }
  fork.fork {
    mem.copy %a, %b : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
    fork.resolve %s1
    fork.end
  }
  fork.fork {
    mem.copy %a, %c : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
    fork.resolve %s2
    fork.end
  }
  fork.wait %done
  func.return
}

// -----

// A thread that reads a memory, releases its read lock, and then writes the memory
// waits for the lock's helper (the join of its own release and an earlier thread's):
// no program order issues the helper before the thread (it waits for the thread's
// release) nor the thread before the helper (it waits for the helper's signal). The
// helper's signal is only awaited, so the wait waits for the join itself; the thread
// resolved %mine earlier, so only %theirs is left to wait for.

// CHECK-LABEL: func.func @helper_joined_inside_a_thread
// CHECK:        fork.fork {
// CHECK-NEXT:     mem.copy %a, %b
// CHECK-NEXT:     fork.resolve %theirs
// CHECK-NEXT:     fork.end
// CHECK-NEXT:   }
// CHECK-NEXT:   fork.fork {
// CHECK-NEXT:     mem.copy %a, %c
// CHECK-NEXT:     fork.wait %theirs
// CHECK-NEXT:     mem.copy %c, %a
// CHECK-NEXT:     fork.resolve %done
// CHECK-NEXT:     fork.end
// CHECK-NEXT:   }
// CHECK-NEXT:   fork.wait %done
// CHECK-NEXT:   func.return
func.func @helper_joined_inside_a_thread(%a: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>,
                                         %b: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>,
                                         %c: memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>) {
  %theirs = fork.signal
  %mine = fork.signal
  %free = fork.signal
  %done = fork.signal
  fork.fork {
    mem.copy %a, %b : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
    fork.resolve %theirs
    fork.end
  }
  fork.fork {
    fork.wait %theirs, %mine
    fork.resolve %free
    fork.end
  }
  fork.fork {
    mem.copy %a, %c : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
    fork.resolve %mine
    fork.wait %free
    mem.copy %c, %a : memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>, memref<4xf32, strided<[?], offset: ?>, #mem.space<device>>
    fork.resolve %done
    fork.end
  }
  fork.wait %done
  func.return
}

// -----

// A thread that only computes a size runs in place; then its signal and reference
// never leave the function's own thread: both go, the read is the size itself.

// CHECK-LABEL: func.func @host_only_thread
// CHECK-NEXT:    %n = mem.size %a[0]
// CHECK-NEXT:    func.return %n : index
func.func @host_only_thread(%a: memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>) -> index {
  %s = fork.signal
  %r = fork.ref : !fork.ref<index>
  fork.fork {
    %n = mem.size %a[0] : memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>
    fork.write %r, %n : !fork.ref<index>
    fork.resolve %s
    fork.end
  }
  fork.wait %s
  %m = fork.read %r : !fork.ref<index>
  func.return %m : index
}
