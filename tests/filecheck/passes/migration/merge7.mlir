// Port of Futhark's tests/migration/merge7.fut: moved statements become gpu_bodies that
// are merged, and merging them respects what they consume. The literal B (it holds x),
// y = B[one] and the comparison with A[0] move into one gpu_body; the if, which
// consumes B in a branch, moves whole into a second one: a gpu_body never merges with
// the one whose result it consumes (Futhark's MergeGPUBodies has the same rule, so
// Futhark's two GPUBodies here are two as well). Nothing is read. Matching.
//   structure gpu { GPUBody/ArrayLit 1  GPUBody/If/True/Update 1 }
// Futhark's `one` (an opaque top-level constant, a host value the compiler cannot see)
// is the argument %one, and `[one:two]` is the one-element slice at it.
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi32>, %x: i32, %one: index) -> tensor<5xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k0 = arith.constant 0 : i32
  %k2 = arith.constant 2 : i32
  %k3 = arith.constant 3 : i32
  %B = soac.array [%k0, %x, %k2] : tensor<3xi32>
  %y = soac.index %B[%one] : tensor<3xi32>
  %a0 = soac.index %A[%c0] : tensor<5xi32>
  %eq = arith.cmpi eq, %a0, %y : i32
  %C = scf.if %eq -> (tensor<1xi32>) {
    %Bu = soac.update %B[%c1] = %k3 : tensor<3xi32>, i32
    %s = soac.slice %Bu[%one:%c1] : tensor<3xi32> -> tensor<1xi32>
    scf.yield %s : tensor<1xi32>
  } else {
    %s = soac.slice %B[%one:%c1] : tensor<3xi32> -> tensor<1xi32>
    scf.yield %s : tensor<1xi32>
  }
  %r = soac.update %A[%c1:%c1] = %C : tensor<5xi32>, tensor<1xi32>
  func.return %r : tensor<5xi32>
}
// CHECK-DAG: @main /soac.gpu_body [2]
// CHECK-DAG: @main /soac.gpu_body/soac.array [1]
// CHECK-DAG: @main /soac.gpu_body/cmpop [1]
// CHECK-DAG: @main /soac.gpu_body/scf.if [1]
// CHECK-DAG: @main /soac.gpu_body/scf.if/then/soac.update [1]
// CHECK-DAG: @main /cmpop [0]
// The two indexes at the function's level are the gpu_bodies' result rows (no read):
// CHECK-DAG: @main /soac.index [2]
