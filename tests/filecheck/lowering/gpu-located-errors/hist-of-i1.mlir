// RUN: not soacc-opt %s -p soacc-pipeline -t cuda 2>&1 >/dev/null | filecheck %s

// What the lowering to the GPU cannot do yet is said at the op of the program text it
// comes from (file:line:col, from what each lowering records about the ops it makes),
// in one line, without the lowered module, which the user never wrote.

// CHECK-NOT: builtin.module

func.func @seen(%d: tensor<?xi1>, %is: tensor<?xindex>, %vs: tensor<?xi1>) -> tensor<?xi1> {
  %t = arith.constant true
  %h = soac.hist %d[%is], %vs neutral(%t : i1) : tensor<?xi1>, tensor<?xindex>, tensor<?xi1> {
  ^bb0(%l: i1, %r: i1):
    %m = arith.andi %l, %r : i1
    soac.yield %m : i1
  }
  func.return %h : tensor<?xi1>
}

// CHECK: hist-of-i1.mlir:11:3: error: convert-mem-to-gpu: mem.hist combines i1 values
