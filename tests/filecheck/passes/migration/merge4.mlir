// Port of Futhark's tests/migration/merge4.fut: a gpu_body that needs a host op's result
// (computed from a value the first gpu_body gives) cannot merge with the first.
//   structure gpu { GPUBody 2 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

// `hostonly` uses an array (it ignores its argument, which is still needed on the host).
func.func private @hostonly(%x: i32) -> i32 {
  %k42 = arith.constant 42 : i32
  %arr = soac.array [%k42] : tensor<1xi32>
  %c0 = arith.constant 0 : index
  %e = soac.index %arr[%c0] : tensor<1xi32>
  func.return %e : i32
}

func.func private @id2(%x: i32, %y: i32) -> (i32, i32) {
  func.return %x, %y : i32, i32
}

func.func @main(%A: tensor<3xi32>) -> tensor<3xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a0 = soac.index %A[%c0] : tensor<3xi32>
  %a1 = soac.index %A[%c1] : tensor<3xi32>
  %x, %y = func.call @id2(%a0, %a1) : (i32, i32) -> (i32, i32)
  %z = func.call @hostonly(%x) : (i32) -> i32
  %yz = arith.addi %y, %z : i32
  %r = soac.update %A[%c0] = %yz : tensor<3xi32>, i32
  func.return %r : tensor<3xi32>
}
// CHECK-DAG: @main soac.gpu_body [2]
