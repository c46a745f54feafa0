// RUN: soacc-opt %s -p convert-soac-to-mem,convert-mem-to-gpu --split-input-file | filecheck %s

// The fused combinators soac-fusion makes run on the kernels of their unfused forms,
// with each row's operands made by the map lambda inside the kernel (its mapped values
// written on the way): no intermediate array is read or written.

func.func @redomap(%a: tensor<?xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = soac.redomap(%a) : (tensor<?xf32>) -> f32 map {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %x : f32
    soac.yield %y : f32
  } reduce(%zero : f32) commutative {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    soac.yield %t : f32
  }
  func.return %s : f32
}

// A redomap (sum of squares): the reduce's two kernels, the map lambda applied to each
// element (here to each of a vector's four) before it is folded.
// CHECK-LABEL: func.func @redomap
// CHECK:       "gpu.launch_func"({{.*}}, %zero, %a, %partials, {{%[0-9]+}}) <{kernel = @kernels::@redomap0_partials
// CHECK:       "gpu.launch_func"({{.*}}, %zero, %partials, %s_dev, {{%[0-9]+}}) <{kernel = @kernels::@redomap0_final
// CHECK:       soacc_gpu.vectorizable %a
// CHECK:       [[X0:%[0-9]+]], [[X1:%[0-9]+]], [[X2:%[0-9]+]], [[X3:%[0-9]+]] = soacc_gpu.vector_load %a
// CHECK-NEXT:  [[Y0:%[a-z0-9_]+]] = arith.mulf [[X0]], [[X0]] : f32
// CHECK-NEXT:  [[Y1:%[a-z0-9_]+]] = arith.mulf [[X1]], [[X1]] : f32
// CHECK-NEXT:  [[Y2:%[a-z0-9_]+]] = arith.mulf [[X2]], [[X2]] : f32
// CHECK-NEXT:  [[Y3:%[a-z0-9_]+]] = arith.mulf [[X3]], [[X3]] : f32
// CHECK-NEXT:  arith.addf [[Y0]], [[Y1]] : f32
// CHECK:       } else {
// CHECK:         [[E:%[0-9]+]] = memref.load %a[
// CHECK-NEXT:    %y{{(_[0-9]+)?}} = arith.mulf [[E]], [[E]] : f32
// CHECK:       }) {sym_name = "redomap0_partials"}

// -----



func.func @scanomap(%a: tensor<?xi32>) -> tensor<?xi32> {
  %zero = arith.constant 0 : i32
  %p = soac.scanomap(%a) : (tensor<?xi32>) -> tensor<?xi32> map {
  ^bb0(%x: i32):
    soac.yield %x : i32
  } scan(%zero : i32) commutative {
  ^bb0(%l: i32, %r: i32):
    %s = arith.addi %l, %r : i32
    soac.yield %s : i32
  }
  func.return %p : tensor<?xi32>
}

// A scanomap: the single-pass scan, each element made by the map lambda as the tile is
// loaded.
// CHECK-LABEL: func.func @scanomap
// CHECK:       "gpu.launch_func"({{.*}}, %status, %next_tile, %tiles) <{kernel = @kernels::@scanomap0_init
// CHECK:       "gpu.launch_func"(%tiles, {{.*}}, %zero, %a, %p, %status, %next_tile, {{%[0-9]+}}) <{kernel = @kernels::@scanomap0_lookback
// CHECK:       }) {sym_name = "scanomap0_lookback"}

// -----



func.func @scatteromap(%d: tensor<?xf32>, %is: tensor<?xi64>) -> tensor<?xf32> {
  %one = arith.constant 1.0 : f32
  %r = soac.scatteromap %d(%is) : tensor<?xf32>, (tensor<?xi64>) -> tensor<?xf32> map {
  ^bb0(%i: i64):
    soac.yield %i, %one : i64, f32
  }
  func.return %r : tensor<?xf32>
}

// A scatteromap: the scatter kernel, index and value from the map lambda (here the
// index is an input and the value a captured constant).
// CHECK-LABEL: func.func @scatteromap
// CHECK:       "gpu.launch_func"({{.*}}, %one, %d, %is, {{%[0-9]+}}) <{kernel = @kernels::@scatteromap0
// CHECK:       scf.for [[ROW:%[0-9]+]] = {{%[0-9]+}} to %rows step {{%[0-9]+}} {
// CHECK-NEXT:    [[I:%[0-9]+]] = memref.load %is[[[ROW]]]
// CHECK-NEXT:    [[K:%[0-9]+]] = arith.index_cast [[I]] : i64 to index
// CHECK:         [[IN:%[0-9]+]] = arith.cmpi ult, [[K]], {{%[0-9]+}} : index
// CHECK-NEXT:    scf.if [[IN]] {
// CHECK-NEXT:      memref.store %one, %d[[[K]]]

// -----



func.func @histomap(%h: tensor<8xi32>, %is: tensor<?xi64>) -> tensor<8xi32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r = soac.histomap %h(%is) : tensor<8xi32>, (tensor<?xi64>) -> tensor<8xi32> map {
  ^bb0(%i: i64):
    soac.yield %i, %one : i64, i32
  } hist(%zero : i32) {
  ^bb0(%l: i32, %s: i32):
    %t = arith.addi %l, %s : i32
    soac.yield %t : i32
  }
  func.return %r : tensor<8xi32>
}

// A histomap whose operator CUDA has an atomic for: the shared-memory sub-histogram.
// CHECK-LABEL: func.func @histomap
// CHECK:       "gpu.launch_func"({{.*}}, %one, %zero, %h, %is, {{%[0-9]+}}) <{kernel = @kernels::@histomap0_shared_atomic
// CHECK:       soacc_gpu.atomic_rmw "addi" %one, %sub_histogram

// -----



func.func @segmented_redomap(%m: tensor<?x?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %sums = soac.map(%m) : (tensor<?x?xf32>) -> tensor<?xf32> {
  ^bb0(%row: tensor<?xf32>):
    %s = soac.redomap(%row) : (tensor<?xf32>) -> f32 map {
    ^bb1(%x: f32):
      soac.yield %x : f32
    } reduce(%zero : f32) commutative {
    ^bb1(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      soac.yield %t : f32
    }
    soac.yield %s : f32
  }
  func.return %sums : tensor<?xf32>
}

// A map of a redomap (a segmented map-reduce): the block, warp and thread per row
// strategies of a segmented reduction.
// CHECK-LABEL: func.func @segmented_redomap
// CHECK:       @kernels::@map0_block_per_row
// CHECK:       @kernels::@map0_warp_per_row
// CHECK:       @kernels::@map0,
// CHECK:       }) {sym_name = "map0"}
// CHECK:       }) {sym_name = "map0_block_per_row"}
// CHECK:       }) {sym_name = "map0_warp_per_row"}

