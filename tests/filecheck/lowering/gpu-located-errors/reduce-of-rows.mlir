// RUN: not soacc-opt %s -p soacc-pipeline -t cuda 2>&1 >/dev/null | filecheck %s

// What the lowering to the GPU cannot do yet is said at the op of the program text it
// comes from (file:line:col, from what each lowering records about the ops it makes),
// in one line, without the lowered module, which the user never wrote.

// CHECK-NOT: builtin.module

func.func @rows(%a: tensor<?x?xf32>, %z: tensor<?xf32>) -> tensor<?xf32> {
  %r = soac.reduce(%a) neutral(%z : tensor<?xf32>) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<?xf32>, %y: tensor<?xf32>):
    %s = soac.map(%x, %y) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb1(%p: f32, %q: f32):
      %t = arith.addf %p, %q : f32
      soac.yield %t : f32
    }
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}

// CHECK: reduce-of-rows.mlir:10:3: error: convert-mem-to-gpu: mem.reduce reduces arrays of rows at host level; only arrays of scalars are supported so far
