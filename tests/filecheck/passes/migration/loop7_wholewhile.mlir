// Port of Futhark's tests/migration/loop7_wholewhile.fut: moving the loop would save no
// read: nothing moves.
//   structure gpu { GPUBody 0 }
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
    %z = arith.muli %y, %y : i64
    scf.yield %z : i64
  }
  func.return %r : i64
}
// CHECK-DAG: @main soac.gpu_body [0]
