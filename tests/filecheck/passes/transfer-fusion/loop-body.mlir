// RUN: soacc-opt %s -p 'convert-soac-to-mem,place-kernels{host=a},fuse-transfers{report=true}' 2>&1 | filecheck %s
//
// A loop body is a straight-line region of its own: the two arrays the host kernel
// makes in every iteration (a and b) go up in one message, sent after it, inside the
// loop. (The loop's carried array is left alone: its block is the loop's.)
// CHECK: fuse-transfers: @main: 2 upload(s) in 1 message(s), 1 startup(s) saved
// CHECK:      scf.for
// CHECK:        %uploads = mem.alloc
// CHECK:        mem.map ins(%{{.*}} : {{.*}}#mem.space<host>>) outs(%a_host, %b_host : {{.*}})
// CHECK:        scf.if
// CHECK:          mem.copy %{{.*}}, %{{.*}} : memref<?xi1, {{.*}}#mem.space<host>>, memref<?xi1, {{.*}}#mem.space<device>>
// CHECK:        } else {
// CHECK-DAG:      mem.copy %a_host, %a :
// CHECK-DAG:      mem.copy %b_host, %b :
// CHECK:        }
// CHECK-NEXT:   mem.map ins(%a, %b : {{.*}}) outs(%c : {{.*}})
func.func @main(%x: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<?xf32>) {
    %a, %b = soac.map(%v) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
    ^bb0(%e: f32):
      %s = arith.addf %e, %e : f32
      %t = arith.mulf %e, %e : f32
      soac.yield %s, %t : f32, f32
    }
    %c = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%p: f32, %q: f32):
      %u = arith.subf %p, %q : f32
      soac.yield %u : f32
    }
    scf.yield %c : tensor<?xf32>
  }
  func.return %r : tensor<?xf32>
}
