// Port of Futhark's tests/migration/merge2.fut: gpu_bodies separated by host ops that
// use the values read back merge into one.
//   structure gpu { GPUBody 1 }
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

func.func @main(%A: tensor<4xi32>) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a0 = soac.index %A[%c0] : tensor<4xi32>
  %a1 = soac.index %A[%c1] : tensor<4xi32>
  %a, %b = func.call @id2(%a0, %a1) : (i32, i32) -> (i32, i32)
  %c = func.call @hostonly(%a) : (i32) -> i32
  %a2 = soac.index %A[%c2] : tensor<4xi32>
  %a3 = soac.index %A[%c3] : tensor<4xi32>
  %x, %y = func.call @id2(%a2, %a3) : (i32, i32) -> (i32, i32)
  %z = func.call @hostonly(%y) : (i32) -> i32
  %bx = arith.addi %b, %x : i32
  %B = soac.update %A[%c0] = %bx : tensor<4xi32>, i32
  %r = soac.map(%B) : (tensor<4xi32>) -> tensor<4xi32> {
  ^bb0(%e: i32):
    %s = arith.addi %e, %c : i32
    %t = arith.addi %s, %z : i32
    soac.yield %t : i32
  }
  func.return %r : tensor<4xi32>
}
// CHECK-DAG: @main soac.gpu_body [1]
