// RUN: not soacc-opt %s -p soacc-pipeline -t cuda 2>&1 >/dev/null | filecheck %s

// What the lowering to the GPU cannot do yet is said at the op of the program text it
// comes from (file:line:col, from what each lowering records about the ops it makes),
// in one line, without the lowered module, which the user never wrote.

// CHECK-NOT: builtin.module

func.func @loop_in_kernel(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %r = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %init = soac.replicate %c3, %x : f32 -> tensor<?xf32>
    %out = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<?xf32>) {
      %b = soac.map(%acc) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb1(%y: f32):
        %z = arith.addf %y, %y : f32
        soac.yield %z : f32
      }
      scf.yield %b : tensor<?xf32>
    }
    %e = soac.index %out[%c0] : tensor<?xf32>
    soac.yield %e : f32
  }
  func.return %r : tensor<?xf32>
}

// CHECK: loop-in-kernel.mlir:16:5: error: convert-mem-to-gpu: scf.for carries arrays through a loop inside a kernel, which is not supported yet
