// Port of Futhark's tests/migration/if10.fut, which Futhark has commented out ("This
// fails due to a memory allocation error"): an if that returns arrays may move whole
// when that adds no array copy, because every value it can return is made by an array
// literal inside its branches (which would move to the device anyway). Futhark's
// (unvalidated) expectation: the outer if moves into a GPUBody, reading nothing.
//   structure gpu { ArrayLit 3  /GPUBody/If 1  /ArrayLit 0  /If 0 }
// Worse here (today's structure pinned): nothing moves whole; A[0] and A[1] are read
// (2 reads where Futhark expects 0), and each literal is a gpu_body of its own. The
// cause is the loop: the migration table's `reuses_branches`
// (passes/analysis/migration_table.py) lets an if with array results move only when
// each result is "copyable", made by a migratable op inside the if, and `graph_loop`
// records no copyable entry for a loop's array results, even when its initial value
// (a slice of the literal B) and every iteration's value (the literal [i, 3]) are made
// inside the if. So the inner if's result is not copyable: its condition becomes a sink
// (read A[1]), its result is not copyable either, and the outer if's condition is a
// sink too (read A[0]). With the loop replaced by a literal, the whole if moves and
// nothing is read.
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<2xi64>, %x: i64) -> tensor<2xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k0 = arith.constant 0 : i64
  %k1 = arith.constant 1 : i64
  %k2 = arith.constant 2 : i64
  %k3 = arith.constant 3 : i64
  %k4 = arith.constant 4 : i64
  %a0 = soac.index %A[%c0] : tensor<2xi64>
  %is0 = arith.cmpi eq, %a0, %k0 : i64
  %r = scf.if %is0 -> (tensor<2xi64>) {
    %l1 = soac.array [%x, %k1] : tensor<2xi64>
    scf.yield %l1 : tensor<2xi64>
  } else {
    %B = soac.array [%x, %k2, %k0] : tensor<3xi64>
    %a1 = soac.index %A[%c1] : tensor<2xi64>
    %is1 = arith.cmpi eq, %a1, %k1 : i64
    %s = scf.if %is1 -> (tensor<2xi64>) {
      %init = soac.slice %B[%c0:%c2] : tensor<3xi64> -> tensor<2xi64>
      %n = arith.index_cast %x : i64 to index
      %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<2xi64>) {
        %ii = arith.index_cast %i : index to i64
        %l3 = soac.array [%ii, %k3] : tensor<2xi64>
        scf.yield %l3 : tensor<2xi64>
      }
      scf.yield %l : tensor<2xi64>
    } else {
      %l4 = soac.array [%x, %k4] : tensor<2xi64>
      scf.yield %l4 : tensor<2xi64>
    }
    scf.yield %s : tensor<2xi64>
  }
  func.return %r : tensor<2xi64>
}
// The two ifs stay on the host, reading their conditions; the four literals are four
// gpu_bodies:
// CHECK-DAG: @main /scf.if [1]
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /cmpop [1]
// CHECK-DAG: @main /scf.if/else/scf.if [1]
// CHECK-DAG: @main /scf.if/else/cmpop [1]
// CHECK-DAG: @main /soac.gpu_body [0]
// CHECK-DAG: @main soac.gpu_body [4]
// CHECK-DAG: @main /scf.if/then/soac.gpu_body/soac.array [1]
// CHECK-DAG: @main /scf.if/else/soac.gpu_body/soac.array [1]
// CHECK-DAG: @main /scf.if/else/scf.if/then/scf.for/soac.gpu_body/soac.array [1]
// CHECK-DAG: @main /scf.if/else/scf.if/else/soac.gpu_body/soac.array [1]
