// Issue 22, class 1 (seen on a Futhark test program): an index of a slice whose offset
// the device computes. Futhark's simplifier makes `A[j:][k]` an index of A (`A[j + k]`),
// so the element is read on the device and j never comes to the host; soacc's
// canonicalization does the same (dialects/shared/soac_canonicalization.py): the loop has a
// gpu_body that indexes %a, no slice, and no read (the reduction's value stays on the
// device; tests/passes/test_reduce_device_syncs.py counts 5 reads before, none after).
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s
// RUN: soacc-opt %s -p cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s --check-prefix=UNSIMPLIFIED

func.func @main(%a: tensor<?xi64>, %xs: tensor<?xi64>, %k: index, %steps: index) -> tensor<?xi64> {
  %zero = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = soac.size %a[0] : tensor<?xi64>
  %out = scf.for %it = %c0 to %steps step %c1 iter_args(%ys = %xs) -> (tensor<?xi64>) {
    %s = soac.reduce(%ys) neutral(%zero : i64) : (tensor<?xi64>) -> i64 {
    ^bb0(%p: i64, %q: i64):
      %t = arith.addi %p, %q : i64
      soac.yield %t : i64
    }
    %j = arith.index_cast %s : i64 to index
    %count = arith.subi %n, %j : index
    %tail = soac.slice %a[%j:%count] : tensor<?xi64> -> tensor<?xi64>
    %x = soac.index %tail[%k] : tensor<?xi64>
    %next = soac.map(%ys) : (tensor<?xi64>) -> tensor<?xi64> {
    ^bb0(%y: i64):
      %z = arith.addi %y, %x : i64
      soac.yield %z : i64
    }
    scf.yield %next : tensor<?xi64>
  }
  func.return %out : tensor<?xi64>
}
// CHECK-DAG: @main /scf.for/soac.gpu_body [1]
// CHECK-DAG: @main /scf.for/soac.slice [0]
// CHECK-DAG: @main /scf.for/soac.index [0]
// CHECK-DAG: @main /scf.for/soac.gpu_body/soac.index [1]
// UNSIMPLIFIED-DAG: @main /scf.for/soac.gpu_body [0]
// UNSIMPLIFIED-DAG: @main /scf.for/soac.slice [1]
