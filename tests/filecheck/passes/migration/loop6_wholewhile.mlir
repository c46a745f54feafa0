// Port of Futhark's tests/migration/loop6_wholewhile.fut: a while loop moves whole so
// that neither its condition nor the reads in it are read; its result is.
//   structure gpu { /GPUBody/DoLoop 1  /Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %ten = arith.constant 10 : i64
  %limit = arith.constant 1000 : i64
  %a0 = soac.index %A[%c0] : tensor<10xi64>
  %r = scf.while (%x = %a0) : (i64) -> i64 {
    %go = arith.cmpi slt, %x, %limit : i64
    scf.condition(%go) %x : i64
  } do {
  ^bb0(%y: i64):
    %m = arith.remsi %y, %ten : i64
    %j = arith.index_cast %m : i64 to index
    %e = soac.index %A[%j] : tensor<10xi64>
    %z = arith.muli %y, %e : i64
    scf.yield %z : i64
  }
  func.return %r : i64
}
// CHECK-DAG: @main /soac.gpu_body/scf.while [1]
// CHECK-DAG: @main /soac.index [1]
