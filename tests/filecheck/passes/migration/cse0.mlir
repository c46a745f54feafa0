// Port of Futhark's tests/migration/cse0.fut: a constant stored for the device twice is
// stored once (Futhark: one replicate; here one device constant made at the entry).
//   structure gpu { Replicate 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi32>, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k42 = arith.constant 42 : i32
  %zero = arith.constant 0 : i32
  %cond = arith.cmpi eq, %x, %k42 : i32
  %a, %b = scf.if %cond -> (i32, i32) {
    scf.yield %zero, %zero : i32, i32
  } else {
    %a0 = soac.index %A[%c0] : tensor<5xi32>
    %a1 = soac.index %A[%c1] : tensor<5xi32>
    scf.yield %a0, %a1 : i32, i32
  }
  %s = arith.addi %a, %b : i32
  func.return %s : i32
}
// The constant's one gpu_body is the first op; the sum's is after the if.
// CHECK-DAG: @main /soac.gpu_body [2]
// CHECK-DAG: @main /scf.if/then/soac.gpu_body [0]
// CHECK-DAG: @main /soac.index [1]
