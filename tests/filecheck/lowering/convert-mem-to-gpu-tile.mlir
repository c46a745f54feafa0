// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu --split-input-file | filecheck %s
// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu -t cuda --split-input-file | filecheck %s --check-prefix=CUDA

// A map of maps of a reduction whose inputs are a row of the outer map's array and a
// row of the inner map's (a matrix product: lowering/gpu_tile.py). The host checks
// that the two rows have one length, and launches the tiled kernel (a block per
// 128 x 128 tile of the results, ceil(n/128) * ceil(m/128) tiles) where both sides
// have at least 32 rows (a threshold a tuning may change), else the nest's other
// strategy.
// CHECK-LABEL: func.func @matmul(
// CHECK:         %c = mem.view
// CHECK-NEXT:    [[M:%[0-9]+]] = mem.size %bt[0]
// CHECK-NEXT:    [[N:%[0-9]+]] = mem.size %a[0]
// CHECK-NEXT:    [[K:%[0-9]+]] = mem.size %a[1]
// CHECK-NEXT:    [[K2:%[0-9]+]] = mem.size %bt[1]
// CHECK-NEXT:    [[SAME:%[0-9]+]] = arith.cmpi eq, [[K]], [[K2]] : index
// CHECK-NEXT:    cf.assert [[SAME]], "a reduction inside a map of maps folds arrays of different lengths"
// CHECK-NEXT:    [[FROM:%[0-9]+]] = mem.threshold "map0.tiled_from" default 32
// CHECK:         scf.if {{%[0-9]+}} {
// CHECK-NEXT:      [[SIDE:%[0-9]+]] = arith.constant 128 : index
// CHECK-NEXT:      [[TI:%[0-9]+]] = arith.ceildivui [[N]], [[SIDE]] : index
// CHECK-NEXT:      [[TJ:%[0-9]+]] = arith.ceildivui [[M]], [[SIDE]] : index
// CHECK-NEXT:      [[TILES:%[0-9]+]] = arith.muli [[TI]], [[TJ]] : index
// CHECK:           "gpu.launch_func"({{.*}}, %bt, %zero, %a, %c, [[N]], [[M]], [[K]]) <{kernel = @kernels::@map0_tiled,
// CHECK:         } else {
// CHECK:           "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0_block_per_row,
// The kernel: a shared tile of each side, CHUNK (8) rows of 128 + 4 words; loads along
// k where a row's stride is 1, along the rows otherwise; a thread's 8 x 8 accumulators
// carried through the chunks and through each chunk's columns.
// CHECK:         ^bb0(%bt: {{.*}}, %zero: f32, %a: {{.*}}, %c: {{.*}}, %rows: index, %columns: index, %length: index):
// CHECK:           %tile_outer0 = soacc_gpu.shared : memref<1056xf32>
// CHECK-NEXT:      [[SA:%[0-9]+]] = soacc_gpu.stride %a[1]
// CHECK:           %tile_inner0 = soacc_gpu.shared : memref<1056xf32>
// CHECK-NEXT:      [[SB:%[0-9]+]] = soacc_gpu.stride %bt[1]
// CHECK:           scf.for {{.*}} to {{.*}} step {{.*}} {
// CHECK:             scf.for {{.*}} to %length step {{.*}} iter_args(
// CHECK-COUNT-4:       memref.store {{.*}}, %tile_outer0[
// CHECK-COUNT-4:       memref.store {{.*}}, %tile_inner0[
// CHECK:               gpu.barrier
// CHECK:               scf.for {{.*}} iter_args(
// CHECK-COUNT-8:         memref.load %tile_outer0[
// CHECK-COUNT-8:         memref.load %tile_inner0[
// CHECK-COUNT-64:        arith.addf
// CHECK:               gpu.barrier
// CHECK-COUNT-64:    memref.store {{.*}}, %c[
// CHECK:         }) {sym_name = "map0_tiled"
// CUDA:        extern "C" __global__ void map0_tiled(
// CUDA:          __shared__ float tile_outer0[1056];
// CUDA:          bt_stride1
func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %bt = soac.transpose %b [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %c = soac.map(%a) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%arow: tensor<?xf32>):
    %crow = soac.map(%bt) : (tensor<?x?xf32>) -> tensor<?xf32> {
    ^bb1(%bcol: tensor<?xf32>):
      %d = soac.redomap(%arow, %bcol) : (tensor<?xf32>, tensor<?xf32>) -> f32 map {
      ^bb2(%x: f32, %y: f32):
        %m = arith.mulf %x, %y : f32
        soac.yield %m : f32
      } reduce(%zero : f32) commutative {
      ^bb3(%l: f32, %r: f32):
        %s = arith.addf %l, %r : f32
        soac.yield %s : f32
      }
      soac.yield %d : f32
    }
    soac.yield %crow : tensor<?xf32>
  }
  func.return %c : tensor<?x?xf32>
}

// -----

// A weight per k (an array from outside the nest, read by every thread at k), an
// epilogue of scalar code after the reduction, and two reductions side by side in f64:
// each thread takes 4 x 4 results (a tile of 64), its accumulators 2 x 16 words.
// CHECK-LABEL: func.func @weighted(
// CHECK:         [[KW:%[0-9]+]] = mem.size %w[0]
// CHECK:         cf.assert
// CHECK:         "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0_tiled,
// CHECK:         %tile_outer0 = soacc_gpu.shared : memref<544xf64>
// CHECK:         %tile_inner0 = soacc_gpu.shared : memref<544xf64>
// CHECK:         memref.load %w[
// CHECK-COUNT-16: arith.maximumf
// CHECK:         gpu.barrier
// CHECK-COUNT-16: arith.subf
// CHECK:         }) {sym_name = "map0_tiled"
func.func @weighted(%x: tensor<?x?xf64>, %y: tensor<?x?xf64>, %w: tensor<?xf64>) -> tensor<?x?xf64> {
  %zero = arith.constant 0.0 : f64
  %low = arith.constant -1.0e300 : f64
  %r = soac.map(%x) : (tensor<?x?xf64>) -> tensor<?x?xf64> {
  ^bb0(%xrow: tensor<?xf64>):
    %rrow = soac.map(%y) : (tensor<?x?xf64>) -> tensor<?xf64> {
    ^bb1(%yrow: tensor<?xf64>):
      %s, %mx = soac.redomap(%xrow, %yrow, %w) : (tensor<?xf64>, tensor<?xf64>, tensor<?xf64>) -> (f64, f64) map {
      ^bb2(%p: f64, %q: f64, %wk: f64):
        %d = arith.subf %p, %q : f64
        %dd = arith.mulf %d, %d : f64
        %e = arith.mulf %dd, %wk : f64
        soac.yield %e, %d : f64, f64
      } reduce(%zero : f64) commutative {
      ^bb3(%l: f64, %rr: f64):
        %t = arith.addf %l, %rr : f64
        soac.yield %t : f64
      } reduce(%low : f64) commutative {
      ^bb4(%l2: f64, %r2: f64):
        %t2 = arith.maximumf %l2, %r2 : f64
        soac.yield %t2 : f64
      }
      %out = arith.subf %s, %mx : f64
      soac.yield %out : f64
    }
    soac.yield %rrow : tensor<?xf64>
  }
  func.return %r : tensor<?x?xf64>
}

// -----

// Not tiled: the reduction reads only the outer map's row (nothing is reused across
// the inner map's rows), or a row the inner lambda computes.
// CHECK-LABEL: func.func @one_side(
// CHECK-NOT:     _tiled
// CHECK-LABEL: func.func @computed_row(
// CHECK-NOT:     _tiled
// CHECK:         gpu.module
// CHECK-NOT:     _tiled
func.func @one_side(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c = soac.map(%a) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%arow: tensor<?xf32>):
    %crow = soac.map(%b) : (tensor<?x?xf32>) -> tensor<?xf32> {
    ^bb1(%brow: tensor<?xf32>):
      %d = soac.redomap(%arow) : (tensor<?xf32>) -> f32 map {
      ^bb2(%x: f32):
        %m = arith.mulf %x, %x : f32
        soac.yield %m : f32
      } reduce(%zero : f32) commutative {
      ^bb3(%l: f32, %r: f32):
        %s = arith.addf %l, %r : f32
        soac.yield %s : f32
      }
      soac.yield %d : f32
    }
    soac.yield %crow : tensor<?xf32>
  }
  func.return %c : tensor<?x?xf32>
}
func.func @computed_row(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c = soac.map(%a) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%arow: tensor<?xf32>):
    %crow = soac.map(%b) : (tensor<?x?xf32>) -> tensor<?xf32> {
    ^bb1(%brow: tensor<?xf32>):
      %sq = soac.map(%brow) : (tensor<?xf32>) -> tensor<?xf32> {
      ^bb2(%x: f32):
        %m = arith.mulf %x, %x : f32
        soac.yield %m : f32
      }
      %d = soac.redomap(%arow, %sq) : (tensor<?xf32>, tensor<?xf32>) -> f32 map {
      ^bb3(%x: f32, %y: f32):
        %m = arith.mulf %x, %y : f32
        soac.yield %m : f32
      } reduce(%zero : f32) commutative {
      ^bb4(%l: f32, %r: f32):
        %s = arith.addf %l, %r : f32
        soac.yield %s : f32
      }
      soac.yield %d : f32
    }
    soac.yield %crow : tensor<?xf32>
  }
  func.return %c : tensor<?x?xf32>
}
