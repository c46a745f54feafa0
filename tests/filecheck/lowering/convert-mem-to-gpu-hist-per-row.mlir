// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu --split-input-file | filecheck %s
// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu -t cuda --split-input-file | filecheck %s --check-prefix=CUDA

// A histogram per row (a map of a hist: lowering/gpu_segmented_hist.py). The host
// checks that bin numbers and values have one length, then chooses by it: rows of
// 2048 elements or more take blocks (several per row where rows are few: the chunks;
// the rows' bins filled first by a kernel of their own only where blocks share a
// row), rows of 32 or more a warp each, shorter rows a thread each.
// CHECK-LABEL: func.func @counts(
// CHECK:         cf.assert {{%[0-9]+}}, "a histogram inside a map has bin numbers and values of different lengths"
// CHECK-NEXT:    [[ROWS:%[0-9]+]] = mem.size %xss[0]
// CHECK-NEXT:    [[BINS:%[0-9]+]] = mem.size %hs[1]
// CHECK-NEXT:    [[FROM:%[0-9]+]] = mem.threshold "map0.hist_block_from" default 2048
// CHECK-NEXT:    [[LONG:%[0-9]+]] = arith.cmpi uge, [[LENGTH:%[0-9]+]], [[FROM]] : index
// CHECK-NEXT:    scf.if [[LONG]] {
// CHECK:           arith.minui
// CHECK-NEXT:      [[CHUNKS:%[0-9]+]] = arith.maxui
// CHECK-NEXT:      [[PER:%[0-9]+]] = arith.ceildivui [[LENGTH]], [[CHUNKS]] : index
// CHECK-NEXT:      [[SHARE:%[0-9]+]] = arith.cmpi ugt, [[CHUNKS]], {{%[0-9]+}} : index
// CHECK-NEXT:      scf.if [[SHARE]] {
// CHECK:             "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0_hist_fill,
// CHECK:           }
// CHECK:           "gpu.launch_func"({{.*}}, %xss, %hs, [[ROWS]], [[LENGTH]], [[CHUNKS]], [[PER]]) <{kernel = @kernels::@map0_hist_block_per_row,
// CHECK:         } else {
// CHECK:           [[WARPS:%[0-9]+]] = mem.threshold "map0.hist_warp_from" default 32
// CHECK:           scf.if
// CHECK:             "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0_hist_warp_per_row,
// CHECK:           } else {
// CHECK:             "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0,
// The block's kernel: a sub-histogram in shared memory, counted by shared atomics,
// merged by a store of the fill value combined with it where the block has the whole
// row, else by a global atomic per bin it changed.
// CHECK:         %sub_histogram = soacc_gpu.shared : memref<16xi32>
// CHECK:         gpu.barrier
// CHECK:         soacc_gpu.atomic_rmw "addi" %one, %sub_histogram[
// CHECK:         gpu.barrier
// CHECK:         [[PARTIAL:%[0-9]+]] = memref.load %sub_histogram[
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      %{{.*}} = arith.addi %zero, [[PARTIAL]] : i32
// CHECK-NEXT:      memref.store
// CHECK-NEXT:    } else {
// CHECK:           soacc_gpu.atomic_rmw "addi" [[PARTIAL]], %hs[
// CHECK:         }) {sym_name = "map0_hist_block_per_row"
// CHECK:         }) {sym_name = "map0_hist_fill"
// A warp's kernel: the block's 8 warps each with 16 bins of their own.
// CHECK:         %sub_histograms = soacc_gpu.shared : memref<128xi32>
// CHECK:         soacc_gpu.sync_warp
// CHECK:         soacc_gpu.atomic_rmw "addi" %one, %sub_histograms[
// CHECK:         soacc_gpu.sync_warp
// CHECK:         }) {sym_name = "map0_hist_warp_per_row"
// CUDA:        extern "C" __global__ void map0_hist_block_per_row(
// CUDA:          __shared__ int sub_histogram[16];
// CUDA:          atomicAdd
func.func @counts(%xss: tensor<?x?xi32>) -> tensor<?x16xi32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %c16 = arith.constant 16 : index
  %cols = soac.size %xss[1] : tensor<?x?xi32>
  %hs = soac.map(%xss) : (tensor<?x?xi32>) -> tensor<?x16xi32> {
  ^bb0(%row: tensor<?xi32>):
    %ones = soac.replicate %cols, %one : i32 -> tensor<?xi32>
    %bins = soac.replicate %c16, %zero : i32 -> tensor<16xi32>
    %h = soac.hist %bins[%row], %ones neutral(%zero : i32) : tensor<16xi32>, tensor<?xi32>, tensor<?xi32> {
    ^bb1(%a: i32, %c: i32):
      %s = arith.addi %a, %c : i32
      soac.yield %s : i32
    }
    soac.yield %h : tensor<16xi32>
  }
  func.return %hs : tensor<?x16xi32>
}

// -----

// Bins whose count only the run knows (no shared sub-histogram): every element of a
// block's chunk updates the row's bins in global memory, which are always filled
// first; no warp strategy. A maximum of f32 has no CUDA atomic: compare-and-swap.
// CHECK-LABEL: func.func @maxima(
// CHECK:         scf.if {{%[0-9]+}} {
// CHECK-NOT:       scf.if
// CHECK:           "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0_hist_fill,
// CHECK:           "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0_hist_block_per_row,
// CHECK:         } else {
// CHECK:           "gpu.launch_func"({{.*}}) <{kernel = @kernels::@map0,
// CHECK-NOT:     hist_warp_per_row
// CHECK:         gpu.module
// CHECK-NOT:     soacc_gpu.shared
// CHECK:         soacc_gpu.atomic_cas
// CHECK:         }) {sym_name = "map0_hist_block_per_row"
// CHECK-NOT:     hist_warp_per_row
func.func @maxima(%iss: tensor<?x?xi64>, %vss: tensor<?x?xf32>, %n: index) -> tensor<?x?xf32> {
  %low = arith.constant -1.0e30 : f32
  %hs = soac.map(%iss, %vss) : (tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%is: tensor<?xi64>, %vs: tensor<?xf32>):
    %bins = soac.replicate %n, %low : f32 -> tensor<?xf32>
    %h = soac.hist %bins[%is], %vs neutral(%low : f32) : tensor<?xf32>, tensor<?xi64>, tensor<?xf32> {
    ^bb1(%a: f32, %c: f32):
      %m = arith.maximumf %a, %c : f32
      soac.yield %m : f32
    }
    soac.yield %h : tensor<?xf32>
  }
  func.return %hs : tensor<?x?xf32>
}

// -----

// Not a histogram per row this way: its bins start as a row of an input (not one
// value), so a thread per row makes each.
// CHECK-LABEL: func.func @from_rows(
// CHECK-NOT:     hist_block_per_row
// CHECK:         gpu.module
// CHECK-NOT:     hist_block_per_row
func.func @from_rows(%iss: tensor<?x?xi32>, %starts: tensor<?x8xi32>) -> tensor<?x8xi32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %cols = soac.size %iss[1] : tensor<?x?xi32>
  %hs = soac.map(%iss, %starts) : (tensor<?x?xi32>, tensor<?x8xi32>) -> tensor<?x8xi32> {
  ^bb0(%is: tensor<?xi32>, %start: tensor<8xi32>):
    %ones = soac.replicate %cols, %one : i32 -> tensor<?xi32>
    %h = soac.hist %start[%is], %ones neutral(%zero : i32) : tensor<8xi32>, tensor<?xi32>, tensor<?xi32> {
    ^bb1(%a: i32, %c: i32):
      %s = arith.addi %a, %c : i32
      soac.yield %s : i32
    }
    soac.yield %h : tensor<8xi32>
  }
  func.return %hs : tensor<?x8xi32>
}
