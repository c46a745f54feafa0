// Port of Futhark's tests/migration/scalar_ops.fut: a host-only use is found through
// every kind of scalar expression, so the migration analysis covers them all: in each
// function x (and y) are computed from reads and passed to a host-only function, so
// those reads stay, and nothing moves. Matching (no gpu_body in any function).
//   structure gpu { GPUBody 0 }
// Futhark's unary, binary, comparison and conversion ops are math.absi, arith.addi,
// arith.cmpi and arith.extsi here; `||` is arith.ori. Futhark's generic `hostonly` is
// one function per argument type (each uses an array, so it is host-only), its `join`
// and `join3` return their first argument. Futhark's entry `opaque` is not expressible:
// soacc has no opaque op (an identity canonicalize cannot see through), and its
// analysis has no separate rule for one (it graphs every scalar arith and math op
// alike).
// RUN: soacc-opt %s -p canonicalize,cse,reduce-device-syncs,merge-gpu-bodies --print-op-generic | python %S/structure.py | filecheck %s

func.func private @hostonly_i32(%x: i32) -> i1 {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %arr = soac.array [%true] : tensor<1xi1>
  %e = soac.index %arr[%c0] : tensor<1xi1>
  func.return %e : i1
}

func.func private @hostonly_i1(%x: i1) -> i1 {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %arr = soac.array [%true] : tensor<1xi1>
  %e = soac.index %arr[%c0] : tensor<1xi1>
  func.return %e : i1
}

func.func private @hostonly_i64(%x: i64) -> i1 {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %arr = soac.array [%true] : tensor<1xi1>
  %e = soac.index %arr[%c0] : tensor<1xi1>
  func.return %e : i1
}

func.func private @join(%x: i32, %y: i32) -> i32 {
  func.return %x : i32
}

func.func private @join3(%x: i32, %y: i32, %z: i32) -> i32 {
  func.return %x : i32
}

func.func @unOp(%A: tensor<2xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k0 = arith.constant 0 : i32
  %a = soac.index %A[%c0] : tensor<2xi32>
  %b = soac.index %A[%c1] : tensor<2xi32>
  %x = math.absi %b : i32
  %h = func.call @hostonly_i32(%x) : (i32) -> i1
  %r = scf.if %h -> (i32) {
    %j = func.call @join(%a, %b) : (i32, i32) -> i32
    scf.yield %j : i32
  } else {
    scf.yield %k0 : i32
  }
  func.return %r : i32
}

func.func @binOp(%A: tensor<3xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k0 = arith.constant 0 : i32
  %k2 = arith.constant 2 : i32
  %k4 = arith.constant 4 : i32
  %a = soac.index %A[%c0] : tensor<3xi32>
  %b = soac.index %A[%c1] : tensor<3xi32>
  %c = soac.index %A[%c2] : tensor<3xi32>
  %x = arith.addi %a, %k4 : i32
  %y = arith.addi %k2, %b : i32
  %hx = func.call @hostonly_i32(%x) : (i32) -> i1
  %hy = func.call @hostonly_i32(%y) : (i32) -> i1
  %h = arith.ori %hx, %hy : i1
  %r = scf.if %h -> (i32) {
    %j = func.call @join3(%a, %b, %c) : (i32, i32, i32) -> i32
    scf.yield %j : i32
  } else {
    scf.yield %k0 : i32
  }
  func.return %r : i32
}

func.func @cmpOp(%A: tensor<3xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k0 = arith.constant 0 : i32
  %k2 = arith.constant 2 : i32
  %k4 = arith.constant 4 : i32
  %a = soac.index %A[%c0] : tensor<3xi32>
  %b = soac.index %A[%c1] : tensor<3xi32>
  %c = soac.index %A[%c2] : tensor<3xi32>
  %x = arith.cmpi eq, %a, %k4 : i32
  %y = arith.cmpi eq, %k2, %b : i32
  %hx = func.call @hostonly_i1(%x) : (i1) -> i1
  %hy = func.call @hostonly_i1(%y) : (i1) -> i1
  %h = arith.ori %hx, %hy : i1
  %r = scf.if %h -> (i32) {
    %j = func.call @join3(%a, %b, %c) : (i32, i32, i32) -> i32
    scf.yield %j : i32
  } else {
    scf.yield %k0 : i32
  }
  func.return %r : i32
}

func.func @convOp(%A: tensor<2xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k0 = arith.constant 0 : i32
  %a = soac.index %A[%c0] : tensor<2xi32>
  %b = soac.index %A[%c1] : tensor<2xi32>
  %x = arith.extsi %b : i32 to i64
  %h = func.call @hostonly_i64(%x) : (i64) -> i1
  %r = scf.if %h -> (i32) {
    %j = func.call @join(%a, %b) : (i32, i32) -> i32
    scf.yield %j : i32
  } else {
    scf.yield %k0 : i32
  }
  func.return %r : i32
}
// CHECK-DAG: @unOp soac.gpu_body [0]
// CHECK-DAG: @binOp soac.gpu_body [0]
// CHECK-DAG: @cmpOp soac.gpu_body [0]
// CHECK-DAG: @convOp soac.gpu_body [0]
// CHECK-DAG: @unOp /math [1]
// CHECK-DAG: @binOp /binop [3]
// CHECK-DAG: @cmpOp /cmpop [2]
// The reads stay on the host; those only the branch uses are read in it (sunk):
// CHECK-DAG: @unOp /soac.index [1]
// CHECK-DAG: @unOp /scf.if/then/soac.index [1]
// CHECK-DAG: @binOp /soac.index [2]
// CHECK-DAG: @binOp /scf.if/then/soac.index [1]
// CHECK-DAG: @cmpOp /soac.index [2]
// CHECK-DAG: @cmpOp /scf.if/then/soac.index [1]
// CHECK-DAG: @convOp /soac.index [1]
// CHECK-DAG: @convOp /scf.if/then/soac.index [1]
