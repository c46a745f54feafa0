// RUN: soacc-opt %s -p 'convert-soac-to-mem,place-kernels{host=f},fuse-transfers{report=true}' 2>&1 | filecheck %s
// RUN: soacc-opt %s -p 'convert-soac-to-mem,place-kernels{host=f},fuse-transfers{mode=tight report=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=TIGHT
//
// The study's running example (Kessler, Figure 2; N = 5 kernels, M = 13 vectors A..M,
// A, B and C live on entry): Kernel1 runs on the CPU (place-kernels puts the kernel
// writing F and G on the host), the others on the GPU. 4 uploads and 7 downloads, 11
// startups; the study's greedy output sends them as 4 messages, 7 saved: {B, A, C}
// before kernel 0, {E, D} after kernel 0, {F} before kernel 2, {I, J, K, L, M} after
// kernel 4 (the vectors' order within a message is the path's; the study prints
// B, A, C and E, D, I, J, K, L, M). Tight sends C with F, and saves 7 as well.
//
// CHECK: fuse-transfers: @main: 4 upload(s) and 7 download(s) in 4 message(s), 7 startup(s) saved
// TIGHT: fuse-transfers: @main: 4 upload(s) and 7 download(s) in 4 message(s), 7 startup(s) saved
// The uploads of A, B, C: parts of one arena, one copy (up to max-bytes).
// CHECK:      %uploads = mem.alloc
// CHECK-DAG:  %a = mem.view %uploads
// CHECK-DAG:  %b = mem.view %uploads
// CHECK-DAG:  %c = mem.view %uploads
// CHECK:      mem.copy %{{.*}}, %{{.*}} : memref<?xi1, {{.*}}#mem.space<host>>, memref<?xi1, {{.*}}#mem.space<device>>
// D and E: made by kernel 0 in one device arena, downloaded together right after it
// into a host staging arena, then each into its own host block (up to max-bytes).
// CHECK:      %downloads = mem.alloc
// CHECK-DAG:  %d = mem.view %downloads[
// CHECK-DAG:  %e = mem.view %downloads[
// CHECK:      mem.map ins(%b, %a : {{.*}}) outs(%d, %e : {{.*}})
// CHECK:      scf.if
// CHECK-NEXT:   %downloads_host = mem.alloc
// CHECK:        mem.copy %{{.*}}, %{{.*}} : memref<?xi1, {{.*}}#mem.space<device>>, memref<?xi1, {{.*}}#mem.space<host>>
// CHECK-DAG:    mem.copy %{{.*}}, %e_host : {{.*}}#mem.space<host>>, {{.*}}#mem.space<host>>
// CHECK-DAG:    mem.copy %{{.*}}, %d_host : {{.*}}#mem.space<host>>, {{.*}}#mem.space<host>>
// CHECK:      } else {
// Kernel 1 on the CPU reads E's host block; F goes up on its own.
// CHECK:      mem.map ins(%e_host, %b_host : {{.*}}) outs(%f_host, %g_host : {{.*}})
// CHECK:      mem.copy %f_host, %f :
// I, J, K, L, M: one device arena, one download after kernel 4.
// CHECK:      %downloads_1 = mem.alloc
// CHECK:      mem.map ins(%h, %e : {{.*}}) outs(%l, %m : {{.*}})
// CHECK:      scf.if
// CHECK-NEXT:   %downloads_host_1 = mem.alloc
// CHECK:        mem.copy %{{.*}}, %{{.*}} : memref<?xi1, {{.*}}#mem.space<device>>, memref<?xi1, {{.*}}#mem.space<host>>
// CHECK:      } else {
// CHECK:      func.return %d_host_mem, %d_host, %g_host_mem_1, %g_host_1, %i_host_mem, %i_host
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %d, %e = soac.map(%b, %a) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.mulf %x, %y : f32
    soac.yield %s, %t : f32, f32
  }
  %f, %g = soac.map(%e, %b) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.subf %x, %y : f32
    soac.yield %s, %t : f32, f32
  }
  %h, %i = soac.map(%c, %f) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.mulf %x, %y : f32
    soac.yield %s, %t : f32, f32
  }
  %j, %k = soac.map(%f, %h) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.subf %x, %y : f32
    soac.yield %s, %t : f32, f32
  }
  %l, %m = soac.map(%h, %e) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %y : f32
    %t = arith.addf %x, %y : f32
    soac.yield %s, %t : f32, f32
  }
  func.return %d, %g, %i, %j, %k, %l, %m : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
