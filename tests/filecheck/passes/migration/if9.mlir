// Port of Futhark's tests/migration/if9.fut: an if that returns slices of an array from
// outside cannot move (a gpu_body would copy them): nothing moves.
//   structure gpu { GPUBody 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<?xi64>, %m: index) -> tensor<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i64
  %a0 = soac.index %A[%c0] : tensor<?xi64>
  %cond = arith.cmpi eq, %a0, %zero : i64
  %r = scf.if %cond -> (tensor<?xi64>) {
    %s = soac.slice %A[%c0:%m] : tensor<?xi64> -> tensor<?xi64>
    scf.yield %s : tensor<?xi64>
  } else {
    %s = soac.slice %A[%c1:%m] : tensor<?xi64> -> tensor<?xi64>
    scf.yield %s : tensor<?xi64>
  }
  func.return %r : tensor<?xi64>
}
// CHECK-DAG: @main soac.gpu_body [0]
