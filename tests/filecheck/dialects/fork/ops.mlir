// RUN: soacc-opt %s --print-op-generic | soacc-opt | filecheck %s
// RUN: soacc-opt %s --print-op-generic | filecheck %s --check-prefix=CHECK-GENERIC
// RUN: xdsl-opt %s | filecheck %s

// Every fork op and type: custom form -> generic -> custom, the generic form itself,
// and plain xdsl-opt (the dialect is found through the entry point). A signal resolved
// on both branches of an scf.if is resolved once on every path.

// CHECK:      func.func @threads(%n: index, %c: i1) -> index {
// CHECK-NEXT:   %s = fork.signal
// CHECK-NEXT:   %t = fork.signal {tag}
// CHECK-NEXT:   %r = fork.ref : !fork.ref<index>
// CHECK-NEXT:   %m = fork.ref : !fork.ref<memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>>
// CHECK-NEXT:   fork.fork {
// CHECK-NEXT:     fork.write %r, %n : !fork.ref<index>
// CHECK-NEXT:     fork.resolve %s
// CHECK-NEXT:     fork.end
// CHECK-NEXT:   }
// CHECK-NEXT:   fork.fork {
// CHECK-NEXT:     fork.wait %s
// CHECK-NEXT:     scf.if %c {
// CHECK-NEXT:       fork.resolve %t
// CHECK-NEXT:     } else {
// CHECK-NEXT:       fork.resolve %t {tag}
// CHECK-NEXT:     }
// CHECK-NEXT:     fork.end
// CHECK-NEXT:   }
// CHECK-NEXT:   fork.wait %s, %t
// CHECK-NEXT:   %v = fork.read %r : !fork.ref<index>
// CHECK-NEXT:   func.return %v : index
// CHECK-NEXT: }

// CHECK-GENERIC:      %s = "fork.signal"() : () -> !fork.signal
// CHECK-GENERIC-NEXT: %t = "fork.signal"() {tag} : () -> !fork.signal
// CHECK-GENERIC-NEXT: %r = "fork.ref"() : () -> !fork.ref<index>
// CHECK-GENERIC-NEXT: %m = "fork.ref"() : () -> !fork.ref<memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>>
// CHECK-GENERIC-NEXT: "fork.fork"() ({
// CHECK-GENERIC-NEXT:   "fork.write"(%r, %n) : (!fork.ref<index>, index) -> ()
// CHECK-GENERIC-NEXT:   "fork.resolve"(%s) : (!fork.signal) -> ()
// CHECK-GENERIC-NEXT:   "fork.end"() : () -> ()
// CHECK-GENERIC-NEXT: }) : () -> ()
// CHECK-GENERIC:      "fork.wait"(%s, %t) : (!fork.signal, !fork.signal) -> ()
// CHECK-GENERIC-NEXT: %v = "fork.read"(%r) : (!fork.ref<index>) -> index

func.func @threads(%n: index, %c: i1) -> index {
  %s = fork.signal
  %t = fork.signal {tag}
  %r = fork.ref : !fork.ref<index>
  %m = fork.ref : !fork.ref<memref<?xf32, strided<[?], offset: ?>, #mem.space<device>>>
  fork.fork {
    fork.write %r, %n : !fork.ref<index>
    fork.resolve %s
    fork.end
  }
  fork.fork {
    fork.wait %s
    scf.if %c {
      fork.resolve %t
    } else {
      fork.resolve %t {tag}
    }
    fork.end
  }
  fork.wait %s, %t
  %v = fork.read %r : !fork.ref<index>
  func.return %v : index
}

// A loop carries a signal and a reference from one iteration to the next (the While
// rule of introduce-forks): each iteration makes its successor's, resolves the signal
// once in its thread, and the code after the loop waits for the last one.

// CHECK:      func.func @carried(%n: index) -> index {
// CHECK:        %done, %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %ready, %cell = %r) -> (!fork.signal, !fork.ref<index>) {
// CHECK-NEXT:     %next = fork.signal
// CHECK-NEXT:     %out = fork.ref : !fork.ref<index>
// CHECK-NEXT:     fork.fork {
// CHECK-NEXT:       fork.wait %prev
// CHECK-NEXT:       %v = fork.read %cell : !fork.ref<index>
// CHECK-NEXT:       %w = arith.addi %v, %c1 : index
// CHECK-NEXT:       fork.write %out, %w : !fork.ref<index>
// CHECK-NEXT:       fork.resolve %next
// CHECK-NEXT:       fork.end
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.yield %next, %out : !fork.signal, !fork.ref<index>
// CHECK-NEXT:   }
// CHECK-NEXT:   fork.wait %done
// CHECK-NEXT:   %result = fork.read %last : !fork.ref<index>

func.func @carried(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ready = fork.signal
  %r = fork.ref : !fork.ref<index>
  fork.write %r, %c0 : !fork.ref<index>
  fork.resolve %ready
  %done, %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %ready, %cell = %r) -> (!fork.signal, !fork.ref<index>) {
    %next = fork.signal
    %out = fork.ref : !fork.ref<index>
    fork.fork {
      fork.wait %prev
      %v = fork.read %cell : !fork.ref<index>
      %w = arith.addi %v, %c1 : index
      fork.write %out, %w : !fork.ref<index>
      fork.resolve %next
      fork.end
    }
    scf.yield %next, %out : !fork.signal, !fork.ref<index>
  }
  fork.wait %done
  %result = fork.read %last : !fork.ref<index>
  func.return %result : index
}
