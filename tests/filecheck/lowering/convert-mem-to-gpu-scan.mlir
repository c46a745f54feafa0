// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu --split-input-file | filecheck %s
// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu -t cuda --split-input-file | filecheck %s --check-prefix=CUDA

// A host-level scan becomes a single pass with decoupled look-back: one launch clears
// the per-tile flags and the tile counter, the next scans one tile per block. The
// operator is a tuple and not commutative (composition of affine maps, as in
// examples/linear_recurrence.mlir): every combination keeps the input's order.

func.func @main(%a: tensor<?xi32>, %b: tensor<?xf64>) -> (tensor<?xi32>, tensor<?xf64>) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f64
  %x, %y = soac.scan(%a, %b) neutral(%one, %zero : i32, f64) : (tensor<?xi32>, tensor<?xf64>) -> (tensor<?xi32>, tensor<?xf64>) {
  ^bb0(%m1: i32, %c1: f64, %m2: i32, %c2: f64):
    %m = arith.muli %m1, %m2 : i32
    %f = arith.sitofp %m2 : i32 to f64
    %s = arith.mulf %c1, %f : f64
    %c = arith.addf %s, %c2 : f64
    soac.yield %m, %c : i32, f64
  }
  func.return %x, %y : tensor<?xi32>, tensor<?xf64>
}

// Host: tiles of 256 threads x 5 items (64 bytes of 12-byte tuples per thread, at
// least one tile), one scratch block for the flags, the counter, the aggregates and
// the inclusive prefixes, then the two launches (one block per tile).
// CHECK-NOT:  mem.scan
// CHECK:      [[TILE:%[0-9]+]] = arith.constant 1280 : index
// CHECK-NEXT: [[WANTED:%[0-9]+]] = arith.ceildivui [[N:%[0-9]+]], [[TILE]] : index
// CHECK:      %tiles = arith.maxui [[WANTED]], {{%[0-9]+}} : index
// CHECK:      %lookback_mem = mem.alloc {{%[0-9]+}} : !mem.block<device>
// CHECK-NEXT: %flags = mem.view %lookback_mem
// CHECK-NEXT: %next_tile = mem.view %lookback_mem
// CHECK-NEXT: %aggregates0 = mem.view %lookback_mem
// CHECK-NEXT: %aggregates1 = mem.view %lookback_mem
// CHECK-NEXT: %prefixes0 = mem.view %lookback_mem
// CHECK-NEXT: %prefixes1 = mem.view %lookback_mem
// CHECK:      "gpu.launch_func"({{.*}}, %flags, %next_tile, %tiles) <{kernel = @kernels::@scan0_init
// CHECK:      "gpu.launch_func"(%tiles, {{.*}}, %one, %zero, %a, %b, %x, %y, %flags, %next_tile, %aggregates0, %aggregates1, %prefixes0, %prefixes1, [[N]]) <{kernel = @kernels::@scan0_lookback

// The scan kernel: a tile id taken in the order blocks start, staged loads, the
// block's scan of per-thread folds, publication, look-back by warp 0, rescan.
// CHECK:      }) {sym_name = "scan0_init"}
// CHECK:      %tile_slot = soacc_gpu.shared : memref<1xi32>
// CHECK:      soacc_gpu.atomic_rmw "addi" {{%[0-9]+}}, %next_tile
// CHECK:      "gpu.barrier"
// CHECK:      %tile = arith.index_cast
// CHECK:      %tile_values = soacc_gpu.shared : memref<1320xi32>
// CHECK-NEXT: %tile_values_1 = soacc_gpu.shared : memref<1320xf64>
// CHECK:      soacc_gpu.shuffle "up"
// CHECK:      soacc_gpu.store_volatile {{%[0-9a-z_]+}}, %aggregates0
// CHECK:      soacc_gpu.fence
// CHECK:      soacc_gpu.store_volatile {{%[0-9]+}}, %flags
// CHECK:      scf.while
// CHECK:      soacc_gpu.load_volatile %flags
// CHECK:      soacc_gpu.load_volatile %aggregates0
// CHECK:      soacc_gpu.load_volatile %prefixes0
// CHECK:      memref.store {{%[0-9a-z_]+}}, %x
// CHECK-NEXT: memref.store {{%[0-9a-z_]+}}, %y
// CHECK:      }) {sym_name = "scan0_lookback"}

// CUDA:       extern "C" __global__ void scan0_init(
// CUDA:       extern "C" __global__ void scan0_lookback(
// CUDA:         __shared__ int tile_slot[1];
// CUDA:         atomicAdd(
// CUDA:         __shared__ double tile_values_1[1320];
// CUDA:         __shfl_up_sync(
// CUDA:         __threadfence();

// -----

// One 32-bit value: a tile publishes its flag (high half) and value (low half) as one
// 64-bit status word, and the look-back reads both with one load, no fence between.

func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %p = soac.scan(%a) neutral(%zero : f32) commutative : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    soac.yield %r : f32
  }
  func.return %p : tensor<?xf32>
}

// CHECK:      %status = mem.view %lookback_mem[{{%[0-9]+}}] sizes(%tiles) : !mem.block<device> -> memref<?xi64
// CHECK-NEXT: %next_tile = mem.view %lookback_mem
// CHECK-NOT:  %aggregates
// CHECK:      "gpu.launch_func"({{.*}}, %status, %next_tile, %tiles) <{kernel = @kernels::@scan0_init
// CHECK:      "gpu.launch_func"(%tiles, {{.*}}, %zero, %a, %p, %status, %next_tile, {{%[0-9]+}}) <{kernel = @kernels::@scan0_lookback
// CHECK:      }) {sym_name = "scan0_init"}
// CHECK:      [[BITS:%[0-9]+]] = arith.bitcast {{%[0-9a-z_]+}} : f32 to i32
// CHECK-NEXT: [[LOW:%[0-9]+]] = arith.extui [[BITS]] : i32 to i64
// CHECK-NEXT: [[FLAG:%[0-9]+]] = arith.constant {{4294967296|8589934592}} : i64
// CHECK-NEXT: [[WORD:%[0-9]+]] = arith.ori [[LOW]], [[FLAG]] : i64
// CHECK-NEXT: soacc_gpu.store_volatile [[WORD]], %status[%tile]
// CHECK-NOT:  soacc_gpu.fence
// CHECK:      [[SEEN:%[0-9]+]] = soacc_gpu.load_volatile %status
// CHECK-NEXT: [[C32:%[0-9]+]] = arith.constant 32 : i64
// CHECK-NEXT: [[HIGH:%[0-9]+]] = arith.shrui [[SEEN]], [[C32]] : i64
// CHECK-NEXT: arith.trunci [[HIGH]] : i64 to i32
// CHECK-NOT:  soacc_gpu.fence
// CHECK:      }) {sym_name = "scan0_lookback"}

// CUDA:       extern "C" __global__ void scan0_lookback(
// CUDA:         *(volatile long long*)&status
// CUDA-NOT:     __threadfence
// CUDA:       }
