// Port of Futhark's tests/migration/loop20_through.fut: two reads delayed through a
// loop whose carried values only device work uses: the initial values and each step's
// arithmetic move; the sum after the loop is read once.
//   structure gpu { /GPUBody 2  /Loop/GPUBody/BinOp 3  /Index 1 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func @main(%A: tensor<10xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %k22 = arith.constant 22 : i64
  %x0 = soac.index %A[%c0] : tensor<10xi64>
  %y0 = soac.index %A[%c1] : tensor<10xi64>
  %a, %b = scf.for %i = %c0 to %c10 step %c1 iter_args(%x = %x0, %y = %y0) -> (i64, i64) {
    %z = arith.addi %x, %y : i64
    %m = arith.remsi %z, %k22 : i64
    %sq = arith.muli %z, %z : i64
    scf.yield %m, %sq : i64, i64
  }
  %r = arith.addi %a, %b : i64
  func.return %r : i64
}
// CHECK-DAG: @main /soac.gpu_body [2]
// CHECK-DAG: @main /scf.for/soac.gpu_body/binop [3]
// CHECK-DAG: @main /soac.index [1]
