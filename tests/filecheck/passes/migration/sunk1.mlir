// Port of Futhark's tests/migration/sunk1.fut: reads are sunk to their deepest
// possible branch. Futhark's array of pairs is two arrays here. z is read only in the
// branch that calls the host-only function, not every iteration (sinking; its bounds
// check stays in the loop, on the host, with no read); y+1 is in a gpu_body in that
// branch. Futhark's GPUBody 1 is 2 here: the loop's constant initial value 0 is stored
// into a gpu_body at entry (issue 22, class 3, not yet done).
//   structure gpu { GPUBody 1  /Loop/Index 0  /Loop/If/True/GPUBody 1  /Loop/If/True/Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func private @hostonly(%x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %seven = arith.constant 7 : i32
  %arr = soac.array [%seven] : tensor<1xi32>
  %e = soac.index %arr[%c0] : tensor<1xi32>
  func.return %e : i32
}

func.func @main(%Ay: tensor<5xi32>, %Az: tensor<5xi32>, %x: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %r:2 = scf.for %i = %c0 to %c5 step %c1 iter_args(%res = %zero, %c = %x) -> (i32, i32) {
    %y = soac.index %Ay[%i] : tensor<5xi32>
    %z = soac.index %Az[%i] : tensor<5xi32>
    %is3 = arith.cmpi eq, %c, %three : i32
    %o:2 = scf.if %is3 -> (i32, i32) {
      %y1 = arith.addi %y, %one : i32
      %h = func.call @hostonly(%z) : (i32) -> i32
      scf.yield %y1, %h : i32, i32
    } else {
      %c1v = arith.addi %c, %one : i32
      scf.yield %res, %c1v : i32, i32
    }
    scf.yield %o#0, %o#1 : i32, i32
  }
  func.return %r#0, %r#1 : i32, i32
}
// CHECK-DAG: @main soac.gpu_body [2]
// CHECK-DAG: @main /scf.for/soac.index [0]
// CHECK-DAG: @main /scf.for/scf.if/then/soac.gpu_body [1]
// CHECK-DAG: @main /scf.for/scf.if/then/soac.index [1]
