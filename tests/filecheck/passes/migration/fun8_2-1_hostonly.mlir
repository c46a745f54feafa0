// Port of Futhark's tests/migration/fun8_2-1_hostonly.fut: of a call's two results one
// is needed on the host (by a host-only call) and one only by a kernel.
//   structure gpu { /GPUBody 1  /GPUBody/Index 2  /GPUBody/Apply 1  /Index 1 }
// Here the gpu_body is then found to only copy array elements (x is arr[1], y is
// arr[2]): the host reads arr[1] itself and the map reads arr[2] itself, so no gpu_body
// is left (the same one read as in Futhark, no kernel, no copy).
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

// `hostonly` makes an array, so its calls run on the host (their argument is needed there).
func.func private @hostonly(%x: i32) -> i32 {
  %k42 = arith.constant 42 : i32
  %is42 = arith.cmpi eq, %x, %k42 : i32
  %r = scf.if %is42 -> (i32) {
    %arr = soac.array [%x] : tensor<1xi32>
    %c0 = arith.constant 0 : index
    %e = soac.index %arr[%c0] : tensor<1xi32>
    scf.yield %e : i32
  } else {
    scf.yield %k42 : i32
  }
  func.return %r : i32
}

func.func private @id2(%x: i32, %y: i32) -> (i32, i32) {
  func.return %x, %y : i32, i32
}

func.func @main(%arr: tensor<3xi32>) -> tensor<3xi32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = soac.index %arr[%c1] : tensor<3xi32>
  %b = soac.index %arr[%c2] : tensor<3xi32>
  %x, %y = func.call @id2(%a, %b) : (i32, i32) -> (i32, i32)
  %i = func.call @hostonly(%x) : (i32) -> i32
  %r = soac.map(%arr) : (tensor<3xi32>) -> tensor<3xi32> {
  ^bb0(%j: i32):
    %is = arith.cmpi eq, %j, %y : i32
    %v = scf.if %is -> (i32) {
      %q = arith.divsi %j, %i : i32
      scf.yield %q : i32
    } else {
      scf.yield %j : i32
    }
    soac.yield %v : i32
  }
  func.return %r : tensor<3xi32>
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @main /soac.index [1]
// CHECK-DAG: @main /soac.map/soac.index [1]
