// Port of Futhark's tests/migration/hoisted0.fut: the storage of x (a gpu_body made
// for the inner loop's carried value) is made once, out of both loops; each step
// adds on the device. The inner loop runs over a slice, `A[i:]`: its elements are
// indexes of A after canonicalization (issue 22, class 1), with bounds checks Futhark's
// `#[unsafe]` drops (the host-side arithmetic in the inner loop).
//   structure gpu { GPUBody 2  /GPUBody 1  /Loop/Loop/GPUBody/BinOp 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<?xi64>, %x: i64) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %A[0] : tensor<?xi64>
  %out = scf.for %i = %c0 to %n step %c1 iter_args(%B = %A) -> (tensor<?xi64>) {
    %count = arith.subi %n, %i : index
    %tail = soac.slice %B[%i:%count] : tensor<?xi64> -> tensor<?xi64>
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
// CHECK-DAG: @main soac.gpu_body [2]
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /scf.for/scf.for/soac.gpu_body/binop [1]
// CHECK-DAG: @main soac.slice [0]
