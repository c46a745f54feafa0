// RUN: soacc-opt %s | soacc-opt | filecheck %s
// Round trip of every soacc_gpu op.

"gpu.module"() <{sym_name = "kernels"}> ({
  "gpu.func"() <{function_type = (f32, memref<?xi32, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, index) -> (), kernel}> ({
    ^bb0(%x: f32, %h: memref<?xi32, strided<[?], offset: ?>>, %flags: memref<?xi32, strided<[?], offset: ?>>, %i: index):
      %c1 = arith.constant 1 : i32
      // CHECK: %{{.*}} = soacc_gpu.shuffle "down" %{{.*}}, %{{.*}} : f32
      %d = soacc_gpu.shuffle "down" %x, %c1 : f32
      // CHECK: %{{.*}} = soacc_gpu.shuffle "up" %{{.*}}, %{{.*}} : f32
      %u = soacc_gpu.shuffle "up" %x, %c1 : f32
      // CHECK: %{{.*}} = soacc_gpu.shared : memref<256xf32>
      %s = soacc_gpu.shared : memref<256xf32>
      // CHECK: %{{.*}} = soacc_gpu.atomic_rmw "addi" %{{.*}}, %{{.*}}[%{{.*}}] : i32, memref<?xi32, strided<[?], offset: ?>>
      %old = soacc_gpu.atomic_rmw "addi" %c1, %h[%i] : i32, memref<?xi32, strided<[?], offset: ?>>
      // CHECK: %{{.*}} = soacc_gpu.atomic_cas %{{.*}}, %{{.*}}, %{{.*}}[%{{.*}}] : i32, memref<?xi32, strided<[?], offset: ?>>
      %prev = soacc_gpu.atomic_cas %old, %c1, %h[%i] : i32, memref<?xi32, strided<[?], offset: ?>>
      // CHECK: soacc_gpu.store_volatile %{{.*}}, %{{.*}}[%{{.*}}] : i32, memref<?xi32, strided<[?], offset: ?>>
      soacc_gpu.store_volatile %c1, %flags[%i] : i32, memref<?xi32, strided<[?], offset: ?>>
      // CHECK: soacc_gpu.fence
      soacc_gpu.fence
      // CHECK: soacc_gpu.sync_warp
      soacc_gpu.sync_warp
      // CHECK: %{{.*}} = soacc_gpu.load_volatile %{{.*}}[%{{.*}}] : memref<?xi32, strided<[?], offset: ?>> -> i32
      %f = soacc_gpu.load_volatile %flags[%i] : memref<?xi32, strided<[?], offset: ?>> -> i32
      %c0 = arith.constant 0 : index
      // CHECK: %{{.*}} = soacc_gpu.view %{{.*}}[%{{.*}}] sizes(%{{.*}}) strides(%{{.*}}) : memref<?xi32, strided<[?], offset: ?>> -> memref<?xf32, strided<[?], offset: ?>>
      %v = soacc_gpu.view %h[%c0] sizes(%i) strides(%i) : memref<?xi32, strided<[?], offset: ?>> -> memref<?xf32, strided<[?], offset: ?>>
      // CHECK: %{{.*}} = soacc_gpu.stride %{{.*}}[0] : memref<?xi32, strided<[?], offset: ?>>
      %st = soacc_gpu.stride %h[0] : memref<?xi32, strided<[?], offset: ?>>
      // CHECK: %{{.*}} = soacc_gpu.vectorizable %{{.*}} : memref<?xi32, strided<[?], offset: ?>>
      %ok = soacc_gpu.vectorizable %h : memref<?xi32, strided<[?], offset: ?>>
      // CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = soacc_gpu.vector_load %{{.*}}[%{{.*}}] : memref<?xi32, strided<[?], offset: ?>> -> i32, i32, i32, i32
      %e0, %e1, %e2, %e3 = soacc_gpu.vector_load %h[%i] : memref<?xi32, strided<[?], offset: ?>> -> i32, i32, i32, i32
      // CHECK: soacc_gpu.vector_store(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}), %{{.*}}[%{{.*}}] : (i32, i32, i32, i32), memref<?xi32, strided<[?], offset: ?>>
      soacc_gpu.vector_store (%e3, %e2, %e1, %e0), %flags[%i] : (i32, i32, i32, i32), memref<?xi32, strided<[?], offset: ?>>
      "gpu.return"() : () -> ()
  }) {sym_name = "k"} : () -> ()
}) : () -> ()
