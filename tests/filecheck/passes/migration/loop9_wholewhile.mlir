// Port of Futhark's tests/migration/loop9_wholewhile.fut: as loop8 with a second
// result: two reads after the loop still beat one per iteration.
//   structure gpu { /GPUBody/DoLoop 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<?xi64>) -> (i64, i64) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %limit = arith.constant 1000 : i64
  %n = soac.size %A[0] : tensor<?xi64>
  %n64 = arith.index_cast %n : index to i64
  %r:2 = scf.while (%x = %zero, %w = %zero) : (i64, i64) -> (i64, i64) {
    %go = arith.cmpi slt, %x, %limit : i64
    scf.condition(%go) %x, %w : i64, i64
  } do {
  ^bb0(%y: i64, %v: i64):
    %m = arith.remsi %y, %n64 : i64
    %j = arith.index_cast %m : i64 to index
    %e = soac.index %A[%j] : tensor<?xi64>
    %z = arith.addi %y, %e : i64
    %v1 = arith.addi %v, %one : i64
    scf.yield %z, %v1 : i64, i64
  }
  func.return %r#0, %r#1 : i64, i64
}
// CHECK-DAG: @main /soac.gpu_body/scf.while [1]
