// Port of Futhark's tests/migration/assert3.fut: assertions are free to migrate but
// are not migrated needlessly: the read of arr[0] is returned, so it stays on the host
// with its bounds check.
//   structure gpu { GPUBody 0  /Assert 1 }
// Matching: Futhark's one Assert is the bounds check of arr[0] (the size is unknown);
// `soac.index` makes its bounds check itself, so there is no `cf.assert`, and the read
// stays at the function's level.
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %a = soac.index %arr[%c0] : tensor<?xi64>
  func.return %a : i64
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main /soac.index [1]
