// Port of Futhark's tests/migration/cse1.fut: a host value stored for the device in a
// loop's branch and as the loop's initial value is stored once, before the loop. (The
// for-in loop is written with its element read, as every soacc loop is.)
//   structure gpu { /GPUBody 1  /DoLoop/If/True/GPUBody 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<5xi32>, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %c, %res = scf.for %k = %c0 to %c5 step %c1 iter_args(%cc = %zero, %rr = %x) -> (i32, i32) {
    %z = soac.index %A[%k] : tensor<5xi32>
    %is3 = arith.cmpi eq, %cc, %three : i32
    %nc, %nr = scf.if %is3 -> (i32, i32) {
      scf.yield %cc, %x : i32, i32
    } else {
      %c2 = arith.addi %cc, %one : i32
      scf.yield %c2, %z : i32, i32
    }
    scf.yield %nc, %nr : i32, i32
  }
  func.return %res : i32
}
// CHECK-DAG: @main /soac.gpu_body [1]
// CHECK-DAG: @main /scf.for/scf.if/then/soac.gpu_body [0]
