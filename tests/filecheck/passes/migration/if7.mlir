// Port of Futhark's tests/migration/if7.fut: a read is delayed into a branch, and the
// scalar writes of moved values become one-element copies on the device.
//   structure gpu { /Index 0  /If/True/GPUBody/BinOp 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi64>, %c: i1) -> tensor<5xi64> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i64
  %x = soac.index %A[%c0] : tensor<5xi64>
  %B = scf.if %c -> (tensor<5xi64>) {
    %x1 = arith.addi %x, %one : i64
    %u = soac.update %A[%c0] = %x1 : tensor<5xi64>, i64
    scf.yield %u : tensor<5xi64>
  } else {
    scf.yield %A : tensor<5xi64>
  }
  %r = soac.update %B[%c2] = %x : tensor<5xi64>, i64
  func.return %r : tensor<5xi64>
}
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /scf.if/then/soac.gpu_body/binop [1]
