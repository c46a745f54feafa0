// Port of Futhark's tests/migration/update1.fut: an update at a position read from
// the array. Futhark reads the position (an update is not migrated on its own, since
// a GPUBody's results are copied); soacc writes the element at the device's position
// with `soac.device_update`, a copy kernel that reads the position from a gpu_body's
// result on the device: no read at all, one fewer than Futhark.
//   structure gpu { GPUBody 0  /Index 1  /BinOp 1  /Update 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<?xi64>) -> tensor<?xi64> {
  %c4 = arith.constant 4 : index
  %v = arith.constant 42 : i64
  %p = soac.index %A[%c4] : tensor<?xi64>
  %i = arith.index_cast %p : i64 to index
  %B = soac.update %A[%i] = %v : tensor<?xi64>, i64
  func.return %B : tensor<?xi64>
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/soac.index [1]
// CHECK-DAG: @main /soac.index [0]
// CHECK-DAG: @main /soac.update [0]
