// RUN: soacc-opt %s -p 'convert-soac-to-mem,hoist-allocations,short-circuit' | grep -E 'func.func @main|mem.alloc .*<device>|mem.copy .*device>>, memref<[^#]*#mem.space<device>>' | filecheck %s
// A port of diku-dk/futhark tests/memory-block-merging/coalescing/safety-condition-1/neg0.fut to the soac dialect:
// ys is used after xs[i] = ys: no coalescing.
// Memory block merging: coalescing only (hoist-allocations, short-circuit).
// Futhark: structure seq-mem { Alloc 2 } gpu-mem { Alloc 3 }. Here: 5 device block(s) and 1 device-to-device copies left,
// counting the device copies of the arguments (Futhark's parameters are not allocations).
// CHECK-LABEL: @main(
// CHECK-NEXT: %ys0_mem = mem.alloc
// CHECK-NEXT: %is_mem = mem.alloc
// CHECK-NEXT: %xs_mem = mem.alloc
// CHECK-NEXT: %ys_mem = mem.alloc
// CHECK-NEXT: mem.copy %ys, {{%[0-9]+}} :
// CHECK-NEXT: %zs_mem = mem.alloc
// CHECK-NOT: {{^ *(%[a-z0-9_]+ = mem.alloc|mem.copy)}}
func.func @main(%i: index, %ys0: tensor<?xi64>) -> (tensor<?x?xi64>, tensor<?xi64>) {
  %one = arith.constant 1 : i64
  %n = soac.size %ys0[0] : tensor<?xi64>
  %is = soac.iota %n : tensor<?xi64>
  %xs = soac.map(%is) : (tensor<?xi64>) -> tensor<?x?xi64> {
  ^bb0(%r: i64):
    %row = soac.map(%is) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb1(%c: i64):
      %v = arith.addi %r, %c : i64
      soac.yield %v : i64
    }
    soac.yield %row : tensor<?xi64>
  }
  %ys = soac.map(%ys0) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %one : i64
    soac.yield %y : i64
  }
  %xs2 = soac.update %xs[%i] = %ys : tensor<?x?xi64>, tensor<?xi64>
  %zs = soac.map(%ys) : (tensor<?xi64>) -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %one : i64
    soac.yield %y : i64
  }
  func.return %xs2, %zs : tensor<?x?xi64>, tensor<?xi64>
}
