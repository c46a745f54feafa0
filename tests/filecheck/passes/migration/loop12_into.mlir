// Port of Futhark's tests/migration/loop12_into.fut: reads are not delayed into a loop
// where they would add a read per iteration: both stay, nothing moves.
//   structure gpu { /Index 2  GPUBody 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

// `hostonly` makes an array, so its calls run on the host (their argument is needed there).
func.func private @hostonly(%x: i64) -> i64 {
  %k42 = arith.constant 42 : i64
  %is42 = arith.cmpi eq, %x, %k42 : i64
  %r = scf.if %is42 -> (i64) {
    %arr = soac.array [%x] : tensor<1xi64>
    %c0 = arith.constant 0 : index
    %e = soac.index %arr[%c0] : tensor<1xi64>
    scf.yield %e : i64
  } else {
    scf.yield %k42 : i64
  }
  func.return %r : i64
}

func.func @main(%A: tensor<10xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0 : i64
  %k42 = arith.constant 42 : i64
  %x = soac.index %A[%c0] : tensor<10xi64>
  %y = soac.index %A[%c1] : tensor<10xi64>
  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%z = %zero) -> (i64) {
    %nz = arith.cmpi ne, %z, %zero : i64
    %v = scf.if %nz -> (i64) {
      scf.yield %k42 : i64
    } else {
      %xz = arith.addi %x, %z : i64
      %s = arith.addi %xz, %y : i64
      scf.yield %s : i64
    }
    %h = func.call @hostonly(%v) : (i64) -> i64
    scf.yield %h : i64
  }
  func.return %r : i64
}
// CHECK-DAG: @main /soac.index [2]
// CHECK-DAG: @main soac.gpu_body [0]
