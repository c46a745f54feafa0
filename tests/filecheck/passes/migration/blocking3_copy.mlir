// Port of Futhark's tests/migration/blocking3_copy.fut: copying an array is host-only,
// so the if around it stays on the host.
//   structure gpu { /If/True/Copy 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %cond = arith.cmpi eq, %a0, %zero : i64
  %r = scf.if %cond -> (tensor<1xi64>) {
    %B = soac.copy %A : tensor<5xi64>
    %s = soac.slice %B[%c0:%c1] : tensor<5xi64> -> tensor<1xi64>
    scf.yield %s : tensor<1xi64>
  } else {
    %s = soac.slice %A[%c1:%c1] : tensor<5xi64> -> tensor<1xi64>
    scf.yield %s : tensor<1xi64>
  }
  func.return %r : tensor<1xi64>
}
// CHECK-DAG: @main /scf.if/then/soac.copy [1]
