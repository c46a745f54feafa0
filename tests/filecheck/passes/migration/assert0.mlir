// Port of Futhark's tests/migration/assert0.fut: assertions are free to migrate but
// are not migrated needlessly. Futhark moves the read, the comparison and the assertion
// into a GPUBody and reads nothing (main returns the constant 1337).
//   structure gpu { /GPUBody 1  /GPUBody/Index 1  /GPUBody/CmpOp 1  /GPUBody/Assert 1 }
// Worse here (today's structure pinned): soacc does not move `cf.assert` to the device.
// The migration table graphs it by its default rule (passes/analysis/migration_table.py,
// `graph_op`, `case _: self.host_only(op.operands)`), which makes its condition a sink:
// the comparison stays on the host and arr[0] is read (1 read, where Futhark reads 0).
// Moving it would also need the rewrite to move an op without results
// (`MigrationTable.should_move` asks for `op.results`); a gpu_body that holds a
// `cf.assert` already lowers and runs (a failed check traps in the kernel).
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies | filecheck %s --check-prefix=HOST

func.func @main(%arr: tensor<1xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %k42 = arith.constant 42 : i32
  %k1337 = arith.constant 1337 : i32
  %a = soac.index %arr[%c0] : tensor<1xi32>
  %ok = arith.cmpi eq, %a, %k42 : i32
  cf.assert %ok, "assert0: arr[0] == 42"
  func.return %k1337 : i32
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /cmpop [1]
// The assertion is at the function's level, on the host, after the read:
// HOST:      %a = soac.index %arr[%c0] : tensor<1xi32>
// HOST-NEXT: %ok = arith.cmpi eq, %a, %k42 : i32
// HOST-NEXT: cf.assert %ok, "assert0: arr[0] == 42"
