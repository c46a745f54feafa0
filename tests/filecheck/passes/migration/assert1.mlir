// Port of Futhark's tests/migration/assert1.fut: assertions are free to migrate but
// are not migrated needlessly. Futhark moves the read of v, both comparisons and both
// assertions into one GPUBody and reads nothing (x + y is the constant 1007 + 330).
//   structure gpu { /GPUBody 1  /GPUBody/Index 1  /GPUBody/CmpOp 2  /GPUBody/Assert 2 }
// Worse here (today's structure pinned): soacc does not move `cf.assert` to the device,
// so it reads the value it checks: 1 read where Futhark reads 0. Each `cf.assert` is
// graphed by the migration table's default rule (`graph_op`, `case _:
// self.host_only(op.operands)`), which makes its condition a sink, so the cut keeps the
// read of v on the host; and `MigrationTable.should_move` only moves ops with results.
// (Futhark's `assert c x` returns x; here x and y are the constants and the checks are
// `cf.assert`s before them.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies | filecheck %s --check-prefix=HOST

func.func @main(%arr: tensor<1xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %k7 = arith.constant 7 : i32
  %k21 = arith.constant 21 : i32
  %k1007 = arith.constant 1007 : i32
  %k330 = arith.constant 330 : i32
  %v = soac.index %arr[%c0] : tensor<1xi32>
  %ok1 = arith.cmpi ne, %v, %k7 : i32
  cf.assert %ok1, "assert1: v != 7"
  %ok2 = arith.cmpi ne, %v, %k21 : i32
  cf.assert %ok2, "assert1: v != 21"
  %r = arith.addi %k1007, %k330 : i32
  func.return %r : i32
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /cmpop [2]
// CHECK-DAG: @main /binop [0]
// Both assertions are at the function's level, on the host, after the read:
// HOST:      %v = soac.index %arr[%c0] : tensor<1xi32>
// HOST-NEXT: %ok1 = arith.cmpi ne, %v, %k7 : i32
// HOST-NEXT: cf.assert %ok1, "assert1: v != 7"
// HOST-NEXT: %ok2 = arith.cmpi ne, %v, %k21 : i32
// HOST-NEXT: cf.assert %ok2, "assert1: v != 21"
