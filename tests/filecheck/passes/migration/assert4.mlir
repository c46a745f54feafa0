// Port of Futhark's tests/migration/assert4.fut (a variation of index0): assertions are
// free to migrate but are not migrated needlessly. The read whose index is read moves
// with it, so only arr[i] is read. Futhark checks the bounds of arr[0] on the host
// (/Assert 1) and those of arr[i] in the GPUBody.
//   structure gpu { /Assert 1  /GPUBody 1  /GPUBody/Assert 1  /GPUBody/Index 2  /Index 1 }
// Matching: `soac.index` makes its bounds check itself (no `cf.assert`), so both checks
// are in the gpu_body with the two indexes; one read, one gpu_body, as in Futhark.
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%arr: tensor<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %a = soac.index %arr[%c0] : tensor<?xi64>
  %i = arith.index_cast %a : i64 to index
  %r = soac.index %arr[%i] : tensor<?xi64>
  func.return %r : i64
}
// CHECK-DAG: @main soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /soac.gpu_body/soac.index [2]
// CHECK-DAG: @main /soac.index [1]
