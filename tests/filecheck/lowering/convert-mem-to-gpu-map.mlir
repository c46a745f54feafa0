// RUN: soacc-opt %s -p convert-soac-to-mem,fuse-iota,convert-mem-to-gpu --split-input-file | filecheck %s
// RUN: soacc-opt %s -p convert-soac-to-mem,fuse-iota,convert-mem-to-gpu -t cuda --split-input-file | filecheck %s --check-prefix=CUDA

// A map over arrays of scalars of one vector width: where every input and output is
// contiguous and 16-byte aligned (tested in the kernel), each thread takes groups of
// four elements by vector loads, runs the lambda on each, and stores the four results
// with one vector store; the elements after the last whole group, and every element
// of views that are not aligned, one at a time (grid-stride in both).

func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c = soac.map(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    soac.yield %s : f32
  }
  func.return %c : tensor<?xf32>
}

// CHECK:      "gpu.func"()
// CHECK:        [[A:%[0-9]+]] = soacc_gpu.vectorizable %a
// CHECK-NEXT:   [[B:%[0-9]+]] = soacc_gpu.vectorizable %b
// CHECK-NEXT:   [[AB:%[0-9]+]] = arith.andi [[A]], [[B]] : i1
// CHECK-NEXT:   [[C:%[0-9]+]] = soacc_gpu.vectorizable %c
// CHECK-NEXT:   [[ALL:%[0-9]+]] = arith.andi [[AB]], [[C]] : i1
// CHECK-NEXT:   scf.if [[ALL]] {
// CHECK:          scf.for [[G:%[0-9]+]] = {{%[0-9]+}} to {{%[0-9]+}} step {{%[0-9]+}} {
// CHECK-NEXT:       [[AT:%[0-9]+]] = arith.muli [[G]], {{%[0-9]+}} : index
// CHECK-NEXT:       [[X0:%[0-9]+]], [[X1:%[0-9]+]], [[X2:%[0-9]+]], [[X3:%[0-9]+]] = soacc_gpu.vector_load %a[[[AT]]]
// CHECK-NEXT:       [[Y0:%[0-9]+]], [[Y1:%[0-9]+]], [[Y2:%[0-9]+]], [[Y3:%[0-9]+]] = soacc_gpu.vector_load %b[[[AT]]]
// CHECK-NEXT:       [[S0:%[a-z0-9_]+]] = arith.addf [[X0]], [[Y0]] : f32
// CHECK-NEXT:       [[S1:%[a-z0-9_]+]] = arith.addf [[X1]], [[Y1]] : f32
// CHECK-NEXT:       [[S2:%[a-z0-9_]+]] = arith.addf [[X2]], [[Y2]] : f32
// CHECK-NEXT:       [[S3:%[a-z0-9_]+]] = arith.addf [[X3]], [[Y3]] : f32
// CHECK-NEXT:       soacc_gpu.vector_store([[S0]], [[S1]], [[S2]], [[S3]]), %c[[[AT]]]
// CHECK:          scf.for %row = {{%[0-9]+}} to %rows step {{%[0-9]+}} {
// CHECK:        } else {
// CHECK:          scf.for %row_1 = {{%[0-9]+}} to %rows step {{%[0-9]+}} {

// CUDA: const float4 {{[a-z0-9_]+}} = *(const float4*)&a[a_offset + {{[a-z0-9_]+}}];
// CUDA: *(float4*)&c[c_offset + {{[a-z0-9_]+}}] = make_float4(

// -----

// Elements of different widths (f32 in, f64 out): no common vector, one element at a time.

func.func @main(%a: tensor<?xf32>) -> tensor<?xf64> {
  %c = soac.map(%a) : (tensor<?xf32>) -> tensor<?xf64> {
  ^bb0(%x: f32):
    %d = arith.extf %x : f32 to f64
    soac.yield %d : f64
  }
  func.return %c : tensor<?xf64>
}

// CHECK:      "gpu.func"()
// CHECK-NOT:    soacc_gpu.vectorizable
// CHECK:        scf.for %row
// CHECK:      }) {sym_name = "map0"}

// -----

// An indexed map (fuse-iota made it from `map f (iota n)`): the kernel has no input
// array for the iota; the lambda's row number is the grid-stride loop's row, and rows
// go one at a time (a vector of rows has no one row number). The row count is the
// output's size.
// CHECK:       func.func @main(%n: index)
// CHECK:         [[ROWS:%[0-9]+]] = mem.size %ys[0]
// CHECK:         "gpu.launch_func"({{.*}}, %ys, [[ROWS]]) <{kernel = @kernels::@map0
// CHECK:       "gpu.func"()
// CHECK-NOT:     soacc_gpu.vector_load
// CHECK:         scf.for %row = {{%[0-9]+}} to %rows step {{%[0-9]+}} {
// CHECK-NEXT:      %j = arith.muli %row, %row : index
// CHECK-NEXT:      memref.store %j, %ys[%row]
// CUDA:        extern "C" __global__ void map0(long long* __restrict__ ys, long long ys_offset, long long ys_size0, long long ys_stride0, long long rows)
func.func @main(%n: index) -> tensor<?xindex> {
  %is = soac.iota %n : tensor<?xindex>
  %ys = soac.map(%is) : (tensor<?xindex>) -> tensor<?xindex> {
  ^bb0(%i: index):
    %j = arith.muli %i, %i : index
    soac.yield %j : index
  }
  func.return %ys : tensor<?xindex>
}

// -----

// An iota inside a lambda (a row of a map's output): each thread writes its row's
// 0, 1, ..., k-1, cast to the row's element type (Futhark's `iota` in a map; issue 21,
// item 5). The loop over the row is sequential inside the thread, which the kernel's
// attribute says.
// CHECK-LABEL: func.func @iota_rows
// CHECK:       "gpu.func"()
// CHECK:         scf.for %row =
// CHECK:           scf.for [[J:%[0-9]+]] =
// CHECK-NEXT:        memref.store [[J]], %r[%row, [[J]]] : memref<?x?xindex
// CHECK:       }) {sym_name = "map0", soacc.sequential_inside = "soac.iota %io (as mem.iota)"}
// CHECK:       "gpu.func"()
// CHECK:           scf.for [[K:%[0-9]+]] =
// CHECK-NEXT:        [[V:%[0-9]+]] = arith.index_cast [[K]] : index to i32
// CHECK-NEXT:        memref.store [[V]], %s[%row, [[K]]] : memref<?x?xi32
// CUDA:        r[r_offset + row * r_stride0 + [[J2:v_[0-9]+]] * r_stride1] = [[J2]];
func.func @iota_rows(%a: tensor<?xi64>, %k: index) -> (tensor<?x?xindex>, tensor<?x?xi32>) {
  %r = soac.map(%a) : (tensor<?xi64>) -> tensor<?x?xindex> {
  ^bb0(%e: i64):
    %io = soac.iota %k : tensor<?xindex>
    soac.yield %io : tensor<?xindex>
  }
  %s = soac.map(%a) : (tensor<?xi64>) -> tensor<?x?xi32> {
  ^bb0(%e: i64):
    %io = soac.iota %k : tensor<?xi32>
    soac.yield %io : tensor<?xi32>
  }
  func.return %r, %s : tensor<?x?xindex>, tensor<?x?xi32>
}

// -----

// A scatter inside a lambda (here the first of two, which keeps a thread per row: a
// lone scatter runs over every row at once, convert-mem-to-gpu-scatter-per-row.mlir):
// the thread writes value j to row indices[j] of its destination row, in order (the
// last of equal indices wins, as on the reference executor), and skips indices out of
// bounds, negative ones included (cast to index, they are huge).
// CHECK-LABEL: func.func @scatter_rows
// CHECK:       "gpu.func"()
// CHECK:             [[I:%[0-9]+]] = memref.load %is[[[J:%[0-9]+]]]
// CHECK-NEXT:        [[K:%[0-9]+]] = arith.index_cast [[I]] : i64 to index
// CHECK-NEXT:        [[V:%[0-9]+]] = memref.load %vs[[[J]]]
// CHECK-NEXT:        [[IN:%[0-9]+]] = arith.cmpi ult, [[K]], {{%[0-9]+}} : index
// CHECK-NEXT:        scf.if [[IN]] {
// CHECK-NEXT:          memref.store [[V]], {{%[0-9]+}}[[[K]]]
func.func @scatter_rows(%a: tensor<?xi64>, %is: tensor<?xi64>, %vs: tensor<?xi64>) -> tensor<?x?xi64> {
  %r = soac.map(%a) : (tensor<?xi64>) -> tensor<?x?xi64> {
  ^bb0(%e: i64):
    %n = soac.size %vs[0] : tensor<?xi64>
    %z = soac.replicate %n, %e : i64 -> tensor<?xi64>
    %s = soac.scatter %z[%is] = %vs : tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
    %t = soac.scatter %s[%vs] = %is : tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
    soac.yield %t : tensor<?xi64>
  }
  func.return %r : tensor<?x?xi64>
}

// -----

// A hist inside a lambda (a map of hists: a segmented histogram): the thread combines
// value j into bin indices[j] of its own destination row by the hist's operator,
// skipping bins out of bounds, negative ones included.
// CHECK-LABEL: func.func @hist_rows
// CHECK:       "gpu.func"()
// CHECK:             [[I:%[0-9]+]] = memref.load %{{[0-9a-z_]+}}[[[J:%[0-9]+]]]
// CHECK-NEXT:        [[V:%[0-9]+]] = memref.load %{{[0-9a-z_]+}}[[[J]]]
// CHECK-NEXT:        [[K:%[0-9]+]] = arith.index_cast [[I]] : i32 to index
// CHECK-NEXT:        [[IN:%[0-9]+]] = arith.cmpi ult, [[K]], {{%[0-9]+}} : index
// CHECK-NEXT:        scf.if [[IN]] {
// CHECK-NEXT:          [[OLD:%[0-9]+]] = memref.load [[H:%[0-9]+]][[[K]]]
// CHECK-NEXT:          [[NEW:%[0-9a-z_]+]] = arith.maxsi [[OLD]], [[V]] : i32
// CHECK-NEXT:          memref.store [[NEW]], [[H]][[[K]]]
func.func @hist_rows(%xss: tensor<?x?xi32>, %vss: tensor<?x?xi32>) -> tensor<?x8xi32> {
  %zero = arith.constant 0 : i32
  %c8 = arith.constant 8 : index
  %hs = soac.map(%xss, %vss) : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x8xi32> {
  ^bb0(%row: tensor<?xi32>, %vals: tensor<?xi32>):
    %bins = soac.replicate %c8, %zero : i32 -> tensor<8xi32>
    %h = soac.hist %bins[%row], %vals neutral(%zero : i32) : tensor<8xi32>, tensor<?xi32>, tensor<?xi32> {
    ^bb1(%a: i32, %b: i32):
      %m = arith.maxsi %a, %b : i32
      soac.yield %m : i32
    }
    soac.yield %h : tensor<8xi32>
  }
  func.return %hs : tensor<?x8xi32>
}
