// Port of Futhark's tests/migration/cse2.fut: as cse1, after an update of A by a value
// computed on the device; x's storage and that update's gpu_body merge.
//   structure gpu { /GPUBody 1  /Loop/If/True/GPUBody 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A0: tensor<5xi32>, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %a1 = soac.index %A0[%c1] : tensor<5xi32>
  %v = arith.addi %a1, %one : i32
  %A = soac.update %A0[%c0] = %v : tensor<5xi32>, i32
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
