// Port of Futhark's tests/migration/hostonly.fut: host-only calls keep an if and a
// while loop on the host, and nothing moves.
//   structure gpu { GPUBody 0 }
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

// `hostonly` uses an array, so its calls run on the host (their argument is needed there).
func.func private @hostonly(%x: i64) -> i64 {
  %arr = soac.array [%x] : tensor<1xi64>
  %c0 = arith.constant 0 : index
  %r = soac.index %arr[%c0] : tensor<1xi64>
  func.return %r : i64
}

func.func @main(%A: tensor<5xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i64
  %five = arith.constant 5 : i64
  %limit = arith.constant 1000 : i64
  %a0 = soac.index %A[%c0] : tensor<5xi64>
  %cond = arith.cmpi eq, %a0, %zero : i64
  %x = scf.if %cond -> (i64) {
    %a1 = soac.index %A[%c1] : tensor<5xi64>
    scf.yield %a1 : i64
  } else {
    %a2 = soac.index %A[%c2] : tensor<5xi64>
    %h = func.call @hostonly(%a2) : (i64) -> i64
    scf.yield %h : i64
  }
  %r = scf.while (%y = %x) : (i64) -> i64 {
    %go = arith.cmpi slt, %y, %limit : i64
    scf.condition(%go) %y : i64
  } do {
  ^bb0(%w: i64):
    %m = arith.remsi %w, %five : i64
    %i = arith.index_cast %m : i64 to index
    %e = soac.index %A[%i] : tensor<5xi64>
    %p = arith.muli %w, %e : i64
    %h = func.call @hostonly(%p) : (i64) -> i64
    scf.yield %h : i64
  }
  func.return %r : i64
}
// CHECK-DAG: @main soac.gpu_body [0]
// CHECK-DAG: @hostonly soac.gpu_body [0]
