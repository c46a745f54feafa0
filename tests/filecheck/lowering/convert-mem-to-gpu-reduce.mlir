// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu | filecheck %s
// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu -t cuda | filecheck %s --check-prefix=CUDA

// A host-level reduce becomes two launches: partial results of at most 1024 blocks,
// then one block over the partials into the 0-d result, which the host reads.
// A commutative operator folds a grid-stride loop four loads at a time; a
// non-commutative one (here a max that keeps the later of equal keys: not
// commutative) folds contiguous chunks, so that the input's order is kept.

func.func @main(%a: tensor<?xf32>, %v: tensor<?xf32>, %i: tensor<?xi32>) -> (f32, f32, i32) {
  %zero = arith.constant 0.0 : f32
  %s = soac.reduce(%a) neutral(%zero : f32) commutative : (tensor<?xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    soac.yield %r : f32
  }
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant 2147483647 : i32
  %bv, %bi = soac.reduce(%v, %i) neutral(%ninf, %big : f32, i32) : (tensor<?xf32>, tensor<?xi32>) -> (f32, i32) {
  ^bb0(%v1: f32, %i1: i32, %v2: f32, %i2: i32):
    %gt = arith.cmpf ogt, %v1, %v2 : f32
    %vm = arith.select %gt, %v1, %v2 : f32
    %im = arith.select %gt, %i1, %i2 : i32
    soac.yield %vm, %im : f32, i32
  }
  func.return %s, %bv, %bi : f32, f32, i32
}

// CHECK-NOT:  mem.reduce
// CHECK:      [[N:%[0-9]+]] = mem.size %a[0]
// CHECK-NEXT: [[THREADS:%[0-9]+]] = arith.constant 256 : index
// CHECK-NEXT: [[WANTED:%[0-9]+]] = arith.ceildivui [[N]], [[THREADS]] : index
// CHECK-NEXT: [[CAP:%[0-9]+]] = arith.constant 1024 : index
// CHECK-NEXT: [[CAPPED:%[0-9]+]] = arith.minui [[WANTED]], [[CAP]] : index
// CHECK:      [[BLOCKS:%[0-9]+]] = arith.maxui [[CAPPED]], {{%[0-9]+}} : index
// CHECK:      %partials_mem = mem.alloc
// CHECK:      %partials = mem.view %partials_mem[{{%[0-9]+}}] sizes([[BLOCKS]])
// CHECK:      "gpu.launch_func"([[BLOCKS]], {{.*}}, %zero, %a, %partials, [[N]]) <{kernel = @kernels::@reduce0_partials
// CHECK:      "gpu.launch_func"({{.*}}, %zero, %partials, %s_dev, [[BLOCKS]]) <{kernel = @kernels::@reduce0_final
// CHECK-NEXT: %s = mem.load %s_dev[]
// CHECK:      "gpu.launch_func"({{.*}}, %ninf, %big, %v, %i, %partials_1, %partials_2, {{%[0-9]+}}) <{kernel = @kernels::@reduce1_partials
// CHECK:      "gpu.launch_func"({{.*}}, %ninf, %big, %partials_1, %partials_2, %bv_dev, %bi_dev, {{%[0-9]+}}) <{kernel = @kernels::@reduce1_final

// Commutative: where the input is contiguous and 16-byte aligned (tested in the
// kernel), groups of four elements by vector loads, two groups per grid-stride step,
// then the elements after the last whole group; otherwise four independent scalar
// loads per grid-stride step, combined as a tree, then the remainder one at a time.
// The block combines in thread order (shuffles, then one value per warp in shared
// memory); thread 0 writes the block's partial.
// CHECK:      "gpu.func"()
// CHECK:        [[ALIGNED:%[0-9]+]] = soacc_gpu.vectorizable %a
// CHECK-NEXT:   {{%[0-9]+}} = scf.if [[ALIGNED]] -> (f32) {
// CHECK:          scf.for {{.*}} iter_args({{%[0-9]+}} = %zero) -> (f32) {
// CHECK:            soacc_gpu.vector_load %a[{{%[0-9]+}}] : {{.*}} -> f32, f32, f32, f32
// CHECK:            soacc_gpu.vector_load %a[{{%[0-9]+}}] : {{.*}} -> f32, f32, f32, f32
// CHECK:          scf.for
// CHECK:            soacc_gpu.vector_load
// CHECK:          scf.for
// CHECK-NEXT:       memref.load %a
// CHECK:        } else {
// CHECK:          [[GID:%[0-9]+]] = "gpu.global_id"()
// CHECK:          scf.for {{%[0-9]+}} = [[GID]] to {{%[0-9]+}} step {{%[0-9]+}} iter_args([[ACC:%[0-9]+]] = %zero) -> (f32) {
// CHECK-COUNT-4:    memref.load %a
// CHECK:            [[P0:%[a-z0-9_]+]] = arith.addf
// CHECK-NEXT:       [[P1:%[a-z0-9_]+]] = arith.addf
// CHECK-NEXT:       [[P2:%[a-z0-9_]+]] = arith.addf [[P0]], [[P1]]
// CHECK-NEXT:       arith.addf [[ACC]], [[P2]]
// CHECK:          scf.for
// CHECK:        soacc_gpu.shuffle "down"
// CHECK:        soacc_gpu.shared : memref<8xf32>
// CHECK:        "gpu.barrier"
// CHECK:        memref.store {{%[0-9a-z_]+}}, %partials[{{%[0-9]+}}]
// CHECK:      }) {sym_name = "reduce0_partials"}
// CHECK:      }) {sym_name = "reduce0_final"}

// Not commutative: block b folds elements [b*chunk, (b+1)*chunk), thread t a
// contiguous part of that, one element at a time.
// CHECK:      "gpu.func"()
// CHECK:        [[GRID:%[0-9]+]] = "gpu.grid_dim"()
// CHECK-NEXT:   [[CHUNK:%[0-9]+]] = arith.ceildivui %count, [[GRID]] : index
// CHECK:        scf.for {{%[0-9]+}} = {{%[0-9]+}} to {{%[0-9]+}} step {{%[0-9]+}} iter_args({{%[0-9]+}} = %ninf, {{%[0-9]+}} = %big) -> (f32, i32) {
// CHECK-NEXT:     memref.load %v
// CHECK-NEXT:     memref.load %i
// CHECK:        }) {sym_name = "reduce1_partials"}

// CUDA: extern "C" __global__ void reduce0_partials(
// CUDA:   bool [[V:[a-z0-9_]+]] = a_stride0 == 1 && ((unsigned long long)(a + a_offset)) % 16 == 0;
// CUDA:   const float4 {{[a-z0-9_]+}} = *(const float4*)&a[a_offset + {{[a-z0-9_]+}}];
// CUDA:   __shfl_down_sync(
// CUDA: extern "C" __global__ void reduce0_final(
// CUDA: extern "C" __global__ void reduce1_partials(
// CUDA: extern "C" __global__ void reduce1_final(
