// Port of Futhark's tests/migration/merge3.fut: gpu_bodies merge into two groups, the
// second needing values computed on the host from the first.
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

func.func @main(%A: tensor<4xi32>) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %two = arith.constant 2 : i32
  %a0 = soac.index %A[%c0] : tensor<4xi32>
  %a1i = soac.index %A[%c1] : tensor<4xi32>
  %a1, %a2 = func.call @id2(%a0, %a1i) : (i32, i32) -> (i32, i32)
  %b = func.call @hostonly(%a1) : (i32) -> i32
  %c = arith.muli %b, %a2 : i32
  %a22 = arith.muli %a2, %two : i32
  %ax = soac.index %A[%c2] : tensor<4xi32>
  %d1, %d2 = func.call @id2(%a22, %ax) : (i32, i32) -> (i32, i32)
  %e = func.call @hostonly(%d1) : (i32) -> i32
  %f = arith.muli %e, %d2 : i32
  %cf = arith.addi %c, %f : i32
  %r = soac.update %A[%c2] = %cf : tensor<4xi32>, i32
  func.return %r : tensor<4xi32>
}
// CHECK-DAG: @main soac.gpu_body [2]
