// Port of Futhark's tests/migration/hoisted1.fut: the inner loop's bound depends on
// elements of A, so the whole inner loop moves into the outer loop's gpu_body, which
// reads the two elements there; nothing is read on the host (j is read every step
// without canonicalization, which makes `A[j:][k]` an index of A: issue 22, class 1).
//   structure gpu { GPUBody 1  /Loop/GPUBody/Index 2  /Loop/GPUBody/Loop/BinOp 2 }
// (soacc's inner loop also computes the bounds checks that Futhark's `#[unsafe]` drops.)
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<?xi64>, %x: i64) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %A[0] : tensor<?xi64>
  %n64 = arith.index_cast %n : index to i64
  %last = arith.subi %n, %c1 : index
  %out = scf.for %i = %c0 to %last step %c1 iter_args(%B = %A) -> (tensor<?xi64>) {
    %i1 = arith.addi %i, %c1 : index
    %ai = soac.index %B[%i] : tensor<?xi64>
    %ai1 = soac.index %B[%i1] : tensor<?xi64>
    %m = arith.remsi %ai1, %n64 : i64
    %s = arith.addi %ai, %m : i64
    %j64 = arith.remsi %s, %n64 : i64
    %j = arith.index_cast %j64 : i64 to index
    %count = arith.subi %n, %j : index
    %tail = soac.slice %B[%j:%count] : tensor<?xi64> -> tensor<?xi64>
    %sum = scf.for %k = %c0 to %count step %c1 iter_args(%acc = %x) -> (i64) {
      %y = soac.index %tail[%k] : tensor<?xi64>
      %t = arith.addi %acc, %y : i64
      scf.yield %t : i64
    }
    %B2 = soac.update %B[%i] = %sum : tensor<?xi64>, i64
    scf.yield %B2 : tensor<?xi64>
  }
  func.return %out : tensor<?xi64>
}
// CHECK-DAG: @main soac.gpu_body [1]
// CHECK-DAG: @main /scf.for/soac.gpu_body/soac.index [2]
// CHECK-DAG: @main /scf.for/soac.gpu_body/scf.for [1]
// CHECK-DAG: @main /scf.for/soac.index [0]
// CHECK-DAG: @main soac.slice [0]
