// RUN: not soacc-opt %s -p soacc-pipeline -t cuda 2>&1 >/dev/null | filecheck %s

// What the lowering to the GPU cannot do yet is said at the op of the program text it
// comes from (file:line:col, from what each lowering records about the ops it makes),
// in one line, without the lowered module, which the user never wrote. (A reduction
// of rows whose operator works element by element is interchanged into reductions of
// columns first; this one picks whole rows.)

// CHECK-NOT: builtin.module

func.func @rows(%a: tensor<?x?xf32>, %z: tensor<?xf32>, %c: index) -> tensor<?xf32> {
  %r = soac.reduce(%a) neutral(%z : tensor<?xf32>) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<?xf32>, %y: tensor<?xf32>):
    %x0 = soac.index %x[%c] : tensor<?xf32>
    %y0 = soac.index %y[%c] : tensor<?xf32>
    %gt = arith.cmpf ogt, %x0, %y0 : f32
    %s = arith.select %gt, %x, %y : tensor<?xf32>
    soac.yield %s : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}

// CHECK: reduce-of-rows.mlir:12:3: error: convert-mem-to-gpu: mem.reduce reduces arrays of rows at host level; only arrays of scalars are supported so far
